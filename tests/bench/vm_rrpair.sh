#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What request/response pays for a running vqtuned, on one pair at a time: sockperf
# ping-pong windows interleaved on the same vqpair with the daemon running with its own
# scheduler slice (R), running with the kernel's (K), and stopped (S). The guest side is
# tests/vm/guest/bench_rrpair.sh; this script boots it through tests/vm/run.sh --bench and
# prints, per state, the medians over all windows, and the same-pair ratios: each window's
# figure over the median of its pair's S windows, their median over all windows, and in how
# many windows the ratio is above 1. The fresh-pair table (tests/bench/vm_scenarios.sh)
# cannot resolve a cost this size: its pairs differ by about as much.
#
# Figures only, no thresholds. Exit 0 when the guest ran to its end and every window of every
# pair has its figures (VQ_BENCH_RUNS x VQ_BENCH_WINDOWS per state); 1 otherwise. Every run
# keeps its bench lines in .cache/bench/rrpair-TAG-TIME.lines ($VQ_CACHE/bench).
# Exit 2: a bad argument or setting, refused by name (one line on stderr) before anything is
# built or booted.
#
# usage: tests/bench/vm_rrpair.sh [--check] [KERNEL_TAG]   (default: $VQ_BENCH_KERNEL or 7)
# Env (whole numbers without a leading zero): VQ_BENCH_RUNS (pairs, 1..100, default 3),
# VQ_BENCH_S (seconds per window, 1..3600, default 10), VQ_BENCH_WINDOWS (windows per state
# and pair, a multiple of 2, 2..300, default 6), VQ_BENCH_WARMUP_S (the daemon's warm-up
# under ping-pong before the first window, 0..3600 s, default 25), VQ_BENCH_MAX_TICK_MS
# (vqtuned --max-interval beside its 1 s --interval, 1000..60000 ms; unset, the daemon's
# own default, a paced tick, vqtuned(8) INTERVAL PACING; 1000 fixes it), VQ_VM_TIMEOUT
# (30..86400 s, default 5400).
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/vm/vmlib.sh
. tests/vm/vmlib.sh

usage() {
	echo "usage: tests/bench/vm_rrpair.sh [--check] [KERNEL_TAG]; options: --check -h --help;" \
		"kernel tags: $(vm_known_tags)"
}
refuse() {
	echo "vm_rrpair: $*" >&2
	exit 2
}
need_uint() {
	local why
	[ -n "${!1:-}" ] || return 0
	why=$(vm_uint_ok "$1" "${!1}" "$2" "$3" "$4") || refuse "$why"
}

check=0 args=()
for a in "$@"; do
	case $a in
	--check)	check=1 ;;
	-h|--help)	usage; exit 0 ;;
	-*)		refuse "unknown option '$a' (options: --check -h --help)" ;;
	*)		args+=("$a") ;;
	esac
done
[ ${#args[@]} -le 1 ] || refuse "one KERNEL_TAG at most, not '${args[*]}'"
[ ${#args[@]} = 0 ] || [ -n "${args[0]}" ] || refuse "KERNEL_TAG must not be empty"
tag=${args[0]:-${VQ_BENCH_KERNEL:-7}}
why=$(vm_word_ok "$([ ${#args[@]} = 1 ] && echo KERNEL_TAG || echo VQ_BENCH_KERNEL)" "$tag" \
	"$(vm_known_tags)") || refuse "$why"
need_uint VQ_BENCH_RUNS 1 100 pairs
need_uint VQ_BENCH_S 1 3600 seconds
need_uint VQ_BENCH_WINDOWS 2 300 "windows per state and pair"
[ $(( ${VQ_BENCH_WINDOWS:-6} % 2 )) = 0 ] ||
	refuse "VQ_BENCH_WINDOWS must be a multiple of 2 (the states' order has 2 of each), not" \
		"'$VQ_BENCH_WINDOWS'"
need_uint VQ_BENCH_WARMUP_S 0 3600 seconds
need_uint VQ_BENCH_MAX_TICK_MS 1000 60000 "ms, vqtuned --max-interval (its --interval is 1000)"
need_uint VQ_VM_TIMEOUT 30 86400 seconds
[ $check = 1 ] && exit 0
# the initramfs takes them when built (tests/vm/mkinitramfs.sh): without them the guest
# would fail only after its boot; make bench-rrpair builds them
for b in build/vqtuned build/vqtunectl build/tests/tools/vqslice; do
	[ -x "$b" ] || { echo "vm_rrpair: $b is not built (make all tools, or make bench-rrpair)" >&2
		exit 1; }
done

words=""
for v in VQ_BENCH_RUNS VQ_BENCH_S VQ_BENCH_WINDOWS VQ_BENCH_WARMUP_S VQ_BENCH_MAX_TICK_MS; do
	[ -n "${!v:-}" ] && words+=" $v=${!v}"
done
log=$(mktemp "${TMPDIR:-/tmp}/vqrrpair.XXXXXX") || exit 1
trap 'rm -f "$log"' EXIT
VQ_BENCH_MODE=bench-rrpair VQ_VM_APPEND="${words# }" VQ_VM_TIMEOUT=${VQ_VM_TIMEOUT:-5400} \
	tests/vm/run.sh --bench "$tag" > "$log" 2>&1
rc=$?
sed -n 's/^\[[^]]*\] *| *\(bench-[a-z-]*:.*\)/\1/p' "$log" > "$log.lines"
trap 'rm -f "$log" "$log.lines"' EXIT
grep '^bench-note:' "$log.lines"
keep=${VQ_CACHE:-.cache}/bench/rrpair-$tag-$(date +%Y%m%dT%H%M%S).lines
mkdir -p "${keep%/*}" && cp "$log.lines" "$keep" && echo "bench lines kept in $keep"
if ! grep -q '^bench-rrpair:' "$log.lines"; then
	tail -30 "$log"
	echo "FAIL: no bench-rrpair line from the guest (console: ${VQ_CACHE:-.cache}/vm/$tag/console.log)"
	exit 1
fi
awk -v tag="$tag" -v want=$(( ${VQ_BENCH_RUNS:-3} * ${VQ_BENCH_WINDOWS:-6} )) \
	-v pairs="${VQ_BENCH_RUNS:-3}" '
function med(list,    n, i, j, t, a) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] + 0 : (a[n / 2] + a[n / 2 + 1]) / 2
}
/^bench-rrpair-head:/ { sub(/^bench-rrpair-head: /, ""); hdr = $0; next }
/^bench-rrpair-done:/ { done = 1; next }
/^bench-rrpair-tick:/ {
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "pair") continue
		if (kv[2] !~ /^[0-9]+$/) { tbad = 1; continue }
		tk[kv[1]] += kv[2]
		if (kv[1] !~ /^(ticks|wall_ns|cpu_ns)$/ && !(kv[1] in seen)) { seen[kv[1]] = 1; np++; pn[np] = kv[1] }
	}
	tpairs++
	next
}
/^bench-rrpair:/ {
	delete f
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if ("error" in f || !("p99_us" in f)) { errs = errs " " f["pair"] "/" f["state"]; next }
	w++; P[w] = f["pair"]; S[w] = f["state"]
	for (k = 1; k <= 3; k++) V[w, k] = f[key[k]]
	all[f["state"], "cpu"] = all[f["state"], "cpu"] " " f["cpu_cs"]
	all[f["state"], "slice"] = f["state"] == "S" ? "" : f["slice_ns"]
	cnt[f["state"]]++
	for (k = 1; k <= 3; k++) {
		all[f["state"], k] = all[f["state"], k] " " f[key[k]]
		pst[f["pair"], f["state"], k] = pst[f["pair"], f["state"], k] " " f[key[k]]
	}
}
BEGIN { key[1] = "p50_us"; key[2] = "p99_us"; key[3] = "p999_us"
	nm[1] = "p50"; nm[2] = "p99"; nm[3] = "p99.9"
	st[1] = "R"; st[2] = "K"; st[3] = "S"
	lab["R"] = "R running, own slice"; lab["K"] = "K running, kernel slice"
	lab["S"] = "S stopped" }
END {
	printf "# same-pair rr, kernel %s, TCG guest: %s\n", tag, hdr
	printf "%-30s %10s %10s %10s %8s %10s\n", "state (windows)", "p50 us", "p99 us", "p99.9 us",
		"cpu cs", "slice us"
	for (s = 1; s <= 3; s++) {
		x = st[s]
		n = split(all[x, 2], tmp, " ")
		if (!n) continue
		printf "%-30s %10.1f %10.1f %10.1f %8.1f %10s\n", lab[x] " (" n ")", med(all[x, 1]),
			med(all[x, 2]), med(all[x, 3]), med(all[x, "cpu"]),
			all[x, "slice"] + 0 == 0 ? "-" : all[x, "slice"] / 1000
	}
	printf "same-pair ratios (window / median of its pair'"'"'s S windows; median, windows above 1):\n"
	for (s = 1; s <= 2; s++) {
		x = st[s]; line = ""
		for (k = 1; k <= 3; k++) {
			l = ""; up = 0; n = 0
			for (i = 1; i <= w; i++) {
				if (S[i] != x || pst[P[i], "S", k] == "") continue
				r = V[i, k] / med(pst[P[i], "S", k]); l = l " " r; n++; up += r > 1
			}
			if (n) line = line sprintf("  %s %.3f (%d of %d above)", nm[k], med(l), up, n)
		}
		if (line != "") printf "  %s/S:%s\n", x, line
	}
	if (tk["ticks"] > 0) {
		printf "daemon tick, mean of %d ticks over %d pairs: wall %.2f ms, CPU %.2f ms; by part (ms):\n",
			tk["ticks"], tpairs, tk["wall_ns"] / tk["ticks"] / 1e6, tk["cpu_ns"] / tk["ticks"] / 1e6
		line = ""; sum = 0
		for (i = 1; i <= np; i++) {
			line = line sprintf(" %s %.3f", pn[i], tk[pn[i]] / tk["ticks"] / 1e6)
			sum += tk[pn[i]]
		}
		printf " %s; other %.3f\n", line, (tk["wall_ns"] - sum) / tk["ticks"] / 1e6
	}
	bad = 0
	if (errs != "") { printf "windows without a figure:%s\n", errs; bad = 1 }
	for (s = 1; s <= 3; s++)
		if (cnt[st[s]] != want) {
			printf "state %s: %d windows with figures, not %d\n", st[s], cnt[st[s]], want
			bad = 1
		}
	if (tpairs != pairs || tbad || !(tk["ticks"] > 0)) {
		printf "tick figures: %d of %d pairs%s\n", tpairs, pairs,
			tbad ? ", some not numbers" : !(tk["ticks"] > 0) ? ", no ticks counted" : ""
		bad = 1
	}
	if (!done) { print "the guest did not reach its end (bench-rrpair-done)"; bad = 1 }
	exit bad
}' "$log.lines"
st=$?
[ $rc = 0 ] || echo "tests/vm/run.sh exit status $rc (console: ${VQ_CACHE:-.cache}/vm/$tag/console.log)"
[ $st = 0 ] && [ $rc = 0 ]
