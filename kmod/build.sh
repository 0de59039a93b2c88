#!/bin/bash
# Builds vqpair.ko against a fetched test kernel (scripts/kernels.sh) in a private copy of
# the sources, so builds for several kernels never share objects. Kernels whose kbuild
# tools need a newer userland (trixie's 7.x) are built inside their chroot (CHROOT= in the
# kernel's env file), where the header packages sit at their own /usr/src paths.
#   kmod/build.sh TAG OUTDIR [extra make args, e.g. C=1]
set -eu
cd "$(dirname "$0")/.."
tag=$1 out=$2
shift 2
cache=${VQ_CACHE:-$PWD/.cache}
CHROOT=
# shellcheck disable=SC1090
. "$cache/kernels/$tag/env"

copy_src() {
	mkdir -p "$1/kmod" "$1/include"
	cp kmod/*.c kmod/*.h kmod/Kbuild "$1/kmod/"
	cp include/vqpair.h "$1/include/"
}

mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "$CHROOT" ]; then
	rel=/build/vqpair-$tag
	rm -rf "${CHROOT:?}$rel"
	copy_src "$CHROOT$rel"
	# objtool reads /proc/self/limits: a private /proc for the build, removed after
	mount -t proc proc "$CHROOT/proc"
	trap 'umount "$CHROOT/proc"' EXIT
	chroot "$CHROOT" make -s -C "/usr/src/linux-headers-$KREL" M="$rel/kmod" "$@" modules
	cp "$CHROOT$rel/kmod/vqpair.ko" "$out/vqpair.ko"
else
	copy_src "$out"
	make -s -C "$KDIR" M="$out/kmod" "$@" modules
	cp "$out/kmod/vqpair.ko" "$out/vqpair.ko"
fi
