#!/bin/bash
# Interval pacing (vqtuned(8) INTERVAL PACING, daemon/pace.h) on the real daemon: on by
# default (--max-interval 4 x --interval); with that and the balanced policy controlling an
# idle veth pair, the tick backs off from --interval to --max-interval and an API write
# brings it back; with the laws switched off (so no
# controller event can be what hurries it), the start of traffic, a link taken down and a
# device added each bring it back, and it backs off again once traffic stops;
# --max-interval equal to --interval, or a policy in mode observe, keep it fixed; a bad
# --max-interval is refused by name before anything starts.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 1 || exit $KSFT_FAIL
BASE_MS=100
MAX_MS=400
POLICY=$(dirname "$0")/../../policies/balanced.json

# the tick in ms, read without python (its start-up alone is ~0.3 s here, longer than the
# 500 ms a paced daemon spends at --interval after one busy tick)
tick_ms() {
	local ns
	ns=$(curl -s --unix-socket "$VQ_SOCK" http://localhost/v1/status |
		grep -o '"tick_interval_ns": *[0-9]*' | grep -o '[0-9]*$')
	[ -n "$ns" ] && echo $((ns / 1000000))
}
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
# until_eq DESC WANT CMD...: poll CMD every 50 ms for up to 3 s until it prints WANT (a
# busy tick between two reads may put the interval back to base for a moment), then check
until_eq() {
	local d=$1 want=$2 got n=0
	shift 2
	while [ $n -lt 60 ]; do
		got=$("$@")
		[ "$got" = "$want" ] && break
		sleep 0.05
		n=$((n + 1))
	done
	check "$d" "$want" "$got"
}
metric_tick() {
	curl -s --unix-socket "$VQ_SOCK" http://localhost/metrics |
		awk '$1 == "vqtune_tick_interval_seconds" { printf "%.3f\n", $2 }'
}
status_tick_line() { vq_ctl status | grep '^tick interval:'; }
last_event() { vq_ctl --json status | vq_json "d['last_event_id']"; }
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
out=$("$VQTUNED" -s "$VQ_TMP/bad.sock" -S "$VQ_TMP/bad-state" --max-interval 5 2>&1)
check "below the range: the message names both floors" \
	"vqtuned: --max-interval: '5' is not 10..60000 ms and at least --interval" "$out"
out=$("$VQTUNED" -s "$VQ_TMP/bad.sock" -S "$VQ_TMP/bad-state" --max-interval 500 2>&1)
check "below the default --interval: the message says it is the default" \
	"vqtuned: --max-interval: 500 ms is below --interval 1000 ms, its default (equal to it keeps the tick fixed)" \
	"$out"
check_true "no socket left by the refused starts" test ! -e "$VQ_TMP/bad.sock"

# ---- on by default: --max-interval 4 x --interval ---------------------------------------
vq_daemon --netns "$A" --netns "$B" --interval $BASE_MS --policy "$POLICY" || exit $KSFT_FAIL
st=$(vq_ctl --json status)
check "tick_base_ns" $((BASE_MS * 1000000)) "$(vq_json "d['tick_base_ns']" <<< "$st")"
check "tick_max_ns" $((MAX_MS * 1000000)) "$(vq_json "d['tick_max_ns']" <<< "$st")"
check "va is controlled" active "$(vq_ctl --json devices | vq_json "[x['mode'] for x in d['devices'] if x['name'] == 'va'][0]")"
n_active=$(vq_ctl --json devices | vq_json "len([x for x in d['devices'] if x['mode'] in ('active', 'advise')])")
check_true "at least va is in mode active ($n_active)" test "${n_active:-0}" -ge 1
check "status controlled_devices: the devices in mode active" "$n_active" \
	"$(vq_json "d['controlled_devices']" <<< "$st")"
check "vqtune_controlled_devices: the same" "$n_active" \
	"$(curl -s --unix-socket "$VQ_SOCK" http://localhost/metrics |
		awk '$1 == "vqtune_controlled_devices" { print $2 }')"
# 5 quiet ticks of 100 ms, 3 of 200 ms: 400 ms within ~1.1 s of quiet (a start-up tick or two
# are busy: devices appearing, first intervals)
check "idle pair: the tick backs off to the default --max-interval" 400 "$(wait_tick 400 5)"
until_eq "vqtune_tick_interval_seconds" 0.400 metric_tick
until_eq "vqtunectl status shows base and max" \
	"tick interval:    400ms (100ms, up to 400ms while nothing moves)" status_tick_line

# an API write is an event between ticks: the next tick is at --interval at once (threaded
# 0 is veth's default: the write changes nothing but is journalled)
out=$(vq_ctl set "$A:va" threaded 0 2>&1)
check_true "set va threaded 0: $out" \
	grep -q '^threaded napi-[0-9]*: already 0, nothing written (pinned)$' <<< "$out"
check "after an API write: --interval" $BASE_MS "$(tick_ms)"
vq_ctl restore >/dev/null
check "quiet again after the write: backs off" 400 "$(wait_tick 400 5)"

ticks1=$(vq_ctl --json status | vq_json "d['ticks']")
vq_daemon_stop
# 100 ms ticks for ~8 s would be ~80; the daemon ran mostly paced
check_true "the paced daemon ran ticks ($ticks1)" test "${ticks1:-0}" -gt 10

# ---- laws off: only rates, links and the device set can hurry the tick ------------------
python3 - "$POLICY" > "$VQ_TMP/lawsoff.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["name"] = "lawsoff"
for c in p["controllers"].values():
    c["enabled"] = False
print(json.dumps(p))
PY
vq_daemon --netns "$A" --netns "$B" --interval $BASE_MS --max-interval $MAX_MS \
	--policy "$VQ_TMP/lawsoff.json" || exit $KSFT_FAIL
check "laws off: the tick backs off" 400 "$(wait_tick 400 5)"
# traffic starting on the controlled pair moves its rates: back to --interval
e0=$(last_event)
ip netns exec "$A" ping -q -f -c 100000 -w 3 192.0.2.2 >/dev/null 2>&1 &
PING=$!
VQ_PIDS+=("$PING")
check "traffic starts: the tick returns to --interval" $BASE_MS "$(min_tick 2)"
check "... with no event (the rates did it)" "$e0" "$(last_event)"
wait "$PING" 2>/dev/null
check "traffic stopped: backs off again" 400 "$(wait_tick 400 5)"
# a link taken down (va's flags and operational state change, no rate)
ip -n "$A" link set va down
check "va down: the tick returns to --interval" $BASE_MS "$(min_tick 1)"
ip -n "$A" link set va up
check "va up again: backs off" 400 "$(wait_tick 400 5)"
# a device that comes between ticks
e1=$(last_event)
# (a veth pair, both ends in A: every kernel that runs this tier has veth, not every one
# has the dummy driver)
ip -n "$A" link add vqpace0 type veth peer name vqpace1
check "a device added: its link add" 0 $?
check "a device added: the tick returns to --interval" $BASE_MS "$(min_tick 1)"
check "... with no event (the device set did it)" "$e1" "$(last_event)"
vq_daemon_stop

# the default is capped at the daemon's 60 s: --interval 20000 paces up to 60000, not 80000
vq_daemon --netns "$A" --interval 20000 --policy "$POLICY" || exit $KSFT_FAIL
check "--interval 20000: the default tick_max_ns is the 60 s cap" 60000000000 \
	"$(vq_ctl --json status | vq_json "d['tick_max_ns']")"
vq_daemon_stop

# ---- fixed: --max-interval = --interval, and mode observe --------------------------------
vq_daemon --netns "$A" --netns "$B" --interval $BASE_MS --max-interval $BASE_MS \
	--policy "$POLICY" || exit $KSFT_FAIL
sleep 2
check "--max-interval = --interval: the tick stays" $BASE_MS "$(tick_ms)"
t=$(vq_ctl --json status | vq_json "d['ticks']")
# 2 s of 100 ms ticks: ~20 (a loaded machine may run fewer, never the paced ~6)
check_true "fixed tick: $t ticks in 2 s" test "${t:-0}" -ge 14
vq_daemon_stop
vq_daemon --netns "$A" --netns "$B" --interval $BASE_MS --max-interval $MAX_MS ||
	exit $KSFT_FAIL
sleep 2
check "mode observe: the tick stays at --interval" $BASE_MS "$(tick_ms)"
check "... and vqtunectl status says fixed" "tick interval:    100ms (fixed)" \
	"$(status_tick_line)"
vq_daemon_stop

# ---- an active policy that selects no device: the tick stays at --interval --------------
python3 - "$POLICY" > "$VQ_TMP/nodev.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["name"] = "nodev"
p["select"] = {"names": ["no-such-dev*"]}
print(json.dumps(p))
PY
vq_daemon --netns "$A" --netns "$B" --interval $BASE_MS --max-interval $MAX_MS \
	--policy "$VQ_TMP/nodev.json" || exit $KSFT_FAIL
sleep 2
st=$(vq_ctl --json status)
check "selects nothing: mode" active "$(vq_json "d['mode']" <<< "$st")"
check "selects nothing: controlled_devices" 0 "$(vq_json "d['controlled_devices']" <<< "$st")"
check "selects nothing: the tick stays at --interval" $BASE_MS "$(tick_ms)"
check "selects nothing: vqtune_controlled_devices" 1 \
	"$(curl -s --unix-socket "$VQ_SOCK" http://localhost/metrics |
		grep -c '^vqtune_controlled_devices 0$')"
check "... and vqtunectl status says why" \
	"tick interval:    100ms (fixed while no device is controlled; then 100ms, up to 400ms while nothing moves)" \
	"$(status_tick_line)"
vq_daemon_stop
vq_done
