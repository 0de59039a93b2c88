#!/bin/bash
# A per-NAPI knob vqtune wrote whose NAPI the kernel then removed: a veth re-creates its
# NAPIs, with new ids and the device's values, on a down and up or a channel change. On a
# device that is up, a restore owes nothing for it (an event says why, no failure, exit 0);
# on a device that is down it is kept (a failure that names it) until the device is up. A
# SIGTERM after a channel change puts the channels back first, then finds the NAPI gone: the
# daemon exits 0 with every knob at its original. With GRO off (no NAPI at all, the device
# up) the restore owes nothing too.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
vq_daemon --netns "$A" --interval 1000 || exit $KSFT_FAIL
IFX=$(vq_ifindex "$A" va)
# the ids of va's NAPIs, ascending
napis() { ip netns exec "$A" python3 "$NAPI_READ" | awk -v i="$IFX" '$2 == i { print $1 }' |
	sort -n | paste -sd' '; }
owed() { vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["changed_knobs"]'; }
last_event() { vq_api GET /v1/events | cut -d' ' -f2- | vq_json 'd["events"][-1]["reason"]'; }

read -r N0 _ <<<"$(napis)"
vq_ctl set "$A:va" defer-hard-irqs 4 --napi-id "$N0" >/dev/null
check "set defer-hard-irqs 4 on napi-$N0: exit code, the kernel's, owed" "0 4 1" \
	"$? $(ip netns exec "$A" python3 "$NAPI_READ" | awk -v n="$N0" '$1 == n { print $3 }')\
 $(owed)"

# down: the NAPIs are gone; a restore keeps the entry and says why
ip -n "$A" link set va down
out=$(vq_ctl restore 2>&1)
check "va down, napi-$N0 gone: restore fails (exit 1), naming it" \
	"1 restored 0, failed 1" "$? $(tail -1 <<<"$out")"
check_true "... why: the device is down ($out)" \
	grep -q "napi-$N0 is gone while the device is down: kept until it is back up" <<<"$out"
check "... still owed" 1 "$(owed)"

# up: new NAPIs with the device's value; the restore owes nothing and says so
ip -n "$A" link set va up
check_true "va up: new NAPIs ($(napis)), not napi-$N0" \
	bash -c "! grep -qw '$N0' <<<'$(napis)' && [ -n '$(napis)' ]"
check "... which hold the device's defer-hard-irqs" "0 0" "$(ip netns exec "$A" python3 \
	"$NAPI_READ" | awk -v i="$IFX" '$2 == i { print $3 }' | paste -sd' ')"
out=$(vq_ctl restore 2>&1)
check "restore: exit 0, nothing written, nothing failed, one owed nothing" \
	"0 restored 0, failed 0, nothing owed 1 (see events)" "$? $out"
check "... its event" "napi-$N0 is gone and the device is up: a NAPI takes the device's value\
 when it is made, nothing to restore" "$(last_event)"
check "... nothing owed" 0 "$(owed)"

# GRO off: the NAPIs are gone and none replaced them (the device is up); the restore owes
# nothing and does not claim a replacement (it once said "the NAPIs that replaced it")
read -r N2 _ <<<"$(napis)"
vq_ctl set "$A:va" defer-hard-irqs 4 --napi-id "$N2" >/dev/null
check "set defer-hard-irqs 4 on napi-$N2: exit code, owed" "0 1" "$? $(owed)"
ip netns exec "$A" ethtool -K va gro off >/dev/null || exit $KSFT_FAIL
check "GRO off: va has no NAPI" "" "$(napis)"
out=$(vq_ctl restore 2>&1)
check "restore: exit 0, nothing written, nothing failed, one owed nothing" \
	"0 restored 0, failed 0, nothing owed 1 (see events)" "$? $out"
check "... its event: nothing to restore, and no claim that a NAPI replaced it" "napi-$N2 is\
 gone and the device is up: a NAPI takes the device's value when it is made, nothing to\
 restore" "$(last_event)"
check "... nothing owed" 0 "$(owed)"
ip netns exec "$A" ethtool -K va gro on >/dev/null || exit $KSFT_FAIL

# a channel change after the NAPI write, then SIGTERM: channels back first, the NAPI gone
# (rx-channels 1 removes queue 1's NAPI, the newest; going back to 2 adds a new one)
N1=$(napis | awk '{ print $NF }')
# the views list a NAPI from the next sample on (a tick of 1 s)
for _ in $(seq 50); do
	vq_ctl --json knobs "$A:va" | vq_json '[k["napi_id"] for k in d["knobs"]
		if k["name"] == "gro-flush-timeout"]' | grep -qw "$N1" && break
	sleep 0.1
done
vq_ctl set "$A:va" gro-flush-timeout 50000 --napi-id "$N1" >/dev/null
check "set gro-flush-timeout 50000 on napi-$N1: exit code" 0 $?
vq_ctl set "$A:va" rx-channels 1 --disruptive >/dev/null
check "set rx-channels 1: exit code, the kernel's" "0 1" \
	"$? $(ip netns exec "$A" ethtool -l va | awk '/^Current/ { c = 1 } c && /^RX:/ { print $2 }')"
vq_daemon_stop TERM
check "SIGTERM: exit code 0" 0 $?
check "... rx-channels back at 2" 2 \
	"$(ip netns exec "$A" ethtool -l va | awk '/^Current/ { c = 1 } c && /^RX:/ { print $2 }')"
check "... every NAPI of va at gro-flush-timeout 0" "0 0" "$(ip netns exec "$A" python3 \
	"$NAPI_READ" | awk -v i="$IFX" '$2 == i { print $4 }' | paste -sd' ')"
check_true "... the log says napi-$N1 needed nothing" \
	grep -q "napi-$N1 is gone and the device is up" "$VQ_TMP/vqtuned.log"
vq_done
