#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sampling cost of vqtuned against Debian's prometheus-node-exporter, both watching the same
# network namespace of many veth devices at the same sample rate. Prints figures only: no
# thresholds, no pass/fail. Exit 0 after printing, 1 when a half could not be measured,
# 4 (skip) when the machine cannot run it.
#
# CPU time is utime + stime of the whole process (all threads) from /proc/PID/stat
# (proc(5)), in clock ticks of sysconf(_SC_CLK_TCK), taken over the measured window only
# (start-up and device discovery excluded). Peak RSS is VmHWM from /proc/PID/status over the
# whole life of the process.
#
# usage: tests/bench/run.sh [--dry-run] [--samples N] [--pairs N] [--queues N]
#   --dry-run    measure node-exporter only (vqtuned not needed)
#   --samples N  ticks / scrapes in the measured window (default 100)
#   --pairs N    veth pairs in the namespace (default 500 = 1,000 devices)
#   --queues N   TX and RX queues per veth device (default 1)
#   --collectors "A B"  run node-exporter with only these collectors; repeatable, one
#                column each (default: "netdev")

set -u

KSFT_FAIL=1
KSFT_SKIP=4

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# VQTUNED=path runs another build of the daemon.
VQTUNED=${VQTUNED:-$REPO/build/vqtuned}

SAMPLES=100
PAIRS=500
QUEUES=1
DRY_RUN=0
# node-exporter runs once per set. netdev: the rtnetlink/procfs counters vqtuned also reads.
# Not netclass by default: it reads ~30 sysfs files per device and took 1 to 2 s of CPU per
# scrape at 1,000 devices on a 2-CPU VM, which stretches the run to minutes; ask for it with
# --collectors netdev --collectors "netdev netclass".
COLLECTOR_SETS=("netdev")
COLLECTORS_GIVEN=0
# One sample every 100 ms: vqtuned --interval 100 and one scrape per 100 ms.
INTERVAL_MS=100
# Long enough for discovery of a few thousand devices on a slow VM.
READY_TIMEOUT_S=30
# vqtuned restores knobs on SIGTERM; in an observe-only run that is immediate.
STOP_TIMEOUT_S=10
# Samples skipped before the window opens, so start-up work is not counted.
WARMUP_SAMPLES=3
# How often the window polls the tick count (s): a few requests per window, one tick late
# at most by POLL_S.
POLL_S=0.5
# The window gives up after this many times its nominal length (a daemon that cannot keep
# up still finishes, one that stopped ticking does not hang the bench).
WINDOW_SLACK=10
# node-exporter listens on the namespace's own loopback, where no port is taken.
EXPORTER_PORT=9100

NS=vqbench-$$
NS_MADE=0
TMP=""
VQ_PID=""
NE_PID=""
BG_PID=""
VQ_MISSED=""
VQ_EXIT=""

usage()
{
	sed -n '/^# usage:/,/^$/s/^# \{0,1\}//p' "$0"
	exit "$1"
}

while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) DRY_RUN=1 ;;
	--samples) SAMPLES=$2; shift ;;
	--pairs) PAIRS=$2; shift ;;
	--queues) QUEUES=$2; shift ;;
	--collectors)
		[ "$COLLECTORS_GIVEN" = 1 ] || COLLECTOR_SETS=()
		COLLECTORS_GIVEN=1
		COLLECTOR_SETS+=("$2")
		shift ;;
	-h|--help) usage 0 ;;
	*) echo "unknown argument: $1" >&2; usage $KSFT_FAIL ;;
	esac
	shift
done
for v in "$SAMPLES" "$PAIRS" "$QUEUES"; do
	case $v in ''|*[!0-9]*|0) echo "not a positive integer: $v" >&2; exit $KSFT_FAIL ;; esac
done

# stop_pid PID: SIGTERM, wait up to STOP_TIMEOUT_S, then SIGKILL. Only PIDs we started.
stop_pid()
{
	local pid=$1 i

	kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
	kill -TERM "$pid" 2>/dev/null
	for ((i = 0; i < STOP_TIMEOUT_S * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "# pid $pid ignored SIGTERM for ${STOP_TIMEOUT_S}s, killing it" >&2
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
}

cleanup()
{
	[ -n "$BG_PID" ] && stop_pid "$BG_PID"
	[ -n "$VQ_PID" ] && stop_pid "$VQ_PID"
	[ -n "$NE_PID" ] && stop_pid "$NE_PID"
	[ "$NS_MADE" = 1 ] && ip netns del "$NS"
	[ -n "$TMP" ] && rm -rf -- "$TMP"
}
trap cleanup EXIT
# Ctrl-C or a kill still runs cleanup: exit through the EXIT trap with the shell's codes.
trap 'exit 130' INT
trap 'exit 143' TERM

skip() { echo "SKIP: $*"; exit $KSFT_SKIP; }
fail() { echo "FAIL: $*"; exit $KSFT_FAIL; }

[ "$(id -u)" -eq 0 ] || skip "needs root (network namespace and veth devices)"
for tool in ip curl awk getconf prometheus-node-exporter; do
	command -v "$tool" >/dev/null || skip "$tool is not installed (make deps)"
done
if [ "$DRY_RUN" = 0 ] && [ ! -x "$VQTUNED" ]; then
	fail "$VQTUNED is missing: run make all first, or use --dry-run"
fi
CLK_TCK=$(getconf CLK_TCK)
TMP=$(mktemp -d /tmp/vqbench.XXXXXX) || fail "mktemp"

# cpu_ticks PID: utime + stime (fields 14 and 15 of proc(5) stat). comm, field 2, may hold
# spaces, so split after its closing parenthesis: utime is then the 12th field.
cpu_ticks()
{
	local s

	s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	s=${s##*) }
	set -- $s
	echo $((${12} + ${13}))
}

# peak_rss_kib PID: VmHWM, in KiB as proc(5) prints it.
peak_rss_kib()
{
	awk '$1 == "VmHWM:" { print $2 }' "/proc/$1/status" 2>/dev/null
}

now_ms() { echo $(( ${EPOCHREALTIME/./} / 1000 )); }

# ---- the namespace: PAIRS veth pairs, all up, created in one ip -batch.
setup_netns()
{
	local i batch=$TMP/links.batch

	ip netns add "$NS" || fail "ip netns add $NS"
	NS_MADE=1
	{
		echo "link set lo up"
		for ((i = 0; i < PAIRS; i++)); do
			echo "link add vb${i}a numtxqueues $QUEUES numrxqueues $QUEUES type veth" \
			     "peer name vb${i}b numtxqueues $QUEUES numrxqueues $QUEUES"
		done
		for ((i = 0; i < PAIRS; i++)); do
			echo "link set vb${i}a up"
			echo "link set vb${i}b up"
		done
	} >"$batch"
	ip -n "$NS" -batch "$batch" >"$TMP/batch.log" 2>&1 ||
		fail "ip -batch in $NS: $(head -n 3 "$TMP/batch.log")"
	NS_DEVICES=$(ip -n "$NS" -o link show | wc -l)
	# sysfs shows the namespace of the mount, so count inside the namespace.
	NS_QUEUES=$(ip netns exec "$NS" sh -c 'ls -d /sys/class/net/*/queues/[rt]x-*' | wc -l)
	HOST_QUEUES=$(ls -d /sys/class/net/*/queues/[rt]x-* | wc -l)
	HOST_DEVICES=$(ls /sys/class/net | wc -l)
}

# ---- vqtuned: observes its own namespace, manages NS; the API says how many ticks ran.
vq_status() { curl -sf --max-time 2 --unix-socket "$TMP/vqtuned.sock" http://localhost/v1/status; }
# vq_field NAME: an unsigned integer field of GET /v1/status.
vq_field() { vq_status | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2; }
vq_ticks() { vq_field ticks; }

bench_vqtuned()
{
	local t0 t1 c0 c1 ticks0 ticks1 missed0 missed1 deadline rss devices queues

	"$VQTUNED" --netns "$NS" --interval "$INTERVAL_MS" -s "$TMP/vqtuned.sock" \
		-S "$TMP/state" >"$TMP/vqtuned.log" 2>&1 &
	VQ_PID=$!
	deadline=$(( $(now_ms) + READY_TIMEOUT_S * 1000 ))
	while :; do
		kill -0 "$VQ_PID" 2>/dev/null || break
		ticks0=$(vq_ticks)
		[ -n "$ticks0" ] && [ "$ticks0" -ge "$WARMUP_SAMPLES" ] && break
		[ "$(now_ms)" -lt "$deadline" ] || break
		sleep 0.1
	done
	if ! kill -0 "$VQ_PID" 2>/dev/null; then
		wait "$VQ_PID"
		echo "vqtuned exited with status $? before it was ready; its log:"
		sed 's/^/  /' "$TMP/vqtuned.log" | tail -n 20
		VQ_PID=""
		return 1
	fi
	if [ -z "$ticks0" ] || [ "$ticks0" -lt "$WARMUP_SAMPLES" ]; then
		echo "vqtuned did not report $WARMUP_SAMPLES ticks on GET /v1/status within" \
		     "${READY_TIMEOUT_S}s (last answer: $(vq_status | head -c 200))"
		return 1
	fi
	devices=$(vq_field devices)
	# It watches NS and its own namespace.
	queues=$((NS_QUEUES + HOST_QUEUES))

	ticks0=$(vq_ticks)
	missed0=$(vq_field missed_ticks)
	c0=$(cpu_ticks "$VQ_PID"); t0=$(now_ms)
	# Until SAMPLES more ticks ran, however long that takes, so both sides count the same
	# number of samples. Each poll is one cheap API request, counted on purpose.
	deadline=$(( t0 + SAMPLES * INTERVAL_MS * WINDOW_SLACK + READY_TIMEOUT_S * 1000 ))
	while :; do
		# In the background: a signal trap runs during `wait`, not during a foreground sleep.
		sleep "$POLL_S" &
		BG_PID=$!
		wait "$BG_PID"
		BG_PID=""
		ticks1=$(vq_ticks)
		[ -n "$ticks1" ] || break
		[ $((ticks1 - ticks0)) -ge "$SAMPLES" ] && break
		[ "$(now_ms)" -lt "$deadline" ] || break
	done
	c1=$(cpu_ticks "$VQ_PID"); t1=$(now_ms)
	ticks1=$(vq_ticks)
	missed1=$(vq_field missed_ticks)
	rss=$(peak_rss_kib "$VQ_PID")
	if [ -z "$c1" ] || [ -z "$ticks1" ]; then
		echo "vqtuned died or stopped answering during the measured window; its log:"
		sed 's/^/  /' "$TMP/vqtuned.log" | tail -n 20
		return 1
	fi
	if [ -n "$missed0" ] && [ -n "$missed1" ]; then
		VQ_MISSED=$((missed1 - missed0))
	fi
	stop_pid "$VQ_PID"
	VQ_EXIT=$?
	VQ_PID=""
	[ $((ticks1 - ticks0)) -gt 0 ] || { echo "vqtuned ran no tick in the window"; return 1; }
	echo "vqtuned|$((ticks1 - ticks0))|$((c1 - c0))|$rss|$((t1 - t0))|${devices:-?}|$queues" \
		>>"$TMP/results"
}

# ---- node-exporter: only the collectors asked for, scraped every INTERVAL_MS.
scrape_loop()
{
	# Runs inside the namespace: one process for all scrapes, so no per-scrape setns. exec,
	# so that the PID the caller holds is the loop itself and stop_pid ends it.
	exec ip netns exec "$NS" bash -c '
		url=$1 n=$2 ms=$3 out=$4 ok=0
		for ((i = 0; i < n; i++)); do
			t=${EPOCHREALTIME/./}
			curl -sf --max-time 5 -o "$out" "$url" && ok=$((ok + 1))
			left=$(( ms * 1000 - (${EPOCHREALTIME/./} - t) ))
			[ $left -gt 0 ] && sleep "$(printf "0.%06d" $left)"
		done
		echo $ok' _ "$1" "$2" "$INTERVAL_MS" "$TMP/scrape.txt"
}

# bench_exporter "COLLECTORS": one node-exporter with only those collectors, inside NS.
bench_exporter()
{
	local collectors=$1 url=http://127.0.0.1:$EXPORTER_PORT/metrics c0 c1 t0 t1 i c
	local samples rss devices
	local args=(--web.listen-address="127.0.0.1:$EXPORTER_PORT" --collector.disable-defaults
		    --web.disable-exporter-metrics)

	for c in $collectors; do
		args+=("--collector.$c")
	done
	# netdev leaves lo out by default; vqtuned watches it, so count it on both sides.
	case " $collectors " in *" netdev "*) args+=(--collector.netdev.device-exclude='^$') ;; esac
	ip netns exec "$NS" prometheus-node-exporter "${args[@]}" >"$TMP/exporter.log" 2>&1 &
	NE_PID=$!
	for ((i = 0; i < READY_TIMEOUT_S * 10; i++)); do
		kill -0 "$NE_PID" 2>/dev/null || break
		ip netns exec "$NS" curl -sf --max-time 2 -o /dev/null "$url" && break
		sleep 0.1
	done
	if ! kill -0 "$NE_PID" 2>/dev/null; then
		echo "prometheus-node-exporter exited before it answered; its log:"
		sed 's/^/  /' "$TMP/exporter.log" | tail -n 20
		NE_PID=""
		return 1
	fi
	(scrape_loop "$url" "$WARMUP_SAMPLES") >/dev/null

	c0=$(cpu_ticks "$NE_PID"); t0=$(now_ms)
	scrape_loop "$url" "$SAMPLES" >"$TMP/scrapes.ok" &
	BG_PID=$!
	wait "$BG_PID"
	BG_PID=""
	samples=$(cat "$TMP/scrapes.ok")
	c1=$(cpu_ticks "$NE_PID"); t1=$(now_ms)
	rss=$(peak_rss_kib "$NE_PID")
	[ -n "$c1" ] || { echo "prometheus-node-exporter died during the window"; return 1; }
	# Devices named in the last scrape, whichever collector named them.
	devices=$(grep -o '^node_network_[a-z_]*{[^}]*device="[^"]*"' "$TMP/scrape.txt" |
		  sed 's/.*device="//' | sort -u | wc -l)
	stop_pid "$NE_PID"
	NE_PID=""
	[ "$samples" -gt 0 ] || { echo "no scrape of node-exporter succeeded"; return 1; }
	echo "n-e ${collectors// /+}|$samples|$((c1 - c0))|$rss|$((t1 - t0))|$devices|$NS_QUEUES" \
		>>"$TMP/results"
}

# ---- the table: one column per measured process, rows from $TMP/results
# (name|samples|cpu clock ticks|peak RSS KiB|window ms|devices|queues); when vqtuned was
# measured it is the first row and the ratios compare it with every other column.
report()
{
	awk -F'|' -v hz="$CLK_TCK" '
	function f(fmt, x) { return sprintf(fmt, x) }
	function line(label, key,    i) {
		printf "%-32s", label
		for (i = 1; i <= n; i++)
			printf " %20s", v[i, key]
		printf "\n"
	}
	{
		n++
		v[n, "name"] = $1; v[n, "samples"] = $2; v[n, "cpu"] = $3; v[n, "rss"] = $4
		v[n, "wall"] = $5; v[n, "devices"] = $6; v[n, "queues"] = $7
		cps[n] = $3 * 1e9 / hz / $2	# CPU ns per sample
		v[n, "period"] = f("%.1f", $5 / $2)
		v[n, "cps"] = f("%.1f", cps[n] / 1e3)
		v[n, "cpsq"] = f("%.1f", cps[n] / $7)
		if ($3 < 10)
			coarse = coarse " " $1
	}
	END {
		line("", "name")
		line("devices seen", "devices")
		line("queues watched (rx + tx)", "queues")
		line("samples in window", "samples")
		line("window wall time (ms)", "wall")
		# Above the interval when one sample takes longer than the interval.
		line("mean sample period (ms)", "period")
		line("CPU in window (clock ticks)", "cpu")
		line("CPU per sample (us)", "cps")
		line("CPU per sample per queue (ns)", "cpsq")
		line("peak RSS, VmHWM (KiB)", "rss")
		if (v[1, "name"] == "vqtuned")
			for (i = 2; i <= n; i++)
				printf "ratio vqtuned / %s: CPU per sample %s, peak RSS %s\n",
				       v[i, "name"],
				       (cps[i] > 0 ? f("%.3g", cps[1] / cps[i]) : "-"),
				       (v[i, "rss"] > 0 ? f("%.3g", v[1, "rss"] / v[i, "rss"]) : "-")
		printf "CPU resolution: 1 clock tick = %.0f ms per window\n", 1000 / hz
		if (coarse != "")
			printf "fewer than 10 clock ticks measured for%s: raise --samples\n", coarse
	}' "$TMP/results"
}

echo "# vqtune bench: $PAIRS veth pairs x $QUEUES queue(s) in netns $NS," \
     "$SAMPLES samples every $INTERVAL_MS ms, CLK_TCK $CLK_TCK"
t=$(now_ms)
setup_netns
echo "# netns: $NS_DEVICES devices, $NS_QUEUES queues (created in $(( $(now_ms) - t )) ms);" \
     "host: $HOST_DEVICES devices, $HOST_QUEUES queues"

status=0
if [ "$DRY_RUN" = 1 ]; then
	echo "# --dry-run: vqtuned not run"
else
	echo "# vqtuned: --netns $NS --interval $INTERVAL_MS (also observes this namespace)"
	bench_vqtuned || status=$KSFT_FAIL
fi
for set in "${COLLECTOR_SETS[@]}"; do
	echo "# prometheus-node-exporter, collectors: $set"
	bench_exporter "$set" || fail "node-exporter with $set"
done
[ "$status" = 0 ] || echo "vqtuned half failed: node-exporter figures only"
report
[ -n "$VQ_MISSED" ] && echo "vqtuned missed ticks in the window (GET /v1/status): $VQ_MISSED"
[ -n "$VQ_EXIT" ] && echo "vqtuned exit status after SIGTERM: $VQ_EXIT"
exit "$status"
