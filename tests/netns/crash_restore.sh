#!/bin/bash
# kill -9 after changing two knobs; the next start restores both from the journal before
# anything else, and SIGTERM restores what was changed since. A second vqtuned on the same
# state dir refuses to start and touches nothing. Event ids keep increasing across restarts.
# The private sysfs directory a killed daemon leaves is removed by the next start, a live
# daemon's never, and a clean stop leaves none.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
IA=$(vq_ifindex "$A" va)
IB=$(vq_ifindex "$B" vb)
g0=$(vq_napi "$B" "$IB" gro_flush_timeout)
d0=$(vq_napi "$A" "$IA" defer_hard_irqs)

# mnt_dirs: the private sysfs directories in the run dir (<run dir>/sysfs.XXXXXX, empty from
# outside: a daemon's mounts are in its own mount namespace)
mnt_dirs() { (cd "$VQ_TMP" && ls -d sysfs.?????? 2>/dev/null | tr '\n' ' '); }

vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
vq_ctl set "$B:vb" gro-flush-timeout 50000 >/dev/null
check "set gro-flush-timeout" 0 $?
vq_ctl set "$A:va" defer-hard-irqs 3 >/dev/null
check "set defer-hard-irqs" 0 $?
check "gro-flush-timeout changed" 50000 "$(vq_napi "$B" "$IB" gro_flush_timeout)"
check "defer-hard-irqs changed" 3 "$(vq_napi "$A" "$IA" defer_hard_irqs)"
# a set without --napi-id covers every NAPI of the device: one journal entry per NAPI
nnapi=$(( $(ip netns exec "$A" python3 "$NAPI_READ" | awk -v i="$IA" '$2 == i' | wc -l) +
	  $(ip netns exec "$B" python3 "$NAPI_READ" | awk -v i="$IB" '$2 == i' | wc -l) ))
check "journal holds every original" "$nnapi" "$(vq_json 'len(d["entries"])' <"$VQ_STATE/originals.json")"

live=$(mnt_dirs)
check "one private sysfs directory while the daemon runs ($live)" 1 "$(wc -w <<<"$live")"
# a second vqtuned on the same state dir refuses to start before touching anything: it
# would restore (and empty) the journal of the live one
"$VQTUNED" -s "$VQ_TMP/second.sock" -S "$VQ_STATE" --netns "$A" --netns "$B" \
	>"$VQ_TMP/second.log" 2>&1
check "second vqtuned on the same state dir: exit code" 1 $?
check_true "... names the state dir and the owner's pid ($(head -1 "$VQ_TMP/second.log"))" \
	grep -q "in use by another vqtuned (pid $VQ_DPID)" "$VQ_TMP/second.log"
check "... the live daemon's knob untouched" 50000 "$(vq_napi "$B" "$IB" gro_flush_timeout)"
check "... its journal kept" "$nnapi" "$(vq_json 'len(d["entries"])' <"$VQ_STATE/originals.json")"
check "... the live daemon's private sysfs directory kept, the second's removed" \
	"$live" "$(mnt_dirs)"
# a second vqtuned on its own state dir but the live daemon's socket refuses to start,
# naming the socket once, and leaves the live one's socket and journal alone
"$VQTUNED" -s "$VQ_SOCK" -S "$VQ_TMP/second.state" --netns "$A" --netns "$B" \
	>"$VQ_TMP/second.log" 2>&1
check "second vqtuned on the live socket: exit code" 1 $?
check "... says once that the socket is in use ($(grep -m1 sock "$VQ_TMP/second.log"))" 1 \
	"$(grep -c "unix socket $VQ_SOCK: Address already in use" "$VQ_TMP/second.log")"
check "... and nothing else about the API" 1 "$(grep -c '\bapi: \|\bAPI: ' "$VQ_TMP/second.log")"
check "... the live daemon still answers" 200 "$(vq_api GET /healthz | cut -d' ' -f1)"
check "... its knob untouched" 50000 "$(vq_napi "$B" "$IB" gro_flush_timeout)"
# a socket in a directory that does not exist: named at once, before any namespace is opened
# or the state dir made (it was reported as a missing namespace)
"$VQTUNED" -s "$VQ_TMP/nodir/sock" -S "$VQ_TMP/nodir.state" --netns "$A" \
	>"$VQ_TMP/nodir.log" 2>&1
check "vqtuned -s in a missing directory: exit code, what it says, no state dir" \
	"1 <3>--socket $VQ_TMP/nodir/sock: its directory $VQ_TMP/nodir does not exist absent" \
	"$? $(cat "$VQ_TMP/nodir.log") $([ -e "$VQ_TMP/nodir.state" ] && echo made || echo absent)"

# last_id: the id of the newest event the daemon serves (what a dashboard remembers)
last_id() { vq_api GET /v1/events | cut -d' ' -f2- | vq_json 'd["next"]'; }
# ids_above ID: "N M": N events served in all, M of them with an id above ID
ids_above() {
	vq_api GET /v1/events | cut -d' ' -f2- |
		vq_json "'%d %d' % (len(d['events']), sum(e['id'] > $1 for e in d['events']))"
}
id1=$(last_id)
check_true "events before kill -9 (newest id $id1)" test "$id1" -ge "$nnapi"

vq_daemon_stop KILL
check "still changed after kill -9 (nothing restored them)" 50000 "$(vq_napi "$B" "$IB" gro_flush_timeout)"
check "kill -9 leaves its private sysfs directory" "$live" "$(mnt_dirs)"

vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
now=$(mnt_dirs)
check "the next start removed the stale one and made its own" "1 no" \
	"$(wc -w <<<"$now") $([ "$now" == "$live" ] && echo yes || echo no)"
check_true "... and says so" grep -qF "removed $VQ_TMP/${live% }, the private sysfs" \
	"$VQ_TMP/vqtuned.log"
check "gro-flush-timeout restored at start" "$g0" "$(vq_napi "$B" "$IB" gro_flush_timeout)"
check "defer-hard-irqs restored at start" "$d0" "$(vq_napi "$A" "$IA" defer_hard_irqs)"
check "journal empty after the restore" 0 "$(vq_json 'len(d["entries"])' <"$VQ_STATE/originals.json")"
check "restore events" "$nnapi" "$(vq_ctl --json events | vq_json 'len([e for e in d["events"] if e["who"]=="restore"])')"
# event ids go on across kill -9: a client following with since=<last id it saw> gets the
# restore events of the new run
check "after kill -9: every event id above the last one before ($id1)" "$nnapi $nnapi" \
	"$(ids_above "$id1")"
check "... since=$id1 returns the restore events" "$nnapi" "$(vq_api GET "/v1/events?since=$id1" |
	cut -d' ' -f2- | vq_json 'len([e for e in d["events"] if e["who"] == "restore"])')"

# SIGTERM restores too
vq_ctl set "$B:vb" gro-flush-timeout 70000 >/dev/null
check "set again" 70000 "$(vq_napi "$B" "$IB" gro_flush_timeout)"
id2=$(last_id)
vq_daemon_stop TERM
check "vqtuned exit code after SIGTERM" 0 $?
check "gro-flush-timeout restored on SIGTERM" "$g0" "$(vq_napi "$B" "$IB" gro_flush_timeout)"
check "SIGTERM leaves no private sysfs directory" "" "$(mnt_dirs)"
# ... and across a clean stop (whose restore events are not served any more)
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
vq_ctl set "$B:vb" gro-flush-timeout 70000 >/dev/null
nb=$(ip netns exec "$B" python3 "$NAPI_READ" | awk -v i="$IB" '$2 == i' | wc -l)
check "after SIGTERM and a start: the new events' ids are above $id2" "$nb $nb" \
	"$(ids_above "$id2")"
vq_daemon_stop TERM

# a journal entry outside the knob's range (27.7 h) is not replayed into the kernel
NAPI=$(ip netns exec "$B" python3 "$NAPI_READ" | awk -v i="$IB" '$2 == i { print $1; exit }')
cat >"$VQ_STATE/originals.json" <<JSON
{"version": 1, "entries": [{"netns": "$B", "ifindex": $IB, "device_hex": "7662",
 "knob": "gro-flush-timeout", "instance": "napi-$NAPI", "queue": 0, "napi_id": $NAPI,
 "original": 99999999999999, "written": 0, "seq": 1}]}
JSON
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
check "out-of-range original not written" "$g0" "$(vq_napi "$B" "$IB" gro_flush_timeout)"
check "out-of-range entry dropped from the journal" 0 "$(vq_json 'len(d["entries"])' <"$VQ_STATE/originals.json")"
check_true "the log says why" grep -q 'out of range or malformed, skipped' "$VQ_TMP/vqtuned.log"
vq_daemon_stop TERM

# ---- a restore on a full state dir (a 64 KiB tmpfs of our own): the knobs come back but the
# journal cannot say so. The restore reports that (exit 1), and the next start drops each
# entry whose knob holds its original, instead of reporting it as an outside write
FULL=$VQ_TMP/full
full_cleanup() {
	[ -n "$VQ_DPID" ] && vq_daemon_stop KILL	# its state dir lock is on the tmpfs
	mountpoint -q "$FULL" && umount "$FULL"
	vq_cleanup
}
trap full_cleanup EXIT
mkdir "$FULL" && mount -t tmpfs -o size=64k vqtest-full "$FULL" || exit $KSFT_FAIL
VQ_STATE=$FULL/state
JOURNAL=$VQ_STATE/originals.json
# fill_up: the tmpfs has no byte left
fill_up() { dd if=/dev/zero of="$FULL/fill" bs=1k 2>/dev/null; sync; }
entries() { vq_json 'len(d["entries"])' <"$JOURNAL"; }
vq_napi_count() { ip netns exec "$1" python3 "$NAPI_READ" | awk -v i="$2" '$2 == i' | wc -l; }
events_of() { vq_ctl --json events | vq_json "len([e for e in d['events'] if e['who'] == '$1'])"; }
change_two() {
	vq_ctl set "$B:vb" gro-flush-timeout 50000 >/dev/null &&
		vq_ctl set "$A:va" defer-hard-irqs 3 >/dev/null
}
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
check_true "two knobs changed" change_two
check "... journalled" "$nnapi" "$(entries)"
fill_up
vq_ctl restore >"$VQ_TMP/out" 2>"$VQ_TMP/err"
check "restore on a full state dir: exit code" 1 $?
check "... the knobs restored, the journal failed" "restored $nnapi, failed 1" "$(cat "$VQ_TMP/out")"
check "... says why" "vqtunectl: restore: journal $JOURNAL: cannot save the journal: No space \
left on device; the knobs restored are back at their originals, but it lists them until a save \
succeeds (retried each tick)" "$(cat "$VQ_TMP/err")"
check "... gro-flush-timeout back" "$g0" "$(vq_napi "$B" "$IB" gro_flush_timeout)"
check "... defer-hard-irqs back" "$d0" "$(vq_napi "$A" "$IA" defer_hard_irqs)"
check "... an error event says so" 1 "$(vq_ctl --json events | vq_json \
	"len([e for e in d['events'] if e['who'] == 'error' and 'cannot save the journal' in e['reason']])")"
check "... the file still lists them" "$nnapi" "$(entries)"
vq_daemon_stop TERM
check "SIGTERM with the journal still behind: exit code" 1 $?
# the next start (with room again) finds the knobs at their originals: nothing owed
rm -f "$FULL/fill"
lines=$(wc -l <"$VQ_TMP/vqtuned.log")
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
sleep 0.5
check "next start: no outside event" 0 "$(events_of outside)"
check "... nothing restored (nothing owed)" 0 "$(events_of restore)"
check "... the log says each entry holds its original" "$nnapi" "$(tail -n "+$((lines + 1))" \
	"$VQ_TMP/vqtuned.log" | grep -c 'holds its original .* already (restored after the journal')"
check "... the journal empty" 0 "$(entries)"
check "... its gro-flush-timeout instances not pinned" "$(vq_napi_count "$B" "$IB") 0" \
	"$(vq_ctl --json knobs "$B:vb" | vq_json "'%d %d' % (len([k for k in d['knobs'] \
	if k['name'] == 'gro-flush-timeout']), sum(k['pinned'] for k in d['knobs']))")"
# a daemon that goes on running saves the journal once there is room again
check_true "two knobs changed again" change_two
fill_up
vq_ctl restore >/dev/null 2>&1
check "restore on a full state dir: exit code" 1 $?
check "... the file lists them" "$nnapi" "$(entries)"
rm -f "$FULL/fill"
for _ in $(seq 20); do [ "$(entries)" == 0 ] && break; sleep 0.1; done
check "room again: the next tick saves the journal" 0 "$(entries)"
check_true "... and the log says so" grep -qF "journal $JOURNAL saved: it holds what the knobs \
owe again" "$VQ_TMP/vqtuned.log"
vq_daemon_stop TERM
check "SIGTERM: exit code" 0 $?
vq_done
