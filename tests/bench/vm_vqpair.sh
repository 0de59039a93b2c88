#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vqpair vs veth TCP throughput in the same QEMU guest (TCG), one iperf3 stream each, same
# namespaces and addresses: prints one line
#   bench: vqpair X Gbit/s veth Y Gbit/s ratio R (...)
# Figures only, no thresholds. Under TCG the absolute numbers say little; the ratio is the
# point (both devices pay the same emulation cost).
#
# usage: tests/bench/vm_vqpair.sh [KERNEL_TAG]   (default: the last of VQ_KERNELS, or 6.12)
set -u
cd "$(dirname "$0")/../.."
tag=${1:-${VQ_BENCH_KERNEL:-6.12}}
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
