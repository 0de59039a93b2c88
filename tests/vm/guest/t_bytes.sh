#!/bin/sh
# A pair across two netns, a fixed-size iperf3 transfer: vqpair's tx-bytes, the back's RX
# bytes in `ip -s link` and iperf3's byte count agree within 1%.
. /tests/lib.sh
trap cleanup EXIT
pair_up 1
SIZE=104857600	# 100 MiB: a few seconds under TCG, long enough that handshakes are noise
# iperf3 ends the test when the sender has written SIZE, and the server drops what is still
# in flight: 256 KiB socket buffers bound that to 0.5% of SIZE, inside the 1% tolerance
tcp -n $SIZE -w 256K || fail "iperf3"
sent=$(awk '/sender/ {print}' /tmp/iperf.out)
echo "iperf3: $sent"
txb=$(stat tx-bytes)
rxb=$(inb /sbin/ip -s link show $BACK | awk '/RX:/ {getline; print $1; exit}')
echo "iperf3 $SIZE vqpair tx-bytes $txb back ip -s rx bytes $rxb"
for v in "$txb" "$rxb"; do
	r=$(ratio "$v" $SIZE 10000)
	# on the wire: SIZE plus headers, minus what was still unsent when iperf3 ended the test
	[ "$r" -ge 9900 ] && [ "$r" -le 10100 ] || fail "byte count $v vs $SIZE (x10000: $r)"
done
# the back delivered what the front sent (no drops on a healthy pair)
[ "$(stat tx-drop-ring-full)" = 0 ] || fail "unexpected drops"
ok "bytes agree"
