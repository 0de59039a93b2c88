#!/bin/bash
# `make check-lab`: the QEMU lab (`make run` on a host that cannot load vqpair.ko, or
# LAB_MODE=vm: scripts/lab_vm.sh) still works end to end (the namespace variant is proven
# in the VM tier, tests/vm/guest/t_lab_netns.sh). Runs it with short phases and no
# terminal, and from the host, while the active pass runs:
#   - vqtunectl status over the forwarded TCP port answers with the guest's vqtuned
#     (mode active, the lab's policy, four managed devices);
#   - a write without the token is refused, the same write with the lab's token is done;
#   - a virtio_net ring size that is not a power of two is refused with the driver's rule on
#     the NIC with split virtqueues, and done on the one with packed virtqueues;
#   - the write examples were printed only when the active pass began;
# and at the end asserts: exit 0, a figure in every cell of the before/after table, the
# manual write and some controller events in the journal, no default-pass write flagged
# (none was made), every knob restored after SIGTERM, the guest powered off and the lab's
# temp dir gone.
#
# Env: LAB_TEST_PHASE_S (default 4), LAB_KERNEL, LAB_PORT as for the lab. ~1.5 min on TCG
# (plus the wait for the VM lock).
set -u
cd "$(dirname "$0")/../.."
CTL=$PWD/build/vqtunectl
PHASE_S=${LAB_TEST_PHASE_S:-4}
# the lab waits for the VM lock, builds and boots: generous, the lab caps itself too
WAIT_API_S=900
# the knob written over TCP: a NAPI knob of virtio_net (QEMU's virtio-net offers no
# coalescing, so rx-usecs is EOPNOTSUPP there)
SET_DEV=vna:vn0
SET_KNOB=gro-flush-timeout
SET_VAL=24000
# a ring size inside virtio_net's 1..256 that is not a power of two
RING_BAD=3
# the hub's B NIC has packed virtqueues (vmlib.sh hubpair), which take any length: a size
# the split rule refuses is done there (--disruptive: a ring resize resets the queue)
PACKED_DEV=vnb:vn1
RING_ODD=200
LOG=$(mktemp "${TMPDIR:-/tmp}/vqlabtest.XXXXXX") || exit 1
LPID=""
failures=0

cleanup() {
	[ -n "$LPID" ] && kill -TERM "$LPID" 2>/dev/null && wait "$LPID" 2>/dev/null
	rm -f "$LOG"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

[ -x "$CTL" ] || { echo "FAIL: build first (make all tools)"; exit 1; }
LAB_PHASE_S=$PHASE_S scripts/lab_vm.sh > "$LOG" 2>&1 < /dev/null &
LPID=$!

# the active pass has begun: the lab's own progress line says so, then its write examples
active_up() { grep -q 'vqtuned up in the guest (balanced)' "$LOG" && grep -q -- '-T [^ ]*/token' "$LOG"; }
n=0
while ! active_up; do
	kill -0 $LPID 2>/dev/null || break
	[ $n -ge $WAIT_API_S ] && break
	sleep 1
	n=$((n + 1))
done
url=$(grep -o 'API is at http://127.0.0.1:[0-9]*' "$LOG" | head -1 | sed 's/API is at //')
tok=$(grep -o '\-T [^ ]*/token' "$LOG" | head -1 | cut -d' ' -f2)
if [ -z "$url" ] || ! active_up; then
	cat "$LOG"
	echo "FAIL: the lab's active pass never started"
	exit 1
fi

st=$("$CTL" -H "$url" status 2>&1)
rc=$?
echo "$st" | sed 's/^/  | /'
[ $rc = 0 ] || fail "vqtunectl status over $url: exit $rc"
echo "$st" | grep -Eq '^mode: +active' || fail "guest vqtuned not in mode active"
echo "$st" | grep -Eq '^policy: +balanced' || fail "guest vqtuned policy is not balanced"
echo "$st" | grep -Eq '^managed devices: +4$' || fail "guest vqtuned does not manage 4 devices"
[ $rc = 0 ] && ok "status through the port forward"
# write examples only once the active pass is up (after its "up" line, so a pasted one
# finds the daemon): one in the default pass changes its column
first_set=$(grep -n ' set ' "$LOG" | head -1 | cut -d: -f1)
active_at=$(grep -n 'vqtuned up in the guest (balanced)' "$LOG" | head -1 | cut -d: -f1)
default_at=$(grep -n 'vqtuned up in the guest (observe)' "$LOG" | head -1 | cut -d: -f1)
[ -n "$first_set" ] && [ -n "$default_at" ] && [ "$active_at" -gt "$default_at" ] &&
	[ "$first_set" -gt "$active_at" ] &&
	ok "write examples printed when the active pass began (line $first_set)" ||
	fail "write examples at line ${first_set:-none}, default pass up at ${default_at:-?}, active at ${active_at:-?}"

"$CTL" -H "$url" set $SET_DEV $SET_KNOB $SET_VAL > /dev/null 2>&1
rc=$?
[ $rc = 1 ] && ok "write without token refused (exit 1)" || fail "write without token: exit $rc"
"$CTL" -H "$url" -T "$tok" set $SET_DEV $SET_KNOB $SET_VAL
rc=$?
[ $rc = 0 ] && ok "write with the lab's token" || fail "write with token $tok: exit $rc"
v=$("$CTL" -H "$url" knobs $SET_DEV | awk -v k=$SET_KNOB '$1 == k { print $(NF - 6); exit }')
[ "$v" = $SET_VAL ] && ok "$SET_DEV $SET_KNOB reads $v" || fail "$SET_DEV $SET_KNOB reads '$v'"
# virtio_net's split rings take only powers of two (vring_alloc_queue_split): a size inside
# the range ethtool gives is refused by vqtuned, naming the rule, before the kernel sees it
out=$("$CTL" -H "$url" -T "$tok" set $SET_DEV tx-ring-size $RING_BAD --disruptive 2>&1)
rc=$?
echo "$out" | sed 's/^/  | /'
[ $rc = 1 ] && echo "$out" | grep -q "value: $RING_BAD is not a power of two" &&
	ok "tx-ring-size $RING_BAD refused by virtio_net's rule" ||
	fail "tx-ring-size $RING_BAD on $SET_DEV: exit $rc"
"$CTL" -H "$url" knobs $SET_DEV | grep -q '^  rule: tx-ring-size: power of two' &&
	ok "$SET_DEV (split virtqueues) shows the rule" || fail "$SET_DEV: no rule line"
# packed: no rule, and the kernel takes the size
k=$("$CTL" -H "$url" knobs $PACKED_DEV)
echo "$k" | grep -q 'rule: tx-ring-size' && fail "$PACKED_DEV (packed) shows a ring rule"
out=$("$CTL" -H "$url" -T "$tok" set $PACKED_DEV tx-ring-size $RING_ODD --disruptive 2>&1)
rc=$?
v=$("$CTL" -H "$url" knobs $PACKED_DEV | awk '$1 == "tx-ring-size" { print $(NF - 6); exit }')
[ $rc = 0 ] && [ "$v" = $RING_ODD ] &&
	ok "tx-ring-size $RING_ODD done on $PACKED_DEV (packed virtqueues)" ||
	{ echo "$out" | sed 's/^/  | /'; fail "tx-ring-size $RING_ODD on $PACKED_DEV: exit $rc, reads '$v'"; }

wait $LPID
rc=$?
LPID=""
sed -n '/^lab: results/,$p' "$LOG" | sed 's/^/  | /'
[ $rc = 0 ] || { fail "lab exit $rc"; grep 'lab: guest:' "$LOG"; }

# the table: 2 pairs x (bulk, rr, rr+bulk x2, slow) rows, a figure in both columns
rows=$(awk '/^lab: results/ { t = 1; next } /^lab: knobs/ { t = 0 } t && $1 ~ /^(vqpair|virtio_net)$/' "$LOG")
nrows=$(printf '%s\n' "$rows" | grep -c .)
[ "$nrows" = 10 ] || fail "table has $nrows rows, want 10"
bad=$(printf '%s\n' "$rows" | awk '{ for (i = NF - 1; i <= NF; i++)
	if ($i !~ /^[0-9]+(\.[0-9]+)?(\/[0-9]+)?$/) { print; break } }')
[ -z "$bad" ] && ok "every cell of the table has a figure" || fail "cells without figures: $bad"
# throughput cells are positive
zero=$(printf '%s\n' "$rows" | awk '$(NF - 2) == "Gbit/s" && ($(NF - 1) + 0 <= 0 || $NF + 0 <= 0)')
[ -z "$zero" ] || fail "zero throughput: $zero"

m=$(grep -E "^  $SET_DEV: " "$LOG" | grep -o '[0-9]* manual' | cut -d' ' -f1)
[ "${m:-0}" -ge 1 ] && ok "the TCP write is in the journal ($m manual)" ||
	fail "no manual event for $SET_DEV"
# under each device of the knob summary: "KNOB[INSTANCE] ORIGINAL -> VALUE" lines or one
# "(...)" line, nothing else (a note of the knobs table read as a knob had shown there)
odd=$(sed -n '/^lab: knobs vqtuned ended on/,/^lab: /p' "$LOG" | grep '^    ' |
	grep -Ev '^    ([a-z0-9-]+(\[[^]]+\])? [0-9]+ -> [0-9]+|\(.*\))$')
[ -z "$odd" ] && ok "the knob summary lists knobs only" || fail "knob summary lines: $odd"
c=$(grep -o '[0-9]* controller' "$LOG" | awk '{ s += $1 } END { print s + 0 }')
[ "$c" -ge 1 ] && ok "$c controller events" || fail "no controller event in the active pass"
# nobody wrote in the default pass: no flag under the table
grep -q '^lab: NOTE: knobs were written during the default pass' "$LOG" &&
	fail "the default pass flagged though nothing wrote then"
grep -q '^lab: after SIGTERM every knob is back' "$LOG" && ok "knobs restored" ||
	fail "knobs not restored"
# status lines ("lab: [Ns] PASS/PHASE: ... tx ..."): each names the phase begun last and
# comes at least LAB_STATUS_SETTLE_S (scripts/lab_common.sh) after its start
settle=$(sed -n 's/^LAB_STATUS_SETTLE_S=//p' scripts/lab_common.sh)
st=$(awk -v s="$settle" '
	/^lab: \[[0-9]+s\] phase / { t = substr($2, 2) + 0; p = $4; next }
	/^lab: \[[0-9]+s\] [a-z]+\/[a-z+]+:/ { n++; ph = $3; sub(/^[a-z]+\//, "", ph)
		sub(/:$/, "", ph); if (ph != p || substr($2, 2) + 0 - t < s) { print; exit } }
	END { print n + 0 }' "$LOG")
case $st in
''|*[!0-9]*) fail "status line too early or of another phase: $st" ;;
0) fail "no status line in the run" ;;
*) ok "$st status lines, each ${settle} s or more into its phase" ;;
esac
tmp=$(printf '%s' "$tok" | sed 's#/token$##')
[ -n "$tmp" ] && [ ! -e "$tmp" ] && ok "lab temp dir removed" || fail "$tmp left behind"
grep -q 'guest powered off' "$LOG" || fail "no power-off"
echo "lab: $( [ $failures = 0 ] && echo PASS || echo "FAIL ($failures)")," \
	"$(grep -o 'done in [0-9]* s' "$LOG")"
[ $failures = 0 ]
