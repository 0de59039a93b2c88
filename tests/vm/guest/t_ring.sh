#!/bin/sh
# ethtool -G changes tx-ring-size (and genl reads it back); out-of-range is refused.
. /tests/lib.sh
trap cleanup EXIT
pair_up 1
[ "$(knob tx-ring-size)" = 256 ] || fail "default ring $(knob tx-ring-size)"
ina ethtool -G $FRONT tx 512 || fail "ethtool -G"
[ "$(knob tx-ring-size)" = 512 ] || fail "ring after -G: $(knob tx-ring-size)"
ina ethtool -g $FRONT | awk '/Current/ {c=1} c && /^TX:/ {print $2; exit}' > /tmp/ring
[ "$(cat /tmp/ring)" = 512 ] || fail "ethtool -g shows $(cat /tmp/ring)"
ina ethtool -G $FRONT tx 8192 2>/dev/null && fail "ring 8192 accepted"
[ "$(knob tx-ring-size)" = 512 ] || fail "ring changed by a rejected write"
tcp -n 5M || fail "traffic after resize"
ok "ethtool -G"
