#!/bin/sh
# Out-of-range values are refused with the kernel's extack message; non-admin writes are
# refused; reads stay open to everyone.
. /tests/lib.sh
trap cleanup EXIT
pair_up 2

expect_reject() {
	if ina vqpairctl set $FRONT "$@" 2> /tmp/err; then fail "accepted: $*"; fi
	echo "rejected $*: $(cat /tmp/err)"
}
expect_reject tx-ring-size 8
grep -q 'out of range' /tmp/err || fail "no extack text for tx-ring-size 8"
expect_reject tx-full-mode 2
grep -q 'out of range' /tmp/err || fail "no extack text for tx-full-mode 2"
expect_reject busyloop-us 1001
expect_reject queue 5 tx-frames 4
grep -q 'queue' /tmp/err || fail "no extack text for a bad queue"
[ "$(knob tx-ring-size)" = 256 ] || fail "rejected write changed the ring"

# per-queue write lands on that queue only
set_knob queue 1 tx-frames 4
[ "$(qstat 1 tx-packets)" != "" ] || fail "no per-queue stats"
[ "$(knob tx-frames)" = 1 ] || fail "queue 0 changed by a queue-1 write"

if ina setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all \
	vqpairctl set $FRONT tx-frames 8 2> /tmp/err; then
	fail "non-admin write accepted"
fi
echo "non-admin: $(cat /tmp/err)"
grep -q 'not permitted' /tmp/err || fail "non-admin refusal is not EPERM"
ina setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all \
	vqpairctl get $FRONT tx-frames > /dev/null || fail "non-admin read refused"
ok "rejections"
