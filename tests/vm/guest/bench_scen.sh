#!/bin/sh
# The live-traffic proof table, guest side (vqmode=bench-scen): four scenarios on a vqpair
# between the namespaces vqa (front, 10.77.0.1) and vqb (back, 10.77.0.2), traffic front ->
# back through queue 0, each under
#   (a) the module's default knobs,
#   (b) the best static setting of a small grid (sweep), measured again on its own,
#   (c) vqtuned with policies/balanced.json managing vqa, started fresh for every run,
#   (o) with VQ_BENCH_OBSERVE=1, vqtuned with policies/observe.json, after (c) in each
#        round: the daemon samples and no law writes, so (c)/(o) is the controllers' own;
#        with VQ_BENCH_OBSERVE=b the same on a pair with (b)'s setting, so (o)/(b) is what
#        the sampling costs where (c) ends up holding (b)'s knobs,
#   (a') the default again, last in each round: (a')/(a) is the bench's own noise, what
#        two identical settings on two fresh pairs read apart (VQ_BENCH_NOISE=0: skip).
# After the sweep, (a), (b), (c), (a') are measured interleaved, run 1 of each, then run 2 ...,
# each on a fresh pair warmed up alike (WARM_S of the scenario's traffic, vqtuned's warm-up
# in (c)), so that a host whose load drifts over minutes shifts all three alike.
# Scenarios (metric of the winner in brackets):
#   rr      sockperf UDP ping-pong, full round trip, p50 and p99 in us       [p99, lower]
#   bulk    iperf3 TCP -P 4, Gbit/s                                          [higher]
#   bulkrr  rr while bulk runs through the same queue; both recorded         [p99, lower,
#           among settings whose bulk median is >= 90% of the default's]
#   slowzc  bulk with zerocopy on and a slow consumer holding the zerocopy pages
#           SLOW_HOLD_US (debugfs zc_hold_us: only zerocopy completions are held, in
#           order, so copies behind them wait too: vhost_net's head-of-line stall); the
#           grid's "copy" entry (zerocopy off) is the copy-mode reference   [higher]
# One machine-parsable line per run, for tests/bench/vm_scenarios.sh:
#   bench-cell: scen=S cfg=a|grid|b|c|o|a2|ref set=NAME run=N [p50_us=X p99_us=X] [gbps=X] [k=v..]
# (grid: the sweep, default included; ref: slowzc's copy-mode reference, interleaved too)
# A run that could not be measured prints error=WHY and no figure; the host fails on it.
# Everything else a cell prints is prefixed "bench-note: " (tests/vm/run.sh --bench passes
# only lines that say bench to its output).
# Env (kernel command line words reach /init's environment): VQ_BENCH_S, VQ_BENCH_RUNS,
# VQ_BENCH_SWEEP_RUNS,
# VQ_BENCH_WARMUP_S, VQ_BENCH_TICK_MS, VQ_BENCH_MAX_TICK_MS (vqtuned --max-interval, below),
# VQ_BENCH_SCENS, VQ_BENCH_GRID, VQ_BENCH_B_FRESH,
# VQ_BENCH_EVENTS (vqtuned decisions shown per run, default 4), VQ_BENCH_NOISE, VQ_BENCH_OBSERVE,
# VQ_BENCH_POLICY (the policy of (c), a name in /policies, default balanced; observe
# measures what vqtuned's sampling alone costs), VQ_BENCH_PIN (CPU placement, below),
# VQ_BENCH_TRACE (1: each bulkrr cell also gets the queue's state, see trace_start()),
# VQ_BENCH_QDISC (the pairs' qdisc, pfifo_fast or fq_codel, below), VQ_BENCH_LINE_MBIT (the
# backend's line rate, below), VQ_BENCH_NICE (vqtuned's nice value, below),
# VQ_BENCH_SLICE_US (vqtuned --sched-slice, below).
. /tests/lib.sh

# measured seconds per run: 10, where 4 s windows read the rr-under-bulk default's p99 at
# 0.4-0.5 ms with a noise |(a')/(a) - 1| of 0.02-1.15 across benches, and 10 s windows at 6-7
# ms with 0.01-0.30 (the bottleneck bench's 4 s windows read 0.6: some found the queue empty)
DUR=${VQ_BENCH_S:-10}
RUNS=${VQ_BENCH_RUNS:-3}
# runs per setting of the sweep that picks (b) (one pair, no warm-up: ~12 s a run against
# ~45 s for a warmed-up run of a round), so more rounds cost no longer sweep
SWEEP_RUNS=${VQ_BENCH_SWEEP_RUNS:-$RUNS}
# vqtuned's warm-up under the scenario's traffic before the measured window
WARM_S=${VQ_BENCH_WARMUP_S:-25}
# vqtuned tick: the daemon's default (1 s, as systemd/vqtuned.service runs it), which gives
# the controllers ~25 decisions in the warm-up. At 200 ms, vqtuned's own sampling (a few ms
# of a TCG vCPU per tick, docs/bench.md "Sampling cost") alone read 1.9x the default's rr p99
# with the observe policy; at 1 s, 1.01x.
TICK_MS=${VQ_BENCH_TICK_MS:-1000}
# vqtuned --max-interval (its tick while nothing moves, vqtuned(8) INTERVAL PACING): the
# daemon's default when unset (the header says "default"; the first daemon's status gives
# the figure, noted once as "vqtuned tick"); TICK_MS fixes the tick
MAX_TICK_MS=${VQ_BENCH_MAX_TICK_MS:-}
# vqtuned's nice value: 0, as systemd/vqtuned.service runs it. Nice 10 was tried for rr's
# p99 (each tick's sampling, a few ms of a TCG vCPU, sits on the ping-pong's vCPUs) and bought
# nothing: rr (c)/(a) read 1.20 at nice 10 (noise 0.07) and 1.13 at nice 0 (noise 0.29), 5
# runs each, both inside the spread of the default columns themselves
NICE=${VQ_BENCH_NICE:-0}
# vqtuned --sched-slice in us, for (c) and (o): 0 (default) asks for none, as
# systemd/vqtuned.service.in runs it.
# A short slice (100) lets a waking workload task take the vCPU from a running tick sooner
# (EEVDF, Linux 6.12+)
SLICE_US=${VQ_BENCH_SLICE_US:-0}
# lists come comma-separated on the kernel command line
SCENS=$(echo "${VQ_BENCH_SCENS:-rr bulk bulkrr slowzc}" | tr , ' ')
# the default grid; apply_set() also knows bw32, nw16, bql64k, bql256k, gso16k, zcmb10k,
# min256k, zcmin256k, zcbw32, zcbql16k and zcbql64k, for
# VQ_BENCH_GRID
GRID=$(echo "${VQ_BENCH_GRID:-default bql16k busy50 coal ring1024 zc zcp16 copy bqlbw}" | tr , ' ')
# 1: (b) is measured again after the sweep (no winner's curse); 0: the winner's sweep runs
B_FRESH=${VQ_BENCH_B_FRESH:-1}
# 1: (a') measures the default once more per round, the noise floor of every comparison
NOISE=${VQ_BENCH_NOISE:-1}
# mkinitramfs.sh copies policies/*.json to /policies
POLICY=/policies/${VQ_BENCH_POLICY:-balanced}.json
# policy_mode FILE: the mode a daemon with the policy FILE must run in, the file's own
policy_mode() { sed -n 's/.*"mode": *"\([a-z]*\)".*/\1/p' "$1" 2>/dev/null | head -1; }
# 1: an (o) column, vqtuned with policies/observe.json (it samples, no law writes) run
# interleaved with (c), so (c)/(o) is what the controllers do, apart from the daemon's
# sampling and from the drift between benches; b: that daemon on a pair with the sweep's
# winner applied (cells set=vqtuned-on-WINNER), so (o)/(b) is the sampling's own cost in
# (b)'s regime, not the default's; 0 (default): none
OBSERVE=${VQ_BENCH_OBSERVE:-0}
# iperf3 streams of every bulk run: four flows share the one queue
BULK_STREAMS=4
# iperf3 -O: TCP slow start is left out of every bulk figure
BULK_OMIT_S=1
# bulkrr: sockperf starts this long after iperf3, so the queue is already full
BG_LEAD_S=1
# sockperf's start on TCG plus its own 400 ms warm-up before it measures
PP_START_S=1
# slow consumer: zerocopy pages held 200 ms (200x balanced.json's 1 ms zerocopy latency
# target): a ring of 64 KiB buffers per hold is ~0.7 Gbit/s, under TCG's copy rate
SLOW_HOLD_US=200000
# bulkrr winner: the bulk it keeps, as a share of the default's median (per mille)
BULK_KEEP_PERMILLE=900
# vqtuned answering on its socket after start (TCG: process start is slow)
VQT_READY_S=20
# VQ_BENCH_PIN=F:B: the front's applications (sockperf and iperf3 clients) run on CPU F, the
# backend worker and the back's applications (their servers) on CPU B: a guest's vCPU and
# its vhost worker on another host CPU. "none": the scheduler places them; then each fresh
# pair lands its own way, and under TCG rr's p50 takes one of two values (~330 or ~700 us)
# from run to run, which no knob explains. vqtuned itself is never pinned: its cost shows.
PIN=${VQ_BENCH_PIN:-0:1}
# ON_F/ON_B: command prefixes (taskset execs the command: $! stays the command's pid)
if [ "$PIN" = none ]; then
	PIN_B="" ON_F="" ON_B=""
else
	PIN_B=${PIN##*:}
	ON_F="taskset -c ${PIN%%:*}" ON_B="taskset -c $PIN_B"
fi
# the qdisc every pair's devices get (net.core.default_qdisc, set before the first pair):
# pfifo_fast, the kernel's built-in default where CONFIG_DEFAULT_NET_SCH is not set (one
# FIFO: a request waits behind every bulk packet the qdisc holds, whatever the driver's
# queue limit, so the queue-limit law leaves limit_max alone there); or fq_codel, which
# Debian's test kernels are built with (CONFIG_DEFAULT_NET_SCH) and systemd's
# sysctl.d/50-default.conf sets on Debian guests and hosts (flow queues: a request passes
# the bulk backlog, and waits only behind what BQL let into the driver). Set either way.
QDISC=${VQ_BENCH_QDISC:-pfifo_fast}
# the backend's line rate, Mbit/s (vqpair debugfs line_rate_mbit; 0: none, the worker drains
# as fast as its CPU allows)
LINE_MBIT=${VQ_BENCH_LINE_MBIT:-0}
# 1: sample the front queue's state during each measured window (trace_start())
TRACE=${VQ_BENCH_TRACE:-0}
# the sampler's period
TRACE_PERIOD_S=0.1
SR_PORT=11111
VQT_DIR=/tmp/vqt
# the last decisions of each vqtuned run shown as notes (VQ_BENCH_EVENTS)
VQT_EVENTS_SHOWN=${VQ_BENCH_EVENTS:-4}
VQT_PID=""
SR_PID=""
TRACE_PID=""

# bench_pair_up: a fresh one-queue pair, its backend workers (kthreads "vqpairID-Q") moved
# to the back's CPU
bench_pair_up() {
	local c
	pair_up 1
	[ "$LINE_MBIT" = 0 ] || dbg 0 line_rate_mbit "$LINE_MBIT" ||
		fail "cannot set the backend's line rate"
	[ -n "$PIN_B" ] || return 0
	for c in /proc/[0-9]*/comm; do
		case $(cat "$c" 2>/dev/null) in
		vqpair*-*) c=${c%/comm}
			taskset -p -c "$PIN_B" "${c#/proc/}" > /dev/null ||
				fail "cannot pin backend worker ${c#/proc/} to CPU $PIN_B" ;;
		esac
	done
}

stop_pid() { [ -n "$1" ] && kill "$1" 2>/dev/null && wait "$1" 2>/dev/null; }
# every cell runs in a subshell (a pipe into tee): lib.sh's fail() ends only that cell, and
# this trap stops what the cell started and removes its pair
cell_cleanup() {
	stop_pid "$TRACE_PID"
	TRACE_PID=""
	stop_pid "$SR_PID"
	SR_PID=""
	stop_pid "$VQT_PID"
	VQT_PID=""
	cleanup
}
main_cleanup() {
	cell_cleanup
	rm -rf "$VQT_DIR" /tmp/bs
}
trap main_cleanup EXIT

# ---- settings: the base of each scenario, then one grid entry on top --------------------
scen_base() {
	[ "$1" = slowzc ] || return 0
	set_knob zerocopy 1
	dbg 0 zc_hold_us $SLOW_HOLD_US
}

# apply_set NAME: one static setting of the grid; the knob names of include/vqpair.h
apply_set() {
	case $1 in
	default) ;;
	bql16k)	bql 0 limit_max 16384 ;;			# BQL: ~10 full frames in flight
	bql64k)	bql 0 limit_max 65536 ;;			# BQL: one GSO super-packet
	bql256k) bql 0 limit_max 262144 ;;			# BQL: four of them
	busy50)	set_knob busyloop-us 50 ;;			# vhost busyloop_timeout 50 us
	coal)	ina ethtool -C $FRONT tx-usecs 100 tx-frames 32 rx-usecs 100 rx-frames 32 ;;
	ring1024) ina ethtool -G $FRONT tx 1024 ;;
	zcp16)	set_knob zerocopy 1 zerocopy-max-pending 16 ;;
	zc)	set_knob zerocopy 1 ;;				# zerocopy, max-pending 128
	# zerocopy with min-bytes at the balanced policy's break-even (zerocopy.breakeven_bytes),
	# where its zerocopy law leaves it
	zcmb10k) set_knob zerocopy 1 zerocopy-min-bytes 10240 ;;
	copy)	set_knob zerocopy 0 ;;
	bw32)	set_knob backend-weight 32 ;;			# backend: 32 packets a turn
	nw16)	set_knob napi-weight 16 ;;			# front NAPI: 16 a poll
	bqlbw)	bql 0 limit_max 16384; set_knob backend-weight 32 ;;
	# BQL 16 KiB and GSO packets of at most 16 KiB: at a slow line a request waits behind
	# the whole GSO packet the line is sending (64 KiB at 200 Mbit/s: 2.6 ms)
	gso16k)	bql 0 limit_max 16384; ina /sbin/ip link set $FRONT gso_max_size 16384 ;;
	# dql kept at or above 256 KiB in flight (limit_min): the driver holds what the qdisc
	# would, and the queue stops and wakes less often; with zerocopy too (zcmin256k)
	min256k) bql 0 limit_min 262144 ;;
	zcmin256k) set_knob zerocopy 1; bql 0 limit_min 262144 ;;
	zcbw32)	set_knob zerocopy 1 backend-weight 32 ;;	# zerocopy, backend turns of 32
	# zerocopy with BQL capped: a buffer completes when the receiver has it, so a small
	# limit_max caps what the bulk flows keep in flight, and their rate, not only the queue
	zcbql16k) set_knob zerocopy 1; bql 0 limit_max 16384 ;;
	zcbql64k) set_knob zerocopy 1; bql 0 limit_max 65536 ;;
	*)	echo "unknown grid setting $1"; return 1 ;;
	esac
}

# a grid entry that equals the default in a scenario is not measured twice
set_applies() {
	[ "$2" = copy ] && [ "$1" != slowzc ] && return 1
	[ "$2" = zc ] && [ "$1" = slowzc ] && return 1	# scen_base turned zerocopy on
	return 0
}

# ---- queue trace (VQ_BENCH_TRACE=1) -----------------------------------------------------
# trace_start: sample BQL's limit and inflight of the front's queue 0, in bytes (sysfs
# byte_queue_limits), every TRACE_PERIOD_S into /tmp/bs/trace. The sampler forks nothing (sh
# builtins only: read, and read -t on a FIFO nobody writes for the wait), because on TCG each
# fork and exec costs milliseconds of the CPUs the workload runs on.
trace_start() {
	TRACE_PID=""
	[ "$TRACE" = 1 ] || return 0
	rm -f /tmp/bs/tick
	mkfifo /tmp/bs/tick
	# not through ina(): $! must be the sampler itself (ip netns exec execs sh) for kill
	/sbin/ip netns exec $NSA sh -c "q=/sys/class/net/$FRONT/queues/tx-0/byte_queue_limits
		exec 3<> /tmp/bs/tick
		while :; do
			read l < \$q/limit; read i < \$q/inflight
			echo \$l \$i
			read -t $TRACE_PERIOD_S x <&3
		done" > /tmp/bs/trace 2>&1 &
	TRACE_PID=$!
}
# trace_stop: the samples' medians and maxima as key=value figures (nothing when off)
trace_stop() {
	[ -n "$TRACE_PID" ] || return 0
	stop_pid "$TRACE_PID"
	TRACE_PID=""
	awk 'function med(col,    n, i, j, t, a) {
		n = split(col, a, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n ? a[int((n + 1) / 2)] + 0 : -1
	}
	NF == 2 && $1 ~ /^[0-9]+$/ {
		for (i = 1; i <= 2; i++) { c[i] = c[i] " " $i; if ($i + 0 > mx[i]) mx[i] = $i + 0 }
		n++
	}
	END {
		if (!n) { printf " trace=none"; exit }
		printf " bql_limit_b=%d/%d bql_inflight_b=%d/%d", med(c[1]), mx[1], med(c[2]), mx[2]
	}' /tmp/bs/trace
}

# ---- measurements: each prints its key=value figures, or returns non-zero ---------------
sr_start() {
	$ON_B /sbin/ip netns exec $NSB sockperf sr -i $IPB -p $SR_PORT > /tmp/bs/sr 2>&1 &
	SR_PID=$!
	sleep 0.5
}
sr_stop() { stop_pid "$SR_PID"; SR_PID=""; }

# pp SECS: sockperf ping-pong from the front; p50/p99 of the full round trip in us
pp() {
	$ON_F /sbin/ip netns exec $NSA sockperf pp -i $IPB -p $SR_PORT -t "$1" --full-rtt \
		> /tmp/bs/pp 2>&1 ||
		{ tail -3 /tmp/bs/pp; return 1; }
	awk '/percentile 50.000 =/ {p50 = $NF} /percentile 99.000 =/ {p99 = $NF}
		END {if (p50 == "" || p99 == "") exit 1; printf "p50_us=%s p99_us=%s", p50, p99}' \
		/tmp/bs/pp || { tail -3 /tmp/bs/pp; return 1; }
}

# iperf_bg SECS OMIT: iperf3 server and client, the client in the background (IPERF_PID);
# the client runs OMIT + SECS seconds and reports the last SECS (iperf3 -O)
iperf_bg() {
	$ON_B /sbin/ip netns exec $NSB iperf3 -s -1 -B $IPB > /dev/null 2>&1 &
	IPERFS_PID=$!
	sleep 0.5
	$ON_F /sbin/ip netns exec $NSA iperf3 -c $IPB -P $BULK_STREAMS -t "$1" -O "$2" \
		> /tmp/bs/iperf 2>&1 &
	IPERF_PID=$!
}
# iperf_wait: the client's SUM receiver rate, Gbit/s
iperf_wait() {
	local rc=0
	wait $IPERF_PID || rc=1
	[ $rc = 0 ] || kill $IPERFS_PID 2>/dev/null
	wait $IPERFS_PID 2>/dev/null
	[ $rc = 0 ] || { tail -3 /tmp/bs/iperf; return 1; }
	awk '/^\[SUM\].*receiver/ {
			for (i = 1; i <= NF; i++) if ($i ~ /bits\/sec$/) { v = $(i - 1); u = $i }
		}
		END {
			if (u == "") exit 1
			if (u ~ /^M/) v /= 1000
			if (u ~ /^K/) v /= 1e6
			printf "gbps=%.3f", v
		}' /tmp/bs/iperf || { tail -3 /tmp/bs/iperf; return 1; }
}

# measure SCEN SECS WARM: one run of SECS measured seconds; WARM seconds of the same traffic
# come first (vqtuned's warm-up) and are left out of the figures
measure() {
	local s=$1 t=$2 w=$3 out
	case $s in
	rr)
		sr_start
		[ "$w" -gt 0 ] && { pp "$w" > /dev/null || { sr_stop; return 1; }; }
		out=$(pp "$t") || { sr_stop; echo "$out"; return 1; }
		sr_stop
		echo "$out" ;;
	bulk|slowzc)
		iperf_bg "$t" $((w + BULK_OMIT_S))
		iperf_wait ;;
	bulkrr)
		# bulk starts BG_LEAD_S ahead of sockperf and its measured window spans the
		# measured ping-pong (plus sockperf's own start and warm-up, PP_START_S)
		sr_start
		iperf_bg $((t + PP_START_S)) $((BG_LEAD_S + w + (w > 0 ? PP_START_S : 0)))
		sleep $BG_LEAD_S
		[ "$w" -gt 0 ] && pp "$w" > /dev/null
		trace_start
		out=$(pp "$t") || { trace_stop; iperf_wait > /dev/null; sr_stop; echo "$out"; return 1; }
		out="$out$(trace_stop)"
		# not in $(): wait needs the shell that started iperf3
		iperf_wait > /tmp/bs/g || { sr_stop; cat /tmp/bs/g; return 1; }
		sr_stop
		echo "$out $(cat /tmp/bs/g)" ;;
	*) echo "unknown scenario $s"; return 1 ;;
	esac
}

# ---- vqtuned ----------------------------------------------------------------------------
# uptime in centiseconds (USER_HZ ticks, the unit of /proc/PID/stat's utime and stime)
uptime_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }
vqt() { vqtunectl -s $VQT_DIR/sock --timeout 5 "$@"; }

# vqt_start [POLICY_FILE]: fresh daemon with that policy ($POLICY by default) managing vqa;
# fails (with the reason in VQT_ERR) when it refuses the policy, dies, or does not run it in
# the policy's mode
vqt_start() {
	local n=0 mode pol=${1:-$POLICY} want t b m
	rm -rf $VQT_DIR
	mkdir -p $VQT_DIR
	VQT_ERR=""
	[ -x /bin/vqtuned ] || { VQT_ERR=vqtuned-not-in-initramfs; return 1; }
	nice -n "$NICE" vqtuned --netns $NSA --interval "$TICK_MS" \
		${MAX_TICK_MS:+--max-interval "$MAX_TICK_MS"} --sched-slice "$SLICE_US" \
		--policy "$pol" -s $VQT_DIR/sock -S $VQT_DIR/state > $VQT_DIR/log 2>&1 &
	VQT_PID=$!
	VQT_T0=$(uptime_cs)
	while [ $n -lt $((VQT_READY_S * 4)) ]; do
		kill -0 $VQT_PID 2>/dev/null || break
		vqt status > /dev/null 2>&1 && break
		sleep 0.25
		n=$((n + 1))
	done
	if ! kill -0 $VQT_PID 2>/dev/null; then
		wait $VQT_PID
		echo "vqtuned exited ($?) at start:"
		sed 's/^/    /' $VQT_DIR/log | tail -5
		# a build without the controllers wired: "mode: 'active' needs the controllers
		# wired ...; policy ... rejected" (API code unsupported)
		grep -Eq 'unsupported|rejected' $VQT_DIR/log &&
			VQT_ERR=vqtuned-refused-active-policy ||
			VQT_ERR=vqtuned-exited
		VQT_PID=""
		return 1
	fi
	mode=$(vqt --json status 2>/dev/null | grep -o '"mode": *"[a-z]*"' | head -1 |
		sed 's/.*"\([a-z]*\)"$/\1/')
	want=$(policy_mode "$pol")
	if [ "$mode" != "${want:-active}" ]; then
		echo "vqtuned runs in mode '${mode:-?}', not ${want:-active}; its log:"
		sed 's/^/    /' $VQT_DIR/log | tail -5
		VQT_ERR=vqtuned-mode-${mode:-unknown}
		return 1
	fi
	# the tick's range as the daemon runs it (status tick_base_ns, tick_max_ns), once a
	# bench (each run is a subshell: the mark is a file)
	if [ ! -e /tmp/bs/tick_noted ]; then
		: > /tmp/bs/tick_noted
		t=$(vqt --json status 2>/dev/null | tr -d ' \n')
		b=$(jnum "$t" tick_base_ns) m=$(jnum "$t" tick_max_ns)
		if [ -z "$b" ] || [ -z "$m" ]; then
			echo "bench-note: vqtuned tick: not in its status"
		else
			echo "bench-note: vqtuned tick $((b / 1000000))..$((m / 1000000)) ms" \
				"($([ "$m" -gt "$b" ] && echo paced || echo fixed))"
		fi
	fi
	return 0
}

# vqt_stop: SIGTERM restores every knob it changed; VQT_EV = its decisions (count), the
# decisions themselves in $VQT_DIR/events for the notes; VQT_TICKS its ticks and a tick's
# mean wall and CPU time (cell words), VQT_PARTS a tick's mean wall time by part (a note),
# VQT_HELD the knobs it had changed, as "KNOB[@INSTANCE]=VALUE(ORIGINAL)" words (a note).
# Not in $(): wait needs this shell.
vqt_stop() {
	local t n w c
	# its CPU time (utime + stime, USER_HZ = 100) per mille of one vCPU since it started
	VQT_CPU_PM=$(awk -v t0="$VQT_T0" -v now="$(uptime_cs)" \
		'{ print (now > t0) ? int(($14 + $15) * 1000 / (now - t0)) : 0 }' \
		/proc/$VQT_PID/stat 2>/dev/null)
	vqt events > $VQT_DIR/events 2>&1
	# what the measured window ran: the knobs table's rows flagged "changed"
	if t=$(vqt knobs $FRONT 2>&1); then
		VQT_HELD=$(echo "$t" | awk '$NF ~ /(^|,)changed(,|$)/ {
			printf "%s%s%s=%s(%s)", sep, $1, ($2 == "-" ? "" : "@" $2), $3, $7
			sep = " " }')
		VQT_HELD=${VQT_HELD:-none}
	else
		VQT_HELD="unknown ($(echo "$t" | head -1))"
	fi
	VQT_EV=$(vqt --json events 2>/dev/null | grep -o '"knob"' | wc -l)
	# its ticks since it started, warm-up included, and a tick's mean wall and CPU time in ns
	# (/v1/status ticks, tick_wall_ns, tick_cpu_ns): what the running daemon holds a vCPU for
	t=$(vqt --json status 2>/dev/null | tr -d ' \n')
	n=$(jnum "$t" ticks)
	VQT_TICKS=""
	VQT_PARTS=""
	if [ "${n:-0}" -gt 0 ]; then
		w=$(jnum "$t" tick_wall_ns) c=$(jnum "$t" tick_cpu_ns)
		VQT_TICKS="ticks=$n tick_wall_ns=$((${w:-0} / n)) tick_cpu_ns=$((${c:-0} / n))"
		# where a tick's wall time goes (status tick_parts_ns, vqtuned(8)), us per tick
		VQT_PARTS=$(jparts "$t" | tr ' ' '\n' | awk -F= -v n="$n" \
			'$2 > 0 { printf "%s%s=%d", sep, $1, $2 / n / 1000; sep = " " }')
	fi
	stop_pid "$VQT_PID"
	VQT_PID=""
}

# ---- cells ------------------------------------------------------------------------------
# emit SCEN CFG SET RUN FIGURES|error=WHY
emit() { echo "bench-cell: scen=$1 cfg=$2 set=$3 run=$4 $5"; }

# cell_static SCEN CFG SET: a fresh pair with that setting, SWEEP_RUNS runs
cell_static() {
	local s=$1 c=$2 set=$3 r=1 out
	trap cell_cleanup EXIT
	bench_pair_up
	if ! scen_base "$s" || ! apply_set "$set"; then
		while [ $r -le "$SWEEP_RUNS" ]; do
			emit "$s" "$c" "$set" $r error=setting-refused
			r=$((r + 1))
		done
		return
	fi
	while [ $r -le "$SWEEP_RUNS" ]; do
		out=$(measure "$s" "$DUR" 0) && emit "$s" "$c" "$set" $r "$out" ||
			{ echo "$out" | sed 's/^/    /'; emit "$s" "$c" "$set" $r error=tool-failed; }
		r=$((r + 1))
	done
}

# run_static SCEN CFG SET RUN: one run on a fresh pair with that setting, warmed up as (c) is
run_static() {
	local s=$1 c=$2 set=$3 r=$4 out
	trap cell_cleanup EXIT
	bench_pair_up
	if ! scen_base "$s" || ! apply_set "$set"; then
		emit "$s" "$c" "$set" "$r" error=setting-refused
		return
	fi
	if out=$(measure "$s" "$DUR" "$WARM_S"); then
		emit "$s" "$c" "$set" "$r" "$out"
	else
		echo "$out" | sed 's/^/    /'
		emit "$s" "$c" "$set" "$r" error=tool-failed
	fi
}

# run_vqtuned SCEN RUN [CFG POLICY_FILE [SET]]: one run on a fresh pair, the scenario's base
# (and the grid's SET), vqtuned on top; CFG c (default) with $POLICY, or o with observe.json
run_vqtuned() {
	local s=$1 r=$2 c=${3:-c} pol=${4:-$POLICY} set=${5:-} name=vqtuned out
	trap cell_cleanup EXIT
	bench_pair_up
	scen_base "$s"
	if [ -n "$set" ]; then
		name=vqtuned-on-$set
		if ! apply_set "$set"; then
			emit "$s" "$c" "$name" "$r" error=setting-refused
			return
		fi
	fi
	if ! vqt_start "$pol"; then
		emit "$s" "$c" "$name" "$r" "error=$VQT_ERR"
		return
	fi
	if out=$(measure "$s" "$DUR" "$WARM_S"); then
		vqt_stop
		# what the controllers did, for whoever reads a surprising figure
		tail -n $VQT_EVENTS_SHOWN $VQT_DIR/events | cut -c1-160 |
			sed "s/^/vqtuned ($c) run $r: /"
		[ -z "$VQT_PARTS" ] || echo "vqtuned ($c) run $r: tick us by part: $VQT_PARTS"
		echo "vqtuned ($c) run $r: knobs it held at the end: $VQT_HELD"
		emit "$s" "$c" "$name" "$r" "$out events=$VQT_EV vqt_cpu_pm=${VQT_CPU_PM:-0} $VQT_TICKS"
	else
		echo "$out" | sed 's/^/    /'
		vqt_stop
		# a failed run shows more of what the controllers did before it
		tail -n $((VQT_EVENTS_SHOWN * 4)) $VQT_DIR/events | cut -c1-200 |
			sed "s/^/vqtuned ($c) run $r (failed): /"
		emit "$s" "$c" "$name" "$r" error=tool-failed
	fi
}

# winner SCEN: the grid entry (default included) with the best median of the scenario's
# metric; in bulkrr only entries that keep BULK_KEEP_PERMILLE of the default's bulk compete
winner() {
	grep -E "^bench-cell: scen=$1 cfg=(a|grid) " /tmp/bs/cells | awk -v s="$1" \
		-v keep=$BULK_KEEP_PERMILLE '
	function med(list,    n, i, j, t, a) {
		n = split(list, a, " ")
		for (i = 2; i <= n; i++)	# insertion sort: a handful of runs
			for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		# + 0: busybox awk returns a string from a function, and compares strings
		return n % 2 ? a[(n + 1) / 2] + 0 : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{
		set = ""; p99 = ""; g = ""
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "set") set = kv[2]
			if (kv[1] == "p99_us") p99 = kv[2]
			if (kv[1] == "gbps") g = kv[2]
		}
		m = (s == "bulk" || s == "slowzc") ? g : p99
		if (m == "") next
		if (!(set in seen)) { seen[set] = 1; order[++ns] = set }
		mv[set] = mv[set] " " m
		gv[set] = gv[set] " " g
	}
	END {
		lower = (s == "rr" || s == "bulkrr")
		floor = -1
		if (s == "bulkrr" && ("default" in seen))
			floor = med(gv["default"]) * keep / 1000
		for (i = 1; i <= ns; i++) {
			k = order[i]
			if (floor >= 0 && med(gv[k]) < floor) continue
			x = med(mv[k])
			if (best == "" || (lower ? x < bx : x > bx)) { best = k; bx = x }
		}
		print best
	}'
}

# ---- main -------------------------------------------------------------------------------
notes() { sed '/^bench-/!s/^/bench-note: /'; }
mkdir -p /tmp/bs
: > /tmp/bs/cells
echo "$QDISC" > /proc/sys/net/core/default_qdisc ||
	fail "net.core.default_qdisc: this kernel refuses '$QDISC'"
echo "bench-scen: kernel $(uname -r) cpus $(nproc) (c) policy ${POLICY##*/} runs $RUNS" \
	"sweep-runs $SWEEP_RUNS measure ${DUR}s" \
	"warm-up ${WARM_S}s tick ${TICK_MS}ms max-tick ${MAX_TICK_MS:+${MAX_TICK_MS}ms}${MAX_TICK_MS:-default} observe $OBSERVE nice $NICE slice ${SLICE_US}us zc_hold ${SLOW_HOLD_US}us grid $GRID pin $PIN" \
	"qdisc $(cat /proc/sys/net/core/default_qdisc) line ${LINE_MBIT}Mbit/s"
t0=$(cut -d. -f1 /proc/uptime)
for s in $SCENS; do
	ts=$(cut -d. -f1 /proc/uptime)
	for set in $GRID; do
		set_applies "$s" "$set" || continue
		(cell_static "$s" grid "$set") 2>&1 | notes | tee -a /tmp/bs/cells
	done
	w=$(winner "$s")
	echo "bench-winner: scen=$s set=${w:-none}"
	if [ -z "$w" ]; then
		emit "$s" b none 1 error=no-winner
	elif [ "$B_FRESH" != 1 ]; then
		grep -E "^bench-cell: scen=$s cfg=grid set=$w " /tmp/bs/cells |
			sed -E 's/ cfg=grid / cfg=b /'
	fi
	# (o)'s setting: (b)'s with VQ_BENCH_OBSERVE=b (none without a winner: no (o)), else none
	o_set=""
	[ "$OBSERVE" = b ] && o_set=$w
	# (a), (b), (c), (o), (a') interleaved: run r of each before run r + 1 of any
	r=1
	while [ $r -le "$RUNS" ]; do
		(run_static "$s" a default $r) 2>&1 | notes | tee -a /tmp/bs/cells
		if [ -n "$w" ] && [ "$B_FRESH" = 1 ]; then
			(run_static "$s" b "$w" $r) 2>&1 | notes | tee -a /tmp/bs/cells
		fi
		if [ "$s" = slowzc ] && [ "$w" != copy ]; then
			(run_static "$s" ref copy $r) 2>&1 | notes | tee -a /tmp/bs/cells
		fi
		(run_vqtuned "$s" $r) 2>&1 | notes | tee -a /tmp/bs/cells
		if [ "$OBSERVE" = 1 ] || [ -n "$o_set" ]; then
			(run_vqtuned "$s" $r o /policies/observe.json "$o_set") 2>&1 | notes |
				tee -a /tmp/bs/cells
		fi
		if [ "$NOISE" = 1 ]; then
			(run_static "$s" a2 default $r) 2>&1 | notes | tee -a /tmp/bs/cells
		fi
		r=$((r + 1))
	done
	echo "bench-time: scen=$s s=$(( $(cut -d. -f1 /proc/uptime) - ts ))"
done
echo "bench-time: total s=$(( $(cut -d. -f1 /proc/uptime) - t0 ))"
