#!/bin/bash
# The lab's report (scripts/lab_report.sh) from fixture LAB lines: each device's knobs are
# said to be at their original values only when the lab read them, and the restore verdict
# says whether the check failed or never ran. A run that ended before its report had printed
# "(every knob at its original value)" under every device beside "knobs NOT verified
# restored". No namespace, no guest: the report reads a file.
source "$(dirname "$0")/lib.sh"
vq_init
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REPORT=$ROOT/scripts/lab_report.sh
# a complete run: 2 pairs x 4 phases x 2 passes
RESULTS=16
DEVS="vqa:vqf0 vqb:vqb0 vna:vn0 vnb:vn1"

# set-up lines every run has
head_lines() {
	echo "LAB pair vq vqpair vqa:vqf0 vqb:vqb0"
	echo "LAB pair vn virtio_net vna:vn0 vnb:vn1"
}
# all results with figures, the journal of each device, one knob left changed, status $1
full_run() {
	local pass p ph
	head_lines
	for pass in default active; do
		for p in vq vn; do
			for ph in bulk rr rrbulk slow; do
				echo "LAB result $pass $p $ph gbps=1.5 p50=40 p99=90"
			done
		done
	done
	echo "LAB knob vna:vn0 gro-flush-timeout 0 0 20000"
	echo "LAB knob vqa:vqf0 busyloop-us 0 0 0"
	for d in $DEVS; do echo "LAB knobs-read $d"; done
	for d in $DEVS; do echo "LAB events $d 3 0 0"; done
}
# report FILE: the report's output in $VQ_TMP/out, its exit status printed
report() {
	sh "$REPORT" "$1" $RESULTS > "$VQ_TMP/out" 2>&1
	echo $?
}
# knob_lines DEV: the lines under DEV's journal line, up to the next device
knob_lines() {
	awk -v d="  $1:" 'index($0, d) == 1 { f = 1; next } /^  [^ ]/ || /^lab:/ { f = 0 }
		f' "$VQ_TMP/out"
}

# a complete run: the changed knob listed, an unchanged one (same value) not, the rest at
# their original values, restored
{ full_run; echo "LAB restore ok 42 lines compared"; echo "LAB end 0"; } > "$VQ_TMP/ok"
check "complete run: exit" 0 "$(report "$VQ_TMP/ok")"
check "complete run: vna:vn0 journal" "  vna:vn0: 3 controller, 0 manual, 0 outside events" \
	"$(grep '^  vna:vn0:' "$VQ_TMP/out")"
check "complete run: vna:vn0 knob" "    gro-flush-timeout[0] 0 -> 20000" "$(knob_lines vna:vn0)"
check "complete run: vqa:vqf0 unchanged" "    (every knob at its original value)" \
	"$(knob_lines vqa:vqf0)"
check "complete run: restored" \
	"lab: after SIGTERM every knob is back: 42 lines compared (vqpairctl, ethtool -c/-g/-l, BQL and NAPI sysfs, netdev NAPI)" \
	"$(grep '^lab: after SIGTERM' "$VQ_TMP/out")"

# the journal was read but one device's knob table was not (vqtunectl knobs failed): its
# knobs are not claimed at their original values
full_run | grep -v '^LAB knobs-read vqb:vqb0$' > "$VQ_TMP/noread"
{ cat "$VQ_TMP/noread"; echo "LAB restore ok 42 lines compared"; echo "LAB end 0"; } \
	> "$VQ_TMP/noread.lines"
report "$VQ_TMP/noread.lines" > /dev/null
check "knobs unread: vqb:vqb0" \
	"    (knobs not read: the lab ended before its report, or reading them failed)" \
	"$(knob_lines vqb:vqb0)"
check "knobs unread: vqa:vqf0 still at original" "    (every knob at its original value)" \
	"$(knob_lines vqa:vqf0)"

# the lab ended before its report (no knob, events or restore lines): nothing claimed
{ head_lines; echo "LAB fail vqtuned did not start in observe mode"; echo "LAB end 1"; } \
	> "$VQ_TMP/early"
check "early end: exit" 1 "$(report "$VQ_TMP/early")"
check "early end: original values claimed" 0 \
	"$(grep -c 'every knob at its original value' "$VQ_TMP/out")"
check "early end: devices without knobs read" 4 \
	"$(grep -c '^    (knobs not read: the lab ended before its report, or reading them failed)$' "$VQ_TMP/out")"
check "early end: vqb:vqb0" "  vqb:vqb0: no journal read" "$(grep '^  vqb:vqb0:' "$VQ_TMP/out")"
check "early end: verdict" "lab: knobs NOT verified restored: the lab ended before its restore check" \
	"$(grep 'restore' "$VQ_TMP/out")"

# the restore check ran and failed: which knobs differ, not "not verified"
{ full_run; echo "LAB restore FAIL"; echo "LAB restore-diff < vn1 rx-usecs 0"
	echo "LAB restore-diff > vn1 rx-usecs 8"; echo "LAB end 1"; } > "$VQ_TMP/fail"
check "restore FAIL: exit" 1 "$(report "$VQ_TMP/fail")"
check "restore FAIL: verdict" \
	"lab: knobs NOT restored: after SIGTERM these differ from before vqtuned started:
  < vn1 rx-usecs 0
  > vn1 rx-usecs 8" \
	"$(sed -n '/^lab: knobs NOT/,/^lab:/p' "$VQ_TMP/out" | grep -v '^lab: [^k]')"
check "restore FAIL: not called unverified" 0 "$(grep -c 'NOT verified' "$VQ_TMP/out")"
vq_done
