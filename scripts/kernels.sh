#!/bin/bash
# Fetches the Debian test kernels for the vqpair VM tier into .cache/kernels/<tag>/ without
# touching the machine's own apt setup: a private apt directory per kernel (own sources list,
# own package lists, empty dpkg status), packages unpacked with dpkg-deb -x.
#
# The mirror is read at run time from the machine's own apt sources (deb822 *.sources or
# sources.list); no registry host is written here.
#
#   scripts/kernels.sh fetch TAG    TAG: 6.1 (bookworm), 6.12 (bookworm-backports),
#                                   7 (trixie-backports)
#   scripts/kernels.sh info TAG     print KREL=, VMLINUZ=, KDIR=, MODDIR= for a fetched kernel
#
# Result: .cache/kernels/TAG/root (unpacked image, modules, headers, kbuild), .cache/kernels/TAG/
# env (the info lines). Re-running with everything present does nothing.
set -eu
cd "$(dirname "$0")/.."
CACHE=${VQ_CACHE:-$PWD/.cache}

die() { echo "kernels: $*" >&2; exit 1; }

# First URI of the machine's apt sources that serves the main archive (not -security).
mirror_main() {
	local f uri
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		uri=$(awk '/^URIs:/ {u=$2} /^Suites:/ && u != "" && $0 !~ /security/ {print u; exit}' "$f")
		[ -n "$uri" ] && { echo "$uri"; return; }
	done
	awk '$1 == "deb" && $3 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -1
}

mirror_security() {
	local f uri
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		uri=$(awk '/^URIs:/ {u=$2} /^Suites:/ && $0 ~ /security/ {print u; exit}' "$f")
		[ -n "$uri" ] && { echo "$uri"; return; }
	done
	awk '$1 == "deb" && $0 ~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -1
}

# apt with a private state: APTDIR holds sources.list, lists/, cache/, status.
# (APT::Sandbox::User=root: the private dirs are root's; the default user _apt could not
# write them and apt would warn "Download is performed unsandboxed as root")
papt() {
	local cmd=$1
	shift
	"$cmd" -q -o Dir::Etc::SourceList="$APTDIR/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$APTDIR/lists" -o Dir::State::status="$APTDIR/status" \
		-o Dir::Cache="$APTDIR/cache" -o APT::Get::List-Cleanup=0 \
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@"
}

# Packages reachable from the metapackages whose names say they are kernel parts we unpack.
resolve() {
	local todo=("$@") seen=" " p d
	while [ ${#todo[@]} -gt 0 ]; do
		p=${todo[0]}
		todo=("${todo[@]:1}")
		case "$seen" in *" $p "*) continue ;; esac
		seen+="$p "
		for d in $(papt apt-cache depends --important --no-recommends "$p" 2>/dev/null |
			awk '/Depends:/ {gsub(/[<>]/, "", $2); print $2}'); do
			case $d in
			linux-image-*|linux-headers-*|linux-kbuild-*|linux-modules-*|linux-binary-*)
				todo+=("$d") ;;
			esac
		done
	done
	echo "$seen"
}

fetch() {
	local tag=$1 keyring=/usr/share/keyrings/debian-archive-keyring.gpg m s
	local dir=$CACHE/kernels/$tag
	[ -f "$dir/env" ] && return 0
	m=$(mirror_main)
	[ -n "$m" ] || die "no apt mirror found in the machine's apt sources"
	APTDIR=$dir/apt
	mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial" "$dir/debs"
	: > "$APTDIR/status"
	case $tag in
	6.1)	s=$(mirror_security)
		{ echo "deb [signed-by=$keyring] $m bookworm main"
		  echo "deb [signed-by=$keyring] $m bookworm-updates main"
		  [ -n "$s" ] && echo "deb [signed-by=$keyring] $s bookworm-security main"; } \
			> "$APTDIR/sources.list" ;;
	6.12)	echo "deb [signed-by=$keyring] $m bookworm-backports main" > "$APTDIR/sources.list" ;;
	7)	echo "deb [signed-by=$keyring] $m trixie-backports main" > "$APTDIR/sources.list" ;;
	*)	die "unknown kernel tag $tag" ;;
	esac
	papt apt-get update >/dev/null || die "apt-get update failed for $tag"
	local pkgs
	pkgs=$(resolve linux-image-amd64 linux-headers-amd64)
	echo "kernels: $tag: fetching$pkgs"
	(cd "$dir/debs" && papt apt-get download $pkgs >/dev/null) || die "download failed for $tag"
	rm -rf "$dir/root"
	mkdir -p "$dir/root"
	local deb
	for deb in "$dir"/debs/*.deb; do
		dpkg-deb -x "$deb" "$dir/root"
	done
	write_env "$tag"
}

# Headers unpacked with dpkg-deb -x still point at /usr/src/...-common and
# /usr/lib/linux-kbuild-* by absolute path: rewrite those links and includes into the cache.
write_env() {
	local tag=$1 dir=$CACHE/kernels/$1 krel kdir l t mods vmlinuz
	# bookworm keeps modules in /lib/modules, trixie (merged /usr) in /usr/lib/modules
	for mods in "$dir/root/lib/modules" "$dir/root/usr/lib/modules"; do
		[ -d "$mods" ] && break
	done
	krel=$(ls "$mods" 2>/dev/null | sort -V | tail -1)
	[ -n "$krel" ] || die "$tag: no modules directory in the unpacked kernel"
	vmlinuz=$dir/root/boot/vmlinuz-$krel
	[ -f "$vmlinuz" ] || vmlinuz=$mods/$krel/vmlinuz
	[ -f "$vmlinuz" ] || die "$tag: no vmlinuz for $krel"
	kdir=$dir/root/usr/src/linux-headers-$krel
	find "$dir/root/usr/src" "$dir/root/usr/lib" -type l 2>/dev/null | while read -r l; do
		t=$(readlink "$l")
		case $t in /usr/*) ln -sfn "$dir/root$t" "$l" ;; esac
	done
	grep -rlZ --include=Makefile -e '/usr/src/' -e '/usr/lib/linux-kbuild' "$kdir" 2>/dev/null |
		xargs -0 -r sed -i -e "s#\([ ']\)/usr/src/#\1$dir/root/usr/src/#g" \
			-e "s#\([ ']\)/usr/lib/linux-kbuild#\1$dir/root/usr/lib/linux-kbuild#g"
	{
		echo "KREL=$krel"
		echo "VMLINUZ=$vmlinuz"
		echo "KDIR=$kdir"
		echo "MODDIR=$mods/$krel"
		[ "$tag" = 7 ] && echo "CHROOT=$CACHE/chroot/trixie"
	} > "$dir/env"
	[ "$tag" = 7 ] && make_chroot "$tag"
	echo "kernels: $tag ready: $krel"
}

# trixie's kbuild tools need trixie's glibc, and its kernel was built by gcc-14: build
# inside a debootstrapped trixie with the header packages unpacked at their own paths.
make_chroot() {
	local tag=$1 ch=$CACHE/chroot/trixie deb
	if [ ! -x "$ch/usr/bin/pahole" ]; then
		rm -rf "$ch"
		debootstrap --variant=minbase --include=make,gcc-14,libc6-dev,libelf1t64,libssl3t64,dwarves,sparse \
			trixie "$ch" "$(mirror_main)" > "$CACHE/chroot-trixie.log" 2>&1 ||
			die "debootstrap trixie failed, see $CACHE/chroot-trixie.log"
	fi
	for deb in "$CACHE/kernels/$tag"/debs/linux-headers-* "$CACHE/kernels/$tag"/debs/linux-kbuild-*; do
		dpkg-deb -x "$deb" "$ch"
	done
}

case ${1:-} in
fetch)	shift; for t in "$@"; do fetch "$t"; done ;;
info)	cat "$CACHE/kernels/$2/env" ;;
*)	echo "usage: $0 fetch TAG... | info TAG" >&2; exit 2 ;;
esac
