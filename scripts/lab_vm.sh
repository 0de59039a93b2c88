#!/bin/bash
# `make run` on a host that cannot load vqpair.ko (scripts/lab_run.sh picks it; LAB_MODE=vm
# forces it): the self-contained lab in a QEMU guest. Boots the test guest under QEMU (TCG)
# with vqpair.ko built for its kernel and three virtio-net-pci NICs: two joined on a QEMU
# hub (a real virtio_net pair) and one on user networking that forwards host
# 127.0.0.1:PORT to the guest's vqtuned TCP API. In the guest (tests/vm/guest/lab.sh) a vqpair pair and the
# virtio_net pair carry a workload that changes phase (bulk, rr, rr under bulk, slow
# consumer), first with vqtuned observing (default knobs), then with vqtuned --policy
# balanced; the host shows `vqtunectl watch` over the forwarded port meanwhile (and the
# write examples once the active pass begins), and at the
# end a before/after table per pair and phase, the knobs vqtuned ended on, its controller
# events, and the proof that SIGTERM put every knob back. Needs nothing from the host but
# QEMU and what `make deps` installs; takes the VM lock, so it never runs beside check-vm.
#
# Env:
#   LAB_KERNEL=TAG     test kernel (scripts/kernels.sh); default the newest in VQ_KERNELS (7)
#   LAB_PHASE_S=N      seconds per phase, 4..3600 (default 20; 8 phases in all)
#   LAB_SECONDS=N      cap on the whole run from boot (the guest is stopped then), from the
#                      shortest run (lab_shortest) to 604800; without LAB_PHASE_S the phases
#                      are shortened to fit
#   LAB_PORT=P         host port of the API (default 9477; a busy port falls back to a free one)
#   LAB_POLICY=NAME    policies/NAME.json for the active pass (default balanced)
#   LAB_KEEP_LOG=FILE  also keep the guest's console log there (a regular file the lab can
#                      write: lab_keep_log_check; a copy that fails makes the run fail)
# A bad setting is refused by name, exit 2, before anything is fetched, built or booted.
# Exit: 0 when every phase has its figures and every knob was restored; 1 otherwise (a
# refused policy, a failed phase, a knob left changed, QEMU refusing to start: "QEMU did not
# start" with its error lines, never a second boot); 130 on Ctrl-C. A guest that died on
# TCG's text-patch int3 or before /init boots once more.
#
# Guest -> host protocol (console lines, \r stripped):
#   LAB pair KEY LABEL DEV_A DEV_B      a device pair (KEY vq, vn or ve: vqpair, virtio_net,
#                                       veth), NETNS:NAME each; one line per pair at set-up
#   LAB phase PASS PHASE SECONDS MEASURED  a phase starts (PASS: default, active); its
#                                       last MEASURED seconds are in its figures
#   LAB result PASS PAIR PHASE K=V...   gbps=, p50=, p99= (us); "-" when not measured
#   LAB knob DEV KNOB INSTANCE ORIGINAL VALUE     a knob vqtuned left changed
#   LAB knobs-read DEV                  DEV's knob table was read whole (after its knob lines)
#   LAB events DEV CONTROLLER MANUAL OUTSIDE      journal entries by who (active pass)
#   LAB default-events DEV CONTROLLER MANUAL OUTSIDE   the same, the default pass's
#                                       vqtuned just before it stops (any: flagged)
#   LAB api-up POLICY | LAB restore ok|FAIL | LAB fail TEXT | LAB end RC
# The same lines come from the namespace variant (scripts/lab_netns.sh), which runs the
# same body on the host; scripts/lab_report.sh turns them into the table for both.
set -u
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/vm/vmlib.sh
. tests/vm/vmlib.sh
# shellcheck source=scripts/lab_common.sh
. scripts/lab_common.sh
# --settings: check the settings only (exit 0, or 2 with the refusal), as scripts/lab_run.sh
# does before it builds
lab_settings_only "$@"

TAG=${LAB_KERNEL:-$(printf '%s\n' ${VQ_KERNELS:-6.1 6.12 7} | sort -V | tail -1)}
POLICY=${LAB_POLICY:-balanced}
CTL=$VM_TOP/build/vqtunectl
GUEST_API_PORT=9477
# default phase length, and the floor (LAB_PHASE_S, and when LAB_SECONDS squeezes the
# phases): at 3 s the slow phase's sockperf, slow to start on TCG, sent next to nothing
PHASE_DEFAULT_S=20
PHASE_MIN_S=4
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
# QEMU's stderr lines shown when it does not start (its errors are one or two lines)
ERR_LINES=10
# the first console byte comes in well under a second; a host this loaded still boots
BOOT_WAIT_S=10

die() { echo "lab: $*" >&2; exit 1; }
# every setting first, refused by name (exit 2) before the port probe speaks or anything
# is fetched; the tag as scripts/kernels.sh knows it (VQ_KERNELS gives the default)
lab_settings "$PWD" $PHASE_MIN_S "$(lab_shortest)"
why=$(vm_word_ok "$([ -n "${LAB_KERNEL:-}" ] && echo LAB_KERNEL || echo "VQ_KERNELS' newest")" \
	"$TAG" "$(vm_known_tags)") || lab_refuse "$why"
lab_phase_len
[ $SETTINGS_ONLY = 1 ] && exit 0
[ -x "$CTL" ] && [ -x "$VM_TOP/build/vqtuned" ] || die "build first (make all tools)"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (make deps)"
lab_pick_port "is forwarded from"
# without LAB_SECONDS a wedged guest still ends: twice the expected time
CAP_S=${LAB_SECONDS:-$((2 * EXPECT_S))}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/vqlabvm.XXXXXX") || exit 1
QPID=""
TTY=0
[ -t 1 ] && TTY=1

say() { printf '%s\n' "$*" 2>/dev/null; }

# the run's exit status, or 1 when the log asked for could not be kept (lab_keep_log)
cleanup() {
	rc=$?
	trap - INT TERM EXIT
	trap '' PIPE
	[ $TTY = 1 ] && printf '\033[?25h' 2>/dev/null
	if [ -n "$QPID" ] && kill -0 "$QPID" 2>/dev/null; then
		say "lab: stopping the guest (QEMU pid $QPID)"
		kill -TERM "$QPID" 2>/dev/null
		wait "$QPID" 2>/dev/null
	fi
	# the kept log has QEMU's own messages after the console, as one file
	[ -f "$TMP/qemu.err" ] && cat "$TMP/qemu.err" >> "$TMP/console.log"
	if [ -f "$TMP/console.log" ] && ! lab_keep_log "$TMP/console.log" && [ $rc = 0 ]; then
		rc=1
	fi
	[ -f "$TMP/console.log" ] && [ -n "${VM_OUT:-}" ] && cp "$TMP/console.log" "$VM_OUT/lab-console.log"
	rm -rf "$TMP"
	exit $rc
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
# the serial console (stdout) and QEMU's own messages (stderr) apart: a guest that ran wrote
# at least SeaBIOS's banner to the console; a QEMU that refused its command line (an option,
# a host forward it could not bind, an image, the accelerator) wrote only to stderr
boot_guest() {
	"${VM_QEMU[@]}" > "$TMP/console.log" 2> "$TMP/qemu.err" < /dev/null &
	QPID=$!
}
# qemu_refused STATUS: QEMU exited STATUS without the guest writing a byte; its error lines,
# and exit 1 (no second boot: the same command line fails the same way)
qemu_refused() {
	local first
	first=$(grep -a . "$TMP/qemu.err" | head -1)
	say "lab: QEMU did not start (exit status $1): ${first:-(no message from QEMU)}" >&2
	grep -a . "$TMP/qemu.err" | sed -n "2,${ERR_LINES}p" | sed 's/^/lab:   /' >&2
	# ss sees listeners only: a socket bound to the port without listening passes
	# lab_pick_port, yet QEMU's bind() fails on it
	grep -aq 'host forwarding' "$TMP/qemu.err" &&
		say "lab: 127.0.0.1:$PORT is bound by another socket; LAB_PORT=P picks another port" >&2
	exit 1
}
# boot_started: waits until the guest writes its first console byte (SeaBIOS, in well under
# a second on TCG) or QEMU exits; the banner below then never precedes "QEMU did not start"
boot_started() {
	local n=0
	while [ $n -lt $((BOOT_WAIT_S * 10)) ] && [ ! -s "$TMP/console.log" ] &&
		kill -0 "$QPID" 2>/dev/null; do
		sleep 0.1
		n=$((n + 1))
	done
	# a guest that wrote (even one that died since: a reboot is the monitor's to judge), or
	# a QEMU still silent but alive after BOOT_WAIT_S, is booting
	[ -s "$TMP/console.log" ] && return 0
	kill -0 "$QPID" 2>/dev/null && return 0
	wait "$QPID"
	n=$?
	QPID=""
	qemu_refused $n
}
boot_guest
boot_started
BOOTS=1
T0=$(date +%s)
elapsed() { echo $(( $(date +%s) - T0 )); }

URL=http://127.0.0.1:$PORT
C="$CTL -H $URL"
# 1 once the active pass's vqtuned is up: only then are write examples shown, since a write
# during the default pass changes what the default column measures
ACTIVE=0
# what an operator can run from another terminal while the lab runs: views at any time,
# writes (write_commands) in the active pass
commands() {
	cat <<TXT
lab: the guest's vqtuned API is at $URL. From another terminal:
       $C status
       $C watch vqa:vqf0
       $C events --follow
       curl -s $URL/metrics | grep ^vqtune_
TXT
	lab_write_hint
	say "     Ctrl-C stops the guest and removes $TMP."
}
write_commands() {
	cat <<TXT
lab: active pass: steer the guest's vqtuned from another terminal (writes need the token):
       $C -T $TMP/token set vna:vn0 gro-flush-timeout 20000
       $C -T $TMP/token set vqa:vqf0 busyloop-us 20 --queue 0
TXT
}
cat <<TXT
lab: guest booting (QEMU pid $QPID, kernel $TAG, TCG): vqpair vqa:vqf0 <-> vqb:vqb0 and
     virtio_net vna:vn0 <-> vnb:vn1, phases bulk, rr, rr+bulk, slow of ${PHASE_S} s each,
     first with vqtuned observing (default knobs), then with policies/$POLICY.json;
     $(lab_expect_words) from boot$([ -n "${LAB_SECONDS:-}" ] && echo ", capped at ${LAB_SECONDS} s").
TXT
commands

# ---- while it runs ------------------------------------------------------------------------
lab_lines() { tr -d '\r' < "$TMP/console.log" | grep -a '^LAB '; }
NSEEN=0
PHASE="booting"
API=0
APIUPS=0
# new LAB lines since the last call: phase changes and failures are printed as they come
poll_lines() {
	local all n line w
	all=$(lab_lines)
	n=$(printf '%s' "$all" | grep -c .)
	[ "$n" -gt "$NSEEN" ] || return 0
	while IFS= read -r line; do
		read -r -a w <<< "$line"
		case ${w[1]} in
		phase)	PHASE="${w[2]}/$(lab_phase_name "${w[3]}")" PHASE_T=$(date +%s)
			[ $TTY = 1 ] || say "lab: [$((PHASE_T - T0))s] phase" \
				"$(lab_phase_name "${w[3]}") (${w[2]} pass, ${w[4]} s)" ;;
		daemon-exit) API=0 ;;
		api-up)	API=1
			# "up" first, then the commands it makes usable
			[ $TTY = 1 ] ||
				say "lab: [$(( $(date +%s) - T0 ))s] vqtuned up in the guest (${w[2]})"
			# the first is the default pass's (observe), the second the active pass's
			APIUPS=$((APIUPS + 1))
			if [ $APIUPS -ge 2 ] && [ $ACTIVE = 0 ]; then
				ACTIVE=1
				[ $TTY = 1 ] || write_commands
			fi ;;
		setup)	PHASE="setup" ;;
		fail|restore-diff|daemon-log)
			say "lab: guest: ${line#LAB }" ;;
		esac
	done < <(printf '%s\n' "$all" | tail -n +$((NSEEN + 1)))
	NSEEN=$n
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
		elif [ $API = 1 ] && lab_status_due $now $last_status; then
			lab_status_line
			last_status=$now
		fi
		sleep $REDRAW_S
	done
}

while :; do
	monitor
	wait "$QPID" 2>/dev/null
	qrc=$?
	QPID=""
	[ $CAPPED = 0 ] && [ ! -s "$TMP/console.log" ] &&
		{ [ $qrc != 0 ] || [ -s "$TMP/qemu.err" ]; } && qemu_refused $qrc
	# QEMU's messages, but its warning that the hub is "not connected to host network": the
	# hubpair's hub joins the guest's two NICs and nothing else, by design (vmlib.sh)
	grep -a . "$TMP/qemu.err" | grep -av 'is not connected to host network' |
		head -$ERR_LINES | sed 's/^/lab: QEMU: /'
	# A crash before /init runs, or TCG's int3 oops at any time (vm_tcg_int3_oops in
	# tests/vm/vmlib.sh), is TCG's, not the lab's: the whole lab boots once more
	if [ $CAPPED = 0 ] && [ $BOOTS = 1 ] && ! grep -aq '^VQ-END' "$TMP/console.log" &&
		{ ! grep -aq VQ-BEGIN "$TMP/console.log" ||
			vm_tcg_int3_oops "$TMP/console.log"; }; then
		cat "$TMP/console.log" "$TMP/qemu.err" > "$VM_OUT/lab-console.boot1.log"
		say "lab: the guest died on TCG's text-patch int3 or before /init, booting again;" \
			"see $VM_OUT/lab-console.boot1.log"
		NSEEN=0 PHASE="booting" API=0 APIUPS=0 ACTIVE=0
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
echo "lab: results, kernel $TAG (TCG, 2 vCPUs), ${PHASE_S} s per phase (its last" \
	"$(lab_measured_s "$TMP/lab.lines") s measured);" \
	"default = vqtuned observing, active = vqtuned --policy $POLICY"
# the table, the knobs, the restore verdict: shared with the namespace lab
scripts/lab_report.sh "$TMP/lab.lines" $((PHASES_TOTAL * 2))
rc=$?
if [ $CAPPED = 0 ] && tr -d '\r' < "$TMP/console.log" | grep -aq '^VQ-END'; then
	off="guest powered off"
else
	off="guest stopped by the host"
	rc=1
fi
echo "lab: done in $((T1 - T0)) s from boot; $off; console log kept in $VM_OUT/lab-console.log"
exit $rc
