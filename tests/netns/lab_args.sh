#!/bin/bash
# The lab refuses a bad setting by name, with exit 2, before it fetches, builds or boots
# anything, and before any other line (LAB_PHASE_S=0 had been taken: iperf3 -t 0 never ends;
# "abc" ended on a shell "unbound variable"; "0009" on the shell's "value too great for
# base"; LAB_KERNEL=nosuch waited for the VM lock and then failed in the kernel fetch).
# LAB_MODE=vm: the VM variant's own bounds; LAB_MODE=auto: the run's pre-check, before it
# says which variant runs. A valid setting gets past every check: the run then takes the VM
# lock, which this test holds, so it is seen waiting (and stopped). LAB_KEEP_LOG must be a
# regular file the lab can write (on no pseudo filesystem; checked without leaving a file),
# and a copy that fails at the end fails the run.
source "$(dirname "$0")/lib.sh"
vq_init
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# a refusal comes at once; a run that got past the checks would still be fetching
LAB_REFUSE_TIMEOUT_S=30
# a run past its checks reaches the VM lock in well under this
LOCK_WAIT_S=20

# refused MODE VAR=VALUE... [-- ARG...]: exit status and every line of the lab's output, one
# line (ARGs go to lab_run.sh)
refused() {
	local mode=$1 vars=() args=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
	[ $# -gt 0 ] && { shift; args=("$@"); }
	env "${vars[@]}" LAB_MODE="$mode" VQ_CACHE="$VQ_TMP/cache" timeout "$LAB_REFUSE_TIMEOUT_S" \
		"$ROOT/scripts/lab_run.sh" "${args[@]}" > "$VQ_TMP/out" 2>&1 < /dev/null
	echo "$? $(paste -sd'|' "$VQ_TMP/out")"
}

check "LAB_PHASE_S=0" "2 lab: LAB_PHASE_S must be a whole number in 4..3600 (seconds), not '0'" \
	"$(refused vm LAB_PHASE_S=0)"
check "LAB_PHASE_S=abc" \
	"2 lab: LAB_PHASE_S must be a whole number in 4..3600 (seconds), not 'abc'" \
	"$(refused vm LAB_PHASE_S=abc)"
check "LAB_PHASE_S=0009" \
	"2 lab: LAB_PHASE_S must be a whole number in 4..3600 (seconds) without a leading zero, not '0009'" \
	"$(refused vm LAB_PHASE_S=0009)"
check "LAB_SECONDS=-5" \
	"2 lab: LAB_SECONDS must be a whole number in 91..604800 (seconds; the shortest lab runs ~91 s), not '-5'" \
	"$(refused vm LAB_SECONDS=-5)"
check "LAB_SECONDS=1 (under the shortest run)" \
	"2 lab: LAB_SECONDS must be a whole number in 91..604800 (seconds; the shortest lab runs ~91 s), not '1'" \
	"$(refused vm LAB_SECONDS=1)"
check "LAB_PORT=abc" "2 lab: LAB_PORT must be a whole number in 1..65535 (a TCP port), not 'abc'" \
	"$(refused vm LAB_PORT=abc)"
check "LAB_PORT=09477" \
	"2 lab: LAB_PORT must be a whole number in 1..65535 (a TCP port) without a leading zero, not '09477'" \
	"$(refused vm LAB_PORT=09477)"
check "LAB_PORT=70000" \
	"2 lab: LAB_PORT must be a whole number in 1..65535 (a TCP port), not '70000'" \
	"$(refused vm LAB_PORT=70000)"
policies=$(cd "$ROOT/policies" && ls *.json | sed 's/\.json$//' | tr '\n' ' ')
check "LAB_POLICY=nosuch" \
	"2 lab: LAB_POLICY must be one of ${policies}(policies/NAME.json), not 'nosuch'" \
	"$(refused vm LAB_POLICY=nosuch)"
check "LAB_POLICY=../x" \
	"2 lab: LAB_POLICY must be one of ${policies}(policies/NAME.json), not '../x'" \
	"$(refused vm LAB_POLICY=../x)"
check "LAB_KEEP_LOG in no directory" \
	"2 lab: LAB_KEEP_LOG must be a file in a writable directory, not '$VQ_TMP/nodir/log'" \
	"$(refused vm LAB_KEEP_LOG="$VQ_TMP/nodir/log")"
# LAB_KEEP_LOG must be a regular file the lab can write: these ran the whole lab, then
# cp failed and the run still exited 0 (relative names are the repository's: lab_run.sh cds)
keep() { echo "2 lab: LAB_KEEP_LOG $1"; }
mkfifo "$VQ_TMP/fifo"
mkdir "$VQ_TMP/ro" "$VQ_TMP/rw" && chmod 555 "$VQ_TMP/ro" && chmod 1777 "$VQ_TMP/rw" &&
	touch "$VQ_TMP/rw/ro.log" && chmod 444 "$VQ_TMP/rw/ro.log"
for f in "README.md/" "$VQ_TMP/" "$VQ_TMP"; do
	check "LAB_KEEP_LOG=$f (a directory)" "$(keep "must name a file, not the directory '$f'")" \
		"$(refused vm LAB_KEEP_LOG="$f")"
done
for f in /proc/x.log /sys/x.log /proc/sys/kernel/hostname; do
	t=$(stat -f -c %T "$(dirname "$f")")
	check "LAB_KEEP_LOG=$f" "$(keep "must be on a regular filesystem, not '$f' ($t)")" \
		"$(refused vm LAB_KEEP_LOG="$f")"
done
check "LAB_KEEP_LOG=README.md/x (its directory a file)" \
	"$(keep "must be a file in a writable directory, not 'README.md/x'")" \
	"$(refused vm LAB_KEEP_LOG=README.md/x)"
check "LAB_KEEP_LOG a FIFO" "$(keep "must be a regular file the lab can write, not '$VQ_TMP/fifo'")" \
	"$(refused vm LAB_KEEP_LOG="$VQ_TMP/fifo")"
# root writes through mode bits: the unwritable cases run the check as nobody (setpriv), on a
# copy of lab_common.sh in the test's own directory (the checkout may be under a 0700 home)
chmod o+x "$VQ_TMP"
install -m 0644 "$ROOT/scripts/lab_common.sh" "$VQ_TMP/lab_common.sh"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups bash -c \
		'. "$1"; LAB_KEEP_LOG=$2 lab_keep_log_check' bash "$VQ_TMP/lab_common.sh" "$1" 2>&1
	echo "rc $?"
}
check "LAB_KEEP_LOG in a read-only directory (as nobody)" \
	"lab: LAB_KEEP_LOG must be a file in a writable directory, not '$VQ_TMP/ro/x.log'|rc 2" \
	"$(as_nobody "$VQ_TMP/ro/x.log" | paste -sd'|')"
check "LAB_KEEP_LOG a read-only file (as nobody)" \
	"lab: LAB_KEEP_LOG must be a regular file the lab can write, not '$VQ_TMP/rw/ro.log'|rc 2" \
	"$(as_nobody "$VQ_TMP/rw/ro.log" | paste -sd'|')"
check "LAB_KEEP_LOG a new file in a writable directory (as nobody): passes" "rc 0" \
	"$(as_nobody "$VQ_TMP/rw/x.log" | paste -sd'|')"
check_true "... and leaves no file behind" test ! -e "$VQ_TMP/rw/x.log"
chmod 755 "$VQ_TMP/ro"
# a good one passes --settings and is left as found: a new name is not created, an existing
# file keeps its content
check "LAB_KEEP_LOG new file: --settings passes" "0 " \
	"$(refused vm LAB_KEEP_LOG="$VQ_TMP/new.log" -- --settings)"
check_true "... and leaves no file behind" test ! -e "$VQ_TMP/new.log"
echo kept > "$VQ_TMP/old.log"
check "LAB_KEEP_LOG existing file: --settings passes" "0 " \
	"$(refused vm LAB_KEEP_LOG="$VQ_TMP/old.log" -- --settings)"
check "... its content unchanged" kept "$(cat "$VQ_TMP/old.log")"
# the copy at the end (lab_keep_log, both variants' cleanup): a failure is said and fails
echo log > "$VQ_TMP/src.log"
kept_by() {
	(say() { printf '%s\n' "$*"; }; . "$ROOT/scripts/lab_common.sh"; LAB_KEEP_LOG=$1
	 lab_keep_log "$VQ_TMP/src.log"; echo "rc $?")
}
check "lab_keep_log into a directory gone since the check" \
	"lab: LAB_KEEP_LOG: the log could not be kept in '$VQ_TMP/gone/x.log': cp: cannot create \
regular file '$VQ_TMP/gone/x.log': No such file or directory|rc 1" \
	"$(kept_by "$VQ_TMP/gone/x.log" | paste -sd'|')"
check "lab_keep_log that works: rc 0, the log copied" "rc 0|log" \
	"$(kept_by "$VQ_TMP/copy.log" | paste -sd'|')|$(cat "$VQ_TMP/copy.log")"
# the status line (lab_status_line, both variants): a request that fails says vqtunectl's
# words, an answer without a managed device's rate says that, not "API not answering"
status_by() {
	(say() { printf '%s\n' "$*"; }; elapsed() { echo 7; }; . "$ROOT/scripts/lab_common.sh"
	 PHASE=rr C=$1 lab_status_line)
}
fake_devices() {
	printf '%s\n' "NAME NETNS DRIVER STATE IFINDEX TXQ RXQ MANAGED MODE RX-RATE TX-RATE" \
		"vn0 vna virtio_net up 2 1 1 yes active 1.2 Mbit/s 9.41 Gbit/s" \
		"lo vna - up 1 1 1 no - - -"
}
check "status line of a daemon not there" \
	"lab: [7s] rr: (API not answering: vqtunectl: cannot reach vqtuned at $VQ_TMP/nosock: No \
such file or directory)" "$(status_by "$ROOT/build/vqtunectl -s $VQ_TMP/nosock")"
check "status line of an answer without a managed device" \
	"lab: [7s] rr: (no managed device with a rate yet)" "$(status_by true)"
check "status line of a managed device's tx rate" "lab: [7s] rr: vna:vn0 tx 9.41 Gbit/s" \
	"$(status_by fake_devices)"
check "LAB_KERNEL=5.10" "2 lab: LAB_KERNEL must be one of 6.1 6.12 7, not '5.10'" \
	"$(refused vm LAB_KERNEL=5.10)"
check "LAB_MODE=foo" "2 lab: LAB_MODE must be one of auto vm netns, not 'foo'" \
	"$(refused foo)"
check "LAB_KERNEL='6.12 7'" "2 lab: LAB_KERNEL must be one of 6.1 6.12 7 (one word), not '6.12 7'" \
	"$(refused vm LAB_KERNEL="6.12 7")"
check "LAB_PHASE_S=20 LAB_SECONDS=100" \
	"2 lab: LAB_SECONDS=100 cannot hold 8 phases of LAB_PHASE_S=20 s (~219 s in all): raise it, or leave LAB_PHASE_S unset to fit the phases to it" \
	"$(refused vm LAB_PHASE_S=20 LAB_SECONDS=100)"
# auto: the bounds of the variant this host runs, before the run says which it is
if "$ROOT/scripts/lab_netns.sh" --check > /dev/null 2>&1; then min=2; else min=4; fi
check "auto: LAB_PHASE_S=1 (the lab that runs here: phases from $min s)" \
	"2 lab: LAB_PHASE_S must be a whole number in $min..3600 (seconds), not '1'" \
	"$(refused auto LAB_PHASE_S=1)"
check "auto: --settings with good settings" "0 " \
	"$(refused auto LAB_PHASE_S=20 LAB_SECONDS=600 -- --settings)"
# netns forced on a host that cannot run it: exit 3, saying why, in the pre-check that
# `make run` makes before apt and the build (it passed there, and the refusal came after both)
if [ ! -e /proc/modules ]; then
	check "netns forced, no module support: --settings refuses (3)" \
		"3 lab: this host cannot run the namespace lab: the running kernel $(uname -r) cannot load modules (no /proc/modules)" \
		"$(refused netns LAB_PHASE_S=20 -- --settings)"
elif "$ROOT/scripts/lab_netns.sh" --check-host > /dev/null 2>&1; then
	check "netns forced on a host that can run it: --settings passes" "0 " \
		"$(refused netns LAB_PHASE_S=20 -- --settings)"
else
	check "netns forced on a host that cannot run it: --settings refuses (3)" \
		"3 lab: this host cannot run the namespace lab" \
		"$(refused netns LAB_PHASE_S=20 -- --settings | cut -d: -f1-2)"
fi
check "netns forced: a bad setting is named first (2)" \
	"2 lab: LAB_PHASE_S must be a whole number in 2..3600 (seconds), not '1'" \
	"$(refused netns LAB_PHASE_S=1)"
check "nothing fetched or locked by a refusal" "" "$(ls -A "$VQ_TMP/cache" 2>/dev/null)"

# good settings pass every check: the run goes on to the VM lock, held here
mkdir -p "$VQ_TMP/cache/vm"
exec 8> "$VQ_TMP/cache/vm/.lock"
flock 8
LAB_MODE=vm LAB_PHASE_S=4 LAB_SECONDS=600 LAB_PORT=19477 LAB_POLICY=latency LAB_KERNEL=6.1 \
	LAB_KEEP_LOG="$VQ_TMP/keep.log" VQ_CACHE="$VQ_TMP/cache" setsid "$ROOT/scripts/lab_run.sh" \
	> "$VQ_TMP/good" 2>&1 < /dev/null &
good=$!
VQ_PIDS+=($good)
for _ in $(seq $((LOCK_WAIT_S * 10))); do
	grep -q 'waiting for the VM lock' "$VQ_TMP/good" && break
	sleep 0.1
done
check "good settings reach the VM lock" 1 "$(grep -c 'waiting for the VM lock' "$VQ_TMP/good")"
kill -TERM -- -"$good" 2>/dev/null
wait "$good" 2>/dev/null
exec 8>&-
vq_done
