# Per-process uprobes on Linux 6.1: build, boot and test.
#
#   make test            build everything needed, boot QEMU, run all tests
#   make demo            boot QEMU and run the perf probe -p workflow
#   make export-patches  write build/linux's commits back to the series files
#
# Build output lives in build/ (ignored by git).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

TOP    := $(CURDIR)
B      := $(TOP)/build
SRC    := $(B)/linux
KOUT   := $(B)/kbuild
POUT   := $(B)/perf
JOBS   ?= $(shell nproc)
CCACHE := $(shell command -v ccache 2>/dev/null)
KCC    := $(if $(CCACHE),ccache gcc,gcc)

export CCACHE_DIR ?= $(B)/ccache
export CCACHE_MAXSIZE ?= 5G

.PHONY: all deps tree kernel perf build test test-harness test-suite demo \
	export-patches checkpatch clean

all: build

# Packages come from Debian; a fresh machine gets them here.
deps:
	@vm/deps

# build/linux: pristine linux-source-6.1 as one base commit, then the series.
tree: deps
	@vm/tree

kernel: tree
	@echo "== config: tinyconfig + vm/kernel.config"
	@vm/kconfig $(SRC) $(KOUT) vm/kernel.config
	@echo "== kernel: bzImage and modules ($(JOBS) jobs, $(if $(CCACHE),ccache,no ccache))"
	@$(MAKE) -s -C $(SRC) O=$(KOUT) CC="$(KCC)" -j$(JOBS) bzImage modules

perf: tree
	@echo "== perf: tools/perf -> build/perf/perf"
	@mkdir -p $(POUT)
	@$(MAKE) -s -C $(SRC)/tools/perf O=$(POUT) CC="$(KCC)" -j$(JOBS) \
		NO_LIBBPF=1 NO_BPF_SKEL=1 NO_JVMTI=1 NO_LIBPERL=1 \
		>$(POUT)/build.log 2>&1 || { tail -40 $(POUT)/build.log; exit 1; }

build: kernel perf

test: build
	@tests/run-all

demo: build
	@vm/run --timeout 300 -- tests/demo.sh

export-patches:
	@vm/export-patches

checkpatch: tree
	@vm/checkpatch

clean:
	rm -rf $(KOUT) $(POUT) $(B)/vm
