# arm64 port overlay: build, boot and test our subsystems on Debian's
# kernel tree.  README.md is the guide, docs/usage.md every variable;
# `make help` lists the targets.

SHELL := /bin/sh
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

# -- variables.  Generic names (T, B, CPU, ...) are taken from the command
# line only: a stray T in a shell's environment must not narrow every run.
ENV_IGNORED := B T CPU SMP MEM KERNEL FULL TIMEOUT VARIANT SUITES KSELFTESTS APPEND
$(foreach v,$(ENV_IGNORED),$(if $(filter environment,$(origin $(v))),$(eval undefine $(v))))

B       ?= build
# The kernel version: Debian's linux-source-KVER.  Everything built for it
# lives in B/KVER, so that both kernels and their stamps coexist.
KVERS   := 6.1 6.12
KVER    ?= $(shell tools/build/kver $(B)/.kver)
ifeq ($(filter $(KVER),$(KVERS)),)
$(error KVER must be one of $(KVERS), not "$(KVER)")
endif
export KVER
BK      := $(B)/$(KVER)
TARBALL ?= /usr/src/linux-source-$(KVER).tar.xz
KSRC    ?= $(BK)/src/linux-source-$(KVER)
KERNEL  ?= ours
FULL    ?= 0
SMP     ?= 2
MEM     ?= 512
CPU     ?=
VARIANT ?=
BASECONFIG ?=
FRAG    ?=
T       ?=
SUITES  ?=
KSELFTESTS ?= all
APPEND  ?=
DTS_EXTRA ?=
SUITE_TIMEOUT ?= 60
TIMEOUT ?= $(if $(filter 1,$(FULL)),3600,900)
BOOT_TIMEOUT ?= 300
HANG_TIMEOUT ?= 60
EFI_FIRMWARE ?= /usr/share/qemu-efi-aarch64/QEMU_EFI.fd

# Every variable a user may set (docs/usage.md says what each does); any
# other NAME=value on the command line is most likely a typo, and is said.
KNOWN_VARS := B KVER TARBALL KSRC KERNEL FULL SMP MEM CPU VARIANT BASECONFIG FRAG T SUITES \
	KSELFTESTS APPEND DTS_EXTRA SUITE_TIMEOUT TIMEOUT BOOT_TIMEOUT HANG_TIMEOUT EFI_FIRMWARE \
	CCACHE CMD GDBARGS GDBPORT ROUNDS QUICK COLD BUSY DURATION SEED REPLAY DIVISOR \
	RESULTS_TO QEMU_STATUS V W C LAVA_ARTIFACTS LAVA_DEVICE_TYPE LAVA_KERNELS LAVA_KVERS CHECKS
ifeq ($(MAKELEVEL),0)
$(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(if $(filter $(v),$(KNOWN_VARS) MAKEFLAGS),,\
	$(warning $(v)=$($(v)) is ignored: no variable of this Makefile is called $(v) (docs/usage.md lists them)))))
endif

ifneq ($(filter-out debian,$(BASECONFIG)),)
$(error BASECONFIG must be empty or "debian", not "$(BASECONFIG)")
endif
ifneq ($(FRAG),)
ifeq ($(wildcard $(FRAG)),)
$(error FRAG=$(FRAG): no such file)
endif
endif

# The VARIANT words, checked against tools/guest/variants before anything
# is built: an unknown word or a contradiction stops here, in a second.
VARIANT_WORDS := $(shell tools/guest/variant words $(VARIANT) || echo '!error')
ifneq ($(filter !error,$(VARIANT_WORDS)),)
$(error VARIANT="$(VARIANT)": see the error above; the words are in tools/guest/variants)
endif
KVARIANT := $(shell tools/guest/variant kernel $(VARIANT_WORDS))
comma   := ,
empty   :=
space   := $(empty) $(empty)
VARIANT_TAG := $(subst $(space),-,$(strip $(VARIANT_WORDS)))

export ARCH := arm64
export CROSS_COMPILE := aarch64-linux-gnu-
export CROSS_COMPILE_COMPAT := arm-linux-gnueabihf-

# ccache through Debian's masquerade directory (/usr/lib/ccache holds a
# link for every compiler installed, the cross ones too); CCACHE=0 turns
# it off.  Paths are hashed relative to this checkout, so clones and
# worktrees share one cache.  Depend mode: a miss takes the compiler's own
# -MD output instead of running the preprocessor again to hash it (a cold
# compile through ccache's default mode cost 20 % more CPU, in depend mode
# 4 %).  The cache must hold every kernel make test builds.
CCACHE  ?= 1
ifneq ($(CCACHE),0)
export PATH := /usr/lib/ccache:$(PATH)
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
export CCACHE_DEPEND := 1
export CCACHE_MAXSIZE ?= 25G
endif
NPROC   := $(shell nproc)
TOOLS   := tools

# Which kernel: ours = pristine + overlay + hunks, built in B/out;
# stock = the pristine tree with the same fragment less our options.  A
# kernel variant or another base config gets an object directory of its own.
KSUFFIX := $(if $(BASECONFIG),-$(BASECONFIG))$(if $(KVARIANT),-$(KVARIANT))
ifeq ($(KERNEL),stock)
KTREE   := $(KSRC)
KOBJ    := $(BK)/stock$(KSUFFIX)
TREE_STAMP := $(BK)/src/.extracted
else ifeq ($(KERNEL),ours)
KTREE   := $(BK)/linux
KOBJ    := $(BK)/out$(KSUFFIX)
TREE_STAMP := $(BK)/sync/changed
else
$(error KERNEL must be "ours" or "stock", not "$(KERNEL)")
endif
# The debug kernel is built from its own tree: KTREE hard-linked plus the
# upstream fixes the tree lacks that only a debug kernel needs
# (tools/kernel/debug-backports/KVER: each says why); every other kernel from KTREE.
ifneq ($(KVARIANT),)
BASE_TREE  := $(KTREE)
BASE_TREE_STAMP := $(TREE_STAMP)
KTREE   := $(BK)/linux$(if $(filter stock,$(KERNEL)),-stock)-debug
TREE_STAMP := $(KTREE)/.debug-tree
endif
IMAGE   := $(KOBJ)/arch/arm64/boot/Image
# A run's directory: the kernel, then the base config and variant words
RUNSUFFIX := $(if $(BASECONFIG),-$(BASECONFIG))$(if $(VARIANT_TAG),-$(VARIANT_TAG))
RUNDIR  := $(BK)/run/$(KERNEL)$(RUNSUFFIX)

.PHONY: help deps pristine sync sync-stale config vmlinux stock build-min check tests kselftests \
	rootfs selftest selftest-run list test test-host compare qemu qemu-gdb drift patches \
	originality clean FORCE

help:
	@sed -n 's/^## \{0,1\}//p' $(MAKEFILE_LIST)

## Targets (docs/usage.md has every variable):
##   make test               the whole test: host tests, then each guest of tests/plan
##   make selftest           boot the test initramfs and run the guest tests
##                           (SUITES="signal ...", KSELFTESTS=none|all|"timers vDSO",
##                            T=regex, VARIANT="word ...", KERNEL=stock, FULL=1, SMP=N)
##   make list               the tests that selection would run, one a line
##   make qemu [CMD='...']   a busybox shell in the guest, or run CMD and print its
##                           status (tools/qemu-run CMD exits with it)
##   make qemu-gdb           the same guest stopped at its first instruction, gdb attached
##   make sync               pristine tree + overlay + hunks -> build/linux
##   make vmlinux            configure and build our kernel (Image, vmlinux)
##   make stock              the pristine kernel, same fragment less our options
##   make build-min          our objects with SVE, MTE and COMPAT off, warnings as errors
##   make check              our files as the kernel's robots check them: gcc and clang
##                           at W=1 -Werror (ours, big-endian, 16K, 64K, min), sparse,
##                           coccicheck (CHECKS="gcc-be cocci ...", KERNEL=stock)
##   make compare            selftest on ours and stock, side by side (build/compare.json)
##   make stress [DURATION=s]  tests/stress on 4 CPUs (SEED=, REPLAY=, DIVISOR=)
##   make bench              ours against stock under QEMU -icount (ROUNDS=, QUICK=1, COLD=0)
##   make patches            the overlay as a git format-patch series (build/patches)
##   make drift              what upstream changed in the stock files we replace or rely on
##   make originality        overlay/ held against the pristine tree and the seeds
##   make deps               install the Debian packages the build needs
##   make clean              remove build/

deps:
	@$(TOOLS)/build/deps --kver $(KVER)

# -- the pristine tree, extracted once and never written
$(BK)/src/.extracted: | deps
	@test -f $(TARBALL) || { echo "error: $(TARBALL) missing (apt-get install linux-source-$(KVER))" >&2; exit 1; }
	@echo "  EXTRACT $(TARBALL)"
	@rm -rf $(BK)/src.tmp && mkdir -p $(BK)/src.tmp
	@tar -C $(BK)/src.tmp -xf $(TARBALL)
	@rm -rf $(KSRC) && mkdir -p $(dir $(KSRC)) && mv $(BK)/src.tmp/$(notdir $(KSRC)) $(KSRC)
	@rmdir $(BK)/src.tmp
	@touch $@

pristine: $(BK)/src/.extracted
ifeq ($(origin KSRC),file)
PRISTINE_DEP := $(BK)/src/.extracted
endif

# -- ours: sync, configure, build.  `make sync` always syncs; the build
# syncs only when an input is newer than the last sync (sync-stale), and
# the sync touches B/sync/changed only when the tree really changed.
SYNC = $(TOOLS)/build/sync $(KSRC) overlay $(TOOLS)/kernel/hunks $(BK)/linux $(BK)/sync
DRIFT_BASE := $(TOOLS)/kernel/drift-$(KVER).base
DRIFT_CHECK = $(TOOLS)/maint/drift-check $(KSRC) $(DRIFT_BASE)
sync: deps $(PRISTINE_DEP)
	@$(SYNC)
	@$(DRIFT_CHECK)
sync-stale: deps $(PRISTINE_DEP)
	@if [ ! -f $(BK)/sync/synced ] || [ ! -f $(BK)/sync/changed ] || [ -n "$$(find overlay \
		$(TOOLS)/kernel/hunks $(TOOLS)/kernel/compat-entries $(TOOLS)/build/sync $(TOOLS)/build/apply-hunks $(PRISTINE_DEP) \
		-newer $(BK)/sync/synced -print -quit)" ]; then $(SYNC) && $(DRIFT_CHECK); fi

# The fragments, merged in this order by the tree's merge_config.sh, the
# last setting of an option winning: Kbuild.frag (ours: the "@ours"
# markers stripped; stock: that block dropped), tools/kernel/config/debug.frag for the
# debug kernel, FRAG.  Every option they ask for must stick.
# make test builds the debug kernel in the background while the plain
# one builds: two makes can write the same fragment at once, so each
# writes a temporary of its own (the shell's PID) and renames it into
# place.  A shared temporary made one of them fail, and .DELETE_ON_ERROR
# then removed the fragment under the other.
KFRAG   := $(BK)/frag/$(KERNEL).frag
$(KFRAG): Kbuild.frag
	@mkdir -p $(BK)/frag
	@$(if $(filter stock,$(KERNEL)),sed '/^# @ours-begin/$(comma)/^# @ours-end/d',grep -v '^# @ours-') \
		Kbuild.frag > $@.$$$$ && mv -f $@.$$$$ $@
FRAGS   := $(KFRAG) $(wildcard $(TOOLS)/kernel/config/kver-$(KVER).frag) $(if $(BASECONFIG),$(TOOLS)/kernel/config/$(BASECONFIG).frag) \
	$(if $(KVARIANT),$(TOOLS)/kernel/config/debug.frag) $(FRAG)

DEBIAN_CONFIG := $(BK)/debs/linux-config-$(KVER)_arm64/usr/src/linux-config-$(KVER)/config.arm64_none_arm64.xz
BASE_DEP := $(if $(BASECONFIG),$(BK)/debs/linux-config-$(KVER)_arm64/.extracted)
BASE_CONFIG := $(if $(BASECONFIG),$(DEBIAN_CONFIG))
ifeq ($(KERNEL),stock)
config: deps $(PRISTINE_DEP) $(KFRAG) $(BASE_DEP)
else
config: sync-stale $(KFRAG) $(BASE_DEP)
endif
	@$(if $(KVARIANT),$(TOOLS)/build/debug-tree $(BASE_TREE) $(BASE_TREE_STAMP) $(TOOLS)/kernel/debug-backports/$(KVER) $(KTREE))
	@TREE_STAMP=$(TREE_STAMP) BASE=$(BASE_CONFIG) $(TOOLS)/build/kconfig $(KTREE) $(KOBJ) $(FRAGS)

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
# MTE and COMPAT off (Kbuild.frag + tools/kernel/config/min.frag, in B/KVER/min).
build-min: sync-stale
	@$(TOOLS)/build/build-min $(BK)/linux overlay Kbuild.frag $(BK)/min

# The checks the kernel's test robots run, over our files (tools/check/check):
# gcc and clang at W=1, warnings as errors, in our config and big-endian,
# 16K, 64K and min.frag variants; sparse; coccicheck.  CHECKS= picks some;
# KERNEL=stock: the same checks over stock's same files, listing reports.
CHECK_STAMP := $(if $(filter stock,$(KERNEL)),$(BK)/src/.extracted,$(BK)/sync/changed)
# spatch compiles coccicheck's OCaml rules (check_bq27xxx_data.cocci...)
# with ocamlopt at run time; Debian's coccinelle does not pull it in.
check: sync-stale
	@$(TOOLS)/build/deps sparse:sparse coccinelle:spatch ocaml-nox:ocamlopt clang:clang lld:ld.lld \
		llvm:llvm-objcopy
	@TREE_STAMP=$(CHECK_STAMP) $(TOOLS)/check/check $(if $(filter stock,$(KERNEL)),--stock) \
		$(BK)/linux $(KSRC) overlay Kbuild.frag $(BK)/sync/staged.list \
		$(BK)/check$(if $(filter stock,$(KERNEL)),-stock) $(CHECKS)

# -- the guest's pieces
GEN_CPIO := $(BK)/host/gen_init_cpio
$(GEN_CPIO): $(PRISTINE_DEP)
	@mkdir -p $(dir $@)
	@gcc -O2 -o $@ $(KSRC)/usr/gen_init_cpio.c

$(BK)/guest/%: rootfs/%.c
	@mkdir -p $(dir $@)
	@aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -o $@ $<

# Debian's .debs, each fetched once: a failed download stops the build
# (no stand-in from the host).
$(BK)/debs/%/.extracted: | deps
	@$(TOOLS)/build/fetch-deb $(subst _,:,$*) $(BK)/debs > /dev/null
DEBS      := $(foreach p,busybox-static_arm64 busybox-static_armhf libc6_arm64 libc6_armhf \
	strace_arm64 strace_armhf,$(BK)/debs/$(p)/.extracted)
GUEST_BITS := $(BK)/guest/init $(BK)/guest/runner $(GEN_CPIO) $(DEBS)
# tools/guest/guest-root: the libraries and tracers (Debian's) in its
# environment, then the root, init, runner, busyboxes, our tests and the
# kselftests as arguments
ROOT_ENV  = LIBC=$(BK)/debs/libc6_arm64 LIBC32=$(BK)/debs/libc6_armhf \
	STRACE=$(BK)/debs/strace_arm64/usr/bin/strace STRACE32=$(BK)/debs/strace_armhf/usr/bin/strace \
	KVMSFT=$(BK)/kvmsft/out
GUEST_ROOT = $(TOOLS)/guest/guest-root $(1) $(BK)/guest/init $(BK)/guest/runner \
	$(BK)/debs/busybox-static_arm64/bin/busybox $(BK)/debs/busybox-static_armhf/bin/busybox \
	$(BK)/tests $(BK)/ksft tests/kselftests.list

# Our tests: tests/Makefile (make's own dependency tracking).
tests: deps
	@$(MAKE) --no-print-directory -s -j$(NPROC) -C tests OUT=$(abspath $(BK))/tests

KSFT_TARGETS := arm64/signal arm64/abi arm64/fp arm64/bti arm64/pauth arm64/tags arm64/mte \
	sigaltstack timers vDSO
KSFT_TARGETS32 := sigaltstack timers vDSO
kselftests: deps $(PRISTINE_DEP)
	@$(TOOLS)/build/build-kselftests $(KSRC) $(BK)/ksft aarch64 $(KSFT_TARGETS)
	@$(TOOLS)/build/build-kselftests $(KSRC) $(BK)/ksft armhf $(KSFT_TARGETS32)
	@$(TOOLS)/build/build-kvm-selftests $(KSRC) $(BK)/kvmsft tests/kselftests.list

# The test initramfs: the selection (SUITES, KSELFTESTS, T, FULL) laid out
# with its manifest; a KVM-capable guest (a machine with EL2) gets the
# kernel under test as /boot/Image, for tests/kvm.
ROOTFS := $(BK)/guest/test-$(KERNEL)$(if $(VARIANT_TAG),-$(VARIANT_TAG)).cpio
ROOT_SELECT = SUITES='$(SUITES)' KSELFTESTS='$(KSELFTESTS)' FULL='$(FULL)' T='$(T)' \
	SUITE_TIMEOUT='$(SUITE_TIMEOUT)' KVARIANT='$(KVARIANT)'
GUEST_IMAGE = $(if $(findstring virtualization=on,$(shell $(TOOLS)/guest/variant resolve \
	$(VARIANT_WORDS))),$(IMAGE))
rootfs: tests kselftests $(GUEST_BITS)
	@$(ROOT_ENV) $(ROOT_SELECT) GUEST_IMAGE=$(GUEST_IMAGE) $(call GUEST_ROOT,$(ROOTFS).d)
	@$(TOOLS)/guest/mkcpio $(GEN_CPIO) $(ROOTFS).d $(ROOTFS)

list: tests kselftests $(GUEST_BITS)
	@$(ROOT_ENV) $(ROOT_SELECT) $(call GUEST_ROOT,$(BK)/guest/list.d)
	@awk '{ p = $$5; sub(/.*\//, "", p); print $$2, $$3, p }' $(BK)/guest/list.d/tests/manifest

# Every guest: tools/guest/launch, with the machine the VARIANT words
# describe (tools/guest/variants); its QEMU command is RUNDIR/qemu.cmd.
LAUNCH = VARIANT='$(VARIANT_WORDS)' SMP=$(SMP) MEM=$(MEM) CPU='$(CPU)' APPEND='$(APPEND)' \
	DTS_EXTRA='$(DTS_EXTRA)' EFI_FIRMWARE=$(EFI_FIRMWARE) VMLINUX=$(KOBJ)/vmlinux \
	KTREE=$(KTREE) LABEL=$(notdir $(RUNDIR)) $(TOOLS)/guest/launch

# The results of an earlier run go first: a run that cannot start (the
# kernel does not build) leaves none behind to be taken for its own.
selftest:
	@rm -f $(RUNDIR)/results.json $(RUNDIR)/junit.xml $(BK)/results.json $(BK)/junit.xml \
		$(if $(RESULTS_TO),$(RESULTS_TO))
	@$(MAKE) --no-print-directory selftest-run

selftest-run: vmlinux rootfs
	@echo "  BOOT    $(KERNEL)$(KSUFFIX) kernel$(if $(VARIANT_WORDS), VARIANT=\"$(VARIANT_WORDS)\"); replay: $(RUNDIR)/qemu.cmd"
	@TIMEOUT=$(TIMEOUT) BOOT_TIMEOUT=$(BOOT_TIMEOUT) HANG_TIMEOUT=$(HANG_TIMEOUT) \
		$(LAUNCH) test $(RUNDIR) $(IMAGE) $(ROOTFS); st=$$?; \
		cp $(RUNDIR)/results.json $(RUNDIR)/junit.xml $(BK)/ 2>/dev/null; \
		$(if $(RESULTS_TO),cp $(RUNDIR)/results.json $(RESULTS_TO) 2>/dev/null;) exit $$st

# A shell, or one command (hex-encoded on the kernel command line).
SHELL_CPIO := $(BK)/guest/shell.cpio
$(SHELL_CPIO): $(GUEST_BITS) $(TOOLS)/guest/guest-root $(TOOLS)/guest/mkcpio
	@$(ROOT_ENV) SUITES=none KSELFTESTS=none T= $(call GUEST_ROOT,$(BK)/guest/shroot)
	@$(TOOLS)/guest/mkcpio $(GEN_CPIO) $(BK)/guest/shroot $@
qemu: vmlinux $(SHELL_CPIO)
ifeq ($(CMD),)
	@$(LAUNCH) shell $(RUNDIR) $(IMAGE) $(SHELL_CPIO)
else
	@st=0; $(LAUNCH) cmd $(RUNDIR) $(IMAGE) $(SHELL_CPIO) '$(subst ','\'',$(CMD))' || st=$$?; \
		$(if $(QEMU_STATUS),echo $$st > $(QEMU_STATUS),\
		[ $$st = 0 ] || echo "qemu: the command exited with status $$st (tools/qemu-run exits with it)"; \
		exit $$st)
endif

# gdb-multiarch on vmlinux, the guest stopped at its first instruction.
GDBPORT ?= 1234
qemu-gdb: vmlinux $(SHELL_CPIO)
	@$(TOOLS)/build/deps gdb-multiarch:gdb-multiarch
	@GDBPORT=$(GDBPORT) $(LAUNCH) gdb $(RUNDIR) $(IMAGE) $(SHELL_CPIO) $(GDBARGS)

# -- the test command: the steps of tests/plan, each whatever the ones
# before did, then one count over them all.
test:
	@MAKE="$(MAKE)" $(TOOLS)/test/plan tests/plan $(B)

test-host: vmlinux rootfs
	@echo "  HOST    tests/host"
	@B=$(BK) KSRC=$(KSRC) $(TOOLS)/test/host-tests tests/host $(or $(RESULTS_TO),$(BK)/results-host.json)

# Both sides run now, or the comparison fails: stale results are removed
# first and each side's build id must be its vmlinux's.
compare:
	@rm -f $(BK)/run/ours$(RUNSUFFIX)/results.json $(BK)/run/stock$(RUNSUFFIX)/results.json
	@$(MAKE) --no-print-directory selftest KERNEL=ours; \
		$(MAKE) --no-print-directory selftest KERNEL=stock; \
		$(TOOLS)/test/compare $(BK)/run/stock$(RUNSUFFIX)/results.json $(BK)/run/ours$(RUNSUFFIX)/results.json \
		$(BK)/compare.json $(BK)/stock$(KSUFFIX)/vmlinux $(BK)/out$(KSUFFIX)/vmlinux

# Upstream's changes to the stock files our overlay replaces, since the
# release it was written against (tools/kernel/drift-KVER.base).
drift: deps $(PRISTINE_DEP)
	@$(TOOLS)/maint/drift $(KSRC) overlay $(DRIFT_BASE) $(BK)/drift

patches: sync
	@$(TOOLS)/maint/patches $(KSRC) $(BK)/linux overlay $(BK)/patches

# The project's originality check lives outside the repository; a clone
# without it says so.
ORIGINALITY := ../shared/tools/originality
originality: $(PRISTINE_DEP)
	@if [ -x $(ORIGINALITY) ]; then $(ORIGINALITY) overlay $(KSRC); \
	else echo "originality: no $(ORIGINALITY) beside this checkout; nothing checked"; fi

clean:
	rm -rf $(B)

FORCE:

# -- tests/stress, in a boot of its own on 4 CPUs (VARIANT word stress).
# Without DURATION, the bounded run: a fixed number of cases per program
# and a fixed seed.  DURATION=s: s seconds shared out by the programs
# (tests/stress/stress.h), seed from the clock.  SEED= sets the base seed,
# REPLAY=abi/program:seed replays one case, DIVISOR=n runs an n-th of the
# bounded run's cases.
.PHONY: stress compare-stress
STRESS_ENV = $(if $(DURATION),STRESS_DURATION=$(DURATION)) $(if $(SEED),STRESS_SEED=$(SEED)) \
	$(if $(REPLAY),STRESS_REPLAY=$(REPLAY)) $(if $(DIVISOR),STRESS_DIVISOR=$(DIVISOR))
stress:
	@$(MAKE) --no-print-directory $(GUEST_GOAL) VARIANT="$(strip $(VARIANT_WORDS) stress)" SUITES=stress \
		KSELFTESTS=none \
		SUITE_TIMEOUT=$(if $(DURATION),$$(($(DURATION) * 6 / 10 + 120)),300) \
		TIMEOUT=$(if $(DURATION),$$(($(DURATION) * 2 + 300)),1200) APPEND='$(APPEND) $(STRESS_ENV)'
compare-stress:
	@$(MAKE) --no-print-directory stress KERNEL=ours; \
		$(MAKE) --no-print-directory stress KERNEL=stock; \
		$(TOOLS)/test/compare $(BK)/run/stock-stress/results.json \
		$(BK)/run/ours-stress/results.json $(BK)/compare-stress.json

# -- benchmarks (not tests): make bench
include tools/bench/bench.mk

# -- LAVA (docs/lava.md): make test's guests as LAVA jobs in B/lava (make
# lava), and one guest through LAVA's own dispatcher on this machine (make
# lava-run).  A job is what tools/guest/launch would boot (its args mode);
# LAVA_ARTIFACTS is the URL the lab downloads B/lava/artifacts from
# (file:// for a local run).  LAVA_KVERS: the kernel versions, one more
# dimension of the jobs (KVERS lists those the Makefile builds).
.PHONY: lava lava-job lava-run
LAVA_ARTIFACTS ?=
LAVA_DEVICE_TYPE ?= qemu
LAVA_KERNELS ?= ours stock
LAVA_KVERS ?= $(KVER)
LAVA_NAME ?= $(KVER)-$(notdir $(RUNDIR))
LAVA_JOB ?= $(B)/lava/$(LAVA_NAME).yaml
GUEST_GOAL ?= selftest
lava:
	@$(TOOLS)/build/deps lava-dispatcher:lava-run
	@MAKE="$(MAKE)" KVERS='$(KVERS)' LAVA_ARTIFACTS='$(LAVA_ARTIFACTS)' \
		$(TOOLS)/lava/jobs tests/plan $(B)/lava '$(LAVA_KVERS)' '$(LAVA_KERNELS)'

lava-job: vmlinux rootfs
	@mkdir -p $(B)/lava/run/$(LAVA_NAME)
	@$(LAUNCH) args $(B)/lava/run/$(LAVA_NAME) $(IMAGE) $(ROOTFS) > $(B)/lava/run/$(LAVA_NAME)/qemu.args
	@TIMEOUT=$(TIMEOUT) LAVA_ARTIFACTS='$(LAVA_ARTIFACTS)' LAVA_DEVICE_TYPE='$(LAVA_DEVICE_TYPE)' \
		$(TOOLS)/lava/job $(LAVA_NAME) \
		$(B)/lava/run/$(LAVA_NAME)/qemu.args $(B)/lava/artifacts $(LAVA_JOB) kernel=$(KERNEL) \
		kver=$(KVER) variant='$(VARIANT_WORDS)' suites='$(SUITES)' kselftests='$(KSELFTESTS)' \
		filter='$(subst ','\'',$(T))'

# The job of this selection, its artifacts local, run by lava-run and
# judged as make selftest's run is (B/lava/run/NAME).
lava-run:
	@$(TOOLS)/build/deps lava-dispatcher:lava-run
	@rm -f $(B)/lava/run/$(LAVA_NAME)/results.json $(if $(RESULTS_TO),$(RESULTS_TO))
	@$(MAKE) --no-print-directory lava-job LAVA_ARTIFACTS= LAVA_JOB=$(B)/lava/run/$(LAVA_NAME)/job.yaml
	@VMLINUX=$(KOBJ)/vmlinux KTREE=$(KTREE) LABEL=lava-$(notdir $(RUNDIR)) $(TOOLS)/lava/run \
		$(B)/lava/run/$(LAVA_NAME)/job.yaml $(B)/lava/run/$(LAVA_NAME); st=$$?; \
		$(if $(RESULTS_TO),cp $(B)/lava/run/$(LAVA_NAME)/results.json $(RESULTS_TO) 2>/dev/null;) exit $$st
