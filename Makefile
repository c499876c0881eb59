# Per-process uprobes on Linux 6.1 and 6.12 (KERNEL=6.12): build, boot and test.
#
#   make test            build everything needed, boot QEMU, run all tests
#   make test-debug      the same suite on a kernel with lockdep, kmemleak,
#                        list and object debugging (build/kbuild-debug);
#                        KASAN=1 adds KASAN (build/kbuild-debug-kasan)
#   make demo            boot QEMU and run the perf probe -p workflow
#   make bench           boot QEMU once, run the benchmarks, build/bench/report.md
#   make export-patches  write build/linux's commits back to the series files
#   make check-series    build (and boot) each prefix of the series
#
# Build output lives in build/ (ignored by git).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

TOP    := $(CURDIR)
B      := $(TOP)/build
# KERNEL=6.12: the 6.12 series, built and tested under build/6.12 (vm/lib.sh).
# make test without KERNEL tests both kernels.
TEST_KERNELS := $(if $(filter command line environment,$(origin KERNEL)),$(KERNEL),6.1 6.12)
KERNEL ?= 6.1
export KERNEL
KB     := $(if $(filter 6.1,$(KERNEL)),$(B),$(B)/$(KERNEL))
SRC    := $(KB)/linux
KOUT   := $(KB)/kbuild
KDOUT  := $(KB)/kbuild-debug$(if $(KASAN),-kasan)
KFRAG  := vm/kernel.config $(wildcard vm/kernel-$(KERNEL).config)
KDFRAG := $(KFRAG) vm/kernel-debug.config $(if $(KASAN),vm/kernel-kasan.config)
POUT   := $(KB)/perf
JOBS   ?= $(shell nproc)
# vm/deps installs ccache before anything is compiled, so the compiler
# command is the same on a fresh machine and on the next run: deciding it
# from whether ccache was already there when make started would rebuild
# everything once it is.
KCC    := ccache gcc

export CCACHE_DIR ?= $(B)/ccache
export CCACHE_MAXSIZE ?= 5G

.PHONY: all deps tree kernel kernel-debug kernel-pristine perf perf-pristine build test \
	test-debug demo bench export-patches check-series checkpatch clean

all: build

# Packages come from Debian; a fresh machine gets them here.
deps:
	@vm/deps

# build/linux: pristine linux-source-6.1 as one base commit, then the series.
tree: deps
	@vm/tree

# A kernel from the series: build-dir, config fragments.
define build_kernel
	@echo "== config: tinyconfig + $(2)"
	@vm/kconfig $(SRC) $(1) $(2)
	@echo "== kernel: $(1): bzImage and modules ($(JOBS) jobs, ccache)"
	@$(MAKE) -s -C $(SRC) O=$(1) CC="$(KCC)" -j$(JOBS) bzImage modules
endef

kernel: tree
	$(call build_kernel,$(KOUT),$(KFRAG))

kernel-debug: tree
	$(call build_kernel,$(KDOUT),$(KDFRAG))

perf: tree
	@JOBS=$(JOBS) vm/perf

# 6.1's perf without the series, for make test's perf test beside ours
perf-pristine: tree
	@JOBS=$(JOBS) vm/perf --pristine

build: kernel perf

# Each kernel's build, then its suite (tests/run-kernels)
test:
	@tests/run-kernels $(TEST_KERNELS)

# Slower: the debug kernel boots in about a minute under TCG.  acpi=noirq
# routes PCI interrupts by the BIOS's table, not ACPI's _PRT method: the
# AML interpreter took over 21 s of that boot, which RCU's default stall
# timeout reported, and under KASAN on a loaded host it ran past ACPI's
# 30 s loop limit, which left the virtio devices (the 9p root) without an
# interrupt and the boot hung.
test-debug: kernel-debug perf perf-pristine
	@KOUT=$(KDOUT) TEST_TIMEOUT=1200 SUITE_TIMEOUT=9000 \
		VM_APPEND="rcupdate.rcu_cpu_stall_timeout=60 acpi=noirq" tests/run-all

demo: build
	@vm/run --timeout 300 -- tests/demo.sh

# The kernel without the series, for make bench's "cost when unused".
kernel-pristine: tree
	@vm/pristine

bench: build kernel-pristine
	@tests/bench/run

export-patches:
	@vm/export-patches

checkpatch: tree
	@vm/checkpatch

check-series: tree
	@vm/check-series

clean:
	rm -rf $(KOUT) $(KDOUT) $(KB)/kbuild-pristine $(POUT) $(KB)/perf-pristine $(B)/vm
