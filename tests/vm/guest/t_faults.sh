#!/bin/sh
# debugfs fault injection other than completion_delay_us (kmod/vqpair_debugfs.c):
#  zc_hold_us  zerocopy completions held (a slow consumer holding pages): zerocopy TCP
#            throughput collapses, copying under the same fault does not
#  drop_ppm  the backend drops that share of packets (tx-drop-fault), the rest reach the back
#  stall     the backend consumes nothing: the back receives nothing, the ring fills, the
#            front's queue stops; after un-stalling the backlog drains and the queue wakes.
# Offered traffic is sockperf UDP throughput mode (drops) and ping (stall): neither needs a
# server or a control connection that injected drops or a stalled consumer could hold up.
. /tests/lib.sh
trap cleanup EXIT

# UDP payload of the offered traffic: 1000 bytes, the size of t_busyloop's paced UDP
MSG_BYTES=1000
# 2,500 messages/s for 2 s: ~5,000 packets, comfortably above DROP_MIN_PKTS on TCG
DROP_MPS=2500
DROP_SECS=2
# binomial tolerance: for N >= 2,000 packets at p = 0.1 the standard deviation of the
# dropped share is sqrt(p(1-p)/N) <= 0.67 percentage points, so 100 +- 30 per mille is
# more than 4.5 sd wide (a false failure is rarer than 1 in 100,000 runs)
DROP_MIN_PKTS=2000
DROP_PPM=100000
DROP_PERMILLE=100
DROP_TOL_PERMILLE=30
# stall: pings of 200 bytes every 20 ms fill a 16-descriptor ring in ~0.3 s; ping neither
# waits for replies nor blocks, so it keeps offering traffic while the consumer is stalled
STALL_RING=16
STALL_PING_BYTES=200
STALL_PING_INTERVAL_S=0.02
# longer than the stalled and un-stalled checks; ping is stopped once those are done
STALL_SECS=30
# filling the ring on a slow TCG guest
STALL_FILL_WAIT_S=10
# smallest frame the front sends (an ARP frame, skb->len without padding)
MIN_FRAME_BYTES=42
# BQL opened wide so the ring, not BQL, stops the queue
BQL_WIDE_BYTES=10000000
# the front's own control packets (IPv6 router solicitations and MLD reports after link up,
# ARP) may pass between the reads of the front's and the back's counters
CTL_SLACK_PKTS=4

# near A B: |A - B| <= CTL_SLACK_PKTS
near() { [ "$1" -le $(($2 + CTL_SLACK_PKTS)) ] && [ "$1" -ge $(($2 - CTL_SLACK_PKTS)) ]; }
back_rx() { inb cat /sys/class/net/$BACK/statistics/"$1"; }
inflight() { ina cat /sys/class/net/$FRONT/queues/tx-0/byte_queue_limits/inflight; }
# udp MPS SIZE SECS: sockperf throughput run front -> back (no server: the back answers
# with rate-limited ICMP port unreachable, which travels the other direction)
udp() { ina sockperf tp -i $IPB -p 5001 --mps "$1" -m "$2" -t "$3" > /tmp/sp.out 2>&1 ||
	{ cat /tmp/sp.out; fail "sockperf"; }; }

# ---- drop_ppm -----------------------------------------------------------------------------
pair_up 1
dbg 0 drop_ppm 0
p0=$(stat tx-packets) d0=$(stat tx-drop-fault) r0=$(back_rx rx_packets)
udp $DROP_MPS $MSG_BYTES $DROP_SECS
sleep 1	# let the worker drain what is still in the ring
p1=$(stat tx-packets) d1=$(stat tx-drop-fault) r1=$(back_rx rx_packets)
echo "drop_ppm 0: packets $((p1 - p0)) fault drops $((d1 - d0)) back rx $((r1 - r0))"
[ $((p1 - p0)) -ge $DROP_MIN_PKTS ] || fail "only $((p1 - p0)) packets offered"
[ "$d1" = 0 ] || fail "drop_ppm 0: $d1 fault drops"
near $((r1 - r0)) $((p1 - p0)) || fail "drop_ppm 0: back got $((r1 - r0)) of $((p1 - p0))"

dbg 0 drop_ppm $DROP_PPM
udp $DROP_MPS $MSG_BYTES $DROP_SECS
sleep 1
p2=$(stat tx-packets) d2=$(stat tx-drop-fault) r2=$(back_rx rx_packets)
dbg 0 drop_ppm 0
pk=$((p2 - p1)) dr=$((d2 - d1)) rx=$((r2 - r1))
pm=$(ratio "$dr" "$pk" 1000)
echo "drop_ppm $DROP_PPM: packets $pk fault drops $dr ($pm per mille) back rx $rx"
[ "$pk" -ge $DROP_MIN_PKTS ] || fail "only $pk packets offered"
[ "$pm" -ge $((DROP_PERMILLE - DROP_TOL_PERMILLE)) ] &&
	[ "$pm" -le $((DROP_PERMILLE + DROP_TOL_PERMILLE)) ] ||
	fail "dropped $pm per mille, want $DROP_PERMILLE +- $DROP_TOL_PERMILLE"
near "$rx" $((pk - dr)) || fail "back got $rx, want $pk - $dr"
for s in tx-drop-ring-full tx-drop-nomem tx-drop-peer-down; do
	[ "$(stat $s)" = 0 ] || fail "$s $(stat $s): only fault drops expected"
done
ok "drop_ppm"
cleanup

# ---- stall --------------------------------------------------------------------------------
pair_up 1
set_knob tx-ring-size $STALL_RING
bql 0 limit_min $BQL_WIDE_BYTES
# dql applies limit_min only when it next completes something: one packet through first,
# or the limit of pair_up's ping would stop the queue (BQL, not the ring) when stalled
ina ping -c 1 -W 5 $IPB > /dev/null || fail "ping"
sleep 0.5
lim=$(ina cat /sys/class/net/$FRONT/queues/tx-0/byte_queue_limits/limit)
[ "$lim" -ge $BQL_WIDE_BYTES ] || fail "BQL limit $lim after limit_min $BQL_WIDE_BYTES"
# a static neighbour: an ARP probe stuck in the stalled ring must not hold the traffic back
ina /sbin/ip neigh replace $IPB lladdr "$(inb cat /sys/class/net/$BACK/address)" \
	dev $FRONT nud permanent || fail "static neighbour"
dbg 0 stall 1
r0=$(back_rx rx_packets) s0=$(stat tx-stop) w0=$(stat tx-wake)
/sbin/ip netns exec $NSA ping -q -s $STALL_PING_BYTES -i $STALL_PING_INTERVAL_S \
	-w $STALL_SECS $IPB > /dev/null 2>&1 &
sp=$!
PIDS="$PIDS $sp"
n=0
while [ "$(stat tx-stop)" = "$s0" ] && [ $n -lt $STALL_FILL_WAIT_S ]; do sleep 1; n=$((n + 1)); done
sleep 0.5	# the queue stays stopped and nothing moves
r1=$(back_rx rx_packets) p1=$(stat tx-packets) c1=$(stat tx-completed)
s1=$(stat tx-stop) w1=$(stat tx-wake) i1=$(inflight)
echo "stalled: back rx +$((r1 - r0)) descriptors held $((p1 - c1)) tx-stop +$((s1 - s0))" \
	"tx-wake +$((w1 - w0)) inflight $i1 bytes"
[ "$r1" = "$r0" ] || fail "stalled backend delivered $((r1 - r0)) packets"
[ $((p1 - c1)) = $STALL_RING ] || fail "$((p1 - c1)) descriptors held in a $STALL_RING ring"
[ "$s1" -gt "$s0" ] || fail "the queue did not stop"
[ "$w1" = "$w0" ] || fail "the queue woke $((w1 - w0)) times while stalled"
[ "$i1" -ge $((STALL_RING * MIN_FRAME_BYTES)) ] || fail "BQL inflight only $i1 bytes"
sleep 0.5
[ "$(back_rx rx_packets)" = "$r0" ] || fail "stalled backend delivered later"
[ "$(stat tx-packets)" = "$p1" ] || fail "a stopped queue took packets"
[ "$(inflight)" = "$i1" ] || fail "inflight moved while stalled: $i1 -> $(inflight)"

dbg 0 stall 0
rb0=$(back_rx rx_bytes)
sleep 1.5	# ping still offering traffic
r2=$(back_rx rx_packets) w2=$(stat tx-wake) rb2=$(back_rx rx_bytes)
echo "unstalled: back rx +$((r2 - r1)) packets +$((rb2 - rb0)) bytes tx-wake +$((w2 - w1))"
[ $((r2 - r1)) -gt $STALL_RING ] || fail "after un-stall the back got only $((r2 - r1))"
[ "$w2" -gt "$w1" ] || fail "the queue did not wake after un-stall"
[ $((rb2 - rb0)) -gt $((STALL_RING * STALL_PING_BYTES)) ] || fail "no bytes after un-stall"
kill $sp
wait $sp 2> /dev/null
PIDS=""
tcp -t 1 || fail "iperf3 after un-stall"
ok "stall"

# ---- zc_hold_us ---------------------------------------------------------------------------
# a slow consumer holding zerocopy pages: only zerocopy completions are held, in order, so
# zerocopy throughput collapses to at most a ring of buffers (256 x 64 KiB GSO) per hold
# (~0.7 Gbit/s at 200 ms) while copies, which complete at once, are unaffected by the same
# fault (TCG copies at 2-4 Gbit/s)
ZC_HOLD_US=200000
ZC_SECS=3
cleanup
pair_up 1
dbg 0 zc_hold_us $ZC_HOLD_US
mbps() { awk '/sender/ {for (i = 1; i <= NF; i++) if ($i ~ /bits\/sec/) {v = $(i-1); u = $i}}
	END {if (u ~ /^G/) v *= 1000; if (u ~ /^K/) v /= 1000; printf "%d\n", v}' /tmp/iperf.out; }
set_knob zerocopy 1 zerocopy-min-bytes 0 zerocopy-max-pending 1024
c0=$(stat completion-count) s0=$(stat completion-sum-ns)
tcp -t $ZC_SECS || fail "iperf3 with zerocopy held"
zc=$(mbps)
c1=$(stat completion-count) s1=$(stat completion-sum-ns)
mean_us=$(( (s1 - s0) / (c1 - c0) / 1000 ))
set_knob zerocopy 0
tcp -t $ZC_SECS || fail "iperf3 copying"
cp=$(mbps)
echo "zc_hold_us $ZC_HOLD_US: zerocopy $zc Mbit/s (completion mean $mean_us us), copy $cp Mbit/s"
# the mean also counts the few copies sent before the first held buffer (ARP, the
# handshake): well over half the hold shows the zerocopy completions waited it
[ "$mean_us" -ge $((ZC_HOLD_US / 2)) ] || fail "zerocopy completions not held ($mean_us us)"
[ "$cp" -gt $((2 * zc)) ] || fail "copy $cp Mbit/s not above 2x zerocopy $zc Mbit/s"
dbg 0 zc_hold_us 0
ok "zc_hold_us: zerocopy stalls, copy does not"
