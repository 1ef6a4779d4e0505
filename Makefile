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

# The guest.  VARIANT=el2 enters the kernel at EL2 (virtualization=on);
# VARIANT=timer-dt gives the timer node a clock-frequency (QEMU's rate).
SMP     ?= 2
MEM     ?= 512
CPU     ?= max
VARIANT ?=
TIMEOUT ?= $(if $(filter 1,$(FULL)),3600,900)
MACHINE ?= virt,gic-version=3$(if $(filter el2,$(VARIANT)),$(comma)virtualization=on)
comma   := ,

export ARCH := arm64
export CROSS_COMPILE := aarch64-linux-gnu-
export CROSS_COMPILE_COMPAT := arm-linux-gnueabihf-
NPROC   := $(shell nproc)
TOOLS   := tools

# Which kernel: ours = pristine + overlay + hunks, built in B/out;
# stock = the pristine tree with the same fragment less our options.
ifeq ($(KERNEL),stock)
KTREE   := $(KSRC)
KOBJ    := $(B)/stock
FRAG    := $(B)/frag/stock.frag
else ifeq ($(KERNEL),ours)
KTREE   := $(B)/linux
KOBJ    := $(B)/out
FRAG    := $(B)/frag/ours.frag
else
$(error KERNEL must be "ours" or "stock", not "$(KERNEL)")
endif
IMAGE   := $(KOBJ)/arch/arm64/boot/Image
RUNDIR  := $(B)/run/$(KERNEL)$(if $(VARIANT),-$(VARIANT))

DTS_DEFS = -DNR_CPUS=$(SMP) $(if $(filter el2,$(VARIANT)),-DPSCI_METHOD='"smc"') \
	$(if $(filter timer-dt,$(VARIANT)),-DTIMER_FREQUENCY=62500000) $(DTS_EXTRA)
DTB     := $(RUNDIR)/virt.dtb

.PHONY: help deps pristine sync config vmlinux stock dtb tests kselftests \
	rootfs selftest test test-host compare qemu patches originality clean

help:
	@sed -n 's/^## \{0,1\}//p' $(MAKEFILE_LIST)

## Targets:
##   make qemu [CMD='...']   boot to a busybox shell, or run CMD and exit with its status
##   make test               host tests, then the guest tests (the test command)
##   make selftest           boot the test rootfs and run every guest test
##                           (KERNEL=stock, VARIANT=el2|timer-dt, SUITES="signal ...",
##                            KSELFTESTS=none|all|"timers vDSO", FULL=1, SMP=N, CPU=...)
##   make sync               pristine tree + overlay + hunks -> build/linux
##   make vmlinux            configure and build our kernel (Image, vmlinux)
##   make stock              build the pristine kernel, same fragment, into build/stock
##   make compare            selftest on both kernels, side by side (build/compare.json)
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

# -- ours: sync, configure, build
sync: deps $(PRISTINE_DEP)
	@$(TOOLS)/sync $(KSRC) overlay $(TOOLS)/hunks $(B)/linux $(B)/sync

# Fragments: ours strips the "ours" markers, stock drops that block.
$(B)/frag/ours.frag $(B)/frag/stock.frag: Kbuild.frag
	@mkdir -p $(B)/frag
	@grep -v '^# @ours-' Kbuild.frag > $(B)/frag/ours.frag
	@sed '/^# @ours-begin/,/^# @ours-end/d' Kbuild.frag > $(B)/frag/stock.frag

ifeq ($(KERNEL),stock)
config: deps $(PRISTINE_DEP) $(FRAG)
else
config: sync $(FRAG)
endif
	@$(TOOLS)/kconfig $(KTREE) $(KOBJ) $(FRAG)

vmlinux: config
	@echo "  BUILD   $(KERNEL) kernel in $(KOBJ)"
	@$(MAKE) -s -C $(KTREE) O=$(abspath $(KOBJ)) -j$(NPROC) Image vmlinux
	@$(MAKE) -s -C $(KTREE) O=$(abspath $(KOBJ)) usr/gen_init_cpio >/dev/null 2>&1 || true

stock:
	@$(MAKE) --no-print-directory vmlinux KERNEL=stock

# -- the guest
dtb: $(DTB)
$(DTB): dts/virt.dts FORCE
	@mkdir -p $(RUNDIR)
	@cpp -nostdinc -undef -x assembler-with-cpp -P $(DTS_DEFS) dts/virt.dts > $(DTB).dts
	@dtc -q -I dts -O dtb -o $@ $(DTB).dts

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

BUSYBOX   = $(shell $(TOOLS)/fetch-deb busybox-static:arm64 $(B)/debs)/bin/busybox
BUSYBOX32 = $(shell $(TOOLS)/fetch-deb busybox-static:armhf $(B)/debs)/bin/busybox
LIBC = $(shell $(TOOLS)/fetch-deb libc6:arm64 $(B)/debs)
LIBC32 = $(shell $(TOOLS)/fetch-deb libc6:armhf $(B)/debs)

tests: deps
	@$(TOOLS)/build-tests tests $(B)/tests

KSFT_TARGETS := arm64/signal arm64/abi arm64/fp sigaltstack timers vDSO
KSFT_TARGETS32 := sigaltstack timers vDSO
kselftests: deps $(PRISTINE_DEP)
	@$(TOOLS)/build-kselftests $(KSRC) $(B)/ksft aarch64 $(KSFT_TARGETS)
	@$(TOOLS)/build-kselftests $(KSRC) $(B)/ksft armhf $(KSFT_TARGETS32)

ROOTFS := $(B)/guest/test-$(KERNEL)$(if $(VARIANT),-$(VARIANT)).cpio
rootfs: tests kselftests $(B)/guest/init $(B)/guest/runner $(GEN_CPIO)
	@LIBC=$(LIBC) LIBC32=$(LIBC32) $(TOOLS)/guest-root $(B)/guest/root $(B)/guest/init $(B)/guest/runner \
		$(BUSYBOX) $(BUSYBOX32) $(B)/tests $(B)/ksft tests/kselftests.list
	@$(TOOLS)/mkcpio $(GEN_CPIO) $(B)/guest/root $(ROOTFS)

GUEST_ENV = MACHINE=$(MACHINE) CPU=$(CPU) SMP=$(SMP) MEM=$(MEM) \
	VMLINUX=$(KOBJ)/vmlinux KTREE=$(KTREE)

selftest: vmlinux rootfs $(DTB)
	@echo "  BOOT    $(KERNEL) kernel, $(MACHINE), -cpu $(CPU), -smp $(SMP)"
	@$(GUEST_ENV) TIMEOUT=$(TIMEOUT) APPEND='$(APPEND)' \
		$(TOOLS)/run-guest $(IMAGE) $(DTB) $(ROOTFS) $(RUNDIR); st=$$?; \
		cp $(RUNDIR)/results.json $(B)/results.json 2>/dev/null; exit $$st

# Interactive shell, or one command (hex-encoded on the kernel command line).
qemu: vmlinux $(B)/guest/init $(B)/guest/runner $(GEN_CPIO) $(DTB)
	@SUITES=none KSELFTESTS=none $(TOOLS)/guest-root $(B)/guest/shroot $(B)/guest/init \
		$(B)/guest/runner $(BUSYBOX) $(BUSYBOX32) $(B)/tests $(B)/ksft tests/kselftests.list
	@$(TOOLS)/mkcpio $(GEN_CPIO) $(B)/guest/shroot $(B)/guest/shell.cpio
	@$(GUEST_ENV) $(TOOLS)/qemu-shell $(IMAGE) $(DTB) $(B)/guest/shell.cpio '$(subst ','\'',$(CMD))'

# -- the test command: host tests, the guest suite, the exception-trace
# and timer suites again with the kernel entered at EL2, and the timer
# suite with the rate in the device tree.  Every step runs even when one
# fails; the last line counts them all.
TEST_RESULTS = $(B)/results-host.json $(B)/run/ours/results.json \
	$(B)/run/ours-el2/results.json $(B)/run/ours-timer-dt/results.json
test:
	@mkdir -p $(B) && rm -f $(TEST_RESULTS) $(B)/test-status
	@$(MAKE) --no-print-directory test-host; echo $$? >> $(B)/test-status
	@$(MAKE) --no-print-directory selftest; echo $$? >> $(B)/test-status
	@$(MAKE) --no-print-directory selftest VARIANT=el2 SUITES="trace timer" \
		KSELFTESTS="timers vDSO"; echo $$? >> $(B)/test-status
	@$(MAKE) --no-print-directory selftest VARIANT=timer-dt SUITES=timer \
		KSELFTESTS=none; echo $$? >> $(B)/test-status
	@$(TOOLS)/summary $(B)/test-status $(TEST_RESULTS)

test-host: vmlinux rootfs
	@echo "  HOST    tests/host"
	@B=$(B) KSRC=$(KSRC) $(TOOLS)/host-tests tests/host $(B)/results-host.json

compare:
	@$(MAKE) --no-print-directory selftest KERNEL=ours; \
		$(MAKE) --no-print-directory selftest KERNEL=stock; \
		$(TOOLS)/compare $(B)/run/stock/results.json $(B)/run/ours/results.json $(B)/compare.json

patches: sync
	@$(TOOLS)/patches $(KSRC) $(B)/linux overlay $(B)/patches

originality: $(PRISTINE_DEP)
	@../shared/tools/originality overlay $(KSRC)

clean:
	rm -rf $(B)

FORCE:

# -- benchmarks (not tests): make bench
include tools/bench.mk
