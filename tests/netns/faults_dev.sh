#!/bin/bash
# Devices that change under the daemon: a rename keeps the ifindex and retires the old name,
# a move to another watched namespace shows up there with the ifindex sysfs gives it, a
# deletion removes it; the daemon keeps serving after each. A knob changed on a device
# that is then deleted went with it: restore owes nothing for it (exit 0, a "restore" event).
# One whose device left for a namespace nobody watches is reported failed by restore (exit 1,
# also of SIGTERM) and the other knobs are still restored.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
SEEN_S=1	# the daemon ticks every 100 ms: one second is ten chances to see a change
A=$(vq_netns a) && B=$(vq_netns b) && C=$(vq_netns c) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
ip -n "$A" link add x0 type veth peer name x0p || exit $KSFT_FAIL
ip -n "$A" link add d0 type veth peer name d0p || exit $KSFT_FAIL
for d in x0 x0p d0 d0p; do ip -n "$A" link set "$d" up; done
ip netns exec "$A" ethtool -K d0 gro on >/dev/null	# a NAPI to write
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL

# dev_field NS:NAME FIELD: one field of the device view (empty if absent)
dev_field() { vq_api GET "/v1/devices/$1" | cut -d' ' -f2- | vq_json "d.get('$2')" 2>/dev/null; }

ifx=$(vq_ifindex "$A" x0)
vq_wait_code 200 GET "/v1/devices/$A:x0" 2 >/dev/null
check "x0 seen, ifindex" "$ifx" "$(dev_field "$A:x0" ifindex)"

# rename
ip -n "$A" link set x0 name y0
ms=$(vq_wait_code 200 GET "/v1/devices/$A:y0" "$SEEN_S")
check_true "new name y0 served within ${SEEN_S}s ($ms ms)" test $? -eq 0
check "y0 keeps the ifindex" "$ifx" "$(dev_field "$A:y0" ifindex)"
check "old name x0 is 404" 404 "$(vq_code GET "/v1/devices/$A:x0")"
check_true "daemon alive and /healthz 200 after rename" vq_healthy

# move to B
ip -n "$A" link set y0 netns "$B"
ifx_b=$(vq_ifindex "$B" y0)
ms=$(vq_wait_code 200 GET "/v1/devices/$B:y0" "$SEEN_S")
check_true "y0 appears in B within ${SEEN_S}s ($ms ms)" test $? -eq 0
check "y0 in B has the ifindex of B's sysfs" "$ifx_b" "$(dev_field "$B:y0" ifindex)"
check "y0 in B reports netns" "$B" "$(dev_field "$B:y0" netns)"
check "y0 gone from A" 404 "$(vq_code GET "/v1/devices/$A:y0")"
check_true "daemon alive and /healthz 200 after move" vq_healthy

# delete
ip -n "$B" link del y0
ms=$(vq_wait_code 404 GET "/v1/devices/$B:y0" "$SEEN_S")
check_true "y0 gone after delete within ${SEEN_S}s ($ms ms)" test $? -eq 0
check "y0 in no namespace of the list" 0 "$(vq_api GET /v1/devices | cut -d' ' -f2- |
	vq_json 'sum(1 for x in d["devices"] if x["name"] in ("x0", "y0"))')"
check_true "daemon alive and /healthz 200 after delete" vq_healthy

# restore with one changed device gone
vb_ifx=$(vq_ifindex "$B" vb)
d0_ifx=$(vq_ifindex "$A" d0)
vb_orig=$(vq_napi "$B" "$vb_ifx" gro_flush_timeout)
d0_orig=$(vq_napi "$A" "$d0_ifx" gro_flush_timeout)
vq_ctl set "$B:vb" gro-flush-timeout 20000 >/dev/null
check "set vb exit code" 0 $?
vq_ctl set "$A:d0" gro-flush-timeout 30000 >/dev/null
check "set d0 exit code" 0 $?
check "vb set in the kernel" 20000 "$(vq_napi "$B" "$vb_ifx" gro_flush_timeout)"
check "d0 set in the kernel" 30000 "$(vq_napi "$A" "$d0_ifx" gro_flush_timeout)"
ip -n "$A" link del d0
vq_wait_code 404 GET "/v1/devices/$A:d0" "$SEEN_S" >/dev/null
vq_ctl restore >"$VQ_TMP/restore.out" 2>"$VQ_TMP/restore.err"
check "restore with d0 deleted: exit code (its knob went with it)" 0 $?
check "... nothing on stderr" "" "$(cat "$VQ_TMP/restore.err")"
check "vb restored to its original" "$vb_orig" "$(vq_napi "$B" "$vb_ifx" gro_flush_timeout)"
check_true "daemon alive and /healthz 200 after restore" vq_healthy
ev_d0=$(vq_api GET /v1/events | cut -d' ' -f2- | vq_json \
	'"|".join("%s %s" % (e["who"], e["reason"]) for e in d["events"]
		if e["device"] == "d0" and e["who"] != "manual")')
check "d0: one restore event, deleted, nothing to restore" "restore d0 was deleted from netns \
'$A' (ifindex $d0_ifx), not moved to another namespace: the knob went with it, nothing to \
restore (original $d0_orig)" "$ev_d0"
log=$(vq_api GET /v1/events | cut -d' ' -f2- | vq_json \
	'" ".join(sorted(set(e["who"] + ":" + e["device"] for e in d["events"])))')
check_true "events record the restore of vb ($log)" grep -q "restore:vb" <<<"$log"

# the same at exit: a changed knob whose device left for a namespace nobody watches cannot be
# restored by SIGTERM, and vqtuned(8) says the exit status is then non-zero; one whose device
# was deleted is owed no more
ip -n "$B" link add e0 type veth peer name e0p && ip -n "$B" link set e0 up || exit $KSFT_FAIL
vq_wait_code 200 GET "/v1/devices/$B:e0" 2 >/dev/null
vq_ctl set "$B:vb" gro-flush-timeout 20000 >/dev/null
check "set vb again (each of its NAPIs)" 0 $?
vq_ctl set "$B:e0" gro-flush-timeout 40000 >/dev/null
check "set e0" 0 $?
ip -n "$B" link set vb netns "$C" && ip -n "$B" link del e0 || exit $KSFT_FAIL
vq_wait_code 404 GET "/v1/devices/$B:vb" "$SEEN_S" >/dev/null
vq_wait_code 404 GET "/v1/devices/$B:e0" "$SEEN_S" >/dev/null
vq_daemon_stop TERM
check "SIGTERM with a knob that could not be restored: exit status 1" 1 $?
n_failed=$(grep -c '^<3>restore netns' "$VQ_TMP/vqtuned.log")
n_vb=$(grep '^<3>restore netns' "$VQ_TMP/vqtuned.log" | grep -c 'vb is not in any watched namespace')
check_true "... the log's failed restores ($n_failed) are all vb's, in no watched namespace ($n_vb)" \
	test "$n_failed" -ge 1 -a "$n_failed" -eq "$n_vb"
check_true "... e0's event: deleted, nothing to restore" grep -q "event [0-9]*: restore \
$B:e0 gro-flush-timeout: e0 was deleted from netns '$B'" "$VQ_TMP/vqtuned.log"
vq_done
