#!/bin/sh
# What request/response pays for a running vqtuned, measured on ONE pair (vqmode=
# bench-rrpair; host side tests/bench/vm_rrpair.sh). The live-traffic table
# (bench_scen.sh) compares fresh pairs, whose rr p99 differs from pair to pair by about as
# much as the daemon's cost; here every state is measured on the same pair, in windows
# interleaved in a balanced order, so the pair's own level and its drift cancel:
#   R  vqtuned running (policies/balanced.json, 1 s tick paced up to 4 s), with its own
#      scheduler slice (vqtuned --sched-slice 100; vqtuned(8) SCHEDULER SLICE)
#   K  the same daemon running with the kernel's slice (tests/tools/vqslice PID 0)
#   S  the same daemon stopped (SIGSTOP): present, holding its knobs, not running
# sockperf UDP ping-pong front -> back, client on CPU 0, server and backend worker on CPU 1,
# as bench_scen.sh's rr pins them; the daemon unpinned. After WARM_S of ping-pong with the
# daemon running (its warm-up: the balanced policy's busyloop probe), WINDOWS windows of
# DUR seconds per state and pair, in the order R K S R S K repeated: each state follows
# each other state equally often (a resumed daemon's catch-up tick lands after S as often
# in R as in K), and each window starts SETTLE_S after its state is set, past that tick.
# On a kernel before 6.12 (no slice per task) R and K are the same state.
# One machine-parsable line per window:
#   bench-rrpair: pair=N state=R|K|S p50_us=X p99_us=X p999_us=X msgs=N cpu_cs=N slice_ns=N
# (cpu_cs: the daemon's CPU time in the window, centiseconds; slice_ns: its slice then).
# After each pair, what its ticks cost (/v1/status tick_wall_ns, tick_cpu_ns, tick_parts_ns):
#   bench-rrpair-tick: pair=N ticks=N wall_ns=N cpu_ns=N PART=NS ...
# A window that could not be measured prints error=WHY; "bench-rrpair-done:" ends a whole
# run, and a failure is a "bench-note: FAIL: ..." line (the host counts the windows).
# Env: VQ_BENCH_RUNS (pairs, default 3), VQ_BENCH_S (window seconds, default 10),
# VQ_BENCH_WINDOWS (windows per state and pair, a multiple of 2, default 6),
# VQ_BENCH_WARMUP_S (default 25), VQ_BENCH_MAX_TICK_MS (vqtuned --max-interval; unset, the
# daemon's own default, a paced tick, vqtuned(8) INTERVAL PACING, which the first pair's
# status gives as "bench-note: vqtuned tick A..B ms"; TICK_MS: fixed).
. /tests/lib.sh
# lib.sh's fail() prints "FAIL:", which the host's bench filter drops: a note instead
fail() { echo "bench-note: FAIL: $*"; exit 1; }
PAIRS=${VQ_BENCH_RUNS:-3}
DUR=${VQ_BENCH_S:-10}
WINDOWS=${VQ_BENCH_WINDOWS:-6}
WARM_S=${VQ_BENCH_WARMUP_S:-25}
TICK_MS=1000
MAX_TICK_MS=${VQ_BENCH_MAX_TICK_MS:-}
for b in vqtuned vqtunectl vqslice; do
	command -v $b > /dev/null || fail "$b is not in the initramfs (make all tools)"
done
SR_PORT=11111
VQT_DIR=/tmp/vqt
# vqtuned answering on its socket after start (TCG: process start is slow)
VQT_READY_S=20
# the states' order: every ordered pair of two states once per 6 windows (the last window
# of one round precedes the first of the next), 2 windows per state
ORDER="R K S R S K"
# after a state is set, before its window: past a resumed daemon's catch-up tick (the
# timer expired while it was stopped) and the next, at the 1 s tick
SETTLE_S=1.5
SR_PID=""
V=""

stop_all() {
	[ -n "$V" ] && { kill -CONT "$V"; kill "$V"; wait "$V"; } 2> /dev/null
	[ -n "$SR_PID" ] && { kill "$SR_PID"; wait "$SR_PID"; } 2> /dev/null
	V="" SR_PID=""
	cleanup
}
trap stop_all EXIT

# the backend workers (kthreads "vqpairID-Q") on CPU 1, as bench_scen.sh pins them
pin_backend() {
	local c
	for c in /proc/[0-9]*/comm; do
		case $(cat "$c" 2>/dev/null) in
		vqpair*-*) c=${c%/comm}; taskset -p -c 1 "${c#/proc/}" > /dev/null ;;
		esac
	done
}
# pp SECS: sockperf ping-pong from the front, full round trip; its figures as key=value
pp() {
	taskset -c 0 /sbin/ip netns exec $NSA sockperf pp -i $IPB -p $SR_PORT -t "$1" \
		--full-rtt > /tmp/rrpair.pp 2>&1 || { echo "error=sockperf-failed"; return 1; }
	awk '/percentile 50.000 =/ {p50 = $NF} /percentile 99.000 =/ {p99 = $NF}
		/percentile 99.900 =/ {p999 = $NF}
		/SentMessages=/ { for (i = 1; i <= NF; i++) if ($i ~ /^SentMessages=/) {
			split($i, kv, "="); n = kv[2] + 0 } }
		END { if (p50 == "" || p99 == "" || p999 == "") { print "error=no-percentiles"; exit 1 }
			printf "p50_us=%s p99_us=%s p999_us=%s msgs=%d", p50, p99, p999, n }' \
		/tmp/rrpair.pp
}
cpu_cs() { awk '{ print $14 + $15 }' /proc/$V/stat; }
vqt() { vqtunectl -s $VQT_DIR/sock --timeout 5 "$@"; }

echo "bench-rrpair-head: kernel $(uname -r) cpus $(nproc) pairs $PAIRS window ${DUR}s" \
	"windows $WINDOWS warm-up ${WARM_S}s tick ${TICK_MS}ms max-tick ${MAX_TICK_MS:+${MAX_TICK_MS}ms}${MAX_TICK_MS:-default}" \
	"policy balanced"
p=1
while [ $p -le "$PAIRS" ]; do
	pair_up 1
	pin_backend
	taskset -c 1 /sbin/ip netns exec $NSB sockperf sr -i $IPB -p $SR_PORT \
		> /tmp/rrpair.sr 2>&1 &
	SR_PID=$!
	sleep 0.5
	rm -rf $VQT_DIR
	mkdir -p $VQT_DIR
	vqtuned --netns $NSA --interval $TICK_MS ${MAX_TICK_MS:+--max-interval "$MAX_TICK_MS"} \
		--sched-slice 100 \
		--policy /policies/balanced.json \
		-s $VQT_DIR/sock -S $VQT_DIR/state > $VQT_DIR/log 2>&1 &
	V=$!
	n=0
	while [ $n -lt $((VQT_READY_S * 4)) ] && ! vqt status > /dev/null 2>&1; do
		kill -0 $V 2> /dev/null || break
		sleep 0.25
		n=$((n + 1))
	done
	vqt status > /dev/null 2>&1 || { sed 's/^/bench-note: /' $VQT_DIR/log; fail "vqtuned did not start"; }
	if [ "$p" = 1 ]; then
		# the tick's range as the daemon runs it (status tick_base_ns, tick_max_ns)
		t=$(vqt --json status | tr -d " \n")
		b=$(jnum "$t" tick_base_ns) m=$(jnum "$t" tick_max_ns)
		[ -n "$b" ] && [ -n "$m" ] || fail "vqtuned status: no tick_base_ns/tick_max_ns"
		echo "bench-note: vqtuned tick $((b / 1000000))..$((m / 1000000)) ms" \
			"($([ "$m" -gt "$b" ] && echo paced || echo fixed))"
	fi
	own=$(vqslice $V | sed 's/slice_ns=//')
	case $own in
	''|*[!0-9]*) fail "vqslice $V: '$own', not the daemon's slice in ns" ;;
	esac
	[ "$WARM_S" = 0 ] || pp "$WARM_S" > /dev/null
	w=0
	while [ $w -lt "$WINDOWS" ]; do
		for st in $ORDER; do
			case $st in
			S) kill -STOP $V ;;
			R) kill -CONT $V
			   [ "$own" = 0 ] || vqslice $V $((own / 1000)) > /dev/null ;;
			K) kill -CONT $V; vqslice $V 0 > /dev/null ;;
			esac
			sleep $SETTLE_S
			sl=$(vqslice $V | sed 's/slice_ns=//')
			c0=$(cpu_cs)
			r=$(pp "$DUR")
			echo "bench-rrpair: pair=$p state=$st $r cpu_cs=$(($(cpu_cs) - c0)) slice_ns=$sl"
		done
		w=$((w + 2))
	done
	kill -CONT $V
	vqt events 2>&1 | tail -4 | sed "s/^/bench-note: pair $p: /"
	# the daemon's ticks over the pair, warm-up included: what they cost, by part
	t=$(vqt --json status | tr -d " \n")
	echo "bench-rrpair-tick: pair=$p ticks=$(jnum "$t" ticks)" \
		"wall_ns=$(jnum "$t" tick_wall_ns) cpu_ns=$(jnum "$t" tick_cpu_ns) $(jparts "$t")"
	stop_all
	p=$((p + 1))
done
echo "bench-rrpair-done: pairs $PAIRS"
