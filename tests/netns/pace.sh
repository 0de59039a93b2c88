#!/bin/bash
# Interval pacing (vqtuned(8) INTERVAL PACING, daemon/pace.h) on the real daemon: with the
# balanced policy controlling an idle veth pair, the tick backs off from --interval to
# --max-interval; an API write and the start of traffic each bring it back to --interval;
# --max-interval equal to --interval, or a policy in mode observe, keep it fixed; a bad
# --max-interval is refused by name before anything starts.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 1 || exit $KSFT_FAIL
BASE_MS=100
POLICY=$(dirname "$0")/../../policies/balanced.json

tick_ms() { vq_ctl --json status | vq_json "d['tick_interval_ns'] // 1000000"; }
# wait_tick MS SECONDS: poll every 50 ms until the tick is MS; the last value read
wait_tick() {
	local t n=0
	while [ $n -lt $(($2 * 20)) ]; do
		t=$(tick_ms)
		[ "$t" = "$1" ] && break
		sleep 0.05
		n=$((n + 1))
	done
	echo "$t"
}
# min_tick SECONDS: the shortest tick seen polling every 50 ms for SECONDS
min_tick() {
	local t m=999999 n=0
	while [ $n -lt $(($1 * 20)) ]; do
		t=$(tick_ms)
		[ -n "$t" ] && [ "$t" -lt $m ] && m=$t
		sleep 0.05
		n=$((n + 1))
	done
	echo "$m"
}

# ---- bad command lines: exit 2, the option named ----------------------------------------
bad() {
	local out rc
	out=$("$VQTUNED" -s "$VQ_TMP/bad.sock" -S "$VQ_TMP/bad-state" "$@" 2>&1)
	rc=$?
	check "'$*' exit status" 2 "$rc"
	check_true "'$*' names --max-interval: $out" grep -q -- '--max-interval' <<< "$out"
}
bad --interval 1000 --max-interval 500
bad --max-interval 0100
bad --max-interval 5
bad --max-interval 1000 --max-interval 2000
out=$("$VQTUNED" -s "$VQ_TMP/bad.sock" -S "$VQ_TMP/bad-state" --interval 1000 \
	--max-interval 500 2>&1)
check "below --interval: the message" \
	"vqtuned: --max-interval: 500 ms is below --interval 1000 ms (equal to it keeps the tick fixed)" \
	"$out"
check_true "no socket left by the refused starts" test ! -e "$VQ_TMP/bad.sock"

# ---- paced: default max 4 x base --------------------------------------------------------
vq_daemon --netns "$A" --netns "$B" --interval $BASE_MS --policy "$POLICY" || exit $KSFT_FAIL
st=$(vq_ctl --json status)
check "tick_base_ns" $((BASE_MS * 1000000)) "$(vq_json "d['tick_base_ns']" <<< "$st")"
check "tick_max_ns (4 x --interval)" $((BASE_MS * 4000000)) "$(vq_json "d['tick_max_ns']" <<< "$st")"
check "va is controlled" active "$(vq_ctl --json devices | vq_json "[x['mode'] for x in d['devices'] if x['name'] == 'va'][0]")"
# 5 quiet ticks of 100 ms, 3 of 200 ms: 400 ms within ~1.1 s of quiet (a start-up tick or two
# are busy: devices appearing, first intervals)
check "idle pair: the tick backs off to --max-interval" 400 "$(wait_tick 400 5)"
check "vqtune_tick_interval_seconds" 0.400 \
	"$(curl -s --unix-socket "$VQ_SOCK" http://localhost/metrics |
		awk '$1 == "vqtune_tick_interval_seconds" { printf "%.3f\n", $2 }')"
check_true "vqtunectl status shows base and max" \
	grep -q '^tick interval: *0.4s (0.1s, up to 0.4s while nothing moves)$' \
	<<< "$(vq_ctl status)"

# an API write is an event between ticks: the next tick is at --interval at once (threaded
# 0 is veth's default: the write changes nothing but is journalled)
out=$(vq_ctl set "$A:va" threaded 0 2>&1)
check_true "set va threaded 0: $out" grep -q '^threaded napi-[0-9]*: 0 -> 0$' <<< "$out"
check "after an API write: --interval" $BASE_MS "$(tick_ms)"
vq_ctl restore >/dev/null
check "quiet again after the write: backs off" 400 "$(wait_tick 400 5)"

# traffic starting on the controlled pair moves its rates: back to --interval
ip netns exec "$A" ping -q -f -c 100000 -w 4 192.0.2.2 >/dev/null 2>&1 &
PING=$!
VQ_PIDS+=("$PING")
check "traffic starts: the tick returns to --interval" $BASE_MS "$(min_tick 2)"
wait "$PING" 2>/dev/null
ticks1=$(vq_ctl --json status | vq_json "d['ticks']")
vq_daemon_stop
check_true "the paced daemon ran ticks ($ticks1)" test "${ticks1:-0}" -gt 10

# ---- fixed: --max-interval = --interval, and mode observe --------------------------------
vq_daemon --netns "$A" --netns "$B" --interval $BASE_MS --max-interval $BASE_MS \
	--policy "$POLICY" || exit $KSFT_FAIL
sleep 2
check "--max-interval = --interval: the tick stays" $BASE_MS "$(tick_ms)"
t=$(vq_ctl --json status | vq_json "d['ticks']")
# 2 s of 100 ms ticks: ~20 (a loaded machine may run fewer, never the paced ~6)
check_true "fixed tick: $t ticks in 2 s" test "${t:-0}" -ge 14
vq_daemon_stop
vq_daemon --netns "$A" --netns "$B" --interval $BASE_MS || exit $KSFT_FAIL
sleep 2
check "mode observe: the tick stays at --interval" $BASE_MS "$(tick_ms)"
vq_daemon_stop
vq_done
