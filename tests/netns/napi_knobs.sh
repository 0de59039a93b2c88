#!/bin/bash
# Every NAPI knob set through vqtunectl changes the kernel's value, as read by an independent
# netlink reader (tests/tools/napi_read.py, no code shared with the daemon), and the daemon's
# own views show the new value at once: the tick here is 30 s, so the first sample is the only
# one and a fresh value can come only from the write's read-back. `restore` puts each original
# back. A set to the value already there is an event saying so, not a change. threaded on a
# device with no NAPI (a veth with GRO off), which the kernel refuses, is read-only with the
# reason in the views, and a set of it is refused by name before any write; with GRO turned
# on since the last sample, the view and the set see its NAPI at once: writable, and the set
# goes through.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
# GRO and XDP off (veth's default): no NAPI
ip -n "$A" link add vc type veth peer name vd && ip -n "$A" link set vc up &&
	ip -n "$A" link set vd up || exit $KSFT_FAIL
vq_daemon --netns "$A" --netns "$B" --interval 30000 || exit $KSFT_FAIL
IFX=$(vq_ifindex "$B" vb)
NAPI=$(ip netns exec "$B" python3 "$NAPI_READ" | awk -v i="$IFX" '$2 == i { print $1; exit }')
[ -n "$NAPI" ] || { echo "FAIL: vb has no NAPI (GRO on should give one)"; exit $KSFT_FAIL; }

# the kernel dumps NAPIs newest first (NAPI is the newest); the views list them by id
check "vb's per-NAPI defer-hard-irqs: two NAPIs, listed by ascending id, $NAPI last" \
	"2 True $NAPI" "$(vq_ctl --json knobs "$B:vb" | vq_json '(lambda r: "%d %s %d" % (len(r),
		[k["napi_id"] for k in r] == sorted(k["napi_id"] for k in r), r[-1]["napi_id"]))(
		[k for k in d["knobs"] if k["name"] == "defer-hard-irqs"])')"

# threaded on vc (no NAPI): read-only, its reason in the view, a set refused by name
why="the kernel refuses threaded on a device with no NAPI instance (the netdev family lists\
 none; a veth has one while up with GRO or XDP on)"
check "vc's threaded: read-only, with the reason" "False|$why" \
	"$(vq_ctl --json knobs "$A:vc" | vq_json '"|".join("%s|%s" % (k["writable"],
		k.get("read_only_reason")) for k in d["knobs"] if k["name"] == "threaded")')"
check "va's threaded (GRO on: a NAPI): writable" True \
	"$(vq_ctl --json knobs "$A:va" | vq_json '[k["writable"] for k in d["knobs"]
		if k["name"] == "threaded"][0]')"
out=$(vq_ctl set "$A:vc" threaded 1 2>&1)
check "vqtunectl set vc threaded 1: refused (exit 1)" 1 $?
check "... by name, with the reason" "vqtunectl: threaded is not writable on vc: $why\
 (unsupported, field knob)" "$out"
check "... no event, no change owed" "0 0" "$(vq_api GET /v1/status | cut -d' ' -f2- |
	vq_json '"%d %d" % (d["events"], d["changed_knobs"])')"

# a set to the value the knob already holds writes nothing and owes no restore: its event says
# so (old == new, "already"), it is not counted as a change, and the knob is pinned all the same
cur=$(vq_napi "$B" "$IFX" defer_hard_irqs)
out=$(vq_ctl set "$B:vb" defer-hard-irqs "$cur" --napi-id "$NAPI")
check "set defer-hard-irqs to its own value $cur: exit code" 0 $?
check "... vqtunectl says so" "defer-hard-irqs napi-$NAPI: already $cur, nothing written (pinned)" \
	"$out"
ev=$(vq_api GET /v1/events | cut -d' ' -f2- | vq_json \
	'"|".join("%s %s %s" % (e["old"], e["new"], e["reason"]) for e in d["events"])')
check_true "... one event, old == new == $cur, saying it was already set ($ev)" \
	grep -Eqx "$cur $cur manual set of defer-hard-irqs on $B:vb: already $cur, nothing written \(pinned\)" <<<"$ev"
check "... no change owed" 0 "$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["changed_knobs"]')"
check "... pinned, no original" "True None" "$(vq_api GET "/v1/devices/$B:vb" | cut -d' ' -f2- |
	vq_json '" ".join(str((k["pinned"], k["original"])[i]) for k in d["knobs"] if k["name"] == "defer-hard-irqs" and k.get("napi_id") == '"$NAPI"' for i in (0, 1))')"
vq_api DELETE "/v1/devices/$B:vb/knobs/defer-hard-irqs" >/dev/null

declare -A value=( [defer-hard-irqs]=5 [gro-flush-timeout]=200000 [irq-suspend-timeout]=3000000 [threaded]=1 )
declare -A field=( [defer-hard-irqs]=defer_hard_irqs [gro-flush-timeout]=gro_flush_timeout
		   [irq-suspend-timeout]=irq_suspend_timeout [threaded]=threaded )
declare -A orig
for k in "${!value[@]}"; do
	orig[$k]=$(vq_napi "$B" "$IFX" "${field[$k]}")
	vq_ctl set "$B:vb" "$k" "${value[$k]}" --napi-id "$NAPI" >/dev/null
	check "vqtunectl set $k exit code" 0 $?
	check "$k as the kernel reports it" "${value[$k]}" "$(vq_napi "$B" "$IFX" "${field[$k]}")"
	check "$k in the knobs view at once" "${value[$k]}" \
		"$(vq_ctl --json knobs "$B:vb" | vq_json "[k['value'] for k in d['knobs'] if k['name']=='$k' and k.get('napi_id')==$NAPI][0]")"
done
# the device view reports the change, the original and the pin
dev=$(vq_ctl --json device "$B:vb")
gft() {
	echo "$dev" | vq_json '[k["'"$1"'"] for k in d["knobs"]
		if k["name"] == "gro-flush-timeout" and k.get("napi_id") == '"$NAPI"'][0]'
}
check "gro-flush-timeout value in the device view" 200000 "$(gft value)"
check "gro-flush-timeout original in the device view" "${orig[gro-flush-timeout]}" "$(gft original)"
check "gro-flush-timeout pinned" True "$(gft pinned)"
check "the other NAPI's gro-flush-timeout: unchanged, not pinned" "False False" \
	"$(echo "$dev" | vq_json '" ".join("%s %s" % (k["changed"], k["pinned"]) for k in d["knobs"]
		if k["name"] == "gro-flush-timeout" and k.get("napi_id") != '"$NAPI"')')"

vq_ctl restore >/dev/null
check "vqtunectl restore exit code" 0 $?
for k in "${!value[@]}"; do
	check "$k restored" "${orig[$k]}" "$(vq_napi "$B" "$IFX" "${field[$k]}")"
done
check "journal empty after restore" 0 "$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["changed_knobs"]')"

# GRO on gives vc a NAPI: the link notification has the next request read vc's layout again,
# well before the next (30 s) tick, so the view and the set see it. threaded is then the
# NAPI's own where the netdev family has it per NAPI (Linux 6.17+), else the device's (sysfs)
ip netns exec "$A" ethtool -K vc gro on >/dev/null || exit $KSFT_FAIL
IFC=$(vq_ifindex "$A" vc)
# vc's threaded as the kernel has it where vqtune writes it: its NAPI's, else the device's
vc_threaded() {
	local t
	t=$(ip netns exec "$A" python3 "$NAPI_READ" | awk -v i="$IFC" '$2 == i { print $6; exit }')
	[ -n "$t" ] && [ "$t" != - ] && echo "$t" || ip netns exec "$A" cat /sys/class/net/vc/threaded
}
check "GRO on, vc's threaded in the view at once: writable, no reason" "True|None" \
	"$(vq_ctl --json knobs "$A:vc" | vq_json '"|".join("%s|%s" % (k["writable"],
		k.get("read_only_reason")) for k in d["knobs"] if k["name"] == "threaded")')"
vq_ctl set "$A:vc" threaded 1 >/dev/null
check "GRO on, vc threaded 1 at once: written (exit 0)" 0 $?
check "... the kernel's threaded" 1 "$(vc_threaded)"
vq_ctl restore >/dev/null
check "... restored" 0 "$(vc_threaded)"
vq_done
