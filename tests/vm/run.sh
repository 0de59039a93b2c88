#!/bin/bash
# The VM tier: for each test kernel, build vqpair.ko against it, build an initramfs, boot
# it under QEMU (TCG), run the guest tests and collect results and dmesg.
#
#   tests/vm/run.sh [--bench] [--check] [KERNEL_TAG...]   default tags: $VQ_KERNELS or "6.1"
# KERNEL_TAG: one that scripts/kernels.sh fetches (-h lists them). --check: validate the arguments
# and the environment below, then exit 0 without locking, building or booting anything.
# Env: VQ_TESTS=t_a,t_b (subset, names of tests/vm/guest/t_*.sh), VQ_CACHE (default .cache),
# VQ_VM_TIMEOUT (whole s, 30..86400, default 600), VQ_QEMU_NICS (default none; "hubpair"
# gives the guest a virtio_net pair, see vmlib.sh), VQ_BENCH_MODE (the guest bench of
# --bench: bench = bench.sh, bench-scen = bench_scen.sh, bench-rrpair = bench_rrpair.sh),
# VQ_VM_APPEND (more kernel command-line words; NAME=VALUE ones reach the guest's /init env).
# A bad option, tag or setting is refused by name before anything is locked, built or
# booted: one "vm: ..." line and the usage on stderr, exit 2.
# Logs: .cache/vm/<tag>/console.log (full console), dmesg.log. Prints
# "vm: N passed, N failed, N skipped" last (each skip is named on its kernel's line), and
# after it "(failed: [TAG] TEST ...)" naming every failure; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/vm/vmlib.sh
. tests/vm/vmlib.sh
# VQ_VM_TIMEOUT: a TCG boot alone takes ~30 s, a day is more than any run here needs, and 0
# would be timeout(1)'s "no limit"
VM_TIMEOUT_MIN_S=30
VM_TIMEOUT_MAX_S=86400
KNOWN_TAGS=$(vm_known_tags)
GUEST_TESTS=$(cd tests/vm/guest && printf '%s\n' t_*.sh | sed 's/\.sh$//' | paste -sd' ')
# /init runs vqmode=M as /tests/M.sh with - turned into _
BENCH_MODES=$(cd tests/vm/guest && printf '%s\n' bench*.sh | sed -e 's/\.sh$//' -e 's/_/-/g' |
	paste -sd' ')

usage() {
	echo "usage: tests/vm/run.sh [--bench] [--check] [KERNEL_TAG...];" \
		"options: --bench --check -h --help; kernel tags: $KNOWN_TAGS"
}
# refuse WHY: a usage error, exit 2
refuse() {
	{ echo "vm: $*"; usage; } >&2
	exit 2
}
# one_of NAME VALUE LIST, need_uint NAME VALUE MIN MAX UNIT: refuse unless vmlib.sh's
# vm_word_ok / vm_uint_ok accept
one_of() { local why; why=$(vm_word_ok "$@") || refuse "$why"; }
need_uint() { local why; why=$(vm_uint_ok "$@") || refuse "$why"; }

bench=0 check=0 tags=()
for a in "$@"; do
	case $a in
	--bench)	bench=1 ;;
	--check)	check=1 ;;
	-h|--help)	usage; exit 0 ;;
	-*)		refuse "unknown option '$a'" ;;
	*)		tags+=("$a") ;;
	esac
done
[ -n "$KNOWN_TAGS" ] || { echo "vm: no kernel tag found in scripts/kernels.sh" >&2; exit 1; }
src=KERNEL_TAG
if [ ${#tags[@]} -eq 0 ]; then
	src=VQ_KERNELS
	read -ra tags <<< "${VQ_KERNELS:-6.1}"
	[ ${#tags[@]} -gt 0 ] ||
		refuse "VQ_KERNELS must name kernel tags of $KNOWN_TAGS, not '$VQ_KERNELS'"
fi
seen=" "
for a in "${tags[@]}"; do
	one_of "$src" "$a" "$KNOWN_TAGS"
	# one boot per tag: a repeated one would rebuild and overwrite the same .cache/vm/TAG
	case $seen in *" $a "*) refuse "$src names kernel tag '$a' twice" ;; esac
	seen+="$a "
done
timeout_s=${VQ_VM_TIMEOUT:-600}
need_uint VQ_VM_TIMEOUT "$timeout_s" $VM_TIMEOUT_MIN_S $VM_TIMEOUT_MAX_S seconds
if [ -n "${VQ_TESTS:-}" ]; then
	# the extra comma keeps a trailing empty name ("t_a,") in the list, to be refused
	IFS=, read -ra want <<< "$VQ_TESTS,"
	seen=" "
	for a in "${want[@]}"; do
		one_of VQ_TESTS "$a" "$GUEST_TESTS"
		case $seen in *" $a "*) refuse "VQ_TESTS names test '$a' twice" ;; esac
		seen+="$a "
	done
fi
[ -n "${VQ_BENCH_MODE:-}" ] && one_of VQ_BENCH_MODE "$VQ_BENCH_MODE" "$BENCH_MODES"
why=$(vm_nic_argv "${VQ_QEMU_NICS:-none}" 2>&1) ||
	refuse "VQ_QEMU_NICS must be words of none, hubpair, user:HOSTPORT:GUESTPORT, each" \
		"once, not '$VQ_QEMU_NICS': ${why#vm: }"
[ $check = 1 ] && exit 0
passed=0 failed=0 skipped=0
failures=""	# "[tag] test" of every failure, repeated on the last line

# boot_guest APPEND: one guest run into $out/console.log. A crash before /init runs is
# TCG's, not the module's (7.x guests sometimes die on an int3 while the kernel patches its
# own text at clocksource switch): boot again once, and keep the first console for the record.
boot_guest() {
	local attempt
	vm_qemu_argv "$VM_INITRD" "$1" "${VQ_QEMU_NICS:-none}" ||
		{ echo "vm: 0 passed, 1 failed, 0 skipped"; exit 1; }
	for attempt in 1 2; do
		timeout "$timeout_s" "${VM_QEMU[@]}" > "$out/console.log" 2>&1 < /dev/null
		grep -q VQ-BEGIN "$out/console.log" && return 0
		mv "$out/console.log" "$out/console.boot$attempt.log"
		echo "[$tag] guest died before /init (attempt $attempt), see console.boot$attempt.log"
	done
	return 1
}

# summarize CONSOLE: its dmesg to $out/dmesg.log, its results as "[tag] ..." lines
summarize() {
	sed -n '/VQ-DMESG-BEGIN/,/VQ-DMESG-END/p' "$1" > "$out/dmesg.log"
	# console escapes (SeaBIOS, the kernel's tty reset) stripped for the summary
	grep -E '^ *\| |^VQTEST|VQ-BEGIN' "$1" | tr -d '\r' |
		sed -e 's/\x1b\[[0-9;?]*[a-zA-Z]//g' -e 's/\x1bc//g' -e "s/^/[$tag] /" |
		if [ $bench = 1 ]; then grep -E 'bench|VQTEST'; else grep -E 'VQTEST|FAIL|SKIP|VQ-BEGIN'; fi
}

# results: the VQTEST lines of this kernel's guest, both consoles after a rerun (whose own
# "load" line is not counted twice)
results() {
	if [ -e "$out/console.int3.log" ]; then
		grep '^VQTEST' "$out/console.int3.log"
		grep '^VQTEST' "$out/console.log" | grep -v '^VQTEST load '
	else
		grep '^VQTEST' "$out/console.log"
	fi
}

vm_lock
vm_build_ctl || { echo "vm: 0 passed, 1 failed, 0 skipped"; exit 1; }

for tag in "${tags[@]}"; do
	t0=$(date +%s)
	vm_prepare "$tag" || { failed=$((failed + 1)) failures+=" [$tag] prepare"; continue; }
	out=$VM_OUT
	append="console=ttyS0 panic=-1 oops=panic quiet"
	[ -n "${VQ_TESTS:-}" ] && append+=" vqtests=$VQ_TESTS"
	[ $bench = 1 ] && append+=" vqmode=${VQ_BENCH_MODE:-bench}"
	[ -n "${VQ_VM_APPEND:-}" ] && append+=" $VQ_VM_APPEND"
	t1=$(date +%s)
	rm -f "$out/console.int3.log"
	boot_guest "$append" || { failed=$((failed + 1)) failures+=" [$tag] boot"; continue; }
	# TCG's int3 oops (vm_tcg_int3_oops) is not the module's: the tests not yet reported,
	# the interrupted one first, run once more in a fresh guest. Both consoles are kept and
	# both summaries printed; the interrupted test counts once. With none left (the oops
	# came after the last test), there is nothing to rerun.
	rest=""
	if [ $bench = 0 ] && ! grep -q '^VQ-END' "$out/console.log" &&
		vm_tcg_int3_oops "$out/console.log"; then
		all=${VQ_TESTS:-${GUEST_TESTS// /,}}
		rest=$(echo "$all" | tr , '\n' | while read -r t; do
			grep -q "^VQTEST $t " "$out/console.log" || echo "$t"; done | paste -sd,)
	fi
	if [ -n "$rest" ]; then
		summarize "$out/console.log"
		mv "$out/console.log" "$out/console.int3.log"
		echo "[$tag] guest hit TCG's int3 text-patch oops (console.int3.log); rerunning $rest"
		boot_guest "${append/ vqtests=${VQ_TESTS:-}/} vqtests=$rest" ||
			{ failed=$((failed + 1)) failures+=" [$tag] reboot"; continue; }
	fi
	t2=$(date +%s)
	summarize "$out/console.log"
	read -r p f k < <(results |
		awk '/ PASS/ { p++ } / FAIL/ { f++ } / SKIP/ { k++ }
			END { print p + 0, f + 0, k + 0 }')
	if ! grep -q '^VQ-END' "$out/console.log"; then
		echo "[$tag] guest did not finish (timeout ${timeout_s}s or panic); tail of console:"
		tail -30 "$out/console.log"
		f=$((f + 1)) failures+=" [$tag] unfinished"
	fi
	failures+=$(results | awk -v t="$tag" '/ FAIL/ { printf " [%s] %s", t, $2 }')
	sk=$(results | awk '/ SKIP/ { printf " %s", $2 }')
	echo "[$tag] $p passed, $f failed, $k skipped${sk:+ (}${sk# }${sk:+)};" \
		"fetch+build $((t1 - t0))s, boot+tests $((t2 - t1))s"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + k))
done
echo "vm: $passed passed, $failed failed, $skipped skipped${failures:+ (failed:}$failures${failures:+)}"
[ $failed -eq 0 ]
