#!/bin/bash
# A crash between a knob write and the journal update it needs: the journal says vqtune
# wrote W, but the kernel already holds the next value V. vqtuned puts the value it is about
# to write on disk first ("pending" in originals.json), so the next start knows V as its own
# and restores the original. The moment is made here without a debugger: a daemon is killed
# with -9 after one write, the journal gets the pending value that daemon would have saved
# before its next write, and the kernel gets V from a writer of its own (vqprobe). Without
# the pending value the same kernel state is an outside write: pinned, not restored.
source "$(dirname "$0")/lib.sh"
vq_init
VQPROBE=${VQPROBE:-$VQ_ROOT/build/tests/tools/vqprobe}
[ -x "$VQPROBE" ] || { echo "FAIL: $VQPROBE not built (make tools)"; exit $KSFT_FAIL; }
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
IB=$(vq_ifindex "$B" vb)
NAPI=$(ip netns exec "$B" python3 "$NAPI_READ" | awk -v i="$IB" '$2 == i { print $1; exit }')
[ -n "$NAPI" ] || { echo "FAIL: vb has no NAPI"; exit $KSFT_FAIL; }
g0=$(vq_napi "$B" "$IB" gro_flush_timeout)

# crash_after_write PENDING: set 100000 through a daemon, kill -9 it, then make the crash
# state: the kernel at 200000, the journal's entry with "pending": PENDING (none when empty)
crash_after_write() {
	vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
	vq_ctl set "$B:vb" gro-flush-timeout 100000 --napi-id "$NAPI" >/dev/null
	check "set gro-flush-timeout 100000" 0 $?
	vq_daemon_stop KILL
	python3 - "$VQ_STATE/originals.json" "napi-$NAPI" "$1" <<'PY'
import json, sys
path, inst, pending = sys.argv[1], sys.argv[2], sys.argv[3]
j = json.load(open(path))
for e in j["entries"]:
    if e["instance"] == inst and pending:
        e["pending"] = int(pending)
json.dump(j, open(path, "w"))
PY
	ip netns exec "$B" "$VQPROBE" vb napi-set "$NAPI" gro-flush-timeout 200000 >/dev/null
	check "the kernel holds the next value" 200000 "$(vq_napi "$B" "$IB" gro_flush_timeout)"
}

crash_after_write 200000
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
check "pending value in the journal: the next start restores the original" "$g0" \
	"$(vq_napi "$B" "$IB" gro_flush_timeout)"
check "... with no outside event" 0 "$(grep -c 'written by someone else' "$VQ_TMP/vqtuned.log")"
check "... and an empty journal" 0 "$(vq_json 'len(d["entries"])' <"$VQ_STATE/originals.json")"
vq_daemon_stop TERM

# the control: the same kernel state without a pending value is someone else's write
crash_after_write ""
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
check "no pending value: an outside write, kept" 200000 "$(vq_napi "$B" "$IB" gro_flush_timeout)"
check "... reported once" 1 "$(grep -c 'written by someone else' "$VQ_TMP/vqtuned.log")"
vq_daemon_stop TERM
vq_done
