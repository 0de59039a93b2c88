# shellcheck shell=bash
# Shared by the VM tier (tests/vm/run.sh) and the lab (scripts/lab_vm.sh); sourced by bash
# from the top of the repository. One VM at a time per checkout (per VQ_CACHE): runs share
# build dirs, initramfs and logs under $VQ_CACHE/vm, so every user takes vm_lock first.
#
#   vm_lock                 flock $VQ_CACHE/vm/.lock on fd 9 (held until the shell exits)
#   vm_build_ctl            the guest's genl test client -> $VM_CACHE/vqpairctl
#   vm_prepare TAG          fetch kernel TAG, build vqpair.ko for it, build the initramfs;
#                           sets VM_OUT (.cache/vm/TAG), VM_INITRD, and VMLINUZ, MODDIR, KREL
#                           from the kernel's env. Build log: $VM_OUT/build.log
#   vm_qemu_argv INITRD APPEND [NICS]
#                           fills the array VM_QEMU with the QEMU command line
#   vm_known_tags           the kernel tags scripts/kernels.sh fetches, space-separated
#   vm_tcg_int3_oops CONSOLE
#                           0 when that console log shows TCG's text-patch "Oops: int3"
#
# NICS (also VQ_QEMU_NICS for tests/vm/run.sh) is a space-separated list of:
#   none           no NIC (the default)
#   hubpair        two virtio-net-pci NICs joined on a QEMU hub: a real virtio_net pair,
#                  MACs $VM_MAC_HUB_A and $VM_MAC_HUB_B (the guest finds them by MAC);
#                  A with split virtqueues (QEMU's default), B with packed ones (packed=on),
#                  so both ring layouts are driven
#   user:HP:GP     a virtio-net-pci NIC on QEMU user networking (MAC $VM_MAC_USER, guest
#                  address 10.0.2.15/24), host 127.0.0.1:HP forwarded to guest TCP port GP
# The guest's /init loads virtio_net (and what it needs) when QEMU gave it a virtio NIC.

VM_TOP=$(pwd)
VM_CACHE=${VQ_CACHE:-$VM_TOP/.cache}
# TCG: 2 vCPUs on a 2-core host (MTTCG), 1 GiB for iperf3 buffers and rings
VM_QEMU_SMP=2
VM_QEMU_MEM_MB=1024
VM_MAC_HUB_A=52:54:00:76:00:01
VM_MAC_HUB_B=52:54:00:76:00:02
VM_MAC_USER=52:54:00:76:00:10

vm_lock() {
	mkdir -p "$VM_CACHE/vm"
	exec 9> "$VM_CACHE/vm/.lock"
	flock -n 9 && return 0
	echo "vm: waiting for the VM lock (another VM run holds $VM_CACHE/vm/.lock)"
	flock 9
}

vm_build_ctl() {
	cc -std=gnu11 -Wall -Wextra -Werror -O2 -o "$VM_CACHE/vm/vqpairctl" \
		tests/vm/vqpairctl.c -lmnl
}

vm_prepare() {
	local tag=$1
	scripts/kernels.sh fetch "$tag" || return 1
	# shellcheck disable=SC1090
	. "$VM_CACHE/kernels/$tag/env"
	VM_OUT=$VM_CACHE/vm/$tag
	VM_INITRD=$VM_OUT/initrd.gz
	mkdir -p "$VM_OUT"
	if ! kmod/build.sh "$tag" "$VM_OUT/build" > "$VM_OUT/build.log" 2>&1; then
		cat "$VM_OUT/build.log"
		echo "vm[$tag]: module build failed"
		return 1
	fi
	tests/vm/mkinitramfs.sh "$MODDIR" "$VM_OUT/build/vqpair.ko" "$VM_CACHE/vm/vqpairctl" \
		"$VM_INITRD"
}

# vm_nic_argv NICS: VM_NIC_ARGV for the NIC list NICS (see the head of this file); 2, with
# the reason on stderr, for an unknown word, a port outside 1..65535 or a NIC named twice
# (QEMU would refuse the second netdev id at boot)
vm_nic_argv() {
	local w hp gp seen=" "
	VM_NIC_ARGV=(-nic none)
	for w in ${1:-none}; do
		case $seen in
		*" ${w%%:*} "*) echo "vm: NIC '${w%%:*}' given twice in '$1'" >&2
			return 2 ;;
		esac
		[ "$w" = none ] || seen+="${w%%:*} "
		case $w in
		none)	;;
		hubpair)
			VM_NIC_ARGV+=(-netdev hubport,id=vqh0,hubid=1
				-device "virtio-net-pci,netdev=vqh0,mac=$VM_MAC_HUB_A"
				-netdev hubport,id=vqh1,hubid=1
				-device "virtio-net-pci,netdev=vqh1,mac=$VM_MAC_HUB_B,packed=on") ;;
		user:*:*)
			hp=${w#user:}
			gp=${hp#*:}
			hp=${hp%%:*}
			vm_uint_ok "host port of '$w'" "$hp" 1 65535 "a TCP port" >&2 &&
				vm_uint_ok "guest port of '$w'" "$gp" 1 65535 "a TCP port" >&2 ||
				return 2
			VM_NIC_ARGV+=(-netdev "user,id=vqu0,hostfwd=tcp:127.0.0.1:$hp-:$gp"
				-device "virtio-net-pci,netdev=vqu0,mac=$VM_MAC_USER") ;;
		*)	echo "vm: unknown NIC spec '$w' (none, hubpair, user:HOSTPORT:GUESTPORT)" >&2
			return 2 ;;
		esac
	done
}

# tsc=reliable (Documentation/admin-guide/kernel-parameters.txt: "disables clocksource
# verification at runtime ... Used ... in virtualized environment"): under TCG the clocksource
# watchdog sees TSC skew whenever a vCPU spins (busyloop tests), marks TSC unstable, and the
# sched_clock static-key flip that follows patches kernel text while the other vCPU runs it;
# MTTCG can then execute the patch's stale int3 after the patch ended ("Oops: int3" in
# sched_clock_cpu). Without the runtime switch that flip never happens.
vm_qemu_argv() {
	vm_nic_argv "${3:-none}" || return 2
	VM_QEMU=(qemu-system-x86_64 -accel tcg -smp $VM_QEMU_SMP -m $VM_QEMU_MEM_MB
		-nographic -no-reboot -kernel "$VMLINUZ" -initrd "$1" -append "$2 tsc=reliable"
		"${VM_NIC_ARGV[@]}")
}

# vm_word_ok NAME VALUE LIST: 0 when VALUE is one (non-empty) word of LIST; else prints the
# refusal "NAME must be one of LIST, not 'VALUE'" and returns 1 (callers: why=$(...) || refuse)
vm_word_ok() {
	# one word: "6.1 6.12" would match the list's own run of words
	case $2 in
	*[[:space:]]*) echo "$1 must be one of $3 (one word), not '$2'"
		return 1 ;;
	esac
	case " $3 " in
	*" $2 "*) [ -n "$2" ] && return 0 ;;
	esac
	echo "$1 must be one of $3, not '$2'"
	return 1
}

# vm_uint_ok NAME VALUE MIN MAX UNIT: 0 when VALUE is a whole number in MIN..MAX written
# without a leading zero (a guest's $((...)) reads 010 as octal); else prints the refusal
# naming NAME and returns 1
vm_uint_ok() {
	case $2 in
	''|*[!0-9]*) ;;
	0?*) echo "$1 must be a whole number in $3..$4 ($5) without a leading zero, not '$2'"
		return 1 ;;
	*) [ ${#2} -le 9 ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] && return 0 ;;
	esac
	echo "$1 must be a whole number in $3..$4 ($5), not '$2'"
	return 1
}

# vm_known_tags: the labels of scripts/kernels.sh's fetch case, the only tags it can fetch,
# so that a caller refuses an unknown tag before it locks, builds or boots anything
vm_known_tags() {
	sed -n '/^fetch() {/,/^}/s/^\t\([0-9][0-9.]*\))\t.*/\1/p' "$VM_TOP/scripts/kernels.sh" |
		paste -sd' '
}

# vm_tcg_int3_oops CONSOLE: 0 when the guest's console log shows "Oops: int3". That oops is
# TCG's, never the module's: BUG() is ud2, and an int3 at a text-patch site means a vCPU ran
# the stale breakpoint of the kernel's own text patching after the patch ended (MTTCG; see
# vm_qemu_argv for the one trigger tsc=reliable removes). Callers boot again rather than
# count it as a failure. -a: a console log holds escapes and, after a crash, NUL bytes.
vm_tcg_int3_oops() {
	grep -aq 'Oops: int3' "$1"
}
