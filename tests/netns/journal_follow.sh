#!/bin/bash
# A device with a knob vqtune changed that moves to another watched namespace (`ip link set
# dev X netns B`) keeps its settings, and the journal entry follows it there: the knob shows
# as changed on the device in B, and restore puts the original back there. One that moves
# out of every watched namespace is reported once (an "error" event with the original) and
# kept, also by a restore, which reports it failed, and by SIGTERM (journalled as left); when
# it comes back into a watched namespace the entry follows it again, also across a restart.
# One the kernel deleted (RTM_DELLINK naming no namespace it moved to) took its knob with it:
# dropped at once with a "restore" event, nothing owed, and a new device of its name is left
# alone. A new device that only has the name of one that left (not vqtune's value) is not
# taken for it: restore reports that knob failed and leaves the new device alone.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
SEEN_S=3	# the daemon ticks every 100 ms
SET=30000	# gro-flush-timeout vqtune writes, ns
A=$(vq_netns a) && B=$(vq_netns b) && C=$(vq_netns c) || exit $KSFT_FAIL
# veths without NAPI (GRO off): gro-flush-timeout is the device's own sysfs value, which a
# move between namespaces keeps
for d in x0 y0 z0 w0; do
	ip -n "$A" link add "$d" type veth peer name "${d}p" && ip -n "$A" link set "$d" up ||
		exit $KSFT_FAIL
done
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL

gft() { ip netns exec "$1" cat "/sys/class/net/$2/gro_flush_timeout"; }
# knob NS:DEV FIELD: a field of the device's gro-flush-timeout in the knobs view
knob() {
	vq_ctl --json knobs "$1" |
		vq_json "[str(k['$2']) for k in d['knobs'] if k['name'] == 'gro-flush-timeout'][0]"
}
# events WHO DEV: the reasons of the events of WHO about device DEV, one a line
events() {
	vq_api GET /v1/events | cut -d' ' -f2- |
		vq_json "'\n'.join(e['reason'] for e in d['events'] if e['who'] == '$1' and e['device'] == '$2')"
}
# last_event_field WHO DEV FIELD
last_event_field() {
	vq_api GET /v1/events | cut -d' ' -f2- |
		vq_json "[str(e['$3']) for e in d['events'] if e['who'] == '$1' and e['device'] == '$2'][-1]"
}

for d in x0 y0 z0 w0; do
	vq_wait_code 200 GET "/v1/devices/$A:$d" 2 >/dev/null
	orig[${#orig[@]}]=$(gft "$A" "$d")
	vq_ctl set "$A:$d" gro-flush-timeout "$SET" >/dev/null
	check "set $A:$d gro-flush-timeout" "$SET" "$(gft "$A" "$d")"
done
x_orig=${orig[0]} y_orig=${orig[1]} z_orig=${orig[2]} w_orig=${orig[3]}
check "provider of the knob (device-wide sysfs)" sysfs-napi "$(knob "$A:x0" provider)"

# ---- x0 moves to B (watched): the journal follows
ip -n "$A" link set x0 netns "$B" || exit $KSFT_FAIL
ms=$(vq_wait_code 200 GET "/v1/devices/$B:x0" "$SEEN_S")
check_true "x0 served in $B within ${SEEN_S}s ($ms ms)" test $? -eq 0
check "the move kept the value" "$SET" "$(gft "$B" x0)"
for _ in $(seq 30); do [ "$(knob "$B:x0" changed)" == True ] && break; sleep 0.1; done
check "$B:x0: changed (restore owed)" True "$(knob "$B:x0" changed)"
check "$B:x0: original" "$x_orig" "$(knob "$B:x0" original)"
check "$B:x0: still pinned (manual set)" True "$(knob "$B:x0" pinned)"
check_true "a daemon event says the journal followed x0 ($(events daemon x0))" \
	grep -q "the journal follows x0 from netns '$A' ifindex [0-9]* to netns '$B' ifindex [0-9]*: $(
		)the original $x_orig is owed there now" <<<"$(events daemon x0)"
check "no error event for x0" "" "$(events error x0)"

# ---- y0 moves to C (not watched): reported once, with its original, and kept
ip -n "$A" link set y0 netns "$C" || exit $KSFT_FAIL
for _ in $(seq 30); do [ -n "$(events error y0)" ] && break; sleep 0.1; done
check_true "an error event for y0 ($(events error y0))" \
	grep -qF "with this knob changed, original $y_orig: not restorable now (y0 is not in $(
		)any watched namespace); kept: a restore puts it back once the device is in a watched $(
		)namespace again" <<<"$(events error y0)"
check_true "... names where it left" grep -q "^y0 left netns '$A' (ifindex [0-9]*) " \
	<<<"$(events error y0)"
check "... it names the knob" gro-flush-timeout "$(last_event_field error y0 knob)"
check "... its new value is the original" "$y_orig" "$(last_event_field error y0 new)"
check "... its old value is vqtune's" "$SET" "$(last_event_field error y0 old)"
sleep 0.5
check "... reported once" 1 "$(events error y0 | wc -l)"
check "x0, y0, z0 and w0 still owed" 4 "$(vq_api GET /v1/status | cut -d' ' -f2- |
	vq_json 'd["changed_knobs"]')"
# ... and back into a watched namespace: followed again
ip -n "$C" link set y0 netns "$B" || exit $KSFT_FAIL
vq_wait_code 200 GET "/v1/devices/$B:y0" "$SEEN_S" >/dev/null
for _ in $(seq 30); do [ "$(knob "$B:y0" changed)" == True ] && break; sleep 0.1; done
check "$B:y0: changed, owed again" True "$(knob "$B:y0" changed)"
check "$B:y0: original" "$y_orig" "$(knob "$B:y0" original)"

# ---- z0 is deleted and a new z0 made at once: the knob went with the old one, nothing owed
z_if=$(vq_ifindex "$A" z0)
ip -n "$A" link del z0 && ip -n "$A" link add z0 type veth peer name z0p &&
	ip -n "$A" link set z0 up || exit $KSFT_FAIL
z_new=$(gft "$A" z0)
for _ in $(seq 30); do [ -n "$(events restore z0)" ] && break; sleep 0.1; done
check "a restore event for z0: deleted, nothing to restore" "z0 was deleted from netns '$A' \
(ifindex $z_if), not moved to another namespace: the knob went with it, nothing to restore \
(original $z_orig)" "$(events restore z0)"
check "... its old value is vqtune's" "$SET" "$(last_event_field restore z0 old)"
check "... no error event for z0" "" "$(events error z0)"
check "the new $A:z0 is not shown as changed" False "$(knob "$A:z0" changed)"
check "... and keeps its own value" "$z_new" "$(gft "$A" z0)"
check "z0 no longer owed: x0, y0 and w0 are" 3 "$(vq_api GET /v1/status | cut -d' ' -f2- |
	vq_json 'd["changed_knobs"]')"

# ---- w0 leaves for C (unwatched) and a new w0 is made in A: same name, not vqtune's value,
# not followed; the old one is still owed (it lives on in C)
ip -n "$A" link set w0 netns "$C" && ip -n "$A" link add w0 type veth peer name w0q &&
	ip -n "$A" link set w0 up || exit $KSFT_FAIL
w_new=$(gft "$A" w0)
for _ in $(seq 30); do [ -n "$(events error w0)" ] && break; sleep 0.1; done
check_true "an error event for w0 names the other device ($(events error w0))" \
	grep -q "the w0 in netns '$A' has gro-flush-timeout $w_new, not the $SET vqtune wrote" \
	<<<"$(events error w0)"
check "the new $A:w0 is not shown as changed" False "$(knob "$A:w0" changed)"

# ---- restore: x0 and y0 put back in B; w0 reported failed and kept, the new w0 untouched
vq_ctl restore >"$VQ_TMP/restore.out" 2>"$VQ_TMP/restore.err"
check "restore exit code (w0 failed)" 1 $?
check_true "restore names w0, kept ($(tr '\n' ' ' <"$VQ_TMP/restore.err"))" \
	grep -q "w0.*; kept: a restore puts it back once the device is in a watched namespace again" \
	"$VQ_TMP/restore.err"
check_true "... and not x0, y0 or z0" eval '! grep -qE "x0|y0|z0" "$VQ_TMP/restore.err"'
check "x0 restored in $B" "$x_orig" "$(gft "$B" x0)"
check "y0 restored in $B" "$y_orig" "$(gft "$B" y0)"
check "the new w0 untouched" "$w_new" "$(gft "$A" w0)"
check "the old w0, in $C, keeps vqtune's value (no watched namespace holds it)" "$SET" \
	"$(gft "$C" w0)"
check "the new z0 untouched" "$z_new" "$(gft "$A" z0)"
check "the old w0 still owed after the restore, nothing else" 1 "$(vq_api GET /v1/status |
	cut -d' ' -f2- | vq_json 'd["changed_knobs"]')"
check_true "daemon alive and /healthz 200" vq_healthy
vq_daemon_stop TERM
check "SIGTERM with the old w0 still away: exit code 1 (not restorable)" 1 $?
check "... the journal keeps it, marked as left" "w0 True" "$(vq_json '" ".join("%s %s" % (
	bytes.fromhex(e["device_hex"]).decode(), e.get("left")) for e in d["entries"])' \
	<"$VQ_STATE/originals.json")"

# ---- a start while the old w0 is still away: it stays owed, the start's line says so, and
# its restore's failure is its one error event (the sweep does not report it again)
: >"$VQ_TMP/vqtuned.log"
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
check_true "restart with w0 away: the start line counts it still owed" grep -q "restored 0 \
knob(s) left changed by a previous run, 0 owed nothing, 1 still owed" "$VQ_TMP/vqtuned.log"
sleep 1	# ten ticks: ten sweeps
check "... one error event for w0 in this run" 1 "$(events error w0 | wc -l)"
check "... still owed" 1 "$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["changed_knobs"]')"
vq_daemon_stop TERM
check "... SIGTERM: exit code 1" 1 $?

# ---- the old w0 comes back into a watched namespace while no vqtuned runs (the new one is
# gone): the next start finds it by its name and vqtune's value, and restores it there
ip -n "$A" link del w0 && ip -n "$C" link set w0 netns "$B" || exit $KSFT_FAIL
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
check "restarted: the old w0 in $B restored" "$w_orig" "$(gft "$B" w0)"
check "... nothing owed" 0 "$(vq_api GET /v1/status | cut -d' ' -f2- |
	vq_json 'd["changed_knobs"]')"
vq_daemon_stop TERM
check "SIGTERM: exit code" 0 $?
vq_done
