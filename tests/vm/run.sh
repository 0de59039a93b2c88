#!/bin/bash
# The VM tier: for each test kernel, build vqpair.ko against it, build an initramfs, boot
# it under QEMU (TCG), run the guest tests and collect results and dmesg.
#
#   tests/vm/run.sh [--bench] [KERNEL_TAG...]     default tags: $VQ_KERNELS or "6.1"
# Env: VQ_TESTS=t_a,t_b (subset), VQ_CACHE (default .cache), VQ_VM_TIMEOUT (s, default 600),
# VQ_QEMU_NICS (default none; "hubpair" gives the guest a virtio_net pair, see vmlib.sh),
# VQ_BENCH_MODE (the guest bench of --bench: bench = bench.sh, bench-scen = bench_scen.sh),
# VQ_VM_APPEND (more kernel command-line words; NAME=VALUE ones reach the guest's /init env).
# Logs: .cache/vm/<tag>/console.log (full console), dmesg.log. Prints
# "vm: N passed, N failed" last; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/../.."
# shellcheck source=tests/vm/vmlib.sh
. tests/vm/vmlib.sh
bench=0
[ "${1:-}" = --bench ] && { bench=1; shift; }
tags=${*:-${VQ_KERNELS:-6.1}}
timeout_s=${VQ_VM_TIMEOUT:-600}
passed=0 failed=0

# boot_guest APPEND: one guest run into $out/console.log. A crash before /init runs is
# TCG's, not the module's (7.x guests sometimes die on an int3 while the kernel patches its
# own text at clocksource switch): boot again once, and keep the first console for the record.
boot_guest() {
	local attempt
	vm_qemu_argv "$VM_INITRD" "$1" "${VQ_QEMU_NICS:-none}" ||
		{ echo "vm: 0 passed, 1 failed"; exit 1; }
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
vm_build_ctl || { echo "vm: 0 passed, 1 failed"; exit 1; }

for tag in $tags; do
	t0=$(date +%s)
	vm_prepare "$tag" || { failed=$((failed + 1)); continue; }
	out=$VM_OUT
	append="console=ttyS0 panic=-1 oops=panic quiet"
	[ -n "${VQ_TESTS:-}" ] && append+=" vqtests=$VQ_TESTS"
	[ $bench = 1 ] && append+=" vqmode=${VQ_BENCH_MODE:-bench}"
	[ -n "${VQ_VM_APPEND:-}" ] && append+=" $VQ_VM_APPEND"
	t1=$(date +%s)
	rm -f "$out/console.int3.log"
	boot_guest "$append" || { failed=$((failed + 1)); continue; }
	# TCG's int3 oops (vm_tcg_int3_oops) is not the module's: the tests not yet reported,
	# the interrupted one first, run once more in a fresh guest. Both consoles are kept and
	# both summaries printed; the interrupted test counts once. With none left (the oops
	# came after the last test), there is nothing to rerun.
	rest=""
	if [ $bench = 0 ] && ! grep -q '^VQ-END' "$out/console.log" &&
		vm_tcg_int3_oops "$out/console.log"; then
		all=${VQ_TESTS:-$(cd tests/vm/guest && ls t_*.sh | sed 's/\.sh$//' | paste -sd,)}
		rest=$(echo "$all" | tr , '\n' | while read -r t; do
			grep -q "^VQTEST $t " "$out/console.log" || echo "$t"; done | paste -sd,)
	fi
	if [ -n "$rest" ]; then
		summarize "$out/console.log"
		mv "$out/console.log" "$out/console.int3.log"
		echo "[$tag] guest hit TCG's int3 text-patch oops (console.int3.log); rerunning $rest"
		boot_guest "${append/ vqtests=${VQ_TESTS:-}/} vqtests=$rest" ||
			{ failed=$((failed + 1)); continue; }
	fi
	t2=$(date +%s)
	summarize "$out/console.log"
	read -r p f < <(results | awk '/ PASS/ { p++ } / FAIL/ { f++ } END { print p + 0, f + 0 }')
	if ! grep -q '^VQ-END' "$out/console.log"; then
		echo "[$tag] guest did not finish (timeout ${timeout_s}s or panic); tail of console:"
		tail -30 "$out/console.log"
		f=$((f + 1))
	fi
	echo "[$tag] $p passed, $f failed; fetch+build $((t1 - t0))s, boot+tests $((t2 - t1))s"
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "vm: $passed passed, $failed failed"
[ $failed -eq 0 ]
