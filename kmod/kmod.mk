# kmod/kmod.mk: the module, its VM test tier and its bench, included by the top-level
# Makefile (-include kmod/kmod.mk).
#
#   make kmod         vqpair.ko for the running kernel when its headers are installed
#                     (/lib/modules/$(uname -r)/build), otherwise for every test kernel in
#                     VQ_KERNELS, fetched into .cache/kernels by scripts/kernels.sh
#   make check-vm     boot each test kernel under QEMU (TCG) and run tests/vm/guest/t_*.sh;
#                     last line "vm: N passed, N failed, N skipped", then any failures by
#                     name, "(failed: [TAG] TEST ...)"; non-zero exit on any failure
#   make bench-vm     vqpair vs veth TCP throughput in the same guest, and their ratio
#   make bench-scen   the live-traffic table: rr, bulk, rr under bulk, zerocopy with a slow
#                     consumer, each with default knobs, the best static setting of a
#                     small sweep, and vqtuned (balanced.json); tests/bench/vm_scenarios.sh
#                     (VQ_BENCH_S, VQ_BENCH_RUNS, ...); ~57 min under TCG
#   make bench-rrpair what request/response pays for a running vqtuned, on one pair at a
#                     time: daemon running with its own scheduler slice, with the kernel's,
#                     and stopped, interleaved; tests/bench/vm_rrpair.sh; ~15 min under TCG
#   make kmod-sparse  the module through sparse (C=1) for every test kernel
#   make kmod-spec-check  include/vqpair.h against kmod/vqpair.spec
# VQ_KERNELS: test kernel tags, see scripts/kernels.sh. VQ_TESTS=t_a,t_b runs a subset.

VQ_KERNELS	?= 6.1 6.12 7
VQ_BENCH_KERNEL	?= $(lastword $(VQ_KERNELS))
# trixie's linux-headers lack scripts/checker-valid.sh, so C=1 cannot run against 7.x
VQ_SPARSE_KERNELS ?= 6.1 6.12
KMOD_HOST_KDIR	:= /lib/modules/$(shell uname -r)/build
VQ_CACHE	?= $(CURDIR)/.cache

.PHONY: kmod check-vm bench-vm bench-scen bench-rrpair kmod-sparse kmod-spec-check

kmod-spec-check:
	@mkdir -p $(VQ_CACHE)
	@$(CC) -std=gnu11 -Wall -Wextra -Werror -o $(VQ_CACHE)/spec_dump kmod/tools/spec_dump.c
	@$(VQ_CACHE)/spec_dump | diff -u <(grep -v '^#' kmod/vqpair.spec) - \
		|| { echo "kmod: include/vqpair.h and kmod/vqpair.spec disagree" >&2; exit 1; }

kmod: SHELL := /bin/bash
kmod: kmod-spec-check
	@if [ -d $(KMOD_HOST_KDIR) ]; then \
		$(MAKE) -C $(KMOD_HOST_KDIR) M=$(CURDIR)/kmod modules; \
	else \
		for t in $(VQ_KERNELS); do \
			scripts/kernels.sh fetch $$t && \
			kmod/build.sh $$t $(VQ_CACHE)/kmod/$$t || exit 1; \
			echo "kmod: $(VQ_CACHE)/kmod/$$t/vqpair.ko"; \
		done; \
	fi

kmod-sparse: SHELL := /bin/bash
kmod-sparse:
	@for t in $(VQ_SPARSE_KERNELS); do \
		scripts/kernels.sh fetch $$t && \
		kmod/build.sh $$t $(VQ_CACHE)/kmod-sparse/$$t C=1 2>&1 | tee $(VQ_CACHE)/sparse-$$t.log; \
		if grep -q 'warning\|error' $(VQ_CACHE)/sparse-$$t.log; then exit 1; fi; \
	done

kmod-spec-check: SHELL := /bin/bash

# The guests run the daemon, CLI and probe of build/ (tests/vm/mkinitramfs.sh): build them
# first, so a guest never runs a daemon older than the source.
check-vm: all tools kmod-spec-check
	@tests/vm/run.sh $(VQ_KERNELS)

bench-vm: all tools
	@VQ_BENCH_KERNEL="$(VQ_BENCH_KERNEL)" tests/bench/vm_vqpair.sh

bench-scen: all tools
	@VQ_BENCH_KERNEL="$(VQ_BENCH_KERNEL)" tests/bench/vm_scenarios.sh

bench-rrpair: all tools
	@VQ_BENCH_KERNEL="$(VQ_BENCH_KERNEL)" tests/bench/vm_rrpair.sh
