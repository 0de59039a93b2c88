#!/bin/sh
# The lab's report, shared by its two variants (scripts/lab_vm.sh for the QEMU guest,
# scripts/lab_netns.sh on a host): reads the "LAB ..." lines of one run (the protocol is in
# scripts/lab_vm.sh) and prints the before/after table per pair and phase (flagging knob
# writes made during the default pass, whose figures then are not the defaults'), the knobs
# vqtuned ended on with its journal per device, and the verdict on the restore. POSIX sh and awk
# (busybox's too: the namespace lab also runs inside the test guest).
#
#   scripts/lab_report.sh LINES RESULTS [WHO]
# LINES is a file of LAB lines, RESULTS the number of result lines a complete run has, WHO
# what the lab's own failure lines are quoted as (default "guest").
# Exit 0 when every knob came back, nothing failed, every phase has its figures and the lab
# ended with status 0; else 1.
lines=$1 want=$2 who=${3:-guest}
# restore-diff lines shown: enough to see which knobs, short enough to keep the table in view
DIFF_LINES=20

awk -f - "$lines" <<'AWK'
$2 == "result" {
	key = $4 SUBSEP $5
	for (i = 6; i <= NF; i++) { split($i, kv, "="); v[$3, key, kv[1]] = kv[2] }
}
# LAB pair KEY LABEL DEV_A DEV_B, in the order the lab set them up
$2 == "pair" && !($3 in pname) { pairs[++np] = $3; pname[$3] = $4 }
function get(pass, key, k) { return ((pass, key, k) in v) ? v[pass, key, k] : "?" }
function lat(pass, key) { return get(pass, key, "p50") "/" get(pass, key, "p99") }
END {
	if (np == 0) {
		np = 2; pairs[1] = "vq"; pairs[2] = "vn"; pname["vq"] = "vqpair"; pname["vn"] = "virtio_net"
	}
	split("bulk rr rrbulk slow", ph, " ")
	label["bulk"] = "bulk"; label["rr"] = "rr"; label["rrbulk"] = "rr+bulk"; label["slow"] = "slow"
	printf "  %-11s %-8s %-11s %12s %12s\n", "pair", "phase", "metric", "default", "active"
	for (p = 1; p <= np; p++) for (i = 1; i <= 4; i++) {
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
# the default pass's vqtuned only observes: a manual (API) or outside (ethtool, sysfs) write
# it journalled then was someone else's, and the default column measured that setting
awk '$2 == "default-events" && $5 + $6 > 0 {
	w = w sprintf("%s%s: %d manual, %d outside", w == "" ? "" : "; ", $3, $5, $6) }
	END { if (w != "") {
		print "lab: NOTE: knobs were written during the default pass (" w "):"
		print "     its column is not vqtuned-observing defaults; do writes in the active pass" } }' \
	"$lines"
echo "lab: knobs vqtuned ended on (original -> value) and its journal (controller/manual/outside):"
awk -f - "$lines" <<'AWK'
$2 == "pair" && !($5 in d) { devs[++n] = $5; devs[++n] = $6; d[$5] = d[$6] = 1 }
$2 == "events" { ev[$3] = sprintf("%s controller, %s manual, %s outside events", $4, $5, $6) }
# a knob the journal holds but that stands at its original value again is not listed
$2 == "knob" && $6 != $7 {
	k[$3] = k[$3] sprintf("    %s%s %s -> %s\n", $4, $5 == "-" ? "" : "[" $5 "]", $6, $7)
}
$2 == "knobs-read" { read[$3] = 1 }
# "LAB knobs-read DEV" comes once the device's knob table was read whole: without it nothing
# is known of its knobs (the lab ended before its report, or the read failed)
END {
	if (n == 0) n = split("vqa:vqf0 vqb:vqb0 vna:vn0 vnb:vn1", devs, " ")
	for (i = 1; i <= n; i++) {
		dv = devs[i]
		printf "  %s: %s\n", dv, (dv in ev) ? ev[dv] : "no journal read"
		if (dv in k)
			printf "%s", k[dv]
		else if (dv in read)
			print "    (every knob at its original value)"
		else
			print "    (knobs not read: the lab ended before its report, or reading them failed)"
	}
}
AWK

rc=0
if grep -q '^LAB restore ok' "$lines"; then
	echo "lab: after SIGTERM every knob is back: $(grep '^LAB restore ok' "$lines" |
		cut -d' ' -f4-) (vqpairctl, ethtool -c/-g/-l, BQL and NAPI sysfs, netdev NAPI)"
elif grep -q '^LAB restore FAIL' "$lines"; then
	echo "lab: knobs NOT restored: after SIGTERM these differ from before vqtuned started:"
	grep '^LAB restore-diff' "$lines" | head -$DIFF_LINES | sed 's/^LAB restore-diff /  /'
	rc=1
else
	echo "lab: knobs NOT verified restored: the lab ended before its restore check"
	rc=1
fi
if grep -q '^LAB fail' "$lines"; then
	grep '^LAB fail' "$lines" | sed "s/^LAB /lab: $who: /"
	rc=1
fi
grep -q '^LAB dmesg-bad' "$lines" && { echo "lab: the guest's kernel log has BUG/WARNING lines"; rc=1; }
# a phase with no figure is a failed phase ("-" or a result line that never came)
missing=$(awk '$2 == "result" { for (i = 6; i <= NF; i++) if ($i ~ /=-$/) print $3, $4, $5 }' \
	"$lines")
n=$(grep -c '^LAB result' "$lines")
[ "$n" -eq "$want" ] || missing="$missing only $n of $want results"
[ -z "$missing" ] || { echo "lab: phases without figures: $missing"; rc=1; }
grep -q '^LAB end 0' "$lines" || rc=1
exit $rc
