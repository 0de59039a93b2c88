#!/bin/bash
# `make run`: the self-contained lab. Boots the test guest under QEMU (TCG) with vqpair.ko
# built for its kernel and three virtio-net-pci NICs: two joined on a QEMU hub (a real
# virtio_net pair) and one on user networking that forwards host 127.0.0.1:PORT to the
# guest's vqtuned TCP API. In the guest (tests/vm/guest/lab.sh) a vqpair pair and the
# virtio_net pair carry a workload that changes phase (bulk, rr, rr under bulk, slow
# consumer), first with vqtuned observing (default knobs), then with vqtuned --policy
# balanced; the host shows `vqtunectl watch` over the forwarded port meanwhile, and at the
# end a before/after table per pair and phase, the knobs vqtuned ended on, its controller
# events, and the proof that SIGTERM put every knob back. Needs nothing from the host but
# QEMU and what `make deps` installs; takes the VM lock, so it never runs beside check-vm.
#
# Env:
#   LAB_KERNEL=TAG     test kernel (scripts/kernels.sh); default the newest in VQ_KERNELS (7)
#   LAB_PHASE_S=N      seconds per phase (default 20; 8 phases in all)
#   LAB_SECONDS=N      cap on the whole run from boot (the guest is stopped then); without
#                      LAB_PHASE_S the phases are shortened to fit
#   LAB_PORT=P         host port of the API (default 9477; a busy port falls back to a free one)
#   LAB_POLICY=NAME    policies/NAME.json for the active pass (default balanced)
#   LAB_KEEP_LOG=FILE  also keep the guest's console log there
# Exit: 0 when every phase has its figures and every knob was restored; 1 otherwise (a
# refused policy, a failed phase, a knob left changed); 130 on Ctrl-C.
#
# Guest -> host protocol (console lines, \r stripped):
#   LAB phase PASS PHASE SECONDS        a phase starts (PASS: default, active)
#   LAB result PASS PAIR PHASE K=V...   gbps=, p50=, p99= (us); "-" when not measured
#   LAB knob DEV KNOB INSTANCE ORIGINAL VALUE     a knob vqtuned left changed
#   LAB events DEV CONTROLLER MANUAL OUTSIDE      journal entries by who
#   LAB api-up POLICY | LAB restore ok|FAIL | LAB fail TEXT | LAB end RC
set -u
cd "$(dirname "$0")/.."
# shellcheck source=tests/vm/vmlib.sh
. tests/vm/vmlib.sh

TAG=${LAB_KERNEL:-$(printf '%s\n' ${VQ_KERNELS:-6.1 6.12 7} | sort -V | tail -1)}
POLICY=${LAB_POLICY:-balanced}
CTL=$VM_TOP/build/vqtunectl
GUEST_API_PORT=9477
# default phase length, and the floor when LAB_SECONDS squeezes the phases
PHASE_DEFAULT_S=20
PHASE_MIN_S=3
PHASES_TOTAL=8
# boot, set-up, policy probe, daemon restarts, report: ~30 s measured on TCG (2 cores)
OVERHEAD_S=35
# each phase costs more than its seconds: iperf3/sockperf start-up and result collection
PHASE_SLACK_S=3
# how often a non-terminal gets a status line, and the terminal view is redrawn
STATUS_EVERY_S=10
REDRAW_S=1
# ports tried when LAB_PORT is taken
PORT_SCAN=100

die() { echo "lab: $*" >&2; exit 1; }
[ -x "$CTL" ] && [ -x "$VM_TOP/build/vqtuned" ] || die "build first (make all tools)"
[ -f "policies/$POLICY.json" ] || die "no policy policies/$POLICY.json"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (make deps)"

port_busy() { ss -Htln "sport = :$1" | grep -q .; }
PORT=${LAB_PORT:-9477}
if port_busy "$PORT"; then
	p=$PORT
	for ((i = 1; i <= PORT_SCAN; i++)); do
		port_busy $((p + i)) || { PORT=$((p + i)); break; }
	done
	[ "$PORT" != "$p" ] || die "127.0.0.1:$p and the $PORT_SCAN ports above it are in use"
	echo "lab: 127.0.0.1:$p is in use: the API is forwarded from 127.0.0.1:$PORT instead"
fi

if [ -n "${LAB_PHASE_S:-}" ]; then
	PHASE_S=$LAB_PHASE_S
elif [ -n "${LAB_SECONDS:-}" ]; then
	PHASE_S=$(( (LAB_SECONDS - OVERHEAD_S) / PHASES_TOTAL - PHASE_SLACK_S ))
	[ $PHASE_S -gt $PHASE_DEFAULT_S ] && PHASE_S=$PHASE_DEFAULT_S
	[ $PHASE_S -lt $PHASE_MIN_S ] && PHASE_S=$PHASE_MIN_S
else
	PHASE_S=$PHASE_DEFAULT_S
fi
EXPECT_S=$((OVERHEAD_S + PHASES_TOTAL * (PHASE_S + PHASE_SLACK_S)))
# without LAB_SECONDS a wedged guest still ends: twice the expected time
CAP_S=${LAB_SECONDS:-$((2 * EXPECT_S))}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/vqlabvm.XXXXXX") || exit 1
QPID=""
TTY=0
[ -t 1 ] && TTY=1

say() { printf '%s\n' "$*" 2>/dev/null; }

cleanup() {
	trap - INT TERM EXIT
	trap '' PIPE
	[ $TTY = 1 ] && printf '\033[?25h' 2>/dev/null
	if [ -n "$QPID" ] && kill -0 "$QPID" 2>/dev/null; then
		say "lab: stopping the guest (QEMU pid $QPID)"
		kill -TERM "$QPID" 2>/dev/null
		wait "$QPID" 2>/dev/null
	fi
	[ -n "${LAB_KEEP_LOG:-}" ] && [ -f "$TMP/console.log" ] && cp "$TMP/console.log" "$LAB_KEEP_LOG"
	[ -f "$TMP/console.log" ] && [ -n "${VM_OUT:-}" ] && cp "$TMP/console.log" "$VM_OUT/lab-console.log"
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- build and boot -----------------------------------------------------------------------
vm_lock
vm_build_ctl || die "vqpairctl build failed"
echo "lab: kernel $TAG: fetching, building vqpair.ko and the initramfs"
vm_prepare "$TAG" || die "kernel $TAG: preparation failed"

# the token and the lab's settings travel as a second cpio segment of the initramfs (the
# kernel unpacks concatenated archives in order): nothing secret on QEMU's command line
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/token"
chmod 600 "$TMP/token"
mkdir -p "$TMP/extra/etc/vqtune"
cp "$TMP/token" "$TMP/extra/etc/vqtune/token"
cat > "$TMP/extra/etc/vqlab.env" <<ENV
LAB_PHASE_S=$PHASE_S
LAB_POLICY=/policies/$POLICY.json
LAB_TOKEN=/etc/vqtune/token
ENV
(cd "$TMP/extra" && find . | cpio -o -H newc --quiet | gzip -1) > "$TMP/extra.gz"
cat "$VM_INITRD" "$TMP/extra.gz" > "$TMP/initrd.gz"

vm_qemu_argv "$TMP/initrd.gz" "console=ttyS0 panic=-1 oops=panic quiet vqmode=lab" \
	"hubpair user:$PORT:$GUEST_API_PORT" || exit 1
boot_guest() {
	"${VM_QEMU[@]}" > "$TMP/console.log" 2>&1 < /dev/null &
	QPID=$!
}
boot_guest
BOOTS=1
T0=$(date +%s)

URL=http://127.0.0.1:$PORT
C="$CTL -H $URL"
# what an operator can run from another terminal while the lab runs
commands() {
	cat <<TXT
lab: the guest's vqtuned API is at $URL (writes need the token). From another terminal:
       $C status
       $C watch vqa:vqf0
       $C events --follow
       $C -T $TMP/token set vna:vn0 gro-flush-timeout 20000
       $C -T $TMP/token set vqa:vqf0 busyloop-us 20 --queue 0
       curl -s $URL/metrics | grep ^vqtune_
     Ctrl-C stops the guest and removes $TMP.
TXT
}
cat <<TXT
lab: guest booting (QEMU pid $QPID, kernel $TAG, TCG): vqpair vqa:vqf0 <-> vqb:vqb0 and
     virtio_net vna:vn0 <-> vnb:vn1, phases bulk, rr, rr+bulk, slow of ${PHASE_S} s each,
     first with vqtuned observing (default knobs), then with policies/$POLICY.json;
     ~$((EXPECT_S / 60)) min in all$([ -n "${LAB_SECONDS:-}" ] && echo ", capped at ${LAB_SECONDS} s").
TXT
commands

# ---- while it runs ------------------------------------------------------------------------
lab_lines() { tr -d '\r' < "$TMP/console.log" | grep -a '^LAB '; }
NSEEN=0
PHASE="booting"
API=0
# new LAB lines since the last call: phase changes and failures are printed as they come
poll_lines() {
	local all n line w
	all=$(lab_lines)
	n=$(printf '%s' "$all" | grep -c .)
	[ "$n" -gt "$NSEEN" ] || return 0
	while IFS= read -r line; do
		read -r -a w <<< "$line"
		case ${w[1]} in
		phase)	PHASE="${w[2]}/${w[3]}"
			[ $TTY = 1 ] ||
				say "lab: [$(( $(date +%s) - T0 ))s] phase ${w[3]} (${w[2]} pass, ${w[4]} s)" ;;
		daemon-exit) API=0 ;;
		api-up)	API=1
			[ $TTY = 1 ] ||
				say "lab: [$(( $(date +%s) - T0 ))s] vqtuned up in the guest (${w[2]})" ;;
		setup)	PHASE="setup" ;;
		fail|restore-diff|daemon-log)
			say "lab: guest: ${line#LAB }" ;;
		esac
	done < <(printf '%s\n' "$all" | tail -n +$((NSEEN + 1)))
	NSEEN=$n
}

# one status line from the API: tx rate of each managed device
status_line() {
	local s
	s=$($C devices 2>/dev/null | awk 'NR > 1 && $8 == "yes" && $NF ~ /bit\/s$/ {
		printf " %s:%s tx %s %s", $2, $1, $(NF - 1), $NF }')
	say "lab: [$(( $(date +%s) - T0 ))s] $PHASE:${s:- (API not answering)}"
}

redraw() {
	local frame
	if [ $API = 1 ]; then
		frame=$($C watch --count 1 2>&1 | grep -v '^lo ')
	else
		frame="(vqtuned in the guest not up; console: $(tr -d '\r' < "$TMP/console.log" |
			sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | tr -cd '[:print:]\n' | grep -a . | tail -1 |
			cut -c1-60))"
	fi
	printf '\033[H\033[2J'
	say "vqtune lab: kernel $TAG, $(( $(date +%s) - T0 )) s of ~$EXPECT_S, phase $PHASE" \
		"(${PHASE_S} s each), policy $POLICY"
	commands
	say ""
	say "$frame"
}

[ $TTY = 1 ] && printf '\033[?25l'
last_status=0
CAPPED=0
# watch the guest until QEMU exits (or the cap stops it)
monitor() {
	while kill -0 "$QPID" 2>/dev/null; do
		now=$(date +%s)
		if [ $((now - T0)) -ge "$CAP_S" ]; then
			say "lab: ${CAP_S} s reached: stopping the guest"
			CAPPED=1
			kill -TERM "$QPID" 2>/dev/null
			break
		fi
		poll_lines
		if [ $TTY = 1 ]; then
			redraw
		elif [ $API = 1 ] && [ $((now - last_status)) -ge $STATUS_EVERY_S ]; then
			status_line
			last_status=$now
		fi
		sleep $REDRAW_S
	done
}

while :; do
	monitor
	wait "$QPID" 2>/dev/null
	QPID=""
	# A crash before /init runs is TCG's, not the lab's (7.x guests sometimes die on an
	# int3 while the kernel patches its own text, see tests/vm/run.sh): boot once more
	if [ $CAPPED = 0 ] && [ $BOOTS = 1 ] && ! grep -aq VQ-BEGIN "$TMP/console.log"; then
		mv "$TMP/console.log" "$VM_OUT/lab-console.boot1.log"
		say "lab: the guest died before /init (TCG), booting again;" \
			"see $VM_OUT/lab-console.boot1.log"
		boot_guest
		BOOTS=2
		continue
	fi
	break
done
[ $TTY = 1 ] && printf '\033[?25h'
poll_lines
T1=$(date +%s)

# ---- the table ----------------------------------------------------------------------------
lab_lines > "$TMP/lab.lines"
echo
echo "lab: results, kernel $TAG (TCG, 2 vCPUs), ${PHASE_S} s per phase;" \
	"default = vqtuned observing, active = vqtuned --policy $POLICY"
awk -f - "$TMP/lab.lines" <<'AWK'
$2 == "result" {
	key = $4 SUBSEP $5
	for (i = 6; i <= NF; i++) { split($i, kv, "="); v[$3, key, kv[1]] = kv[2] }
}
function get(pass, key, k) { return ((pass, key, k) in v) ? v[pass, key, k] : "?" }
function lat(pass, key) { return get(pass, key, "p50") "/" get(pass, key, "p99") }
END {
	split("vq vn", pairs, " "); pname["vq"] = "vqpair"; pname["vn"] = "virtio_net"
	split("bulk rr rrbulk slow", ph, " ")
	label["bulk"] = "bulk"; label["rr"] = "rr"; label["rrbulk"] = "rr+bulk"; label["slow"] = "slow"
	printf "  %-11s %-8s %-11s %12s %12s\n", "pair", "phase", "metric", "default", "active"
	for (p = 1; p <= 2; p++) for (i = 1; i <= 4; i++) {
		key = pairs[p] SUBSEP ph[i]
		if (ph[i] != "rr")
			printf "  %-11s %-8s %-11s %12s %12s\n", pname[pairs[p]], label[ph[i]],
				"Gbit/s", get("default", key, "gbps"), get("active", key, "gbps")
		if (ph[i] == "rr" || ph[i] == "rrbulk")
			printf "  %-11s %-8s %-11s %12s %12s\n", pname[pairs[p]], label[ph[i]],
				"p50/p99 us", lat("default", key), lat("active", key)
	}
}
AWK
echo "lab: knobs vqtuned ended on (original -> value) and its journal (controller/manual/outside):"
awk -f - "$TMP/lab.lines" <<'AWK'
$2 == "events" { ev[$3] = sprintf("%s controller, %s manual, %s outside events", $4, $5, $6); d[$3] = 1 }
# a knob the journal holds but that stands at its original value again is not listed
$2 == "knob" && $6 != $7 {
	k[$3] = k[$3] sprintf("    %s%s %s -> %s\n", $4, $5 == "-" ? "" : "[" $5 "]", $6, $7); d[$3] = 1
}
END {
	n = split("vqa:vqf0 vqb:vqb0 vna:vn0 vnb:vn1", devs, " ")
	for (i = 1; i <= n; i++) {
		printf "  %s: %s\n", devs[i], (devs[i] in ev) ? ev[devs[i]] : "no journal read"
		printf "%s", (devs[i] in k) ? k[devs[i]] : "    (every knob at its original value)\n"
	}
}
AWK

rc=0
if grep -q '^LAB restore ok' "$TMP/lab.lines"; then
	echo "lab: after SIGTERM every knob is back: $(grep '^LAB restore ok' "$TMP/lab.lines" |
		cut -d' ' -f4-) (vqpairctl, ethtool -c/-g/-l, BQL and NAPI sysfs, netdev NAPI)"
else
	echo "lab: knobs NOT verified restored"
	grep '^LAB restore-diff' "$TMP/lab.lines" | head -20 | sed 's/^LAB restore-diff /  /'
	rc=1
fi
if grep -q '^LAB fail' "$TMP/lab.lines"; then
	grep '^LAB fail' "$TMP/lab.lines" | sed 's/^LAB /lab: guest: /'
	rc=1
fi
grep -q '^LAB dmesg-bad' "$TMP/lab.lines" && { echo "lab: the guest's kernel log has BUG/WARNING lines"; rc=1; }
# a phase with no figure is a failed phase ("-" or a result line that never came)
missing=$(awk '$2 == "result" { for (i = 6; i <= NF; i++) if ($i ~ /=-$/) print $3, $4, $5 }' \
	"$TMP/lab.lines")
n=$(grep -c '^LAB result' "$TMP/lab.lines")
[ "$n" -eq $((PHASES_TOTAL * 2)) ] || missing+=" only $n of $((PHASES_TOTAL * 2)) results"
[ -z "$missing" ] || { echo "lab: phases without figures: $missing"; rc=1; }
grep -q '^LAB end 0' "$TMP/lab.lines" || rc=1
if [ $CAPPED = 0 ] && tr -d '\r' < "$TMP/console.log" | grep -aq '^VQ-END'; then
	off="guest powered off"
else
	off="guest stopped by the host"
	rc=1
fi
echo "lab: done in $((T1 - T0)) s from boot; $off; console log kept in $VM_OUT/lab-console.log"
exit $rc
