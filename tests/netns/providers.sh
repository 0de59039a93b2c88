#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The daemon's kernel providers (daemon/nl_netdev.c, nl_ethtool.c, ethstats.c) against the
# running kernel, through tests/tools/vqprobe, on a veth pair in two namespaces this test
# creates and deletes. Writes are checked with readers that share no code with the daemon:
# tests/tools/napi_read.py (raw genl in Python) for NAPI knobs, `ethtool -l` / `ethtool -S`
# for channels and per-queue counters. Needs root, vqprobe built (`make tools`), python3,
# ethtool, iperf3. kselftest exit codes: 0 pass, 1 fail, 4 skip.

set -u

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
VQPROBE=${VQPROBE:-$REPO/${BUILD:-build}/tests/tools/vqprobe}
NAPI_READ=$REPO/tests/tools/napi_read.py

NS_A=vqprov-a-$$
NS_B=vqprov-b-$$
ADDR_A=192.0.2.1	# RFC 5737 TEST-NET-1: never routed, safe inside a private netns
ADDR_B=192.0.2.2
N_QUEUES=2		# veth rx/tx queues: one NAPI per rx queue once GRO is on
TRAFFIC_S=3		# iperf3 run, seconds: enough for many thousand packets on veth
MIN_PACKETS=1000	# a 3 s TCP stream on veth moves orders of magnitude more
IPERF_PORT=$((20000 + $$ % 10000))
IPERF_PID=""
TMP=""
n_fail=0
n_test=0

cleanup()
{
	[ -n "$IPERF_PID" ] && kill "$IPERF_PID" 2>/dev/null && wait "$IPERF_PID" 2>/dev/null
	ip netns del "$NS_A" 2>/dev/null
	ip netns del "$NS_B" 2>/dev/null
	[ -n "$TMP" ] && rm -rf -- "$TMP"
}
trap cleanup EXIT

ok()     { n_test=$((n_test + 1)); echo "ok $n_test - $*"; }
not_ok() { n_test=$((n_test + 1)); n_fail=$((n_fail + 1)); echo "not ok $n_test - $*"; }
check()  { if [ "$1" = "$2" ]; then ok "$3 ($1)"; else not_ok "$3: got '$1', want '$2'"; fi; }
skip()   { echo "# SKIP $*"; exit $KSFT_SKIP; }
in_a()   { ip netns exec "$NS_A" "$@"; }
in_b()   { ip netns exec "$NS_B" "$@"; }

[ "$(id -u)" -eq 0 ] || skip "needs root"
[ -x "$VQPROBE" ] || skip "$VQPROBE not built (make tools)"
for t in python3 ethtool iperf3 ip; do
	command -v "$t" >/dev/null || skip "$t missing"
done
TMP=$(mktemp -d)

setup()
{
	ip netns add "$NS_A" && ip netns add "$NS_B" || return 1
	ip -n "$NS_A" link add va numtxqueues $N_QUEUES numrxqueues $N_QUEUES type veth \
		peer name vb numtxqueues $N_QUEUES numrxqueues $N_QUEUES netns "$NS_B" || return 1
	# no IPv6 ND/MLD chatter: counters stay still once iperf3 stops
	in_a sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	in_b sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n "$NS_A" addr add $ADDR_A/24 dev va && ip -n "$NS_B" addr add $ADDR_B/24 dev vb &&
	ip -n "$NS_A" link set va up && ip -n "$NS_B" link set vb up || return 1
	# veth runs NAPI (and registers NAPI instances) only with GRO or XDP; TSO skbs skip
	# NAPI (veth_skb_is_eligible_for_gro()) and so skip the per-queue xdp_* counters
	in_a ethtool -K va gro on tso off && in_b ethtool -K vb gro on tso off
}
setup || { echo "not ok - setup failed"; exit $KSFT_FAIL; }
in_a python3 "$NAPI_READ" > /dev/null
[ $? -eq $KSFT_SKIP ] && skip "no netdev genl family (kernel < 6.9)"

# ---- NAPI dump: one per rx channel, same ids as the independent reader
in_a "$VQPROBE" va show > "$TMP/show" 2>&1
sed 's/^/# /' "$TMP/show"
napis=$(grep -c '^napi ' "$TMP/show")
check "$napis" "$N_QUEUES" "vqprobe lists one NAPI per rx channel"
ids_probe=$(sed -n 's/^napi id=\([0-9]*\) .*/\1/p' "$TMP/show" | sort -n | tr '\n' ' ')
in_a python3 "$NAPI_READ" > "$TMP/napi" || not_ok "napi_read.py failed"
ids_indep=$(awk '{print $1}' "$TMP/napi" | sort -n | tr '\n' ' ')
check "$ids_probe" "$ids_indep" "NAPI ids match napi_read.py"
NAPI=$(echo "$ids_probe" | awk '{print $1}')

# ---- NAPI_SET seen by the independent reader with the exact value
DEFER=$((1 + RANDOM % 1000))
GRO_NS=$((1000 * (1 + RANDOM % 1000)))
SUSPEND_NS=$((5000000000 + RANDOM))	# > 2^32: exercises the 8-byte NLA_UINT form
if [ -n "$NAPI" ] &&
   in_a "$VQPROBE" va napi-set "$NAPI" defer-hard-irqs $DEFER &&
   in_a "$VQPROBE" va napi-set "$NAPI" gro-flush-timeout $GRO_NS &&
   in_a "$VQPROBE" va napi-set "$NAPI" irq-suspend-timeout $SUSPEND_NS; then
	ok "napi-set on NAPI $NAPI accepted"
else
	not_ok "napi-set on NAPI '$NAPI' failed"
fi
got=$(in_a python3 "$NAPI_READ" | awk -v id="$NAPI" '$1 == id {print $3, $4, $5}')
check "$got" "$DEFER $GRO_NS $SUSPEND_NS" "napi_read.py sees defer-hard-irqs gro-flush-timeout irq-suspend-timeout"
got=$(in_a "$VQPROBE" va show | sed -n "s/^napi id=$NAPI .*defer-hard-irqs=\([0-9]*\).*/\1/p")
check "$got" "$DEFER" "vqprobe reads back defer-hard-irqs"
in_a "$VQPROBE" va napi-set "$NAPI" threaded 1 || not_ok "napi-set threaded 1"
got=$(in_a python3 "$NAPI_READ" | awk -v id="$NAPI" '$1 == id {print $6}')
check "$got" 1 "napi_read.py sees threaded"
# a threaded NAPI has a kthread: the kernel now reports its pid
got=$(in_a "$VQPROBE" va show | grep -c "^napi id=$NAPI .* pid=[1-9][0-9]* ")
check "$got" 1 "threaded NAPI reports a pid"

# ---- out of range: the kernel's policy rejects it, its extack text reaches us
in_a "$VQPROBE" va napi-set "$NAPI" defer-hard-irqs 2147483648 2> "$TMP/err"
rc=$?
sed 's/^/# /' "$TMP/err"
check "$rc" 1 "defer-hard-irqs 2^31 (> S32_MAX) rejected"
check "$(sed -n 's/^error: napi-set: [^:]*: //p' "$TMP/err")" "integer out of range" \
	"kernel extack text for defer-hard-irqs 2^31"
got=$(in_a python3 "$NAPI_READ" | awk -v id="$NAPI" '$1 == id {print $3}')
check "$got" "$DEFER" "rejected write left defer-hard-irqs unchanged"

# ---- channels: set via netlink, read back with ethtool -l; over-max gives extack
in_a "$VQPROBE" va channels-set rx 1 || not_ok "channels-set rx 1"
got=$(in_a ethtool -l va | awk '/Current hardware settings/ {c = 1} c && /^RX:/ {print $2}')
check "$got" 1 "ethtool -l sees rx channels set by vqprobe"
in_a "$VQPROBE" va channels-set rx 9 2> "$TMP/err"
rc=$?
sed 's/^/# /' "$TMP/err"
check "$rc" 1 "channels rx 9 (> max) rejected"
txt=$(sed -n 's/^error: channels-set: [^:]*: //p' "$TMP/err")
if [ -n "$txt" ]; then ok "extack text for over-max channels ($txt)"
else not_ok "no extack text for over-max channels"; fi
in_a "$VQPROBE" va channels-set rx $N_QUEUES || not_ok "channels-set rx $N_QUEUES (restore)"

# ---- ethtool -S per-queue counters move under traffic and match ethtool's own numbers
sum_rx() { sed -n 's/^ets rx=[0-9]* packets=\([0-9]*\).*/\1/p' | awk '{s += $1} END {print s + 0}'; }
before=$(in_b "$VQPROBE" vb show | sum_rx)
in_b iperf3 -s -1 -p $IPERF_PORT -B $ADDR_B > /dev/null 2>&1 &
IPERF_PID=$!
for _ in $(seq 50); do
	in_a iperf3 -c $ADDR_B -p $IPERF_PORT -t $TRAFFIC_S -P $N_QUEUES > "$TMP/iperf" 2>&1 && break
	sleep 0.2	# server not listening yet (up to 10 s on a loaded host)
done
wait "$IPERF_PID" 2>/dev/null
IPERF_PID=""
# a late ACK or FIN may still arrive: ethtool -S read before and after bracket our read
in_b ethtool -S vb > "$TMP/eth1"
in_b "$VQPROBE" vb show > "$TMP/after"
in_b ethtool -S vb > "$TMP/eth2"
after=$(sum_rx < "$TMP/after")
delta=$((after - before))
if [ "$delta" -ge $MIN_PACKETS ]; then ok "vb per-queue rx packets moved by $delta"
else not_ok "vb per-queue rx packets moved by only $delta (before $before after $after)"; fi
for q in $(seq 0 $((N_QUEUES - 1))); do
	mine=$(sed -n "s/^ets rx=$q packets=\([0-9]*\).*/\1/p" "$TMP/after")
	lo=$(awk -v k="rx_queue_${q}_xdp_packets:" '$1 == k {print $2}' "$TMP/eth1")
	hi=$(awk -v k="rx_queue_${q}_xdp_packets:" '$1 == k {print $2}' "$TMP/eth2")
	if [ -n "$mine" ] && [ -n "$lo" ] && [ -n "$hi" ] && [ "$mine" -ge "$lo" ] &&
	   [ "$mine" -le "$hi" ]; then
		ok "vb rx queue $q packets $mine within ethtool -S rx_queue_${q}_xdp_packets [$lo, $hi]"
	else
		not_ok "vb rx queue $q packets '$mine' outside ethtool -S [$lo, $hi]"
	fi
done
sed 's/^/# /' "$TMP/after"

echo "# $((n_test - n_fail))/$n_test passed"
[ "$n_fail" -eq 0 ] && exit $KSFT_PASS
exit $KSFT_FAIL
