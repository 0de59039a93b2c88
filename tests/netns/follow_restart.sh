#!/bin/bash
# `vqtunectl events --follow` across a daemon restart: it says once that the daemon went
# away, keeps asking, and once the restarted daemon answers it prints the events after the
# last one it printed (ids keep increasing across restarts), without a repeat. SIGTERM
# (like Ctrl-C; a background job of a script ignores SIGINT) then ends it with status 0.
# A daemon that stops while followed answers reads past its restore, so the follower prints
# the restore's events, and refuses writes then (503 stopping); an unfollowed one does not
# wait. A knob set and set back holds its original at the stop: it is not written, and its
# event says so.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
# events_seen FILE PATTERN: lines of the follow output matching PATTERN
events_seen() { grep -c -- "$2" "$1"; }
# wait_for FILE PATTERN COUNT: up to 10 s for COUNT matching lines
wait_for() {
	local i
	for i in $(seq 50); do
		[ "$(events_seen "$1" "$2")" -ge "$3" ] && return 0
		sleep 0.2
	done
	return 1
}

vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
# not through vq_ctl: $! must be vqtunectl itself, not a subshell around it
"$VQTUNECTL" -s "$VQ_SOCK" events --follow >"$VQ_TMP/follow.out" 2>"$VQ_TMP/follow.err" &
FPID=$!
VQ_PIDS+=("$FPID")		# vq_cleanup ends it whatever happens below
vq_ctl set "$B:vb" gro-flush-timeout 10000 >/dev/null
check "first set" 0 $?
wait_for "$VQ_TMP/follow.out" "gro-flush-timeout" 1
check "the follower printed the first set" 0 $?
n1=$(events_seen "$VQ_TMP/follow.out" "gro-flush-timeout")

vq_daemon_stop KILL
sleep 1.5			# the follower asks once a second: it meets the gone daemon
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
vq_ctl set "$B:vb" gro-flush-timeout 30000 >/dev/null
check "set after the restart" 0 $?
wait_for "$VQ_TMP/follow.out" "30000" 1
check "the follower printed the set made after the restart" 0 $?
check_true "it still runs" kill -0 "$FPID"
check "it said once that it waits ($(tr '\n' ' ' <"$VQ_TMP/follow.err"))" 1 \
	"$(grep -c 'waiting for the daemon to come back' "$VQ_TMP/follow.err")"
check "... and once that the daemon answers again" 1 \
	"$(grep -c 'the daemon answers again' "$VQ_TMP/follow.err")"
# the first set's event is printed once: the follower resumed after it, not from 0
check "no event printed twice" 0 "$(sort "$VQ_TMP/follow.out" | uniq -d | wc -l)"
check_true "the first set's lines are still $n1" \
	test "$(grep -c -- '-> 10000' "$VQ_TMP/follow.out")" -le "$n1"

# a knob set and set back holds its original at the stop: nothing to write, and its event
# says so instead of a "0 -> 0" restore
vq_ctl set "$B:vb" defer-hard-irqs 2 >/dev/null && vq_ctl set "$B:vb" defer-hard-irqs 0 >/dev/null
check "defer-hard-irqs set and set back" 0 $?

# The daemon's stop, followed: it restores first and answers reads a moment longer, so the
# follower prints the restore's event; a write in that moment is 503 stopping.
kill -TERM "$VQ_DPID"
sleep 0.3			# the restore is done within ms; the API answers for 2 s more
read -r code body <<<"$(vq_api PUT "/v1/devices/$B:vb/knobs/gro-flush-timeout" '{"value":5000}')"
check "a write while it stops: HTTP status ($body)" 503 "$code"
check "... code stopping" stopping "$(vq_json 'd["error"]["code"]' <<<"$body")"
# both NAPIs' gro-flush-timeout back from 30000 to the original 0 (the crash restore's
# lines before say 10000 -> 0)
wait_for "$VQ_TMP/follow.out" "30000 -> 0 (restored the original value)" 2
rc=$?			# before the $(grep) below, which sets $? anew
check "the follower printed the stopping daemon's restore of both NAPIs ($(grep 'restored' \
	"$VQ_TMP/follow.out" | tr '\n' '|'))" 0 $rc
# (the event line reads "at 0", not "0 -> 0")
wait_for "$VQ_TMP/follow.out" \
	"defer-hard-irqs/napi-[0-9]* at 0 (already at the original 0, nothing written)" 2
check "... and of both NAPIs' defer-hard-irqs, already back: nothing written, at 0" 0 $?
check "no defer-hard-irqs restore by a write" 0 \
	"$(grep 'defer-hard-irqs' "$VQ_TMP/follow.out" | grep -c 'restored the original value')"
vq_daemon_stop
check "the stopped daemon's exit status" 0 $?
check "its log counts the two written restores, not the two that held" 1 \
	"$(grep -v 'previous run' "$VQ_TMP/vqtuned.log" | grep -c 'restored 2 knob(s)')"
check "it said it answered reads for the follower" 1 \
	"$(grep -c 'answering reads for 2000 ms' "$VQ_TMP/vqtuned.log")"
kill -TERM "$FPID"
wait "$FPID"
check "SIGTERM ends it with exit status 0" 0 $?

# with nobody following, the stop does not wait
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
vq_daemon_stop TERM
check "an unfollowed daemon's exit status" 0 $?
check "only the followed stop waited" 1 \
	"$(grep -c 'answering reads for' "$VQ_TMP/vqtuned.log")"
vq_done
