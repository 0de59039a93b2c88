#!/bin/sh
# The lab in network namespaces on this host, for a host whose running kernel loads
# vqpair.ko (`make run` picks it then, see scripts/lab_run.sh; LAB_MODE=netns forces it).
# The same lab as the QEMU guest's (tests/vm/guest/lab.sh runs here as it runs there): a
# vqpair pair (vqlab-vqa:vqf0 <-> vqlab-vqb:vqb0) and, since a plain host has no virtio_net
# pair, a veth pair (vqlab-vea:ve0 <-> vqlab-veb:ve1) carry the same phases (bulk, rr,
# rr+bulk, slow), first with vqtuned observing, then with its policy; vqtuned serves its
# API on 127.0.0.1:PORT (writes need the per-run token) so vqtunectl can watch, and steer in
# the active pass (the write examples are printed when it begins);
# the same before/after table and restore check follow. Every knob written is in the lab's
# own namespaces; the host's interfaces are only observed. On exit, also on Ctrl-C, the
# lab's processes (its own process group), its namespaces (the names it recorded creating)
# and the module it loaded are removed.
#
#   scripts/lab_netns.sh [--ko PATH] [--check | --check-host | --settings]
#     --ko PATH   load this vqpair.ko (built for the running kernel) instead of building it
#                 against /lib/modules/$(uname -r)/build (LAB_KO=PATH too)
#     --check     only say whether this host can run it (exit 0) or why not (exit 3)
#     --check-host  --check without what `make deps` installs (the compiler): what
#                 `make run` asks before it installs anything (scripts/lab_run.sh)
#     --settings  only check the LAB_* settings (exit 0, or 2 naming the bad one)
# Env: LAB_PHASE_S, LAB_SECONDS, LAB_PORT, LAB_POLICY, LAB_KEEP_LOG as for scripts/lab_vm.sh.
# POSIX sh and busybox-friendly: the VM tier runs it inside the test guest
# (tests/vm/guest/t_lab_netns.sh), where it is /scripts/lab_netns.sh and the lab's body,
# lib.sh and policies are /tests/lab.sh, /tests/lib.sh and /policies.
# Exit: 0 when every phase has its figures and every knob came back; 1 otherwise; 2 for a bad
# setting (named, before anything is changed); 3 when
# this host cannot run it (not root, no module support, no kernel build dir, vqpair.ko
# does not build or load, vqpair loaded already), with nothing left changed; 130 on Ctrl-C.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
[ "$TOP" = / ] && TOP=""
KO=${LAB_KO:-}
CHECK=0
SETTINGS_ONLY=0
NSP=vqlab-
NAMES="${NSP}vqa ${NSP}vqb ${NSP}vea ${NSP}veb"
# default phase length, and the floor when LAB_SECONDS squeezes the phases
PHASE_DEFAULT_S=20
PHASE_MIN_S=2
PHASES_TOTAL=8
# set-up, policy probe, daemon restarts, report
OVERHEAD_S=20
PHASE_SLACK_S=2
STATUS_EVERY_S=10
REDRAW_S=1
PORT_SCAN=100
# the lab's own clean-up (vqtuned's restore, namespace deletion) after SIGTERM; then KILL
STOP_WAIT_S=60
# rmmod right after the namespaces go can find devices still being torn down
RMMOD_TRIES=10

die() { echo "lab: $*" >&2; exit 1; }
cannot() { echo "lab: this host cannot run the namespace lab: $*" >&2; exit 3; }
while [ $# -gt 0 ]; do
	case $1 in
	--ko)	[ $# -ge 2 ] || die "--ko needs a path"; KO=$2; shift 2 ;;
	--ko=*)	KO=${1#--ko=}; shift ;;
	--check) CHECK=1; shift ;;
	--check-host) CHECK=2; shift ;;
	--settings) SETTINGS_ONLY=1; shift ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*)	die "unknown argument '$1' (--ko PATH, --check, --check-host, --settings)" ;;
	esac
done
# shellcheck source=scripts/lab_common.sh
. "$HERE/lab_common.sh"
# every setting first, refused by name (exit 2) before anything is checked or changed;
# --check asks about the host alone, --settings about the settings alone
if [ $CHECK = 0 ]; then
	lab_settings "$TOP" $PHASE_MIN_S "$(lab_shortest)"
	lab_phase_len
	[ $SETTINGS_ONLY = 1 ] && exit 0
fi

# ---- can this host run it? (nothing changed yet) ------------------------------------------
[ "$(id -u)" = 0 ] || cannot "needs root"
[ -e /proc/modules ] || cannot "the running kernel $(uname -r) cannot load modules (no /proc/modules)"
KDIR=/lib/modules/$(uname -r)/build
if [ -n "$KO" ]; then
	[ -f "$KO" ] || cannot "no module $KO"
else
	[ -d "$KDIR/" ] || cannot "no kernel build dir $KDIR (linux-headers-$(uname -r))"
	if [ $CHECK != 2 ]; then
		command -v make > /dev/null && command -v cc > /dev/null ||
			cannot "no compiler (make deps)"
	fi
fi
grep -q '^vqpair ' /proc/modules &&
	cannot "vqpair is loaded already (the lab loads and unloads its own)"
for n in $NAMES; do
	[ -e /run/netns/$n ] && cannot "netns $n exists already (a lab left behind? ip netns del $n)"
done
[ $CHECK != 0 ] && { echo "lab: this host can run the namespace lab"; exit 0; }

BODY=$TOP/tests/vm/guest/lab.sh
[ -f "$BODY" ] || BODY=$TOP/tests/lab.sh
[ -f "$BODY" ] || die "no lab body (tests/vm/guest/lab.sh)"
LIB=$(dirname "$BODY")/lib.sh
POLICY=${LAB_POLICY:-balanced}
for t in iperf3 sockperf ethtool busybox ping; do
	command -v $t > /dev/null || die "$t missing (make deps)"
done
CACHE=${VQ_CACHE:-$TOP/.cache}/host

# binaries: the checkout's build/ first (on a host), else PATH (the guest's /bin)
bin() {
	if [ -x "$TOP/build/$2" ]; then echo "$TOP/build/$2"
	elif command -v "$1" > /dev/null; then command -v "$1"
	fi
}
VQTUNED=$(bin vqtuned vqtuned)
CTL=$(bin vqtunectl vqtunectl)
VQPROBE=$(bin vqprobe tests/tools/vqprobe)
[ -n "$VQTUNED" ] && [ -n "$CTL" ] || die "build first (make all tools)"

lab_pick_port "listens on"
CAP_S=${LAB_SECONDS:-$((3 * EXPECT_S))}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/vqlabns.XXXXXX") || exit 1
LPID=""
LOADED=0
TTY=0
[ -t 1 ] && TTY=1
say() { printf '%s\n' "$*" 2>/dev/null; }

# stop_lab: SIGTERM to the lab's process group (the body runs its own clean-up: traffic
# stopped, vqtuned's restore, its namespaces deleted), KILL after STOP_WAIT_S
stop_lab() {
	local n=0
	[ -n "$LPID" ] || return 0
	if kill -0 "$LPID" 2>/dev/null; then
		say "lab: stopping the lab (process group $LPID)"
		kill -TERM -"$LPID" 2>/dev/null
		while kill -0 "$LPID" 2>/dev/null && [ $n -lt $((STOP_WAIT_S * 10)) ]; do
			sleep 0.1
			n=$((n + 1))
		done
	fi
	kill -KILL -"$LPID" 2>/dev/null
	wait "$LPID" 2>/dev/null
	LPID=""
}

# teardown: the lab's processes, then whichever of its namespaces are still there, then the
# module this script loaded
teardown() {
	local n i
	stop_lab
	for n in $(cat "$TMP/netns" 2>/dev/null); do
		[ -e /run/netns/$n ] && /sbin/ip netns del $n && say "lab: deleted netns $n"
	done
	if [ $LOADED = 1 ]; then
		i=0
		while grep -q '^vqpair ' /proc/modules; do
			rmmod vqpair 2>/dev/null && break
			i=$((i + 1))
			[ $i -ge $RMMOD_TRIES ] && { say "lab: rmmod vqpair failed"; return 1; }
			sleep 1
		done
		LOADED=0
	fi
	return 0
}

# the run's exit status, or 1 when the log asked for could not be kept (lab_keep_log)
cleanup() {
	rc=$?
	trap - INT TERM EXIT
	trap '' PIPE
	[ $TTY = 1 ] && printf '\033[?25h' 2>/dev/null
	teardown
	if [ -f "$TMP/lab.log" ] && ! lab_keep_log "$TMP/lab.log" && [ $rc = 0 ]; then
		rc=1
	fi
	rm -rf "$TMP"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- module, tools, token -----------------------------------------------------------------
if [ -z "$KO" ]; then
	B=$CACHE/$(uname -r)
	rm -rf "$B"
	mkdir -p "$B/kmod" "$B/include"
	cp "$TOP"/kmod/*.c "$TOP"/kmod/*.h "$TOP"/kmod/Kbuild "$B/kmod/"
	cp "$TOP/include/vqpair.h" "$B/include/"
	echo "lab: building vqpair.ko against $KDIR"
	make -s -C "$KDIR" M="$B/kmod" modules > "$B/build.log" 2>&1 ||
		{ cat "$B/build.log"; cannot "vqpair.ko does not build against $KDIR"; }
	KO=$B/kmod/vqpair.ko
fi
mkdir -p "$TMP/bin"
for b in "$VQTUNED" "$CTL" "$VQPROBE"; do
	[ -n "$b" ] && ln -s "$b" "$TMP/bin/"
done
if ! command -v vqpairctl > /dev/null; then
	mkdir -p "$CACHE"
	cc -std=gnu11 -Wall -Wextra -Werror -O2 -o "$CACHE/vqpairctl" "$TOP/tests/vm/vqpairctl.c" \
		-lmnl || die "vqpairctl build failed (make deps)"
	ln -s "$CACHE/vqpairctl" "$TMP/bin/"
fi
PATH=$TMP/bin:$PATH
export PATH
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$TMP/token"
chmod 600 "$TMP/token"

insmod "$KO" 2> "$TMP/insmod.err" || cannot "insmod $KO: $(cat "$TMP/insmod.err")"
LOADED=1

# ---- the lab ------------------------------------------------------------------------------
# a process group of its own (setsid: a background job is never a group leader, so setsid
# does not fork and $! is the group): Ctrl-C here reaches only this script, which stops
# the whole group on its way out, background jobs and all
: > "$TMP/lab.log"
LAB_ENV='' LAB_LIB=$LIB LAB_POLICY_DIR=$TOP/policies LAB_POLICY=$TOP/policies/$POLICY.json \
LAB_TOKEN=$TMP/token LAB_TMP=$TMP LAB_RUN=$TMP/run LAB_LISTEN=127.0.0.1:$PORT \
LAB_API_NIC=0 LAB_PAIR2=veth LAB_NS_PREFIX=$NSP LAB_NETNS_LOG=$TMP/netns LAB_PHASE_S=$PHASE_S \
	setsid sh "$BODY" > "$TMP/lab.log" 2>&1 < /dev/null &
LPID=$!
T0=$(date +%s)

URL=http://127.0.0.1:$PORT
C="$CTL -H $URL"
# 1 once the active pass's vqtuned is up: only then are write examples shown, since a write
# during the default pass changes what the default column measures
ACTIVE=0
# views at any time, writes (write_commands) in the active pass
commands() {
	cat <<TXT
lab: vqtuned's API is at $URL. From another terminal:
       $C status
       $C watch ${NSP}vqa:vqf0
       $C events --follow
TXT
	lab_write_hint
	say "     Ctrl-C stops the lab, deletes its namespaces and unloads vqpair."
}
write_commands() {
	cat <<TXT
lab: active pass: steer vqtuned from another terminal (writes need the token):
       $C -T $TMP/token set ${NSP}vea:ve0 gro-flush-timeout 20000
       $C -T $TMP/token set ${NSP}vqa:vqf0 busyloop-us 20 --queue 0
TXT
}
cat <<TXT
lab: namespaces on this host (kernel $(uname -r)): vqpair ${NSP}vqa:vqf0 <-> ${NSP}vqb:vqb0
     and veth ${NSP}vea:ve0 <-> ${NSP}veb:ve1, phases bulk, rr, rr+bulk, slow of ${PHASE_S} s
     each, first with vqtuned observing (default knobs), then with policies/$POLICY.json;
     $(lab_expect_words) in all$([ -n "${LAB_SECONDS:-}" ] && echo ", capped at ${LAB_SECONDS} s").
TXT
commands

# ---- while it runs ------------------------------------------------------------------------
NSEEN=0
PHASE=setup
API=0
APIUPS=0
elapsed() { echo $(( $(date +%s) - T0 )); }
# new LAB lines since the last call: phase changes and failures are printed as they come
poll_lines() {
	local n what a b c
	n=$(grep -c '^LAB ' "$TMP/lab.log")
	[ "$n" -gt $NSEEN ] || return 0
	grep '^LAB ' "$TMP/lab.log" | head -n "$n" | tail -n $((n - NSEEN)) > "$TMP/new"
	NSEEN=$n
	while read -r _ what a b c; do
		case $what in
		phase)	b=$(lab_phase_name "$b")
			PHASE="$a/$b" PHASE_T=$(date +%s)
			[ $TTY = 1 ] || say "lab: [$((PHASE_T - T0))s] phase $b ($a pass, $c s)" ;;
		daemon-exit) API=0 ;;
		api-up)	API=1
			# "up" first, then the commands it makes usable
			[ $TTY = 1 ] || say "lab: [$(elapsed)s] vqtuned up ($a)"
			# the first is the default pass's (observe), the second the active pass's
			APIUPS=$((APIUPS + 1))
			if [ $APIUPS -ge 2 ] && [ $ACTIVE = 0 ]; then
				ACTIVE=1
				[ $TTY = 1 ] || write_commands
			fi ;;
		setup)	PHASE=setup
			[ $TTY = 1 ] || say "lab: [$(elapsed)s] pairs up: $a $b $c ..." ;;
		fail|restore-diff|daemon-log)
			say "lab: $what $a $b $c" ;;
		esac
	done < "$TMP/new"
}

redraw() {
	local frame
	if [ $API = 1 ]; then
		frame=$($C watch --count 1 2>&1 | grep -v '^lo ')
	else
		frame="(vqtuned not up; lab: $(grep . "$TMP/lab.log" | tail -1 | cut -c1-60))"
	fi
	printf '\033[H\033[2J'
	say "vqtune lab (namespaces): kernel $(uname -r), $(elapsed) s of ~$EXPECT_S," \
		"phase $PHASE (${PHASE_S} s each), policy $POLICY"
	commands
	say ""
	say "$frame"
}

[ $TTY = 1 ] && printf '\033[?25l'
last_status=0
CAPPED=0
while kill -0 "$LPID" 2>/dev/null; do
	if [ "$(elapsed)" -ge "$CAP_S" ]; then
		say "lab: ${CAP_S} s reached: stopping the lab"
		CAPPED=1
		break
	fi
	poll_lines
	if [ $TTY = 1 ]; then
		redraw
	elif [ $API = 1 ] && lab_status_due "$(date +%s)" $last_status; then
		lab_status_line
		last_status=$(date +%s)
	fi
	sleep $REDRAW_S
done
[ $TTY = 1 ] && printf '\033[?25h'
stop_lab
poll_lines
T1=$(date +%s)
grep '^LAB ' "$TMP/lab.log" > "$TMP/lab.lines"

# ---- the table ----------------------------------------------------------------------------
echo
echo "lab: results, kernel $(uname -r) (namespaces on this host), ${PHASE_S} s per phase (its last" \
	"$(lab_measured_s "$TMP/lab.lines") s measured);" \
	"default = vqtuned observing, active = vqtuned --policy $POLICY"
sh "$TOP/scripts/lab_report.sh" "$TMP/lab.lines" $((PHASES_TOTAL * 2)) lab
rc=$?
[ $CAPPED = 1 ] && rc=1
teardown || rc=1
left=""
for n in $NAMES; do [ -e /run/netns/$n ] && left="$left $n"; done
[ -z "$left" ] || { say "lab: namespaces left:$left"; rc=1; }
grep -q '^vqpair ' /proc/modules && { say "lab: vqpair still loaded"; rc=1; }
say "lab: done in $((T1 - T0)) s; namespaces deleted, vqpair unloaded"
exit $rc
