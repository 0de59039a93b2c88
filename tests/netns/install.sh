#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make install DESTDIR=... PREFIX=/usr` puts every file where the unit, sysusers.d and
# tmpfiles.d expect it, with the right mode and content, and the installed unit, sysusers
# and tmpfiles files are accepted by systemd's own tools. kselftest exit codes: 0 pass,
# 1 fail, 4 skip. A check whose tool is missing is reported as not run; the others still count.

set -u

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PREFIX=/usr
SBINDIR=$PREFIX/sbin
BINDIR=$PREFIX/bin
MANDIR=$PREFIX/share/man
DATADIR=$PREFIX/share/vqtune
UNITDIR=/lib/systemd/system
SYSUSERSDIR=/usr/lib/sysusers.d
TMPFILESDIR=/usr/lib/tmpfiles.d

DEST=""
SCRATCH=""
n_fail=0
n_test=0

cleanup()
{
	[ -n "$DEST" ] && rm -rf -- "$DEST"
	[ -n "$SCRATCH" ] && rm -rf -- "$SCRATCH"
}
trap cleanup EXIT

ok()      { n_test=$((n_test + 1)); echo "ok $n_test - $*"; }
not_ok()  { n_test=$((n_test + 1)); n_fail=$((n_fail + 1)); echo "not ok $n_test - $*"; }
not_run() { n_test=$((n_test + 1)); echo "ok $n_test - $* # SKIP"; }

# check_file REL MODE [SRC]: DEST/REL is a regular file of mode MODE, identical to SRC if given.
check_file()
{
	local rel=$1 mode=$2 src=${3:-} got

	if [ ! -f "$DEST$rel" ]; then
		not_ok "$rel installed (missing)"
		return
	fi
	got=$(stat -c %a "$DEST$rel")
	if [ "$got" != "$mode" ]; then
		not_ok "$rel mode $mode (is $got)"
		return
	fi
	if [ -n "$src" ] && ! cmp -s "$src" "$DEST$rel"; then
		not_ok "$rel mode $mode, same as $(basename "$src") (content differs)"
		return
	fi
	ok "$rel mode $mode${src:+, same as ${src#"$REPO"/}}"
}

for tool in make stat cmp sed; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed"
		exit $KSFT_SKIP
	fi
done

DEST=$(mktemp -d /tmp/vqtune-install.XXXXXX) || exit $KSFT_FAIL
SCRATCH=$(mktemp -d /tmp/vqtune-install-scratch.XXXXXX) || exit $KSFT_FAIL

echo "# repo $REPO, DESTDIR $DEST"
if ! make -C "$REPO" install DESTDIR="$DEST" PREFIX="$PREFIX" >"$SCRATCH/make.log" 2>&1; then
	not_ok "make install DESTDIR=... PREFIX=$PREFIX"
	sed 's/^/# /' "$SCRATCH/make.log" | tail -n 30
	exit $KSFT_FAIL
fi
ok "make install DESTDIR=... PREFIX=$PREFIX"

# Every file the Makefile promises, and nothing else.
expected=("$SBINDIR/vqtuned" "$BINDIR/vqtunectl" "$UNITDIR/vqtuned.service"
	  "$SYSUSERSDIR/vqtune.conf" "$TMPFILESDIR/vqtune.conf" "/usr/lib/ip/link_vqpair.so")
check_file "$SBINDIR/vqtuned" 755 "$REPO/build/vqtuned"
check_file "/usr/lib/ip/link_vqpair.so" 644 "$REPO/build/ip/link_vqpair.so"
check_file "$BINDIR/vqtunectl" 755 "$REPO/build/vqtunectl"
check_file "$SYSUSERSDIR/vqtune.conf" 644 "$REPO/systemd/vqtune.sysusers"
check_file "$TMPFILESDIR/vqtune.conf" 644 "$REPO/systemd/vqtune.tmpfiles"

n_policies=0
for src in "$REPO"/policies/*.json; do
	[ -e "$src" ] || continue
	n_policies=$((n_policies + 1))
	expected+=("$DATADIR/policies/$(basename "$src")")
	check_file "$DATADIR/policies/$(basename "$src")" 644 "$src"
done
if [ "$n_policies" -gt 0 ]; then
	ok "$n_policies policies in the source tree"
else
	not_ok "policies/*.json in the source tree (none)"
fi

for src in "$REPO"/docs/*.8; do
	[ -e "$src" ] || continue
	expected+=("$MANDIR/man8/$(basename "$src")")
	check_file "$MANDIR/man8/$(basename "$src")" 644 "$src"
done
if [ -f "$DEST$MANDIR/man8/vqtuned.8" ]; then
	ok "vqtuned.8 installed"
else
	not_ok "vqtuned.8 installed"
fi

# The unit: placeholders substituted, ExecStart at the installed daemon, otherwise the source.
unit=$DEST$UNITDIR/vqtuned.service
check_file "$UNITDIR/vqtuned.service" 644
if [ -f "$unit" ]; then
	if grep -n '@[A-Z_]*@' "$unit" >"$SCRATCH/left"; then
		not_ok "no @PLACEHOLDER@ left in vqtuned.service: $(head -n 1 "$SCRATCH/left")"
	else
		ok "no @PLACEHOLDER@ left in vqtuned.service"
	fi
	if grep -q "^ExecStart=$SBINDIR/vqtuned\( \|$\)" "$unit"; then
		ok "ExecStart=$SBINDIR/vqtuned"
	else
		not_ok "ExecStart=$SBINDIR/vqtuned (is: $(grep '^ExecStart=' "$unit"))"
	fi
	if sed -e "s|@SBINDIR@|$SBINDIR|g" -e "s|@DATADIR@|$DATADIR|g" \
		"$REPO/systemd/vqtuned.service.in" | cmp -s - "$unit"; then
		ok "vqtuned.service differs from its .in only by @SBINDIR@ and @DATADIR@"
	else
		not_ok "vqtuned.service differs from its .in only by @SBINDIR@ and @DATADIR@"
	fi
	# the default policy the unit starts with is an installed file that validates
	pol=$(sed -n 's/^ExecStart=.* --policy \([^ ]*\) .*/\1/p' "$unit")
	if [ "$pol" = "$DATADIR/policies/balanced.json" ] && [ -f "$DEST$pol" ] &&
		"$DEST$SBINDIR/vqtuned" --check-policy "$DEST$pol" >/dev/null; then
		ok "ExecStart --policy $pol installed and valid"
	else
		not_ok "ExecStart --policy (is: '$pol')"
	fi
fi

# Nothing but the expected files (directories are fine).
for rel in "${expected[@]}"; do
	echo "$rel"
done | sort >"$SCRATCH/expected"
(cd "$DEST" && find . -type f -o -type l) | sed 's|^\.||' | sort >"$SCRATCH/found"
extra=$(comm -13 "$SCRATCH/expected" "$SCRATCH/found" | tr '\n' ' ')
if [ -z "$extra" ]; then
	ok "no unexpected files"
else
	not_ok "no unexpected files (found: $extra)"
fi

# systemd-analyze verify checks that each Exec*= binary exists, so point ExecStart at the
# DESTDIR copy. It returns 0 on unknown keys and bad values and only prints them, so any
# output is a failure too. --man=no: the page is not installed in the host's man path.
if ! command -v systemd-analyze >/dev/null; then
	not_run "systemd-analyze verify vqtuned.service (systemd-analyze not installed)"
elif [ -f "$unit" ]; then
	mkdir -p "$SCRATCH/unit"
	sed "s|^\(Exec[A-Za-z]*=[-@:+!]*\)$SBINDIR/|\1$DEST$SBINDIR/|" "$unit" \
		>"$SCRATCH/unit/vqtuned.service"
	if systemd-analyze verify --man=no "$SCRATCH/unit/vqtuned.service" \
		>"$SCRATCH/verify.log" 2>&1 && [ ! -s "$SCRATCH/verify.log" ]; then
		ok "systemd-analyze verify vqtuned.service: no warnings"
	else
		not_ok "systemd-analyze verify vqtuned.service"
		sed 's/^/# /' "$SCRATCH/verify.log"
	fi
fi

# sysusers + tmpfiles in a scratch root: group vqtune is created, and the runtime and state
# directories get the modes and group the unit's RuntimeDirectory=/StateDirectory= also use.
root=$SCRATCH/root
mkdir -p "$root/etc" "$root$SYSUSERSDIR" "$root$TMPFILESDIR"
cp "$DEST$SYSUSERSDIR/vqtune.conf" "$root$SYSUSERSDIR/" 2>/dev/null
cp "$DEST$TMPFILESDIR/vqtune.conf" "$root$TMPFILESDIR/" 2>/dev/null
if ! command -v systemd-sysusers >/dev/null || ! command -v systemd-tmpfiles >/dev/null; then
	not_run "sysusers.d and tmpfiles.d files applied (systemd-sysusers/-tmpfiles not installed)"
elif [ "$(id -u)" -ne 0 ]; then
	not_run "sysusers.d and tmpfiles.d files applied (needs root to chown)"
elif ! systemd-sysusers --root="$root" >"$SCRATCH/sysusers.log" 2>&1; then
	not_ok "systemd-sysusers accepts vqtune.conf"
	sed 's/^/# /' "$SCRATCH/sysusers.log"
else
	gid=$(awk -F: '$1 == "vqtune" { print $3 }' "$root/etc/group")
	if [ -n "$gid" ]; then
		ok "systemd-sysusers creates group vqtune (gid $gid)"
	else
		not_ok "systemd-sysusers creates group vqtune"
	fi
	if systemd-tmpfiles --create --root="$root" >"$SCRATCH/tmpfiles.log" 2>&1 &&
	   [ ! -s "$SCRATCH/tmpfiles.log" ]; then
		ok "systemd-tmpfiles --create accepts vqtune.conf"
	else
		not_ok "systemd-tmpfiles --create accepts vqtune.conf"
		sed 's/^/# /' "$SCRATCH/tmpfiles.log"
	fi
	for want in "/run/vqtune 750 0 $gid" "/var/lib/vqtune 700 0 $gid"; do
		set -- $want
		got=$(stat -c "%a %u %g" "$root$1" 2>/dev/null)
		if [ "$got" = "$2 $3 $4" ]; then
			ok "$1 mode $2 uid $3 gid $4"
		else
			not_ok "$1 mode $2 uid $3 gid $4 (is: ${got:-missing})"
		fi
	done
fi

# The man page renders without groff warnings.
if ! command -v man >/dev/null; then
	not_run "vqtuned.8 renders without warnings (man not installed)"
elif [ -f "$DEST$MANDIR/man8/vqtuned.8" ]; then
	if man --warnings -l "$DEST$MANDIR/man8/vqtuned.8" 2>&1 >/dev/null |
	   tee "$SCRATCH/man.log" | grep -q .; then
		not_ok "vqtuned.8 renders without warnings"
		sed 's/^/# /' "$SCRATCH/man.log"
	else
		ok "vqtuned.8 renders without warnings"
	fi
fi

echo "# $n_test checks, $n_fail failed"
[ "$n_fail" -eq 0 ] && exit $KSFT_PASS
exit $KSFT_FAIL
