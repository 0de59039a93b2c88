#!/bin/sh
# zerocopy with min-bytes 0 sends without copying; with a completion delay injected the
# pending buffers reach zerocopy-max-pending and further packets fall back to copying.
. /tests/lib.sh
trap cleanup EXIT
pair_up 1
set_knob zerocopy 1 zerocopy-min-bytes 0
tcp -n 20M || fail "iperf3"
sent=$(stat zerocopy-sent) pend=$(stat zerocopy-pending)
echo "zerocopy-sent $sent pending after run $pend"
[ "$sent" -gt 0 ] || fail "no zerocopy sends"
[ "$(stat zerocopy-fallbacks)" = 0 ] || fail "fallbacks without a stall"

# a fresh pair: zerocopy-pending-peak is a high-water mark since creation
cleanup
pair_up 1
set_knob zerocopy 1 zerocopy-min-bytes 0 zerocopy-max-pending 8
dbg 0 completion_delay_us 5000
tcp -t 2 || fail "iperf3 delayed"
peak=$(stat zerocopy-pending-peak) fb=$(stat zerocopy-fallbacks)
echo "with 5 ms completion delay: pending-peak $peak fallbacks $fb"
[ "$peak" = 8 ] || fail "pending peak $peak, want max-pending 8"
[ "$fb" -gt 0 ] || fail "no fallbacks"
ok "zerocopy pending limit and fallback"
