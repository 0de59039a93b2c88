#!/bin/bash
# The VM tier: for each test kernel, build vqpair.ko against it, build an initramfs, boot
# it under QEMU (TCG), run the guest tests and collect results and dmesg.
#
#   tests/vm/run.sh [--bench] [KERNEL_TAG...]     default tags: $VQ_KERNELS or "6.1"
# Env: VQ_TESTS=t_a,t_b (subset), VQ_CACHE (default .cache), VQ_VM_TIMEOUT (s, default 600).
# Logs: .cache/vm/<tag>/console.log (full console), dmesg.log. Prints
# "vm: N passed, N failed" last; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/../.."
top=$PWD
cache=${VQ_CACHE:-$top/.cache}
bench=0
[ "${1:-}" = --bench ] && { bench=1; shift; }
tags=${*:-${VQ_KERNELS:-6.1}}
# TCG: 2 vCPUs on a 2-core host (MTTCG), 1 GiB for iperf3 buffers and rings
QEMU_SMP=2
QEMU_MEM_MB=1024
timeout_s=${VQ_VM_TIMEOUT:-600}
passed=0 failed=0

mkdir -p "$cache/vm"
# one VM run at a time: runs share build dirs, initramfs and logs under $cache/vm
exec 9> "$cache/vm/.lock"
flock 9
cc -std=gnu11 -Wall -Wextra -Werror -O2 -o "$cache/vm/vqpairctl" tests/vm/vqpairctl.c -lmnl ||
	{ echo "vm: 0 passed, 1 failed"; exit 1; }

for tag in $tags; do
	t0=$(date +%s)
	scripts/kernels.sh fetch "$tag" || { failed=$((failed + 1)); continue; }
	# shellcheck disable=SC1090
	. "$cache/kernels/$tag/env"
	out=$cache/vm/$tag
	mkdir -p "$out"
	if ! kmod/build.sh "$tag" "$out/build" > "$out/build.log" 2>&1; then
		cat "$out/build.log"
		echo "vm[$tag]: module build failed"
		failed=$((failed + 1))
		continue
	fi
	tests/vm/mkinitramfs.sh "$MODDIR" "$out/build/vqpair.ko" "$cache/vm/vqpairctl" \
		"$out/initrd.gz" || { failed=$((failed + 1)); continue; }
	append="console=ttyS0 panic=-1 oops=panic quiet"
	[ -n "${VQ_TESTS:-}" ] && append+=" vqtests=$VQ_TESTS"
	[ $bench = 1 ] && append+=" vqmode=bench"
	t1=$(date +%s)
	# A crash before /init runs is TCG's, not the module's (7.x guests sometimes die on
	# an int3 while the kernel patches its own text at clocksource switch): boot again
	# once, and keep the first console for the record.
	for attempt in 1 2; do
		timeout "$timeout_s" qemu-system-x86_64 -accel tcg -smp $QEMU_SMP \
			-m $QEMU_MEM_MB -nographic -no-reboot -kernel "$VMLINUZ" \
			-initrd "$out/initrd.gz" -append "$append" -nic none \
			> "$out/console.log" 2>&1 < /dev/null
		grep -q VQ-BEGIN "$out/console.log" && break
		mv "$out/console.log" "$out/console.boot$attempt.log"
		echo "[$tag] guest died before /init (attempt $attempt), see console.boot$attempt.log"
	done
	t2=$(date +%s)
	sed -n '/VQ-DMESG-BEGIN/,/VQ-DMESG-END/p' "$out/console.log" > "$out/dmesg.log"
	# console escapes (SeaBIOS, the kernel's tty reset) stripped for the summary
	grep -E '^ *\| |^VQTEST|VQ-BEGIN' "$out/console.log" | tr -d '\r' |
		sed -e 's/\x1b\[[0-9;?]*[a-zA-Z]//g' -e 's/\x1bc//g' -e "s/^/[$tag] /" |
		if [ $bench = 1 ]; then grep -E 'bench|VQTEST'; else grep -E 'VQTEST|FAIL|SKIP|VQ-BEGIN'; fi
	p=$(grep -c '^VQTEST .* PASS' "$out/console.log")
	f=$(grep -c '^VQTEST .* FAIL' "$out/console.log")
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
