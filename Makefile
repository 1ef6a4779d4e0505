# arm64 port overlay: build, boot and test our subsystems on Debian's 6.1
# kernel tree.  See README.md; `make help` lists the targets.

SHELL := /bin/sh
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

# Everything generated lives under B; the pristine tree is extracted once.
B       ?= build
TARBALL ?= /usr/src/linux-source-6.1.tar.xz
KSRC    ?= $(B)/src/linux-source-6.1
KERNEL  ?= ours
FULL    ?= 0

# VARIANT is a list of words.  One kind changes the kernel, with its own
# object directory: debug (tools/debug.frag: KASAN, lockdep, UBSAN...).
# The other kind changes the guest: el2 enters the kernel at EL2
# (virtualization=on); timer-dt gives the timer node a clock-frequency, the
# armv7 compatible, named interrupts out of order and no always-on;
# timer-erratum-fsl, -hisi and -a64 give it a counter erratum property.
# They combine: VARIANT="debug el2" boots the debug kernel at EL2.
# BASECONFIG=debian starts the kernel's .config from Debian's arm64 config
# instead of allnoconfig; FRAG=file merges one more fragment on top.
SMP     ?= 2
MEM     ?= 512
CPU     ?= max
VARIANT ?=
BASECONFIG ?=
FRAG    ?=
T       ?=
TIMEOUT ?= $(if $(filter 1,$(FULL)),3600,900)
BOOT_TIMEOUT ?= 300
MACHINE ?= virt,gic-version=3,mte=on$(if $(filter el2,$(VARIANT)),$(comma)virtualization=on)
comma   := ,
empty   :=
space   := $(empty) $(empty)
KVARIANT := $(filter debug,$(VARIANT))
VARIANT_TAG := $(subst $(space),-,$(strip $(VARIANT)))
ifneq ($(filter-out debian,$(BASECONFIG)),)
$(error BASECONFIG must be empty or "debian", not "$(BASECONFIG)")
endif
ifneq ($(FRAG),)
ifeq ($(wildcard $(FRAG)),)
$(error FRAG=$(FRAG): no such file)
endif
endif

export ARCH := arm64
export CROSS_COMPILE := aarch64-linux-gnu-
export CROSS_COMPILE_COMPAT := arm-linux-gnueabihf-

# ccache, when the machine has it (CCACHE= turns it off): a masquerade
# directory first on PATH, so every compiler the kernel's make names goes
# through it.  Paths are hashed relative to this checkout, so clones and
# worktrees share one cache.  The links are made only when missing or
# wrong: every make parses this, also while a background build compiles
# through them.  Depend mode: a miss takes the compiler's own -MD output
# instead of running the preprocessor once more to hash it, which made a
# cold compile cost 20 % more CPU than without ccache (4 % in depend mode;
# kernel/sched/core.c, 2026-12-05); hits are the same entries.
CCACHE  ?= $(shell command -v ccache 2>/dev/null)
ifneq ($(CCACHE),)
CCACHE_BIN := $(abspath $(B))/ccache-bin
$(shell mkdir -p $(CCACHE_BIN) && for c in $(CROSS_COMPILE)gcc $(CROSS_COMPILE_COMPAT)gcc gcc; do \
	[ "$$(readlink $(CCACHE_BIN)/$$c)" = $(CCACHE) ] || ln -sf $(CCACHE) $(CCACHE_BIN)/$$c; done)
export PATH := $(CCACHE_BIN):$(PATH)
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
export CCACHE_DEPEND := 1
endif
NPROC   := $(shell nproc)
TOOLS   := tools

# Which kernel: ours = pristine + overlay + hunks, built in B/out;
# stock = the pristine tree with the same fragment less our options.  A
# kernel variant or another base config gets an object directory of its own.
KSUFFIX := $(if $(BASECONFIG),-$(BASECONFIG))$(if $(KVARIANT),-$(KVARIANT))
ifeq ($(KERNEL),stock)
KTREE   := $(KSRC)
KOBJ    := $(B)/stock$(KSUFFIX)
TREE_STAMP := $(B)/src/.extracted
else ifeq ($(KERNEL),ours)
KTREE   := $(B)/linux
KOBJ    := $(B)/out$(KSUFFIX)
TREE_STAMP := $(B)/sync/changed
else
$(error KERNEL must be "ours" or "stock", not "$(KERNEL)")
endif
# The debug kernel is built from its own tree: KTREE hard-linked plus the
# upstream fixes 6.1.y lacks that only a debug kernel needs
# (tools/debug-backports: each says why); every other kernel from KTREE.
ifneq ($(KVARIANT),)
BASE_TREE  := $(KTREE)
BASE_TREE_STAMP := $(TREE_STAMP)
KTREE   := $(B)/linux$(if $(filter stock,$(KERNEL)),-stock)-debug
TREE_STAMP := $(KTREE)/.debug-tree
endif
KFRAG   := $(B)/frag/$(KERNEL)$(KSUFFIX)$(if $(FRAG),-extra).frag
IMAGE   := $(KOBJ)/arch/arm64/boot/Image
# A run's directory: the kernel, then the base config and variant words
RUNSUFFIX := $(if $(BASECONFIG),-$(BASECONFIG))$(if $(VARIANT_TAG),-$(VARIANT_TAG))
RUNDIR  := $(B)/run/$(KERNEL)$(RUNSUFFIX)

DTS_DEFS = -DNR_CPUS=$(SMP) $(if $(filter el2,$(VARIANT)),-DPSCI_METHOD='"smc"') \
	$(if $(filter timer-dt,$(VARIANT)),-DTIMER_FREQUENCY=62500000 -DTIMER_VARIANT) \
	$(foreach e,$(TIMER_ERRATA),$(if $(filter timer-erratum-$(e),$(VARIANT)),-DTIMER_ERRATUM_$(e))) \
	$(DTS_EXTRA)
# VARIANT=timer-erratum-fsl, -hisi, -a64: the timer node asks for that
# counter erratum workaround (Freescale A-008585, HiSilicon 161010101,
# Allwinner A64 UNKNOWN1); the counter itself is QEMU's, which reads true.
TIMER_ERRATA := fsl hisi a64
# A-008585's workaround reads until two reads in a row agree.  Under TCG
# every read of the 62.5 MHz counter costs more than its 16 ns tick, so
# the reads never agree and the loop gives up with a warning (stock's
# too); at 1 MHz back-to-back reads agree, as on the real parts.
ifneq ($(filter timer-erratum-fsl,$(VARIANT)),)
override CPU := $(CPU),cntfrq=1000000
endif
DTB     := $(RUNDIR)/virt.dtb

.PHONY: help deps pristine sync sync-stale config vmlinux stock build-min dtb tests kselftests \
	rootfs selftest selftest-run test test-host compare qemu qemu-gdb drift patches originality clean

help:
	@sed -n 's/^## \{0,1\}//p' $(MAKEFILE_LIST)

## Targets:
##   make qemu [CMD='...']   boot to a busybox shell, or run CMD (make fails if CMD
##                           does; `tools/qemu-run CMD` exits with CMD's own status)
##   make qemu-gdb           the same guest stopped at its first instruction, with
##                           gdb-multiarch attached to vmlinux (GDBARGS=...)
##   make test               host tests, then the guest tests (the test command)
##   make selftest           boot the test rootfs and run every guest test
##                           (KERNEL=stock, VARIANT="debug el2 timer-dt", T=regex,
##                            VARIANT=timer-erratum-fsl|-hisi|-a64: a counter erratum in the DT,
##                            SUITES="signal ...", KSELFTESTS=none|all|"timers vDSO",
##                            FULL=1, SMP=N, CPU=..., FRAG=file, BASECONFIG=debian)
##   make sync               pristine tree + overlay + hunks -> build/linux
##   make vmlinux            configure and build our kernel (Image, vmlinux)
##   make stock              build the pristine kernel, same fragment, into build/stock
##   make build-min          build-only: our overlay's objects with SVE, MTE and COMPAT
##                           off, warnings as errors (build/min)
##   make compare            selftest on both kernels, side by side (build/compare.json)
##   make drift              what upstream changed in the stock files we replace,
##                           from the 6.1.y our overlay was written against (tools/drift.base)
##   make patches            the overlay as a git format-patch series (build/patches)
##   make bench              ours against stock under QEMU -icount (ROUNDS=, QUICK=1, COLD=0)
##   make originality        hold overlay/ against the pristine tree and the seeds
##   make deps               install the Debian packages the build needs
##   make clean              remove build/ (the extracted tree and .deb cache too)

deps:
	@$(TOOLS)/deps

# -- the pristine tree, extracted once and never written
$(B)/src/.extracted: | deps
	@test -f $(TARBALL) || { echo "error: $(TARBALL) missing (apt-get install linux-source-6.1)" >&2; exit 1; }
	@echo "  EXTRACT $(TARBALL)"
	@rm -rf $(B)/src.tmp && mkdir -p $(B)/src.tmp
	@tar -C $(B)/src.tmp -xf $(TARBALL)
	@rm -rf $(KSRC) && mkdir -p $(dir $(KSRC)) && mv $(B)/src.tmp/$(notdir $(KSRC)) $(KSRC)
	@rmdir $(B)/src.tmp
	@touch $@

pristine: $(B)/src/.extracted
ifeq ($(origin KSRC),file)
PRISTINE_DEP := $(B)/src/.extracted
endif

# -- ours: sync, configure, build.  `make sync` always syncs; the build
# syncs only when an input is newer than the last sync (sync-stale), and
# tools/sync touches B/sync/changed only when the tree really changed.
SYNC = $(TOOLS)/sync $(KSRC) overlay $(TOOLS)/hunks $(B)/linux $(B)/sync
sync: deps $(PRISTINE_DEP)
	@$(SYNC)
	@$(TOOLS)/drift-check $(KSRC) $(TOOLS)/drift.base
sync-stale: deps $(PRISTINE_DEP)
	@if [ ! -f $(B)/sync/synced ] || [ ! -f $(B)/sync/changed ] || [ -n "$$(find overlay \
		$(TOOLS)/hunks $(TOOLS)/sync $(TOOLS)/apply-hunks $(PRISTINE_DEP) -newer $(B)/sync/synced \
		-print -quit)" ]; then $(SYNC) && $(TOOLS)/drift-check $(KSRC) $(TOOLS)/drift.base; fi

# The fragment: Kbuild.frag (ours: the "ours" markers stripped; stock: that
# block dropped), then tools/debug.frag for VARIANT=debug, then FRAG; the
# last setting of an option wins, as with merge_config.sh.
$(KFRAG): FORCE
	@mkdir -p $(B)/frag
	@$(if $(filter stock,$(KERNEL)),sed '/^# @ours-begin/$(comma)/^# @ours-end/d',grep -v '^# @ours-') \
		Kbuild.frag > $@.base
	@$(TOOLS)/merge-frags $@.base $(if $(BASECONFIG),$(TOOLS)/$(BASECONFIG).frag) \
		$(if $(KVARIANT),$(TOOLS)/debug.frag) $(FRAG) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
	@rm -f $@.base

BASE_DEP := $(if $(BASECONFIG),$(B)/debs/linux-config-6.1_arm64/.extracted)
BASE_CONFIG := $(if $(BASECONFIG),$(B)/debs/linux-config-6.1_arm64/usr/src/linux-config-6.1/config.arm64_none_arm64.xz)
ifeq ($(KERNEL),stock)
config: deps $(PRISTINE_DEP) $(KFRAG) $(BASE_DEP)
else
config: sync-stale $(KFRAG) $(BASE_DEP)
endif
	@$(if $(KVARIANT),$(TOOLS)/debug-tree $(BASE_TREE) $(BASE_TREE_STAMP) $(TOOLS)/debug-backports $(KTREE))
	@TREE_STAMP=$(TREE_STAMP) $(TOOLS)/kconfig $(KTREE) $(KOBJ) $(KFRAG) $(BASE_CONFIG)

# Built already when B/…/.built is newer than the .config and the tree's
# last change: then the kernel's own make (a 20-second walk) is skipped.
vmlinux: config
	@if [ -f $(KOBJ)/.built ] && [ -f $(IMAGE) ] && [ $(KOBJ)/.built -nt $(KOBJ)/.config ] && \
		[ ! $(TREE_STAMP) -nt $(KOBJ)/.built ]; then :; else \
		echo "  BUILD   $(KERNEL) kernel in $(KOBJ)" && \
		$(MAKE) -s -C $(KTREE) O=$(abspath $(KOBJ)) -j$(NPROC) Image vmlinux && \
		touch $(KOBJ)/.built; fi

stock:
	@$(MAKE) --no-print-directory vmlinux KERNEL=stock

# Build-only: the overlay's objects compile, warnings as errors, with SVE,
# MTE and COMPAT off (Kbuild.frag + tools/min.frag, in B/min).
build-min: sync-stale
	@$(TOOLS)/build-min $(B)/linux overlay Kbuild.frag $(B)/min

# -- the guest
dtb: $(DTB)
$(DTB): dts/virt.dts FORCE
	@mkdir -p $(RUNDIR)
	@cpp -nostdinc -undef -x assembler-with-cpp -P $(DTS_DEFS) dts/virt.dts > $(DTB).dts
	@cmp -s $(DTB).dts $(DTB).src 2>/dev/null && [ -f $@ ] || \
		{ dtc -q -I dts -O dtb -o $@ $(DTB).dts && cp $(DTB).dts $(DTB).src; }

GEN_CPIO := $(B)/host/gen_init_cpio
$(GEN_CPIO): $(PRISTINE_DEP)
	@mkdir -p $(dir $@)
	@gcc -O2 -o $@ $(KSRC)/usr/gen_init_cpio.c

$(B)/guest/init: rootfs/init.c
	@mkdir -p $(dir $@)
	@aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -o $@ $<
$(B)/guest/runner: rootfs/runner.c
	@mkdir -p $(dir $@)
	@aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -o $@ $<

# Debian's .debs, each fetched once: a failed download stops the build
# (no stand-in from the host).
$(B)/debs/%/.extracted: | deps
	@$(TOOLS)/fetch-deb $(subst _,:,$*) $(B)/debs > /dev/null
DEBS      := $(foreach p,busybox-static_arm64 busybox-static_armhf libc6_arm64 libc6_armhf \
	strace_arm64 strace_armhf,$(B)/debs/$(p)/.extracted)
BUSYBOX   := $(B)/debs/busybox-static_arm64/bin/busybox
BUSYBOX32 := $(B)/debs/busybox-static_armhf/bin/busybox
LIBC      := $(B)/debs/libc6_arm64
LIBC32    := $(B)/debs/libc6_armhf
# Debian's strace, 64- and 32-bit: real tracers of armhf programs
STRACE    := $(B)/debs/strace_arm64/usr/bin/strace
STRACE32  := $(B)/debs/strace_armhf/usr/bin/strace
GUEST_BITS := $(B)/guest/init $(B)/guest/runner $(GEN_CPIO) $(DEBS)

tests: deps
	@$(TOOLS)/build-tests tests $(B)/tests

KSFT_TARGETS := arm64/signal arm64/abi arm64/fp arm64/bti arm64/pauth arm64/tags arm64/mte \
	sigaltstack timers vDSO
KSFT_TARGETS32 := sigaltstack timers vDSO
kselftests: deps $(PRISTINE_DEP)
	@$(TOOLS)/build-kselftests $(KSRC) $(B)/ksft aarch64 $(KSFT_TARGETS)
	@$(TOOLS)/build-kselftests $(KSRC) $(B)/ksft armhf $(KSFT_TARGETS32)

ROOTFS := $(B)/guest/test-$(KERNEL)$(if $(VARIANT_TAG),-$(VARIANT_TAG)).cpio
rootfs: tests kselftests $(GUEST_BITS)
	@LIBC=$(LIBC) LIBC32=$(LIBC32) STRACE=$(STRACE) STRACE32=$(STRACE32) T='$(T)' \
		GUEST_IMAGE=$(if $(findstring virtualization=on,$(MACHINE)),$(IMAGE)) \
		$(TOOLS)/guest-root $(ROOTFS).d $(B)/guest/init \
		$(B)/guest/runner $(BUSYBOX) $(BUSYBOX32) $(B)/tests $(B)/ksft tests/kselftests.list
	@KSELFTESTS='$(KSELFTESTS)' T='$(T)' $(TOOLS)/kvm-root $(ROOTFS).d $(KVMSFT)/out tests/kvm-selftests.list
	@$(TOOLS)/mkcpio $(GEN_CPIO) $(ROOTFS).d $(ROOTFS)

GUEST_ENV = MACHINE=$(MACHINE) CPU=$(CPU) SMP=$(SMP) MEM=$(MEM) \
	VMLINUX=$(KOBJ)/vmlinux KTREE=$(KTREE)

# The results of an earlier run go first: a run that cannot start (the
# kernel does not build) leaves none behind to be taken for its own.
selftest:
	@rm -f $(RUNDIR)/results.json $(RUNDIR)/junit.xml $(B)/results.json $(B)/junit.xml
	@$(MAKE) --no-print-directory selftest-run

selftest-run: vmlinux rootfs $(DTB)
	@echo "  BOOT    $(KERNEL)$(KSUFFIX) kernel, $(MACHINE), -cpu $(CPU), -smp $(SMP)"
	@$(GUEST_ENV) TIMEOUT=$(TIMEOUT) BOOT_TIMEOUT=$(BOOT_TIMEOUT) APPEND='$(APPEND)' LABEL=$(notdir $(RUNDIR)) \
		$(TOOLS)/run-guest $(IMAGE) $(DTB) $(ROOTFS) $(RUNDIR); st=$$?; \
		cp $(RUNDIR)/results.json $(RUNDIR)/junit.xml $(B)/ 2>/dev/null; exit $$st

# Interactive shell, or one command (hex-encoded on the kernel command line).
SHELL_CPIO := $(B)/guest/shell.cpio
$(SHELL_CPIO): $(GUEST_BITS) $(TOOLS)/guest-root $(TOOLS)/mkcpio
	@SUITES=none KSELFTESTS=none T= $(TOOLS)/guest-root $(B)/guest/shroot $(B)/guest/init \
		$(B)/guest/runner $(BUSYBOX) $(BUSYBOX32) $(B)/tests $(B)/ksft tests/kselftests.list
	@$(TOOLS)/mkcpio $(GEN_CPIO) $(B)/guest/shroot $@
qemu: vmlinux $(SHELL_CPIO) $(DTB)
	@st=0; $(GUEST_ENV) $(TOOLS)/qemu-shell $(IMAGE) $(DTB) $(SHELL_CPIO) \
		'$(subst ','\'',$(CMD))' || st=$$?; \
		$(if $(QEMU_STATUS),echo $$st > $(QEMU_STATUS),exit $$st)

# The same guest, stopped at its first instruction, gdb-multiarch on vmlinux
# (nokaslr, so that its addresses are the kernel's).  GDBARGS for a batch.
GDBPORT ?= 1234
qemu-gdb: vmlinux $(SHELL_CPIO) $(DTB)
	@$(TOOLS)/deps gdb-multiarch:gdb-multiarch
	@$(GUEST_ENV) GDBPORT=$(GDBPORT) $(TOOLS)/qemu-gdb $(IMAGE) $(DTB) $(SHELL_CPIO) \
		$(RUNDIR) $(GDBARGS)

# -- the test command: host tests, the guest suite, the exception-trace
# and timer suites again with the kernel entered at EL2, the timer suite
# with the rate in the device tree, and our own suites on the debug kernel
# (KASAN, lockdep, UBSAN...: any report fails the run; each program gets
# three times the usual 60 s there), with the bounded stress run after
# them on the same kernel.  The debug kernel builds in the background at
# the lowest priority from the start, once the tree is synced: it takes
# what the plain kernel's build and the steps after leave of the CPUs.
# Every step runs even when one fails; the last line counts them all;
# B/test-times says where the time went.
DEBUG_SUITES := signal compat timer
# The EL2 and ACPI guests run every timers kselftest but threadtest: a
# minute of clock reads that the plain guest already makes, and nothing in
# it depends on how the kernel was entered.
SHORT_TIMERS := ^kselftest/timers [a-z0-9]+ (nanosleep|posix_timers)
# The counter errata boots run the tests whose outcome an engaged
# workaround changes or could break: a few seconds each.
ERRATUM_TESTS := ^timer [a-z0-9]+ (erratum|monotonic)
TEST_RESULTS = $(B)/results-host.json $(B)/run/ours/results.json \
	$(B)/run/ours-el2/results.json $(B)/run/ours-timer-dt/results.json \
	$(foreach e,$(TIMER_ERRATA),$(B)/run/ours-timer-erratum-$(e)/results.json) \
	$(B)/run/ours-debug/results.json $(B)/run/ours-debug-stress/results.json
STEP = $(TOOLS)/timed $(B)/test-times
test:
	@mkdir -p $(B) && rm -f $(TEST_RESULTS) $(B)/test-status $(B)/test-times
	@$(STEP) sync $(MAKE) --no-print-directory sync-stale; echo $$? >> $(B)/test-status
	@$(TOOLS)/background $(B)/build-debug.log $(B)/build-debug.status \
		$(MAKE) --no-print-directory vmlinux VARIANT=debug
	@$(STEP) build $(MAKE) --no-print-directory vmlinux rootfs; echo $$? >> $(B)/test-status
	@$(STEP) host $(MAKE) --no-print-directory test-host; echo $$? >> $(B)/test-status
	@$(STEP) guest $(MAKE) --no-print-directory selftest; echo $$? >> $(B)/test-status
	@$(STEP) guest-el2 $(MAKE) --no-print-directory selftest VARIANT=el2 SUITES="trace timer" \
		KSELFTESTS="timers vDSO" T='^(trace|timer|kselftest/vDSO) |$(SHORT_TIMERS)'; echo $$? >> $(B)/test-status
	@$(STEP) guest-timer-dt $(MAKE) --no-print-directory selftest VARIANT=timer-dt SUITES=timer \
		KSELFTESTS=none; echo $$? >> $(B)/test-status
	@for e in $(TIMER_ERRATA); do \
		$(STEP) guest-timer-erratum-$$e $(MAKE) --no-print-directory selftest \
			VARIANT=timer-erratum-$$e SUITES=timer KSELFTESTS=none T='$(ERRATUM_TESTS)'; \
		echo $$? >> $(B)/test-status; done
	@$(STEP) build-debug-wait $(TOOLS)/await $(B)/build-debug.status $(B)/build-debug.log; \
		echo $$? >> $(B)/test-status
	@$(STEP) guest-debug $(MAKE) --no-print-directory selftest VARIANT=debug \
		SUITES="$(DEBUG_SUITES)" KSELFTESTS=none SUITE_TIMEOUT=180; echo $$? >> $(B)/test-status
	@$(STEP) guest-debug-stress $(MAKE) --no-print-directory stress VARIANT=debug DIVISOR=20; \
		echo $$? >> $(B)/test-status
	@$(STEP) guest-el2-vhe $(MAKE) --no-print-directory selftest VARIANT=el2-vhe SUITES="boot kvm" \
		KSELFTESTS=kvm; echo $$? >> $(B)/test-status
	@$(STEP) guest-el2-nvhe $(MAKE) --no-print-directory selftest VARIANT=el2-nvhe SUITES="boot kvm" \
		KSELFTESTS=kvm; echo $$? >> $(B)/test-status
	@$(STEP) guest-acpi $(MAKE) --no-print-directory selftest VARIANT=acpi SUITES="boot timer" \
		KSELFTESTS="timers vDSO" T='^(boot|timer|kselftest/vDSO) |$(SHORT_TIMERS)'; echo $$? >> $(B)/test-status
	@sed "s/^/  TIME    /" $(B)/test-times
	@$(TOOLS)/summary $(B)/test-status $(TEST_RESULTS)

test-host: vmlinux rootfs
	@echo "  HOST    tests/host"
	@B=$(B) KSRC=$(KSRC) $(TOOLS)/host-tests tests/host $(B)/results-host.json

# Both sides run now, or the comparison fails: stale results are removed
# first and each side's build id must be its vmlinux's.
compare:
	@rm -f $(B)/run/ours$(RUNSUFFIX)/results.json $(B)/run/stock$(RUNSUFFIX)/results.json
	@$(MAKE) --no-print-directory selftest KERNEL=ours; \
		$(MAKE) --no-print-directory selftest KERNEL=stock; \
		$(TOOLS)/compare $(B)/run/stock$(RUNSUFFIX)/results.json $(B)/run/ours$(RUNSUFFIX)/results.json \
		$(B)/compare.json $(B)/stock$(KSUFFIX)/vmlinux $(B)/out$(KSUFFIX)/vmlinux

# Upstream's changes to the stock files our overlay replaces, since the
# 6.1.y it was written against (tools/drift.base).
drift: deps $(PRISTINE_DEP)
	@$(TOOLS)/drift $(KSRC) overlay $(TOOLS)/drift.base $(B)/drift

patches: sync
	@$(TOOLS)/patches $(KSRC) $(B)/linux overlay $(B)/patches

originality: $(PRISTINE_DEP)
	@../shared/tools/originality overlay $(KSRC)

clean:
	rm -rf $(B)

FORCE:

# -- issue 13 (kvm): KVM at EL2, VHE and nVHE, and the UEFI/ACPI boot.
# VARIANT=el2-vhe and el2-nvhe enter at EL2 as el2 does, KVM in VHE mode
# or keeping only its hypervisor at EL2 (kvm-arm.mode=nvhe), with guest
# time counting instructions (tools/run-guest ICOUNT): the KVM selftests'
# time margins (arch_timer: 100 us) cannot hold in a guest's guest under
# TCG otherwise.  VARIANT=acpi boots through Debian's UEFI firmware with
# ACPI tables and no device tree (tools/run-guest FIRMWARE).  variant=NAME
# on the command line tells tests/boot what the guest must be.  The
# upstream KVM selftests (tests/kvm-selftests.list) are the kselftest
# target "kvm".  Lines outside this block: the kvm-root line of `rootfs`
# and make test's el2-vhe, el2-nvhe and acpi steps.
EFI_FIRMWARE ?= /usr/share/qemu-efi-aarch64/QEMU_EFI.fd
KVMSFT  := $(B)/kvmsft
ifneq ($(filter el2-vhe el2-nvhe,$(VARIANT)),)
MACHINE := $(MACHINE),virtualization=on
DTS_DEFS += -DPSCI_METHOD='"smc"'
export ICOUNT := shift=0,sleep=off
endif
ifeq ($(VARIANT),el2-nvhe)
override APPEND += kvm-arm.mode=nvhe
endif
ifeq ($(VARIANT),acpi)
MACHINE := $(MACHINE),acpi=on
export FIRMWARE := $(EFI_FIRMWARE)
endif
override APPEND += $(if $(VARIANT),variant=$(VARIANT))
qemu: export APPEND := $(APPEND)
TEST_RESULTS += $(B)/run/ours-el2-vhe/results.json $(B)/run/ours-el2-nvhe/results.json \
	$(B)/run/ours-acpi/results.json

.PHONY: kvm-selftests
kselftests: kvm-selftests
kvm-selftests: deps $(PRISTINE_DEP)
	@$(TOOLS)/build-kvm-selftests $(KSRC) $(KVMSFT) tests/kvm-selftests.list

# -- tests/stress (issue 16), in a boot of its own on 4 CPUs; make test
# runs a twentieth of the bounded run on the debug kernel.
# Without DURATION, the bounded run: a fixed number of cases per
# program and a fixed seed.  DURATION=s: s seconds shared out by the
# programs (tests/stress/stress.h), seed from the clock.  SEED= sets the
# base seed, REPLAY=abi/program:seed replays one case, DIVISOR=n runs an
# n-th of the bounded run's cases (make test on the debug kernel: 20).
##   make stress [DURATION=s]  tests/stress on 4 CPUs: bounded run, or s seconds (SEED=, REPLAY=, DIVISOR=)
##   make compare-stress     make stress on ours and on stock, side by side (build/compare-stress.json)
.PHONY: stress compare-stress
STRESS_ENV = $(if $(DURATION),STRESS_DURATION=$(DURATION)) $(if $(SEED),STRESS_SEED=$(SEED)) \
	$(if $(REPLAY),STRESS_REPLAY=$(REPLAY)) $(if $(DIVISOR),STRESS_DIVISOR=$(DIVISOR))
stress:
	@$(MAKE) --no-print-directory selftest VARIANT="$(strip $(VARIANT) stress)" SUITES=stress \
		KSELFTESTS=none SMP=4 \
		SUITE_TIMEOUT=$(if $(DURATION),$$(($(DURATION) * 6 / 10 + 120)),300) \
		TIMEOUT=$(if $(DURATION),$$(($(DURATION) * 2 + 300)),1200) APPEND='$(APPEND) $(STRESS_ENV)'
compare-stress:
	@$(MAKE) --no-print-directory stress KERNEL=ours; \
		$(MAKE) --no-print-directory stress KERNEL=stock; \
		$(TOOLS)/compare $(B)/run/stock-stress/results.json \
		$(B)/run/ours-stress/results.json $(B)/compare-stress.json

# -- benchmarks (not tests): make bench
include tools/bench.mk
