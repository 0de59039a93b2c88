#!/bin/bash
# Qdisc backlog per TX queue (qdisc_backlog_bytes, qdisc_qlen; daemon/tcq.h) against tc's own
# figures. A veth pair with 2 TX queues across two namespaces:
#  1. veth default (noqueue): both TX queues report 0 bytes, 0 packets.
#  2. root mq, a 1 Mbit/s tbf on queue 1 (parent 1:2), XPS sending every CPU's packets to
#     queue 1, a paced UDP flood at 8x the tbf rate: the tbf stays full. The API's backlog of
#     queue 1 is > 0 and within TOL_PCT of `tc -s qdisc show` read just before and after;
#     queue 0 (idle pfifo_fast) stays 0; the Prometheus gauges say the same.
#  3. flood stopped: queue 1 drains to 0.
#  4. a single tbf root on the 2-queue device: queue 0 carries its backlog, queue 1 (which
#     shares that root) is null: unknown, not 0.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL

# tbf: 1 Mbit/s drains the 60,000-byte queue in about 0.5 s; the flood offers 8 Mbit/s, so
# the queue refills within a packet time and its backlog stays within two packets of LIMIT.
TBF_LIMIT_BYTES=60000
FLOOD_BPS=8000000
PAYLOAD_BYTES=1200
# the daemon's value is up to one tick (100 ms) older than tc's reads around it: allow
# 10% (6,000 bytes, 4 to 5 packets) for the refill jitter of a full queue
TOL_PCT=10
SAMPLES=5
WAIT_S=10

# txq FIELD Q: FIELD of TX queue Q of $A:va from GET /v1/devices/{dev}/queues ("None": null)
txq() {
	curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$A:va/queues" |
		vq_json "[q.get('$1', 'absent') for q in d['queues'] if q['direction']=='tx' and q['queue']==$2][0]"
}

# tcq PARENT FIELD: backlog or qlen of the qdisc at PARENT (root, 1:2) from tc's JSON
tcq() {
	local sel=(parent "$1")
	[ "$1" == root ] && sel=(root)
	tc -n "$A" -j -s qdisc show dev va "${sel[@]}" | vq_json "d[0]['$2']"
}

# metric NAME Q: the sample of NAME for TX queue Q of va in $A, or "absent"
metric() {
	curl -s --unix-socket "$VQ_SOCK" http://localhost/metrics |
		awk -v m="$1" -v ns="$A" -v q="$2" '
		index($0, m "{") == 1 && index($0, "device=\"va\"") && index($0, "netns=\"" ns "\"") &&
		index($0, "queue=\"" q "\"") && index($0, "direction=\"tx\"") { v = $NF }
		END { print (v == "" ? "absent" : v) }'
}

# wait_txq FIELD Q VALUE: poll until the API shows VALUE (WAIT_S at most); prints the last
wait_txq() {
	local v
	for _ in $(seq $((WAIT_S * 10))); do
		v=$(txq "$1" "$2")
		[ "$v" == "$3" ] && break
		sleep 0.1
	done
	echo "$v"
}

# within LOW HIGH VALUE PCT: LOW*(1-PCT%) <= VALUE <= HIGH*(1+PCT%)
within() {
	python3 -c "import sys; lo,hi,v,p=map(float,sys.argv[1:]); sys.exit(0 if lo*(1-p/100) <= v <= hi*(1+p/100) else 1)" "$@"
}

flood_start() {
	ip netns exec "$A" python3 -c '
import socket, sys, time
size, bps = int(sys.argv[1]), float(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
data, gap = b"x" * size, size * 8 / bps
t = time.monotonic()
while True:
	s.sendto(data, ("192.0.2.2", 9))
	t += gap
	d = t - time.monotonic()
	if d > 0:
		time.sleep(d)
' "$PAYLOAD_BYTES" "$FLOOD_BPS" &
	FLOOD=$!
	VQ_PIDS+=("$FLOOD")
}

flood_stop() {
	kill "$FLOOD" 2>/dev/null
	wait "$FLOOD" 2>/dev/null
}

# no ARP behind a full queue: the peer's address is known up front
ip -n "$A" neigh replace 192.0.2.2 lladdr "$(ip netns exec "$B" cat /sys/class/net/vb/address)" \
	dev va nud permanent

# ---- 1. the veth default: noqueue, nothing can wait
check "va root is noqueue" noqueue "$(tc -n "$A" -j qdisc show dev va root | vq_json "d[0]['kind']")"
check "noqueue: TX queue 0 backlog bytes" 0 "$(wait_txq qdisc_backlog_bytes 0 0)"
check "noqueue: TX queue 1 backlog bytes" 0 "$(wait_txq qdisc_backlog_bytes 1 0)"
check "noqueue: TX queue 0 qlen" 0 "$(txq qdisc_qlen 0)"
check "noqueue: TX queue 1 qlen" 0 "$(txq qdisc_qlen 1)"
check "RX queues carry no qdisc field" absent \
	"$(curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$A:va/queues" |
	   vq_json "[q.get('qdisc_backlog_bytes', 'absent') for q in d['queues'] if q['direction']=='rx'][0]")"
check "noqueue: metric of TX queue 1" 0 "$(metric vqtune_queue_qdisc_backlog_bytes 1)"

# ---- 2. mq root, tbf on queue 1, every CPU's traffic on queue 1
tc -n "$A" qdisc add dev va root handle 1: mq || exit $KSFT_FAIL
tc -n "$A" qdisc add dev va parent 1:2 handle 20: tbf rate 1mbit burst 10kb \
	limit "$TBF_LIMIT_BYTES" || exit $KSFT_FAIL
ALL_CPUS=$(python3 -c 'import os; m = sum(1 << c for c in os.sched_getaffinity(0)); print(",".join("%08x" % (m >> s & 0xffffffff) for s in range(((max(os.sched_getaffinity(0)) // 32) * 32), -1, -32)))')
ip netns exec "$A" sh -c "echo 0 > /sys/class/net/va/queues/tx-0/xps_cpus &&
	echo $ALL_CPUS > /sys/class/net/va/queues/tx-1/xps_cpus" || exit $KSFT_FAIL

flood_start
# full: tc shows the queue near its limit
for _ in $(seq $((WAIT_S * 10))); do
	[ "$(tcq 1:2 backlog)" -ge $((TBF_LIMIT_BYTES / 2)) ] && break
	sleep 0.1
done
check_true "tc: the tbf on queue 1 holds a backlog" test "$(tcq 1:2 backlog)" -gt 0
sleep 0.3	# a few ticks with the queue full
# one process reads tc, the API, tc again, SAMPLES times: the API's tick lies between the two
# tc reads give or take one tick, and no interpreter start-up stretches the window
ip netns exec "$A" python3 - "$VQ_SOCK" "$A:va" "$SAMPLES" >"$VQ_TMP/samples" <<'PY'
import json, socket, subprocess, sys, time
sock, dev, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def tc():
	q = json.loads(subprocess.run(["tc", "-j", "-s", "qdisc", "show", "dev", "va", "parent",
				       "1:2"], capture_output=True, check=True).stdout)[0]
	return q["backlog"], q["qlen"]
def api():
	s = socket.socket(socket.AF_UNIX)
	s.connect(sock)
	s.sendall(("GET /v1/devices/%s/queues HTTP/1.0\r\nHost: localhost\r\n\r\n" % dev).encode())
	r = b""
	while True:
		c = s.recv(65536)
		if not c:
			break
		r += c
	d = json.loads(r.split(b"\r\n\r\n", 1)[1])
	q = [q for q in d["queues"] if q["direction"] == "tx" and q["queue"] == 1][0]
	return q["qdisc_backlog_bytes"], q["qdisc_qlen"]
for _ in range(n):
	(b1, p1), (ab, ap), (b2, p2) = tc(), api(), tc()
	print(b1, p1, ab, ap, b2, p2)
	time.sleep(0.2)
PY
agree=0
while read -r t1 p1 api apip t2 p2; do
	lo=$((t1 < t2 ? t1 : t2)); hi=$((t1 > t2 ? t1 : t2))
	plo=$((p1 < p2 ? p1 : p2)); phi=$((p1 > p2 ? p1 : p2))
	vq_log "tc ${t1}b ${p1}p / ${t2}b ${p2}p, API ${api}b ${apip}p"
	[ "$api" -gt 0 ] 2>/dev/null && within "$lo" "$hi" "$api" "$TOL_PCT" &&
		within "$plo" "$phi" "$apip" "$TOL_PCT" && agree=$((agree + 1))
done <"$VQ_TMP/samples"
check "API backlog of queue 1 > 0 and within ${TOL_PCT}% of tc, bytes and packets" \
	"$SAMPLES/$SAMPLES" "$agree/$SAMPLES"
check "idle TX queue 0 (pfifo_fast): backlog bytes" 0 "$(txq qdisc_backlog_bytes 0)"
check "idle TX queue 0: qlen" 0 "$(txq qdisc_qlen 0)"
check "tc agrees queue 0 is idle" 0 "$(tcq 1:1 backlog)"
m=$(metric vqtune_queue_qdisc_backlog_bytes 1)
check_true "metric backlog of queue 1 within ${TOL_PCT}% of the limit (got $m)" \
	within "$((TBF_LIMIT_BYTES / 2))" "$TBF_LIMIT_BYTES" "$m" "$TOL_PCT"
check "metric backlog of queue 0" 0 "$(metric vqtune_queue_qdisc_backlog_bytes 0)"
m=$(metric vqtune_queue_qdisc_qlen 1)
check_true "metric qlen of queue 1 > 0 (got $m)" test "$m" -gt 0 2>/dev/null

# ---- 3. the flood stops: the tbf drains (0.5 s at 1 Mbit/s)
flood_stop
check "drained: TX queue 1 backlog bytes" 0 "$(wait_txq qdisc_backlog_bytes 1 0)"
check "drained: TX queue 1 qlen" 0 "$(txq qdisc_qlen 1)"
check "tc agrees queue 1 drained" 0 "$(tcq 1:2 backlog)"

# ---- 4. one tbf root shared by both TX queues: queue 0 has it, queue 1 is unknown
tc -n "$A" qdisc del dev va root || exit $KSFT_FAIL
tc -n "$A" qdisc add dev va root handle 1: tbf rate 1mbit burst 10kb \
	limit "$TBF_LIMIT_BYTES" || exit $KSFT_FAIL
check "shared root: TX queue 1 backlog unknown (null)" None "$(wait_txq qdisc_backlog_bytes 1 None)"
check "shared root: TX queue 1 has no metric" absent "$(metric vqtune_queue_qdisc_backlog_bytes 1)"
flood_start
for _ in $(seq $((WAIT_S * 10))); do
	[ "$(tcq root backlog)" -ge $((TBF_LIMIT_BYTES / 2)) ] && break
	sleep 0.1
done
sleep 0.3
t1=$(tcq root backlog); api=$(txq qdisc_backlog_bytes 0); t2=$(tcq root backlog)
vq_log "shared root: tc ${t1}b / ${t2}b, API queue 0 ${api}b"
check_true "shared root: queue 0 backlog > 0 and within ${TOL_PCT}% of tc" \
	within "$((t1 < t2 ? t1 : t2))" "$((t1 > t2 ? t1 : t2))" "$api" "$TOL_PCT"
check_true "shared root: queue 0 backlog > 0" test "$api" -gt 0 2>/dev/null
flood_stop

# ---- back to the default
tc -n "$A" qdisc del dev va root || exit $KSFT_FAIL
check "default again: TX queue 1 backlog bytes" 0 "$(wait_txq qdisc_backlog_bytes 1 0)"
vq_done
