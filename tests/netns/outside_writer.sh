#!/bin/bash
# Someone else rewrites a knob every 2 s while the daemon holds another value: the daemon
# notices, pins the knob, says so in one event, and never writes it back (no flapping). It
# no longer restores that knob: the other writer owns it now.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 1 || exit $KSFT_FAIL
IB=$(vq_ifindex "$B" vb)
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL

vq_ctl set "$B:vb" gro-flush-timeout 20000 >/dev/null
check "daemon's value" 20000 "$(vq_napi "$B" "$IB" gro_flush_timeout)"
# the other writer: the device-wide sysfs file, which sets every NAPI of the device
(
	for _ in 1 2 3 4; do
		ip netns exec "$B" sh -c 'echo 90000 > /sys/class/net/vb/gro_flush_timeout'
		sleep 2
	done
) &
W=$!
VQ_PIDS+=("$W")
# watch the kernel's value while the writer runs (8 s): once the writer's value is there, it
# must never go back to 20000
flaps=0
seen_writer=
end=$((SECONDS + 8))
while [ "$SECONDS" -lt "$end" ]; do
	v=$(vq_napi "$B" "$IB" gro_flush_timeout)
	if [ "$v" = 90000 ]; then seen_writer=1; elif [ -n "$seen_writer" ]; then flaps=$((flaps + 1)); fi
	sleep 0.1
done
check "the writer's value was seen" 1 "$seen_writer"
wait "$W"
check "the kernel value never went back after the outside write" 0 "$flaps"
check "outside value kept" 90000 "$(vq_napi "$B" "$IB" gro_flush_timeout)"
ev=$(vq_ctl --json events)
check "exactly one outside event" 1 "$(echo "$ev" | vq_json 'len([e for e in d["events"] if e["who"]=="outside"])')"
check "the event has old and new" "20000 90000" "$(echo "$ev" | vq_json '" ".join(str(e[k]) for e in d["events"] if e["who"]=="outside" for k in ("old","new"))')"
check "no second manual/controller write" 1 "$(echo "$ev" | vq_json 'len([e for e in d["events"] if e["who"] in ("manual","controller") and e["knob"]=="gro-flush-timeout"])')"
check "knob pinned" True "$(vq_ctl --json device "$B:vb" | vq_json '[k["pinned"] for k in d["knobs"] if k["name"]=="gro-flush-timeout"][0]')"
check "no longer owed a restore" 0 "$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["changed_knobs"]')"
vq_daemon_stop TERM
check "outside value survives the daemon's exit" 90000 "$(vq_napi "$B" "$IB" gro_flush_timeout)"
vq_done
