# Shared helpers of the vqpair guest tests (sourced). kselftest conventions: exit 0 pass,
# 1 fail, 4 skip; every test traps cleanup on EXIT.
# A pair: front vqf0 in netns vqa (10.77.0.1), back vqb0 in netns vqb (10.77.0.2).
NSA=vqa
NSB=vqb
FRONT=vqf0
BACK=vqb0
IPA=10.77.0.1
IPB=10.77.0.2
KSFT_SKIP=4
PIDS=""

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit $KSFT_SKIP; }
ok() { echo "ok: $*"; }

# run in a namespace; never for background jobs: $! would be a subshell, not the program
ina() { /sbin/ip netns exec $NSA "$@"; }
inb() { /sbin/ip netns exec $NSB "$@"; }

# pair_up [QUEUES]: fresh pair across two namespaces
pair_up() {
	local nq=${1:-1}
	/sbin/ip netns add $NSA || fail "netns add"
	/sbin/ip netns add $NSB || fail "netns add"
	vqpairctl link-add $FRONT $BACK "$nq" || fail "link-add"
	/sbin/ip link set $FRONT netns $NSA || fail "move front"
	/sbin/ip link set $BACK netns $NSB || fail "move back"
	ina /sbin/ip addr add $IPA/24 dev $FRONT
	inb /sbin/ip addr add $IPB/24 dev $BACK
	ina /sbin/ip link set lo up
	inb /sbin/ip link set lo up
	ina /sbin/ip link set $FRONT up
	inb /sbin/ip link set $BACK up
	ina ping -c 1 -W 5 $IPB > /dev/null || fail "no ping across the pair"
}

cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	/sbin/ip netns del $NSA 2>/dev/null
	/sbin/ip netns del $NSB 2>/dev/null
	# device teardown finishes asynchronously after the netns goes
	sleep 1
}

# stat NAME: one counter of the front, summed over queues
stat() { ina vqpairctl stats $FRONT | awk -v n="$1" '$1 == n {print $2}'; }
# qstat QUEUE NAME
qstat() { ina vqpairctl stats $FRONT -q | awk -v q="q$1" -v n="$2" '$1 == q && $2 == n {print $3}'; }
knob() { ina vqpairctl get $FRONT "$1"; }
set_knob() { ina vqpairctl set $FRONT "$@" || fail "set $*"; }
dbg() { echo "$3" > /sys/kernel/debug/vqpair/$(ina vqpairctl show $FRONT | awk '$1 == "pair-id" {print $2}')/q$1/$2; }
bql() { ina sh -c "echo $3 > /sys/class/net/$FRONT/queues/tx-$1/byte_queue_limits/$2"; }

# tcp ARGS...: one iperf3 client run from the front to the back
tcp() {
	/sbin/ip netns exec $NSB iperf3 -s -1 -B $IPB > /dev/null 2>&1 &
	local spid=$!
	sleep 0.5
	ina iperf3 -c $IPB "$@" > /tmp/iperf.out 2>&1 || { cat /tmp/iperf.out; kill $spid; return 1; }
	wait $spid
	return 0
}
# jnum JSON KEY: the first integer member KEY of JSON (vqtuned's, blanks and newlines
# already taken out: `tr -d ' \n'`); empty when it has none
jnum() { echo "$1" | grep -o "\"$2\":[0-9][0-9]*" | head -1 | cut -d: -f2; }
# jparts JSON: vqtuned's status tick_parts_ns object (same shape) as "PART=NS ..." words
jparts() { echo "$1" | sed -n 's/.*"tick_parts_ns":{\([^}]*\)}.*/\1/p' | tr -d '"' | tr ',:' ' ='; }
# ratio A B SCALE: integer A*SCALE/B
ratio() { awk -v a="$1" -v b="$2" -v s="${3:-1000}" 'BEGIN { if (b == 0) print 0; else printf "%d\n", a * s / b }'; }
