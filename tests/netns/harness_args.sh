#!/bin/bash
# tests/vm/run.sh, tests/bench/vm_scenarios.sh, vm_vqpair.sh and vm_rrpair.sh refuse a bad
# option, kernel tag or setting by name, exit 2, before they lock, fetch, build or boot
# anything (VQ_BENCH_TICK_MS=abc had failed only inside the guest, after the whole sweep; a
# bad tag only after the VM lock).
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
GRID="default bql16k bql64k bql256k busy50 coal ring1024 zcp16 zc zcmb10k copy bw32 nw16 bqlbw gso16k min256k zcmin256k zcbw32 zcbql16k zcbql64k"
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
	"2 vm: VQ_BENCH_MODE must be one of bench bench-rrpair bench-scen, not 'x' files=0" \
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
	"2 vm_scenarios: unknown option '--bogus' (options: --check --table -h --help) files=0" \
	"$(scen -- --bogus)"
check "vm_scenarios VQ_BENCH_TICK_MS=abc" "2 vm_scenarios: VQ_BENCH_TICK_MS must be a whole number\
 in 10..60000 (ms, vqtuned --interval), not 'abc' files=0" \
	"$(scen VQ_BENCH_TICK_MS=abc)"
check "vm_scenarios VQ_BENCH_S=0" \
	"2 vm_scenarios: VQ_BENCH_S must be a whole number in 1..3600 (seconds), not '0' files=0" \
	"$(scen VQ_BENCH_S=0)"
check "vm_scenarios VQ_BENCH_SWEEP_RUNS=0" \
	"2 vm_scenarios: VQ_BENCH_SWEEP_RUNS must be a whole number in 1..100 (runs per sweep setting),\
 not '0' files=0" "$(scen VQ_BENCH_SWEEP_RUNS=0)"
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
check "vm_scenarios VQ_BENCH_OBSERVE=2" \
	"2 vm_scenarios: VQ_BENCH_OBSERVE must be one of 0 1 b, not '2' files=0" \
	"$(scen VQ_BENCH_OBSERVE=2)"
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
check "vm_scenarios VQ_BENCH_NICE=-1" "2 vm_scenarios: VQ_BENCH_NICE must be a whole number in\
 0..19 (a nice(1) value; a negative one would put vqtuned before the workload), not '-1' files=0" \
	"$(scen VQ_BENCH_NICE=-1)"
check "vm_scenarios VQ_BENCH_SLICE_US=50" "2 vm_scenarios: VQ_BENCH_SLICE_US must be 0\
 (none) or 100..100000 us (vqtuned --sched-slice), not '50' files=0" \
	"$(scen VQ_BENCH_SLICE_US=50)"
for v in 100001 010 -1 1e3; do
	check "vm_scenarios VQ_BENCH_SLICE_US=$v" "2 vm_scenarios: VQ_BENCH_SLICE_US must be 0\
 (none) or 100..100000 us (vqtuned --sched-slice), not '$v' files=0" \
		"$(scen VQ_BENCH_SLICE_US="$v")"
done
check "vm_scenarios --check takes good settings" "0  files=0" \
	"$(scen VQ_BENCH_TICK_MS=200 VQ_BENCH_SWEEP_RUNS=2 VQ_BENCH_SCENS="rr bulkrr" \
		VQ_BENCH_GRID=bw32,nw16,gso16k \
		VQ_BENCH_PIN=1:0 VQ_BENCH_WARMUP_S=0 VQ_BENCH_TRACE=1 VQ_BENCH_POLICY=observe \
		VQ_BENCH_OBSERVE=b VQ_BENCH_QDISC=fq_codel VQ_BENCH_LINE_MBIT=200 VQ_BENCH_SLICE_US=100 \
		VQ_VM_TIMEOUT=5400 -- --check 6.12)"

# ---- vm_scenarios --table FILE: the table of kept bench lines, nothing booted. Two rounds
# of rr with every column; medians of two runs are their mean.
cat >"$VQ_TMP/t.cells" <<'EOF2'
bench-tag: 7
bench-scen: kernel 7.0-test cpus 2 (c) policy balanced.json runs 2
bench-cell: scen=rr cfg=grid set=default run=1 p50_us=200 p99_us=580
bench-winner: scen=rr set=default
bench-cell: scen=rr cfg=b set=default run=1 p50_us=200 p99_us=580
bench-cell: scen=rr cfg=a set=default run=1 p50_us=200 p99_us=400
bench-cell: scen=rr cfg=c set=vqtuned run=1 p50_us=210 p99_us=550 events=3 vqt_cpu_pm=12
bench-cell: scen=rr cfg=o set=vqtuned run=1 p50_us=205 p99_us=500 events=0 vqt_cpu_pm=8
bench-cell: scen=rr cfg=a2 set=default run=1 p50_us=200 p99_us=440
bench-cell: scen=rr cfg=a set=default run=2 p50_us=220 p99_us=600
bench-cell: scen=rr cfg=c set=vqtuned run=2 p50_us=230 p99_us=650 events=3 vqt_cpu_pm=10
bench-cell: scen=rr cfg=o set=vqtuned run=2 p50_us=215 p99_us=800 events=0 vqt_cpu_pm=9
bench-cell: scen=rr cfg=a2 set=default run=2 p50_us=200 p99_us=660
bench-time: scen=rr s=300
EOF2
check "--table: exit code of a full table" "0 # vqpair live-traffic table, kernel 7, TCG guest: \
kernel 7.0-test cpus 2 (c) policy balanced.json runs 2 files=0" "$(scen -- --table "$VQ_TMP/t.cells")"
check "... the p99 row: (a) (b) (c) (o) (a'), median [min-max]" \
	"rr p99 us (RTT) 500 [400-600] 580 [580-580] 600 [550-650] 650 [500-800] 550 [440-660]" \
	"$(grep '^rr *p99' "$VQ_TMP/out" | tr -s ' ' | sed 's/ $//')"
check "... the ratios" "rr p99_us (c)/(a) 1.20 (c)/(b) 1.03 (c)/(o) 0.92 (o)/(a) 1.30 noise \
|(a')/(a) - 1| 0.10" \
	"$(grep '^ *rr *p99_us *(c)' "$VQ_TMP/out" | grep -v '<=' | tr -s ' ' | sed 's/^ //')"
check "... the targets, unrounded: (c)/(a) against 1 + noise, (c)/(b) against 1.10" \
	"rr p99_us (c)/(a) 1.200 <= 1.100: NOT met (noise 0.100); (c)/(b) 1.034 <= 1.100: met" \
	"$(grep '^ *rr *p99_us *(c)/(a) [0-9.]* <=' "$VQ_TMP/out" | tr -s ' ' | sed 's/^ //')"
check "... and counted" "met 1 of 2; not met: rr:(c)/(a)" \
	"$(grep '^ *met [0-9]* of' "$VQ_TMP/out" | sed 's/^ *//')"
check "... the paired ratios of each round: (c) over the mean of its (a) and (a'), over its (b)" \
	"rr p99_us paired: (c)/mean((a),(a')) per round 1.31 1.03 median 1.17; (c)/(b) 0.95 median 0.95" \
	"$(grep '^ *rr *p99_us *paired:' "$VQ_TMP/out" | tr -s ' ' | sed 's/^ //')"
check "... (o)'s events marked" "vqtuned knob events per run, rr: 3 o:0 3 o:0" \
	"$(grep 'knob events' "$VQ_TMP/out" | sed 's/^ *//')"
# VQ_BENCH_OBSERVE=b: (o) ran on (b)'s setting (set=vqtuned-on-WINNER): its column says so and
# it is compared with (b), not (a)
sed 's/cfg=o set=vqtuned /cfg=o set=vqtuned-on-default /' "$VQ_TMP/t.cells" >"$VQ_TMP/ob.cells"
read -r rc _ <<<"$(scen -- --table "$VQ_TMP/ob.cells")"
check "--table with (o) on (b): exit code" 0 "$rc"
check_true "... the column named so ($(grep '^scen' "$VQ_TMP/out" | tr -s ' '))" \
	grep -q '^scen .*(o) observe on (b) ' "$VQ_TMP/out"
check "... the ratios: (o)/(b), not (o)/(a)" "rr p99_us (c)/(a) 1.20 (c)/(b) 1.03 (c)/(o) 0.92 \
(o)/(b) 1.12 noise |(a')/(a) - 1| 0.10" \
	"$(grep '^ *rr *p99_us *(c)' "$VQ_TMP/out" | grep -v '<=' | tr -s ' ' | sed 's/^ //')"
grep -v 'cfg=c ' "$VQ_TMP/t.cells" >"$VQ_TMP/noc.cells"
read -r rc _ <<<"$(scen -- --table "$VQ_TMP/noc.cells")"
check "--table without (c): exit code" 1 "$rc"
check_true "... names both cells ($(grep '^cells without' "$VQ_TMP/out"))" \
	grep -Eq '^cells without a number:( rr/c/p(50|99)_us){2}$' "$VQ_TMP/out"
check_true "... not the same one twice" grep -q 'p50_us.*p99_us\|p99_us.*p50_us' "$VQ_TMP/out"
check "--table of a missing file" "2 vm_scenarios: --table: cannot read '$VQ_TMP/none' files=0" \
	"$(scen -- --table "$VQ_TMP/none")"
check "--table of a file without bench lines" \
	"2 vm_scenarios: --table: no bench-cell line in '$VQ_TMP/empty.cells' files=0" \
	"$(: >"$VQ_TMP/empty.cells"; scen -- --table "$VQ_TMP/empty.cells")"
printf 'bench-cell: scen=rr cfg=a set=default run=1 p50_us=200 p99_us=400\nbench-cell: garbage\n' \
	>"$VQ_TMP/bad.cells"
check "--table of a malformed line" "2 vm_scenarios: --table: line 2 of '$VQ_TMP/bad.cells' is no \
bench-cell line the guest prints (scen= cfg= set= run=, figures as plain numbers): 'bench-cell: \
garbage' files=0" "$(scen -- --table "$VQ_TMP/bad.cells")"
printf 'bench-cell: scen=rr cfg=a set=default run=1 p50_us=abc p99_us=400\n' >"$VQ_TMP/nan.cells"
check "--table of a figure that is no number: refused, not read as 0" "2 vm_scenarios: --table: \
line 1 of '$VQ_TMP/nan.cells' is no bench-cell line the guest prints (scen= cfg= set= run=, \
figures as plain numbers): 'bench-cell: scen=rr cfg=a set=default run=1 p50_us=abc p99_us=400' \
files=0" "$(scen -- --table "$VQ_TMP/nan.cells")"
check "--table with a tag" "2 vm_scenarios: --table FILE takes no other argument or option files=0" \
	"$(scen -- --table "$VQ_TMP/t.cells" 7)"
check "--table without FILE" "2 vm_scenarios: --table needs a FILE of bench lines files=0" \
	"$(scen -- --table)"
# ---- tests/bench/vm_vqpair.sh (make bench-vm) ----
vqp() { refused tests/bench/vm_vqpair.sh "$@"; }
check "vm_vqpair bad tag" "2 vm_vqpair: KERNEL_TAG must be one of $TAGS, not '5.10' files=0" \
	"$(vqp -- 5.10)"
check "vm_vqpair bad VQ_BENCH_KERNEL" \
	"2 vm_vqpair: VQ_BENCH_KERNEL must be one of $TAGS, not '9' files=0" \
	"$(vqp VQ_BENCH_KERNEL=9)"
check "vm_vqpair two tags" "2 vm_vqpair: one KERNEL_TAG at most, not '7 6.1' files=0" \
	"$(vqp -- 7 6.1)"

# ---- tests/bench/vm_rrpair.sh (make bench-rrpair) ----
rrp() { refused tests/bench/vm_rrpair.sh "$@"; }
check "vm_rrpair bad tag" "2 vm_rrpair: KERNEL_TAG must be one of $TAGS, not '5.10' files=0" \
	"$(rrp -- 5.10)"
check "vm_rrpair two tags" "2 vm_rrpair: one KERNEL_TAG at most, not '7 6.1' files=0" \
	"$(rrp -- 7 6.1)"
check "vm_rrpair bad option" \
	"2 vm_rrpair: unknown option '--bogus' (options: --check -h --help) files=0" \
	"$(rrp -- --bogus)"
check "vm_rrpair VQ_BENCH_RUNS=0" \
	"2 vm_rrpair: VQ_BENCH_RUNS must be a whole number in 1..100 (pairs), not '0' files=0" \
	"$(rrp VQ_BENCH_RUNS=0)"
check "vm_rrpair VQ_BENCH_WINDOWS=5" \
	"2 vm_rrpair: VQ_BENCH_WINDOWS must be a multiple of 2 (the states' order has 2 of each), not '5' files=0" \
	"$(rrp VQ_BENCH_WINDOWS=5)"
check "vm_rrpair empty tag" "2 vm_rrpair: KERNEL_TAG must not be empty files=0" "$(rrp -- '')"
check "vm_scenarios empty tag" "2 vm_scenarios: KERNEL_TAG must not be empty files=0" "$(scen -- '')"
check "vm_rrpair VQ_BENCH_S=abc" \
	"2 vm_rrpair: VQ_BENCH_S must be a whole number in 1..3600 (seconds), not 'abc' files=0" \
	"$(rrp VQ_BENCH_S=abc)"
check "vm_rrpair --check takes good settings" "0  files=0" \
	"$(rrp VQ_BENCH_RUNS=2 VQ_BENCH_WINDOWS=4 VQ_BENCH_S=5 VQ_BENCH_WARMUP_S=0 -- --check 6.12)"

# ---- make bench-scen / bench-vm VQ_BENCH_KERNEL=9: the refusal names the make variable the
# user set, not the scripts' KERNEL_TAG argument
for t in bench-scen bench-vm bench-rrpair; do
	env VQ_CACHE="$VQ_TMP/cache" timeout "$REFUSE_TIMEOUT_S" make -s -C "$ROOT" "$t" \
		VQ_BENCH_KERNEL=9 > "$VQ_TMP/out" 2>&1
	check "make $t VQ_BENCH_KERNEL=9: refused by the variable's name" 1 \
		"$(grep -c "^vm_[a-z]*: VQ_BENCH_KERNEL must be one of $TAGS, not '9'$" "$VQ_TMP/out")"
done
vq_done
