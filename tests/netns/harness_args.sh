#!/bin/bash
# tests/vm/run.sh and tests/bench/vm_scenarios.sh refuse a bad option, kernel tag or setting
# by name, exit 2, before they lock, fetch, build or boot anything (VQ_BENCH_TICK_MS=abc had
# failed only inside the guest, after the whole sweep; a bad tag only after the VM lock).
# Every run gets an empty VQ_CACHE that must stay empty: a check made after vm_lock leaves
# the lock file there, one made after the fetch or boot a kernel or a console log. No VM is
# booted here: a script that got past its checks is stopped by the timeout, still fetching.
source "$(dirname "$0")/lib.sh"
vq_init
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# a refusal comes at once; a run that got past the checks would still be fetching a kernel
REFUSE_TIMEOUT_S=30
# the tags of scripts/kernels.sh's fetch
TAGS="6.1 6.12 7"
GUEST_TESTS=$(cd "$ROOT/tests/vm/guest" && printf '%s\n' t_*.sh | sed 's/\.sh$//' | paste -sd' ')
POLICIES=$(cd "$ROOT/policies" && printf '%s\n' *.json | sed 's/\.json$//' | paste -sd' ')
RUN_USAGE="usage: tests/vm/run.sh [--bench] [--check] [KERNEL_TAG...]; options: --bench --check"
RUN_USAGE+=" -h --help; kernel tags: $TAGS"
# the grid entries bench_scen.sh's apply_set() knows
GRID="default bql16k bql64k bql256k busy50 coal ring1024 zcp16 copy bw32 nw16 bqlbw gso16k"
# the guest has two vCPUs (VM_QEMU_SMP)
PIN_MSG="vm_scenarios: VQ_BENCH_PIN must be F:B with CPUs F and B in 0..1 (the guest's vCPUs),"
PIN_MSG+=" or none"

# refused SCRIPT [NAME=VALUE...] [-- ARG...]: "EXIT FIRST-LINE files=N" of SCRIPT run from
# the top with only those VQ_ settings, N the files it left in its (empty) VQ_CACHE
refused() {
	local script=$1 v unset=() set=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do set+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	for v in $(compgen -e | grep '^VQ_'); do unset+=(-u "$v"); done
	rm -rf "$VQ_TMP/cache"
	mkdir -p "$VQ_TMP/cache" "$VQ_TMP/tmp"
	env "${unset[@]}" VQ_CACHE="$VQ_TMP/cache" TMPDIR="$VQ_TMP/tmp" "${set[@]}" \
		timeout "$REFUSE_TIMEOUT_S" "$ROOT/$script" "$@" > "$VQ_TMP/out" 2>&1
	echo "$? $(head -1 "$VQ_TMP/out") files=$(find "$VQ_TMP/cache" -mindepth 1 | wc -l)"
}
run() { refused tests/vm/run.sh "$@"; }
scen() { refused tests/bench/vm_scenarios.sh "$@"; }

# ---- tests/vm/run.sh ----
check "run.sh bad tag" "2 vm: KERNEL_TAG must be one of $TAGS, not '5.10' files=0" \
	"$(run -- 6.1 5.10)"
check "run.sh bad VQ_KERNELS" "2 vm: VQ_KERNELS must be one of $TAGS, not '9.99' files=0" \
	"$(run VQ_KERNELS="6.1 9.99")"
check "run.sh two tags in one word" \
	"2 vm: KERNEL_TAG must be one of $TAGS (one word), not '6.1 6.12' files=0" \
	"$(run -- "6.1 6.12")"
check "run.sh VQ_TESTS twice" "2 vm: VQ_TESTS names test 't_bytes' twice files=0" \
	"$(run VQ_TESTS=t_bytes,t_bytes -- 6.1)"
check "run.sh VQ_QEMU_NICS port 0" \
	"2 vm: VQ_QEMU_NICS must be words of none, hubpair, user:HOSTPORT:GUESTPORT, each once, not 'user:0:9477': host port of 'user:0:9477' must be a whole number in 1..65535 (a TCP port), not '0' files=0" \
	"$(run VQ_QEMU_NICS=user:0:9477 -- 6.1)"
check "run.sh VQ_QEMU_NICS hubpair twice" \
	"2 vm: VQ_QEMU_NICS must be words of none, hubpair, user:HOSTPORT:GUESTPORT, each once, not 'hubpair hubpair': NIC 'hubpair' given twice in 'hubpair hubpair' files=0" \
	"$(run VQ_QEMU_NICS="hubpair hubpair" -- 6.1)"
check "run.sh tag twice" "2 vm: KERNEL_TAG names kernel tag '7' twice files=0" "$(run -- 7 6.1 7)"
check "run.sh bad option" "2 vm: unknown option '--bogus' files=0" "$(run -- --bogus 6.1)"
check "run.sh usage lists options and tags" "$RUN_USAGE" "$(tail -1 "$VQ_TMP/out")"
check "run.sh VQ_VM_TIMEOUT=0" \
	"2 vm: VQ_VM_TIMEOUT must be a whole number in 30..86400 (seconds), not '0' files=0" \
	"$(run VQ_VM_TIMEOUT=0)"
check "run.sh VQ_VM_TIMEOUT=abc" \
	"2 vm: VQ_VM_TIMEOUT must be a whole number in 30..86400 (seconds), not 'abc' files=0" \
	"$(run VQ_VM_TIMEOUT=abc)"
check "run.sh VQ_TESTS=t_nosuch" \
	"2 vm: VQ_TESTS must be one of $GUEST_TESTS, not 't_nosuch' files=0" \
	"$(run VQ_TESTS=t_bql,t_nosuch)"
# "load" is /init's own line, not a test file
check "run.sh VQ_TESTS=t_load" "2 vm: VQ_TESTS must be one of $GUEST_TESTS, not 't_load' files=0" \
	"$(run VQ_TESTS=t_load)"
check "run.sh VQ_BENCH_MODE=x" \
	"2 vm: VQ_BENCH_MODE must be one of bench bench-scen, not 'x' files=0" \
	"$(run VQ_BENCH_MODE=x -- --bench)"
check "run.sh --check takes good settings" "0  files=0" \
	"$(run VQ_TESTS=t_bql,t_ring VQ_VM_TIMEOUT=600 VQ_QEMU_NICS=hubpair -- --check 6.1 6.12 7)"

# ---- tests/bench/vm_scenarios.sh ----
check "vm_scenarios bad tag" \
	"2 vm_scenarios: KERNEL_TAG must be one of $TAGS, not '5.10' files=0" \
	"$(scen -- 5.10)"
check "vm_scenarios bad VQ_BENCH_KERNEL" \
	"2 vm_scenarios: VQ_BENCH_KERNEL must be one of $TAGS, not '8' files=0" \
	"$(scen VQ_BENCH_KERNEL=8)"
check "vm_scenarios bad option" \
	"2 vm_scenarios: unknown option '--bogus' (options: --check -h --help) files=0" \
	"$(scen -- --bogus)"
check "vm_scenarios VQ_BENCH_TICK_MS=abc" "2 vm_scenarios: VQ_BENCH_TICK_MS must be a whole number\
 in 10..60000 (ms, vqtuned --interval), not 'abc' files=0" \
	"$(scen VQ_BENCH_TICK_MS=abc)"
check "vm_scenarios VQ_BENCH_S=0" \
	"2 vm_scenarios: VQ_BENCH_S must be a whole number in 1..3600 (seconds), not '0' files=0" \
	"$(scen VQ_BENCH_S=0)"
check "vm_scenarios VQ_BENCH_RUNS=08" \
	"2 vm_scenarios: VQ_BENCH_RUNS must be a whole number in 1..100 (runs per cell) without a\
 leading zero, not '08' files=0" \
	"$(scen VQ_BENCH_RUNS=08)"
check "vm_scenarios VQ_BENCH_SCENS=foo" \
	"2 vm_scenarios: VQ_BENCH_SCENS must list words of rr bulk slowzc bulkrr, not 'foo'\
 files=0" \
	"$(scen VQ_BENCH_SCENS=foo)"
check "vm_scenarios VQ_BENCH_GRID=default,bogus" "2 vm_scenarios: VQ_BENCH_GRID must list words of\
 $GRID, not 'bogus' (in 'default,bogus') files=0" \
	"$(scen VQ_BENCH_GRID=default,bogus)"
check "vm_scenarios VQ_BENCH_PIN=x" "2 $PIN_MSG, not 'x' files=0" \
	"$(scen VQ_BENCH_PIN=x)"
check "vm_scenarios VQ_BENCH_PIN=0:2" "2 $PIN_MSG, not '0:2' files=0" \
	"$(scen VQ_BENCH_PIN=0:2)"
check "vm_scenarios VQ_BENCH_PIN=01:1" "2 $PIN_MSG, not '01:1' files=0" \
	"$(scen VQ_BENCH_PIN=01:1)"
check "vm_scenarios VQ_BENCH_SCENS twice" \
	"2 vm_scenarios: VQ_BENCH_SCENS names 'rr' twice (in 'rr,rr') files=0" \
	"$(scen VQ_BENCH_SCENS=rr,rr)"
check "vm_scenarios VQ_BENCH_POLICY two words" \
	"2 vm_scenarios: VQ_BENCH_POLICY must be one of balanced latency observe throughput (one word), not 'balanced latency' files=0" \
	"$(scen VQ_BENCH_POLICY="balanced latency")"
check "vm_scenarios VQ_BENCH_NOISE=yes" \
	"2 vm_scenarios: VQ_BENCH_NOISE must be one of 0 1, not 'yes' files=0" \
	"$(scen VQ_BENCH_NOISE=yes)"
check "vm_scenarios VQ_BENCH_POLICY=nosuch" \
	"2 vm_scenarios: VQ_BENCH_POLICY must be one of $POLICIES, not 'nosuch' files=0" \
	"$(scen VQ_BENCH_POLICY=nosuch)"
check "vm_scenarios VQ_VM_TIMEOUT=0" \
	"2 vm_scenarios: VQ_VM_TIMEOUT must be a whole number in 30..86400 (seconds), not '0'\
 files=0" \
	"$(scen VQ_VM_TIMEOUT=0)"
check "vm_scenarios VQ_BENCH_QDISC=fq" \
	"2 vm_scenarios: VQ_BENCH_QDISC must be one of pfifo_fast fq_codel, not 'fq' files=0" \
	"$(scen VQ_BENCH_QDISC=fq)"
check "vm_scenarios VQ_BENCH_LINE_MBIT=100001" "2 vm_scenarios: VQ_BENCH_LINE_MBIT must be a\
 whole number in 0..100000 (Mbit/s, 0: no line rate), not '100001' files=0" \
	"$(scen VQ_BENCH_LINE_MBIT=100001)"
check "vm_scenarios --check takes good settings" "0  files=0" \
	"$(scen VQ_BENCH_TICK_MS=200 VQ_BENCH_SCENS="rr bulkrr" VQ_BENCH_GRID=bw32,nw16,gso16k \
		VQ_BENCH_PIN=1:0 VQ_BENCH_WARMUP_S=0 VQ_BENCH_TRACE=1 VQ_BENCH_POLICY=observe \
		VQ_BENCH_QDISC=fq_codel VQ_BENCH_LINE_MBIT=200 VQ_VM_TIMEOUT=5400 -- --check 6.12)"
vq_done
