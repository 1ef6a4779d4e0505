# make bench: ours against stock, side by side (see README, "Benchmarks").
#
#   make bench [ROUNDS=3] [QUICK=1] [COLD=0] [BUSY=0]
#
# Builds both kernels, boots each ROUNDS times under QEMU -icount (rounds
# alternate the kernels) with the benchmark initramfs, times the host
# builds, and writes build/bench.json, build/bench.md (the table) and
# build/bench.svg (the ratios ours/stock).  QUICK=1 runs a tenth of the
# guest iterations and skips the cold builds: a smoke run of a minute.
# COLD=0 skips only the cold builds (4-6 minutes each on 2 cores).
# BUSY=0 leaves out the busy-sibling rows (they run a fixed guest time
# each, so they end however QEMU shares the CPUs: docs/benchmarks.md).
ROUNDS ?= 3
QUICK  ?= 0
BUSY   ?= 1
COLD   ?= $(if $(filter 1,$(QUICK)),0,1)
BENCH  := $(BK)/bench

.PHONY: bench bench-guest bench-host

$(BENCH)/bench-aarch64: rootfs/bench.c
	@mkdir -p $(dir $@)
	@aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -o $@ $<
$(BENCH)/bench-armhf: rootfs/bench.c
	@mkdir -p $(dir $@)
	@arm-linux-gnueabihf-gcc -static -O2 -Wall -Wextra -o $@ $<

# The runner runs the two programs in turn: its "exit" kind needs no KTAP.
BENCH_ARG := $(if $(filter 1,$(QUICK)),quick) $(if $(filter 0,$(BUSY)),nobusy)
BENCH_MANIFEST := exit bench aarch64 900 /bin/bench $(BENCH_ARG)\nexit bench armhf 900 /opt/armhf/bench $(BENCH_ARG)

$(BENCH)/bench.cpio: $(BENCH)/bench-aarch64 $(BENCH)/bench-armhf $(BK)/guest/init \
		$(BK)/guest/runner $(GEN_CPIO) FORCE
	@$(ROOT_ENV) SUITES=none KSELFTESTS=none T= EXTRA="$$(printf '$(BENCH_MANIFEST)')" \
		$(call GUEST_ROOT,$(BENCH)/root)
	@cp $(BENCH)/bench-aarch64 $(BENCH)/root/bin/bench
	@cp $(BENCH)/bench-armhf $(BENCH)/root/opt/armhf/bench
	@$(TOOLS)/guest/mkcpio $(GEN_CPIO) $(BENCH)/root $@

bench-guest: $(BENCH)/bench.cpio
	@ROUNDS=$(ROUNDS) VARIANT='$(VARIANT_WORDS)' SMP=$(SMP) MEM=$(MEM) CPU='$(CPU)' \
		$(TOOLS)/bench/guest $(BENCH) $(BENCH)/bench.cpio \
		ours=$(BK)/out/arch/arm64/boot/Image stock=$(BK)/stock/arch/arm64/boot/Image

bench-host:
	@B=$(BK) KSRC=$(KSRC) COLD=$(COLD) MAKE='$(MAKE)' $(TOOLS)/bench/build $(BENCH)

# Builds first, and one at a time: the host timings want the machine to
# themselves, and the guest figures do not care (they count instructions).
bench:
	@$(MAKE) --no-print-directory vmlinux KERNEL=ours
	@$(MAKE) --no-print-directory stock
	@$(MAKE) --no-print-directory bench-host
	@$(MAKE) --no-print-directory bench-guest
	@$(TOOLS)/bench/report $(BENCH) $(BK)/bench.json $(BK)/bench.md $(BK)/bench.svg
