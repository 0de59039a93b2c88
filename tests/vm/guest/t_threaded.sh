#!/bin/sh
# threaded on a veth whose NAPI goes away: vqtunectl sets it while GRO gives the veth a NAPI,
# then GRO off deletes the NAPI and the restore meets it gone. Where the netdev family has
# threaded per NAPI (Linux 6.17+) vqtune wrote the NAPI's own, and the restore owes nothing
# (the NAPIs that come with GRO on again take the device's value). Before, vqtune wrote the
# device's (sysfs), which the kernel refuses on a device with no NAPI (EOPNOTSUPP): the
# restore fails, its message gives that reason where the kernel can list NAPIs (6.8+:
# NAPI_GET), and the change stays owed until GRO is on again, when the same restore goes
# through.
. /tests/lib.sh
trap cleanup EXIT
[ -x /bin/vqtuned ] && [ -x /bin/vqtunectl ] || skip "vqtuned/vqtunectl not in the initramfs"

VQDIR=/tmp/vqtuned
SOCK=$VQDIR/run/vqtuned.sock
WHY="the kernel refuses threaded on a device with no NAPI instance"

ctl() { vqtunectl -s $SOCK "$@"; }
owed() { ctl --json status | sed -n 's/.*"changed_knobs": *\([0-9]*\).*/\1/p'; }
# the provider of vc's threaded in the knobs view (column 8: KNOB INSTANCE VALUE UNIT MIN MAX
# ORIGINAL PROVIDER FLAGS)
provider() { ctl knobs $NSA:vc | awk '$1 == "threaded" { print $8; exit }'; }
sysfs_threaded() { ina cat /sys/class/net/vc/threaded; }

# veth is a module of the guest's kernel, loaded by whoever needs it first
[ -d /sys/module/veth ] || insmod /lib/vqpair/veth.ko || fail "insmod veth"
/sbin/ip netns add $NSA || fail "netns add"
ina /sbin/ip link add vc type veth peer name vd || fail "veth add"
ina /sbin/ip link set vc up && ina /sbin/ip link set vd up || fail "veth up"
ina ethtool -K vc gro on > /dev/null || fail "gro on"
mkdir -p $VQDIR/run
vqtuned -s $SOCK -S $VQDIR/state --netns $NSA --interval 100 > $VQDIR/log 2>&1 &
DPID=$!
PIDS="$DPID"
for _ in $(seq 50); do
	[ -n "$(provider 2>/dev/null)" ] && break
	kill -0 $DPID 2>/dev/null || { cat $VQDIR/log; fail "vqtuned exited"; }
	sleep 0.2
done
prov=$(provider)
ctl set $NSA:vc threaded 1 > /dev/null || { cat $VQDIR/log; fail "set threaded 1 ($prov)"; }
[ "$(owed)" = 1 ] || fail "set threaded 1: $(owed) knobs owed, not 1"
ok "threaded 1 set on vc through $prov on $(uname -r)"

ina ethtool -K vc gro off > /dev/null || fail "gro off"
case $prov in
netdev-napi)
	ctl restore > /tmp/r.out 2>&1 || { cat /tmp/r.out; fail "restore with the NAPI gone"; }
	grep -q "restored 0, failed 0, nothing owed 1" /tmp/r.out ||
		{ cat /tmp/r.out; fail "restore's count"; }
	[ "$(owed)" = 0 ] || fail "$(owed) knobs owed after the restore"
	ok "per-NAPI threaded, NAPI gone with the device up: nothing owed"
	;;
sysfs-napi)
	[ "$(sysfs_threaded)" = 1 ] || fail "sysfs threaded $(sysfs_threaded) after gro off"
	if ctl restore > /tmp/r.out 2>&1; then
		cat /tmp/r.out
		fail "restore of the device's threaded with no NAPI succeeded"
	fi
	case $(uname -r) in
	[0-5].*|6.[0-7].*)	want="vc: threaded: Operation not supported" ;;
	*)			want="vc: threaded: $WHY" ;;
	esac
	grep -qF "$want" /tmp/r.out || { cat /tmp/r.out; fail "restore's error is not '$want'"; }
	[ "$(owed)" = 1 ] || fail "$(owed) knobs owed after the refused restore, not 1"
	ok "device threaded, no NAPI: restore refused, '$want', still owed"
	ina ethtool -K vc gro on > /dev/null || fail "gro on again"
	ctl restore > /tmp/r.out 2>&1 || { cat /tmp/r.out; fail "restore with GRO on again"; }
	[ "$(sysfs_threaded)" = 0 ] || fail "sysfs threaded $(sysfs_threaded) after the restore"
	[ "$(owed)" = 0 ] || fail "$(owed) knobs owed after the restore"
	ok "GRO on again: restored, nothing owed"
	;;
*)	fail "vc's threaded has provider '$prov'" ;;
esac

kill -TERM $DPID
wait $DPID
rc=$?
PIDS=""
[ $rc = 0 ] || { cat $VQDIR/log; fail "vqtuned exit $rc after SIGTERM"; }
ok "vqtuned stopped"
