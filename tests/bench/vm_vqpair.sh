#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vqpair vs veth TCP throughput in the same QEMU guest (TCG), one iperf3 stream each, same
# namespaces and addresses: prints one line
#   bench: vqpair X Gbit/s veth Y Gbit/s ratio R (...)
# Figures only, no thresholds. Under TCG the absolute numbers say little; the ratio is the
# point (both devices pay the same emulation cost).
#
# usage: tests/bench/vm_vqpair.sh [KERNEL_TAG]   (default: $VQ_BENCH_KERNEL or 7, as
# tests/bench/vm_scenarios.sh; make bench-vm passes VQ_BENCH_KERNEL, the last of VQ_KERNELS)
# Exit 2: a bad argument, refused by name (one line on stderr) before anything is booted.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/vm/vmlib.sh
. tests/vm/vmlib.sh
[ $# -le 1 ] || { echo "vm_vqpair: one KERNEL_TAG at most, not '$*'" >&2; exit 2; }
tag=${1:-${VQ_BENCH_KERNEL:-7}}
why=$(vm_word_ok "$([ $# = 1 ] && echo KERNEL_TAG || echo VQ_BENCH_KERNEL)" "$tag" \
	"$(vm_known_tags)") || { echo "vm_vqpair: $why" >&2; exit 2; }
out=$(tests/vm/run.sh --bench "$tag" 2>&1)
rc=$?
line=$(printf '%s\n' "$out" | grep -o 'bench: vqpair.*' | tail -1)
if [ -z "$line" ]; then
	printf '%s\n' "$out" | tail -20
	echo "FAIL: no bench line from the guest"
	exit 1
fi
echo "$line [kernel $tag]"
exit $rc
