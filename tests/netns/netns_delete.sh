#!/bin/bash
# A watched namespace deleted with `ip netns del` (the daemon's fds would keep it alive):
# the daemon notices within a few ticks, restores the knobs it changed there (read back in
# the namespace by a process of this test that still holds it), drops its devices from the
# views, releases its fds, and says so in an event; a device there can no longer be
# written. When the name comes back (`ip netns add` again) it is watched again.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
SEEN_S=3	# the daemon ticks every 100 ms: plenty of ticks to notice
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
IA=$(vq_ifindex "$A" va)
g0=$(vq_napi "$A" "$IA" gro_flush_timeout)
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL

vq_ctl set "$A:va" gro-flush-timeout 40000 >/dev/null
check "set gro-flush-timeout on $A:va" 0 $?
check "... in the kernel" 40000 "$(vq_napi "$A" "$IA" gro_flush_timeout)"
NS_INO=$(stat -L -c %i "/run/netns/$A")
# a process of ours keeps the namespace (and va) alive after the delete, to read it there
ip netns exec "$A" sleep 120 &
HOLDER=$!
VQ_PIDS+=("$HOLDER")
for _ in $(seq 50); do
	[ "$(stat -L -c %i "/proc/$HOLDER/ns/net" 2>/dev/null)" == "$NS_INO" ] && break
	sleep 0.1
done
in_a() { nsenter --net="/proc/$HOLDER/ns/net" "$@"; }
check "holder in $A" "$NS_INO" "$(stat -L -c %i "/proc/$HOLDER/ns/net")"
# daemon_holds_a: whether one of the daemon's fds is namespace A itself
daemon_holds_a() {
	local f
	for f in /proc/"$VQ_DPID"/fd/*; do
		[ "$(stat -L -c %i "$f" 2>/dev/null)" == "$NS_INO" ] &&
			[ "$(stat -L -c %d "$f")" == "$(stat -L -c %d "/proc/$HOLDER/ns/net")" ] &&
			return 0
	done
	return 1
}
check_true "the daemon holds an fd of $A" daemon_holds_a

ip netns del "$A"
ms=$(vq_wait_code 404 GET "/v1/devices/$A:va" "$SEEN_S")
check_true "$A:va gone from the views within ${SEEN_S}s ($ms ms)" test $? -eq 0
check "no device of $A listed" 0 "$(vq_api GET /v1/devices | cut -d' ' -f2- |
	vq_json "sum(1 for x in d['devices'] if x['netns'] == '$A')")"
check "gro-flush-timeout of va restored before letting go" "$g0" \
	"$(in_a python3 "$NAPI_READ" | awk -v i="$IA" '$2 == i { print $4; exit }')"
check "a write to $A:va is 404" 404 "$(vq_code PUT "/v1/devices/$A:va/knobs/gro-flush-timeout" \
	'{"value":50000}')"
check "... and did not reach the kernel" "$g0" \
	"$(in_a python3 "$NAPI_READ" | awk -v i="$IA" '$2 == i { print $4; exit }')"
check "nothing owed any more" 0 "$(vq_api GET /v1/status | cut -d' ' -f2- |
	vq_json 'd["changed_knobs"]')"
ev=$(vq_api GET /v1/events | cut -d' ' -f2-)
n_napi=$(in_a python3 "$NAPI_READ" | awk -v i="$IA" '$2 == i' | wc -l)
check "restore events for va, one per NAPI" "$n_napi" "$(vq_json \
	"sum(1 for e in d['events'] if e['who'] == 'restore' and e['device'] == 'va')" <<<"$ev")"
check "an event says $A was deleted" \
	"netns '$A' was deleted: $n_napi knob(s) restored, 2 device(s) no longer watched; $(
	)watched again if it comes back" \
	"$(vq_json "[e['reason'] for e in d['events'] if e['who'] == 'daemon'][-1]" <<<"$ev")"
for _ in $(seq 20); do daemon_holds_a || break; sleep 0.1; done
check_true "the daemon holds no fd of $A any more" eval '! daemon_holds_a'
check_true "daemon alive and /healthz 200" vq_healthy
check "$B:vb still served" 200 "$(vq_code GET "/v1/devices/$B:vb")"

# the last holder gone, the namespace dies with va, and vb (its peer) with it
kill "$HOLDER"; wait "$HOLDER" 2>/dev/null
ms=$(vq_wait_code 404 GET "/v1/devices/$B:vb" "$SEEN_S")
check_true "$B:vb (the peer) gone with the namespace within ${SEEN_S}s ($ms ms)" test $? -eq 0

# the name comes back: watched again
ip netns add "$A" && ip -n "$A" link set lo up || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
ms=$(vq_wait_code 200 GET "/v1/devices/$A:va" "$SEEN_S")
check_true "$A:va served again after ip netns add within ${SEEN_S}s ($ms ms)" test $? -eq 0
check_true "an event says so" grep -qF "netns '$A' is back: watching it again" \
	<<<"$(vq_ctl events)"
IA=$(vq_ifindex "$A" va)
g1=$(vq_napi "$A" "$IA" gro_flush_timeout)
vq_ctl set "$A:va" gro-flush-timeout 30000 >/dev/null
check "set on the new $A:va" 30000 "$(vq_napi "$A" "$IA" gro_flush_timeout)"
vq_daemon_stop TERM
check "SIGTERM: exit code (everything restored)" 0 $?
check "... gro-flush-timeout of the new va restored" "$g1" "$(vq_napi "$A" "$IA" gro_flush_timeout)"
vq_done
