#!/bin/sh
# The "events" multicast group announces each knob change with old and new values,
# whether it came over genl or through ethtool.
. /tests/lib.sh
trap cleanup EXIT
pair_up 1
/sbin/ip netns exec $NSA vqpairctl monitor 4 20 > /tmp/ev &
PIDS="$!"
for i in 1 2 3 4 5 6 7 8 9 10; do grep -q listening /tmp/ev && break; sleep 0.2; done
set_knob busyloop-us 20
set_knob tx-frames 8
set_knob tx-frames 8		# no change: no event
ina ethtool -G $FRONT tx 1024 || fail "ethtool -G"
ina ethtool -C $FRONT tx-frames 16 || fail "ethtool -C"
wait $PIDS || { cat /tmp/ev; fail "monitor did not get 4 events"; }
PIDS=""
cat /tmp/ev
grep -q 'knob busyloop-us old 0 new 20' /tmp/ev || fail "busyloop event"
grep -q 'knob tx-frames old 1 new 8' /tmp/ev || fail "tx-frames event"
grep -q 'knob tx-ring-size old 256 new 1024' /tmp/ev || fail "ethtool -G event"
grep -q 'knob tx-frames old 8 new 16' /tmp/ev || fail "ethtool -C event"
ok "events"
