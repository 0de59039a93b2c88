#!/bin/bash
# Builds the initramfs for one test kernel: busybox, vqpair.ko (built for that kernel),
# veth.ko from the kernel package (bench baseline), iproute2, ethtool, iperf3, sockperf,
# setpriv, the test client, vqtuned/vqtunectl when built, their libraries (ldd), the shipped
# policies (/policies), the guest test scripts, the lab's host entry point (/scripts) and
# /init; and the kernel's own modules named in VQ_INITRD_KMODS (default: the virtio_net NIC
# driver) with their dependencies.
#
#   tests/vm/mkinitramfs.sh MODDIR KO VQPAIRCTL OUT.cpio.gz
# MODDIR is the kernel's lib/modules/<release> directory.
set -eu
moddir=$1 ko=$2 ctl=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/vqinitrd.XXXXXX")
chmod 755 "$root"	# mktemp makes it 0700: the guest's / must be searchable by non-root
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,var/run,lib/vqpair,tests,root}
mknod -m 600 "$root/dev/console" c 5 1
mknod -m 666 "$root/dev/null" c 1 3
cp /bin/busybox "$root/bin/busybox"
for a in $("$root/bin/busybox" --list); do
	[ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
done

# dynamically linked tools and their libraries; iproute2 under /sbin so busybox's ip
# applet does not shadow it (tests call /sbin/ip)
copy_bin() {
	local src=$1 dst=$2 lib
	rm -f "$root$dst"	# may be a busybox applet link: never write through it
	cp "$src" "$root$dst"
	for lib in $(ldd "$src" | awk '/=>/ {print $3} /^\t\/lib/ {print $1}'); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
copy_bin "$(command -v ip)" /sbin/ip
copy_bin "$(command -v ethtool)" /sbin/ethtool
copy_bin "$(command -v iperf3)" /bin/iperf3.real
copy_bin "$(command -v sockperf)" /bin/sockperf
copy_bin "$(command -v setpriv)" /bin/setpriv
# coreutils nice: busybox has no nice applet (the bench's VQ_BENCH_NICE)
copy_bin "$(command -v nice)" /bin/nice
copy_bin "$ctl" /bin/vqpairctl
for b in vqtuned vqtunectl tests/tools/vqprobe tests/tools/vqslice; do
	[ -x "$top/build/$b" ] && copy_bin "$top/build/$b" "/bin/${b##*/}"
done
# the iproute2 plugin for `ip link add ... type vqpair peer name X` (tests set IP_LIB_DIR)
if [ -f "$top/build/ip/link_vqpair.so" ]; then
	mkdir -p "$root/lib/ip"
	cp "$top/build/ip/link_vqpair.so" "$root/lib/ip/"
fi
# busybox has iperf3-less applets only; keep the real binary name for scripts
ln -sf iperf3.real "$root/bin/iperf3"
# ld.so
for l in /lib64/ld-linux-x86-64.so.2; do
	mkdir -p "$root$(dirname $l)"
	cp -L "$l" "$root$l"
done

cp "$ko" "$root/lib/vqpair/vqpair.ko"
veth=$(find "$moddir/kernel/drivers/net" -name 'veth.ko*' | head -1)
case $veth in
*.xz)	xz -dc "$veth" > "$root/lib/vqpair/veth.ko" ;;
*.zst)	zstd -qdc "$veth" > "$root/lib/vqpair/veth.ko" ;;
?*)	cp "$veth" "$root/lib/vqpair/veth.ko" ;;
esac

# Kernel modules for QEMU's NICs, uncompressed, in /lib/kmods with /lib/kmods/order (one
# name a line, dependencies first) for the guest's insmod loop. A name with no .ko file is
# built into that kernel (virtio_pci in 6.12+) and left out. Dependencies come from each
# file's modinfo: the unpacked kernel has no modules.dep.
kmod_file() { find "$moddir/kernel" -name "$1.ko" -o -name "$1.ko.xz" -o -name "$1.ko.zst" | head -1; }
kmod_add() {
	local name=$1 f d
	grep -qx "$name" "$root/lib/kmods/order" && return 0
	f=$(kmod_file "$name")
	[ -n "$f" ] || return 0
	for d in $(modinfo -F depends "$f" | tr , ' '); do
		kmod_add "$d"
	done
	case $f in
	*.xz)	xz -dc "$f" > "$root/lib/kmods/$name.ko" ;;
	*.zst)	zstd -qdc "$f" > "$root/lib/kmods/$name.ko" ;;
	*)	cp "$f" "$root/lib/kmods/$name.ko" ;;
	esac
	echo "$name" >> "$root/lib/kmods/order"
}
mkdir -p "$root/lib/kmods"
: > "$root/lib/kmods/order"
for m in ${VQ_INITRD_KMODS-virtio_pci virtio_net}; do
	kmod_add "$m"
done

mkdir -p "$root/policies"
cp "$top"/policies/*.json "$root/policies/"
cp "$here"/guest/*.sh "$root/tests/"
# the lab's host entry point and its report, for t_lab_netns (the guest is such a host); in
# the guest they find the lab's body, lib.sh and policies at /tests and /policies
mkdir -p "$root/scripts"
cp "$top/scripts/lab_netns.sh" "$top/scripts/lab_report.sh" "$top/scripts/lab_common.sh" "$root/scripts/"
cp "$here/guest/init" "$root/init"
chmod +x "$root/init" "$root"/tests/*.sh "$root"/scripts/*.sh
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/false" >> "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"
echo "127.0.0.1 localhost" > "$root/etc/hosts"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
