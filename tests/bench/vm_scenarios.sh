#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The live-traffic proof table: four scenarios on a vqpair between two namespaces of one
# QEMU guest (TCG), each under (a) the module's default knobs, (b) the best static setting
# of a small grid (picked per scenario by a sweep, then measured again) and (c) vqtuned with
# policies/balanced.json (fresh daemon per run, warm-up before the measured window). The
# guest side is tests/vm/guest/bench_scen.sh (scenarios, grid, metrics); this script boots
# it through tests/vm/run.sh --bench and computes the table from its "bench-cell:" lines.
#
# Figures, and the issue's targets judged on them in a last section ("targets": (c) no worse
# than (a) beyond the (a')/(a) noise, within 10% of (b), half (a)'s rr-under-bulk p99 at 90%
# of its bulk, 80% of copy mode with a slow consumer), which never set the exit status, and
# beside them the ratios of each round ("paired:"), whose columns ran back to back.
# Exit 0 when every cell of the table has a figure from every run; 1 when a tool failed or
# a cell has no number (a (c) cell while vqtuned refuses an active policy, for one); the
# table is printed either way.
#
# Exit 2: a bad argument or setting, refused by name (one line on stderr) before anything is
# built or booted.
#
# usage: tests/bench/vm_scenarios.sh [--check] [KERNEL_TAG]   (default: $VQ_BENCH_KERNEL or 7)
#        tests/bench/vm_scenarios.sh --table FILE
# KERNEL_TAG: one that scripts/kernels.sh fetches. --check: validate the argument and the
# settings below, then exit 0 without building or booting anything. Every run keeps its
# bench lines in .cache/bench/scen-TAG-TIME.cells ($VQ_CACHE/bench); --table FILE prints
# such a file's table and exits as a run would, without building or booting anything.
# Env (whole numbers without a leading zero; lists space- or comma-separated):
# VQ_BENCH_S (measured seconds per run, 1..3600, default 10), VQ_BENCH_RUNS (runs per cell,
# 1..100, default 3), VQ_BENCH_SWEEP_RUNS (runs per setting of the sweep that picks (b),
# 1..100, default VQ_BENCH_RUNS), VQ_BENCH_WARMUP_S (vqtuned warm-up, 0..3600 s, default 25),
# VQ_BENCH_TICK_MS (vqtuned --interval, 10..60000, default 1000, the daemon's own),
# VQ_BENCH_MAX_TICK_MS (vqtuned --max-interval, VQ_BENCH_TICK_MS..60000, default the
# daemon's own: --interval, a fixed tick; above VQ_BENCH_TICK_MS: pacing on),
# VQ_BENCH_SCENS (subset of "rr bulk bulkrr slowzc"), VQ_BENCH_GRID (subset of the grid
# entries bench_scen.sh's apply_set() knows), VQ_BENCH_B_FRESH (1: measure the winner again,
# 0: report its sweep runs), VQ_BENCH_EVENTS (vqtuned decisions shown per run, 0..1000,
# default 4), VQ_BENCH_NOISE (1, default: an (a') column, the default measured again last in
# every round; (a')/(a) is the noise between two fresh pairs with the same knobs; 0: none),
# VQ_BENCH_POLICY ((c)'s policy, a name in policies/, default balanced; observe measures the
# cost of vqtuned's sampling alone), VQ_BENCH_OBSERVE (1: an (o) column, vqtuned with the
# observe policy interleaved with (c), and (c)/(o), the controllers' effect apart from the
# daemon's sampling and the drift between benches; b: the same daemon on a pair with (b)'s
# setting, and (o)/(b), the sampling's cost where (c) holds (b)'s knobs; 0, default: none),
# VQ_BENCH_PIN (F:B, default 0:1: the front's clients on
# CPU F, backend worker and servers on CPU B, both CPUs of the guest; none: unpinned),
# VQ_BENCH_TRACE (1: bulkrr's cells also give BQL's limit and inflight, median/max over the
# measured window; 0, default: not), VQ_BENCH_QDISC (the pairs' qdisc: pfifo_fast, default,
# the kernel's built-in one FIFO; fq_codel, as Debian's kernels and systemd set it),
# VQ_BENCH_LINE_MBIT (the backend's line rate, vqpair debugfs line_rate_mbit, 0..100000
# Mbit/s, default 0: none, the worker drains as fast as its CPU allows), VQ_BENCH_NICE
# (vqtuned's nice value, 0..19, default 0: as systemd/vqtuned.service runs it),
# VQ_BENCH_SLICE_US (vqtuned --sched-slice of (c) and (o): 0, default, asks for none, or
# 100..100000 us; Linux 6.12+ keeps it), VQ_VM_TIMEOUT
# (30..86400 s as tests/vm/run.sh takes it, default 1500 s per VQ_BENCH_RUNS, at least 5400).
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/vm/vmlib.sh
. tests/vm/vmlib.sh
GUEST=tests/vm/guest/bench_scen.sh
# every run's bench lines are kept here (--table prints a kept file's table again)
CELLS_DIR=${VQ_CACHE:-.cache}/bench
# measured seconds: 0 would be iperf3 -t 0, which never ends; an hour a run is a soak, not
# this table
BENCH_S_MAX=3600
# runs per cell: 0 leaves every cell without a figure; 100 already take ~20 h of TCG at the
# default lengths (4 scenarios x 4 cells x 35 s warmed-up runs, plus the sweep)
BENCH_RUNS_MAX=100
# vqtuned's warm-up: 0 measures it cold; an hour is far past its controllers' settling
BENCH_WARMUP_MAX_S=3600
# vqtuned --interval's own range (TICK_MIN_MS, TICK_MAX_MS in daemon/main.c)
BENCH_TICK_MIN_MS=10
BENCH_TICK_MAX_MS=60000
# decisions shown per run: more than a run's worth is noise in the log
BENCH_EVENTS_MAX=1000
# the backend's line rate (vqpair debugfs line_rate_mbit is a u32 of Mbit/s): 100 Gbit/s is
# far past what TCG moves
BENCH_LINE_MAX_MBIT=100000
# vqtuned's nice value: setpriority(2)'s lowest priority is 19
BENCH_NICE_MAX=19
# vqtuned --sched-slice's own range (SLICE_MIN_US, SLICE_MAX_US in daemon/slice.h), 0: none
BENCH_SLICE_MIN_US=100
BENCH_SLICE_MAX_US=100000
# tests/vm/run.sh's VQ_VM_TIMEOUT range (0 would be timeout(1)'s "no limit")
VM_TIMEOUT_MIN_S=30
VM_TIMEOUT_MAX_S=86400

usage() {
	echo "usage: tests/bench/vm_scenarios.sh [--check] [KERNEL_TAG] | --table FILE; options:" \
		"--check --table -h --help; kernel tags: $(vm_known_tags)"
}
# refuse WHY: one line naming the bad setting and what is accepted, exit 2
refuse() {
	echo "vm_scenarios: $*" >&2
	exit 2
}
# one_of NAME VALUE LIST: refuses VALUE unless a word of LIST (vmlib.sh's vm_word_ok)
one_of() { local why; why=$(vm_word_ok "$@") || refuse "$why"; }
# need_uint NAME MIN MAX UNIT: refuses the variable NAME, when set, unless vmlib.sh's
# vm_uint_ok takes its value
need_uint() {
	local why
	[ -n "${!1:-}" ] || return 0
	why=$(vm_uint_ok "$1" "${!1}" "$2" "$3" "$4") || refuse "$why"
}
# need_words NAME LIST: refuses the list variable NAME, when set, unless it has at least one
# word and every word is in LIST, once
need_words() {
	local v=${!1:-} w ws in="" seen=" "
	[ -n "$v" ] || return 0
	read -ra ws <<< "${v//,/ }"
	[ ${#ws[@]} -gt 0 ] || refuse "$1 must list words of $2, not '$v'"
	for w in "${ws[@]}"; do
		case " $2 " in
		*" $w "*) ;;
		*) [ "$w" = "$v" ] || in=" (in '$v')"
			refuse "$1 must list words of $2, not '$w'$in" ;;
		esac
		# twice would measure the same cells twice over
		case $seen in *" $w "*) refuse "$1 names '$w' twice (in '$v')" ;; esac
		seen+="$w "
	done
}
# case_labels FUNC: the words the case statement of the guest's FUNC() accepts (its *)
# refuses the rest)
case_labels() {
	sed -n "/^$1() {/,/^}/s/^\t\([a-z0-9|]\{1,\}\)).*/\1/p" $GUEST | tr '|' '\n' | paste -sd' '
}

# scen_table TAG WALL_S CELLS: the table, ratios and run counts from the guest's
# "bench-" lines in the file CELLS; exit 0 when every cell has a figure from every run
scen_table() {
awk -v tag="$1" -v wall="$2" '
function med(list,    n, i, j, t, a) {
	n = split(list, a, " ")
	if (n == 0) return ""
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] + 0 : (a[n / 2] + a[n / 2 + 1]) / 2
}
function lo(list,    n, i, a, m) { n = split(list, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 < m + 0) m = a[i]; return m }
function hi(list,    n, i, a, m) { n = split(list, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 > m + 0) m = a[i]; return m }
function fmt(x) { return x == "" ? "-" : (x + 0 >= 100 ? sprintf("%.0f", x) : sprintf("%.3g", x)) }
# cell text: median [min-max] (k/n runs when some failed)
function cell(key,    s, n) {
	if (!(key in runs)) return "- (not run)"
	n = split(val[key], dummy, " ")
	if (n == 0) return "- (" err[key] ")"
	s = fmt(med(val[key])) " [" fmt(lo(val[key])) "-" fmt(hi(val[key])) "]"
	if (n < runs[key]) s = s " " n "/" runs[key] "!"
	return s
}
function ratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "-" : sprintf("%.2f", a / b) }
function m(key) { return (key in runs) ? med(val[key]) : "" }
/^bench-winner:/ { split($2, kv, "="); s = kv[2]; split($3, kv, "="); win[s] = kv[2]; next }
/^bench-time:/ { times = times " " $2 "(" substr($3, 3) "s)"; next }
/^bench-scen:/ { hdr = $0; sub(/^bench-scen: /, "", hdr); next }
/^bench-cell:/ {
	delete f
	for (i = 2; i <= NF; i++) { p = index($i, "="); f[substr($i, 1, p - 1)] = substr($i, p + 1) }
	c = f["cfg"]
	if (c == "grid" && f["set"] == "copy") c = "copy"
	if (c == "ref") c = "copyref"
	if (c == "grid") c = "grid:" f["set"]
	if (c == "b") bset[f["scen"]] = f["set"]
	if (c == "a2") noise = 1
	if (c == "o") obs = 1
	# VQ_BENCH_OBSERVE=b: (o) ran on the setting of (b), so it is compared with (b)
	if (c == "o" && f["set"] ~ /^vqtuned-on-/) obsb = 1
	if (!(f["scen"] in seen)) { seen[f["scen"]] = 1; order[++ns] = f["scen"] }
	if (c != "a" && c != "b" && c != "c" && c != "o" && c != "a2" && c != "copyref" &&
	    !((f["scen"], f["set"]) in gseen)) {
		gseen[f["scen"], f["set"]] = c
		gorder[f["scen"]] = gorder[f["scen"]] " " f["set"]
	}
	for (k in f) {
		if (k !~ /_us$|^gbps$/) continue
		key = f["scen"] SUBSEP c SUBSEP k
		runs[key]++
		val[key] = val[key] " " f[k]
		rv[key, f["run"]] = f[k]
	}
	if ("error" in f) {
		bad++
		errs = errs " " f["scen"] "/" c "/run" f["run"] ":" f["error"]
		# a run without figures counts against every metric of its scenario
		split(metrics_of(f["scen"]), mk, " ")
		for (i in mk) { key = f["scen"] SUBSEP c SUBSEP mk[i]; runs[key]++; err[key] = f["error"] }
	}
	# figures of (o) are marked o:
	tc = (c == "c") ? "" : c ":"
	if ("events" in f) ev[f["scen"]] = ev[f["scen"]] " " tc f["events"]
	if ("vqt_cpu_pm" in f) cpu[f["scen"]] = cpu[f["scen"]] " " tc f["vqt_cpu_pm"] / 10 "%"
	if ("ticks" in f) tk[f["scen"]] = tk[f["scen"]] " " tc f["ticks"] "x" sprintf("%.2f/%.2f", f["tick_wall_ns"] / 1e6, f["tick_cpu_ns"] / 1e6)
	next
}
function metrics_of(s) { return (s == "rr") ? "p50_us p99_us" : (s == "bulkrr") ? "p50_us p99_us gbps" : "gbps" }
# the slowzc copy-mode reference: the interleaved copy runs, (b) when copy won, else the sweep
function copyref(s) {
	if ((s SUBSEP "copyref" SUBSEP "gbps") in runs) return s SUBSEP "copyref" SUBSEP "gbps"
	if (bset[s] == "copy") return s SUBSEP "b" SUBSEP "gbps"
	return s SUBSEP "copy" SUBSEP "gbps"
}
function row(s, k, label,    ka, kb, kc) {
	printf "%-7s %-16s %-24s %-24s %-24s", s, label, cell(s SUBSEP "a" SUBSEP k),
		cell(s SUBSEP "b" SUBSEP k), cell(s SUBSEP "c" SUBSEP k)
	if (obs) printf " %-24s", cell(s SUBSEP "o" SUBSEP k)
	if (noise) printf " %-24s", cell(s SUBSEP "a2" SUBSEP k)
	printf "\n"
}
# rawratio A B: A / B unrounded, "" when either is missing or B is 0
function rawratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "" : a / b }
# judge NAME RATIO OP BOUND: "NAME RATIO OP BOUND: met" (or "NOT met"), counted in tmet/tall,
# on the unrounded RATIO and BOUND (shown to 3 places); "" when a figure is missing, counted
# as not met
function judge(name, r, op, bound,    ok) {
	tall++
	if (r == "" || bound == "") { tnot = tnot " " tname ":" name; return name " -: no figure" }
	ok = (op == "<=") ? r + 0 <= bound + 0 : r + 0 >= bound + 0
	if (ok) tmet++; else tnot = tnot " " tname ":" name
	return sprintf("%s %.3f %s %.3f: %s", name, r, op, bound, ok ? "met" : "NOT met")
}
# the targets of the issue, on the medians of the table: (c) no worse than (a) by more than the
# noise |(a2)/(a) - 1|; within 10% of (b); in bulkrr, at most half the p99 of (a) with at least
# 90% of its bulk; in slowzc, at least 80% of copy mode. Latency is lower-better, Gbit/s
# higher-better
function targets(    i, s, k, lat, nz, out) {
	printf "targets (the issue'"'"'s, on the medians above; figures, not this command'"'"'s exit status):\n"
	for (i = 1; i <= ns; i++) {
		s = order[i]; tname = s; k = (s == "bulk" || s == "slowzc") ? "gbps" : "p99_us"
		lat = k != "gbps"
		nz = noise ? rawnoise(s, k) : ""
		out = judge("(c)/(a)", rawratio(m(s SUBSEP "c" SUBSEP k), m(s SUBSEP "a" SUBSEP k)),
			lat ? "<=" : ">=", nz == "" ? "" : (lat ? 1 + nz : 1 - nz)) \
			" (noise " (nz == "" ? "-" : sprintf("%.3f", nz)) ")"
		out = out "; " judge("(c)/(b)", rawratio(m(s SUBSEP "c" SUBSEP k),
			m(s SUBSEP "b" SUBSEP k)), lat ? "<=" : ">=", lat ? 1.10 : 0.90)
		if (s == "bulkrr") {
			out = out "; " judge("p99 (c)/(a)", rawratio(m(s SUBSEP "c" SUBSEP k),
				m(s SUBSEP "a" SUBSEP k)), "<=", 0.50)
			out = out "; " judge("bulk (c)/(a)", rawratio(m(s SUBSEP "c" SUBSEP "gbps"),
				m(s SUBSEP "a" SUBSEP "gbps")), ">=", 0.90)
		}
		if (s == "slowzc")
			out = out "; " judge("(c)/copy", rawratio(m(s SUBSEP "c" SUBSEP k),
				m(copyref(s))), ">=", 0.80)
		printf "  %-7s %-7s %s\n", s, k, out
	}
	printf "  met %d of %d%s\n", tmet, tall, tnot == "" ? "" : "; not met:" tnot
}
# how far a2 (the default again) reads from (a), |(a2)/(a) - 1|, unrounded ("" without a
# figure): the same knobs on two fresh pairs
function rawnoise(s, k,    r) {
	r = rawratio(m(s SUBSEP "a2" SUBSEP k), m(s SUBSEP "a" SUBSEP k))
	return r == "" ? "" : (r > 1 ? r - 1 : 1 - r)
}
# paired S K: the ratios of each round, "(c)/mean((a),(a2)) R1 R2 ... median M; (c)/(b) ...":
# the columns of one round run back to back, so a host that drifts between rounds (a slower
# round 3 for every column) moves both sides of the ratio of a round alike. Rounds run from 1
# to the last with an (a) or (c) figure; one missing a figure of a ratio is left out of that
# ratio; "" without (a2).
function paired(s, k,    r, a, a2, b, c, l1, l2, out) {
	for (r = 1; (s SUBSEP "a" SUBSEP k, r) in rv || (s SUBSEP "c" SUBSEP k, r) in rv; r++) {
		a = rv[s SUBSEP "a" SUBSEP k, r]; a2 = rv[s SUBSEP "a2" SUBSEP k, r]
		b = rv[s SUBSEP "b" SUBSEP k, r]; c = rv[s SUBSEP "c" SUBSEP k, r]
		if (c != "" && a != "" && a2 != "" && a + a2 > 0) l1 = l1 " " c / ((a + a2) / 2)
		if (c != "" && b != "" && b + 0 > 0) l2 = l2 " " c / b
	}
	if (l1 == "") return ""
	out = "(c)/mean((a),(a'"'"')) per round" sprintf2(l1) " median " sprintf("%.2f", med(l1))
	if (l2 != "") out = out "; (c)/(b)" sprintf2(l2) " median " sprintf("%.2f", med(l2))
	return out
}
# a list of numbers to 2 places each
function sprintf2(l,    n, i, x, out) {
	n = split(l, x, " ")
	for (i = 1; i <= n; i++) out = out " " sprintf("%.2f", x[i])
	return out
}
# rawnoise() shown to 2 places, "-" without a figure
function noise_of(s, k,    r) {
	r = rawnoise(s, k)
	return r == "" ? "-" : sprintf("%.2f", r)
}
END {
	printf "# vqpair live-traffic table, kernel %s, TCG guest: %s\n", tag, hdr
	printf "# cells: median [min-max] over the runs; n/N! = only n of N runs gave a figure; - = no figure\n"
	printf "%-7s %-16s %-24s %-24s %-24s", "scen", "metric", "(a) default", "(b) best static", "(c) vqtuned"
	if (obs) printf " %-24s", obsb ? "(o) observe on (b)" : "(o) vqtuned observe"
	if (noise) printf " %-24s", "(a'"'"') default again"
	printf "\n"
	for (i = 1; i <= ns; i++) {
		s = order[i]
		if (s == "rr") { row(s, "p99_us", "p99 us (RTT)"); row(s, "p50_us", "p50 us (RTT)") }
		if (s == "bulk") row(s, "gbps", "Gbit/s")
		if (s == "bulkrr") { row(s, "p99_us", "p99 us (RTT)"); row(s, "p50_us", "p50 us (RTT)"); row(s, "gbps", "bulk Gbit/s") }
		if (s == "slowzc") {
			row(s, "gbps", "Gbit/s")
			printf "%-7s %-16s %s\n", s, "copy-mode ref", cell(copyref(s))
		}
	}
	printf "(b) settings (sweep winner per scenario):"
	for (i = 1; i <= ns; i++) printf " %s=%s", order[i], (order[i] in win) ? win[order[i]] : "-"
	printf "\n"
	printf "sweep medians (one pair per setting, no warm-up; (a), (b), (c) above are measured\n"
	printf "  interleaved after the sweep, each run on a fresh pair warmed up alike):\n"
	for (i = 1; i <= ns; i++) {
		s = order[i]; k = (s == "bulk" || s == "slowzc") ? "gbps" : "p99_us"
		printf "  %-7s %-7s", s, k
		n = split(gorder[s], gs, " ")
		for (j = 1; j <= n; j++) printf " %s=%s", gs[j], fmt(m(s SUBSEP gseen[s, gs[j]] SUBSEP k))
		if (s == "bulkrr") {
			printf " | bulk Gbit/s"
			for (j = 1; j <= n; j++) printf " %s=%s", gs[j], fmt(m(s SUBSEP gseen[s, gs[j]] SUBSEP "gbps"))
		}
		printf "\n"
	}
	printf "derived (figures, not pass/fail):\n"
	for (i = 1; i <= ns; i++) {
		s = order[i]; k = (s == "bulk" || s == "slowzc") ? "gbps" : "p99_us"
		printf "  %-7s %-7s (c)/(a) %s   (c)/(b) %s", s, k,
			ratio(m(s SUBSEP "c" SUBSEP k), m(s SUBSEP "a" SUBSEP k)),
			ratio(m(s SUBSEP "c" SUBSEP k), m(s SUBSEP "b" SUBSEP k))
		ob = obsb ? "b" : "a"
		if (obs) printf "   (c)/(o) %s   (o)/(%s) %s", ratio(m(s SUBSEP "c" SUBSEP k),
			m(s SUBSEP "o" SUBSEP k)), ob, ratio(m(s SUBSEP "o" SUBSEP k),
			m(s SUBSEP ob SUBSEP k))
		if (noise) printf "   noise |(a'"'"')/(a) - 1| %s", noise_of(s, k)
		printf "\n"
	}
	for (i = 1; i <= ns; i++) {
		s = order[i]; k = (s == "bulk" || s == "slowzc") ? "gbps" : "p99_us"
		if (noise && paired(s, k) != "") printf "  %-7s %-7s paired: %s\n", s, k, paired(s, k)
	}
	if ("bulkrr" in seen)
		printf "  bulkrr: (c) p99 = %s of (a)'"'"'s, with (c) bulk = %s of (a)'"'"'s (target bulk >= 0.90)\n",
			ratio(m("bulkrr" SUBSEP "c" SUBSEP "p99_us"), m("bulkrr" SUBSEP "a" SUBSEP "p99_us")),
			ratio(m("bulkrr" SUBSEP "c" SUBSEP "gbps"), m("bulkrr" SUBSEP "a" SUBSEP "gbps"))
	if ("slowzc" in seen)
		printf "  slowzc: (c) = %s of copy mode; (a) = %s of copy mode\n",
			ratio(m("slowzc" SUBSEP "c" SUBSEP "gbps"), m(copyref("slowzc"))),
			ratio(m("slowzc" SUBSEP "a" SUBSEP "gbps"), m(copyref("slowzc")))
	targets()
	for (i = 1; i <= ns; i++) if (order[i] in ev) printf "  vqtuned knob events per run, %s:%s\n", order[i], ev[order[i]]
	for (i = 1; i <= ns; i++) if (order[i] in cpu) printf "  vqtuned CPU per run (share of one vCPU), %s:%s\n", order[i], cpu[order[i]]
	for (i = 1; i <= ns; i++) if (order[i] in tk) printf "  vqtuned ticks per run x mean tick wall/CPU ms (warm-up included), %s:%s\n", order[i], tk[order[i]]
	printf "guest time per scenario:%s; wall time incl. build and boot %ds\n", times, wall
	# every table cell must have a figure
	for (i = 1; i <= ns; i++) {
		s = order[i]; split(metrics_of(s), mk, " ")
		for (j in mk) for (c = 1; c <= 3; c++) {
			cf = substr("abc", c, 1); key = s SUBSEP cf SUBSEP mk[j]
			if (m(key) == "") { missing = missing " " s "/" cf "/" mk[j] }
		}
		if (s == "slowzc" && m(copyref(s)) == "") missing = missing " slowzc/copy/gbps"
	}
	if (errs != "") printf "runs without a figure:%s\n", errs
	if (missing != "") printf "cells without a number:%s\n", missing
	exit (errs != "" || missing != "") ? 1 : 0
}' "$3"
}

check=0 args=()
table=""
while [ $# -gt 0 ]; do
	a=$1
	shift
	case $a in
	--check)	check=1 ;;
	--table)	[ $# -gt 0 ] || refuse "--table needs a FILE of bench lines"
			table=$1
			shift ;;
	-h|--help)	usage; exit 0 ;;
	-*)		refuse "unknown option '$a' (options: --check --table -h --help)" ;;
	*)		args+=("$a") ;;
	esac
done
if [ -n "$table" ]; then
	[ ${#args[@]} = 0 ] && [ $check = 0 ] ||
		refuse "--table FILE takes no other argument or option"
	[ -f "$table" ] && [ -r "$table" ] || refuse "--table: cannot read '$table'"
	grep -q '^bench-cell:' "$table" || refuse "--table: no bench-cell line in '$table'"
	# a line the guest would not print is refused by number, not read as a figure of 0
	bad=$(awk '/^bench-cell:/ {
		ok = $2 ~ /^scen=[a-z]+$/ && $3 ~ /^cfg=[a-z0-9]+$/ && $4 ~ /^set=[^ =]+$/ &&
			$5 ~ /^run=[0-9]+$/
		for (i = 6; ok && i <= NF; i++)
			ok = $i ~ /^[a-z0-9_]+=[^ =]+$/ && ($i !~ /^([a-z0-9_]+_us|gbps)=/ ||
				$i ~ /=[0-9]+(\.[0-9]+)?$/)
		if (!ok) { print NR ": " $0; exit }
	}' "$table")
	[ -z "$bad" ] || refuse "--table: line ${bad%%: *} of '$table' is no bench-cell line the" \
		"guest prints (scen= cfg= set= run=, figures as plain numbers): '${bad#*: }'"
	tag=$(sed -n 's/^bench-tag: //p' "$table" | head -1)
	scen_table "${tag:-?}" 0 "$table"
	exit
fi
[ ${#args[@]} -le 1 ] || refuse "one KERNEL_TAG at most, not '${args[*]}'"
[ ${#args[@]} = 0 ] || [ -n "${args[0]}" ] || refuse "KERNEL_TAG must not be empty"
tag=${args[0]:-${VQ_BENCH_KERNEL:-7}}
one_of "$([ ${#args[@]} = 1 ] && echo KERNEL_TAG || echo VQ_BENCH_KERNEL)" "$tag" \
	"$(vm_known_tags)"
need_uint VQ_BENCH_S 1 $BENCH_S_MAX seconds
need_uint VQ_BENCH_RUNS 1 $BENCH_RUNS_MAX "runs per cell"
need_uint VQ_BENCH_SWEEP_RUNS 1 $BENCH_RUNS_MAX "runs per sweep setting"
need_uint VQ_BENCH_WARMUP_S 0 $BENCH_WARMUP_MAX_S seconds
need_uint VQ_BENCH_TICK_MS $BENCH_TICK_MIN_MS $BENCH_TICK_MAX_MS "ms, vqtuned --interval"
need_uint VQ_BENCH_MAX_TICK_MS "${VQ_BENCH_TICK_MS:-1000}" $BENCH_TICK_MAX_MS \
	"ms, vqtuned --max-interval, at least VQ_BENCH_TICK_MS"
need_uint VQ_BENCH_EVENTS 0 $BENCH_EVENTS_MAX "decisions per run"
need_uint VQ_BENCH_LINE_MBIT 0 $BENCH_LINE_MAX_MBIT "Mbit/s, 0: no line rate"
need_uint VQ_BENCH_NICE 0 $BENCH_NICE_MAX "a nice(1) value; a negative one would put vqtuned before the workload"
# one range with a hole (1..99): one message for every value outside it
if [ -n "${VQ_BENCH_SLICE_US:-}" ] &&
	! { [ "$VQ_BENCH_SLICE_US" = 0 ] || { [[ $VQ_BENCH_SLICE_US =~ ^[1-9][0-9]{0,5}$ ]] &&
	[ "$VQ_BENCH_SLICE_US" -ge $BENCH_SLICE_MIN_US ] &&
	[ "$VQ_BENCH_SLICE_US" -le $BENCH_SLICE_MAX_US ]; }; }; then
	refuse "VQ_BENCH_SLICE_US must be 0 (none) or $BENCH_SLICE_MIN_US..$BENCH_SLICE_MAX_US us" \
		"(vqtuned --sched-slice), not '$VQ_BENCH_SLICE_US'"
fi
need_uint VQ_VM_TIMEOUT $VM_TIMEOUT_MIN_S $VM_TIMEOUT_MAX_S seconds
need_words VQ_BENCH_SCENS "$(case_labels measure)"
need_words VQ_BENCH_GRID "$(case_labels apply_set)"
for v in VQ_BENCH_B_FRESH VQ_BENCH_NOISE VQ_BENCH_TRACE; do
	[ -n "${!v:-}" ] && one_of "$v" "${!v}" "0 1"
done
[ -n "${VQ_BENCH_OBSERVE:-}" ] && one_of VQ_BENCH_OBSERVE "$VQ_BENCH_OBSERVE" "0 1 b"
[ -n "${VQ_BENCH_QDISC:-}" ] && one_of VQ_BENCH_QDISC "$VQ_BENCH_QDISC" "pfifo_fast fq_codel"
[ -n "${VQ_BENCH_POLICY:-}" ] && one_of VQ_BENCH_POLICY "$VQ_BENCH_POLICY" \
	"$(cd policies && printf '%s\n' *.json | sed 's/\.json$//' | paste -sd' ')"
# both CPUs F and B among the guest's vCPUs (taskset -c in the guest)
pin=${VQ_BENCH_PIN:-none}
if [ "$pin" != none ]; then
	# no leading zero: taskset would take 01, this check and its refusal speak of 0..1
	if ! [[ $pin =~ ^(0|[1-9][0-9]{0,2}):(0|[1-9][0-9]{0,2})$ ]] ||
		[ "${BASH_REMATCH[1]}" -ge $VM_QEMU_SMP ] ||
		[ "${BASH_REMATCH[2]}" -ge $VM_QEMU_SMP ]; then
		refuse "VQ_BENCH_PIN must be F:B with CPUs F and B in 0..$((VM_QEMU_SMP - 1))" \
			"(the guest's vCPUs), or none, not '$pin'"
	fi
fi
[ $check = 1 ] && exit 0

words=""
for v in VQ_BENCH_S VQ_BENCH_RUNS VQ_BENCH_SWEEP_RUNS VQ_BENCH_WARMUP_S VQ_BENCH_TICK_MS VQ_BENCH_MAX_TICK_MS \
	 VQ_BENCH_SCENS \
	 VQ_BENCH_GRID VQ_BENCH_B_FRESH VQ_BENCH_EVENTS VQ_BENCH_NOISE VQ_BENCH_POLICY \
	 VQ_BENCH_PIN VQ_BENCH_TRACE VQ_BENCH_QDISC VQ_BENCH_LINE_MBIT VQ_BENCH_NICE \
	 VQ_BENCH_OBSERVE VQ_BENCH_SLICE_US; do
	val=${!v:-}
	[ -n "$val" ] || continue
	# a kernel command-line word has no spaces: lists travel comma-separated
	words+=" $v=${val// /,}"
done
log=$(mktemp "${TMPDIR:-/tmp}/vqscen.XXXXXX") || exit 1
trap 'rm -f "$log"' EXIT

t0=$(date +%s)
# the default time limit grows with the runs: 5 runs of the full grid outran 5400 s here
# (rr, bulk and bulkrr took 71 min of guest time), 3 runs took 56 min, so 1500 s per run
# and never under 5400 s
runs=${VQ_BENCH_RUNS:-3}
to=$((runs * 1500 > 5400 ? runs * 1500 : 5400))
[ $to -gt $VM_TIMEOUT_MAX_S ] && to=$VM_TIMEOUT_MAX_S
VQ_BENCH_MODE=bench-scen VQ_VM_APPEND="${words# }" VQ_VM_TIMEOUT=${VQ_VM_TIMEOUT:-$to} \
	tests/vm/run.sh --bench "$tag" > "$log" 2>&1
rc=$?
t1=$(date +%s)
# run.sh prefixes guest lines with "[tag]   | "
sed -n 's/^\[[^]]*\] *| *\(bench-[a-z]*:.*\)/\1/p' "$log" > "$log.cells"
trap 'rm -f "$log" "$log.cells"' EXIT
grep '^bench-note:' "$log.cells"
# VQ_BENCH_TRACE=1: every traced run's queue state, median/max
grep '^bench-cell:.* bql_limit_b=' "$log.cells" | sed 's/^bench-cell: /bench-trace: /'
grep -q '^bench-cell:' "$log.cells" || {
	tail -30 "$log"
	echo "FAIL: no bench-cell line from the guest (console: ${VQ_CACHE:-.cache}/vm/$tag/console.log)"
	exit 1
}

# kept for --table: a table the awk below fails on loses no bench
cells=$CELLS_DIR/scen-$tag-$(date +%Y%m%dT%H%M%S).cells
mkdir -p "$CELLS_DIR" && { echo "bench-tag: $tag"; cat "$log.cells"; } > "$cells" &&
	echo "bench lines kept in $cells: tests/bench/vm_scenarios.sh --table FILE prints the table again"
scen_table "$tag" $((t1 - t0)) "$log.cells"
st=$?
if [ $rc != 0 ]; then
	grep -E 'VQTEST|did not finish|dmesg' "$log" | tail -5
	echo "tests/vm/run.sh exit status $rc (console: ${VQ_CACHE:-.cache}/vm/$tag/console.log)"
fi
[ $st = 0 ] && [ $rc = 0 ]
