#!/bin/bash
# Slow clients on the TCP listener ("slowloris"): 70 connections that send a request line
# and then one header line a second never finish their request. Each is closed once it has
# not sent a whole request within the 10 s receive deadline, so a normal client is served
# while they still trickle (before, they held all 64 connection slots for as long as they
# kept sending). A client whose headers take 3 s is still served, and the daemon stays up.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
SLOW_CONNS=70		# more than the daemon's 64 connection slots
TRICKLE_S=30		# how long they keep trickling: longer than the curl below may wait
CURL_MAX_S=25		# the normal client's patience: > the 10 s deadline, < TRICKLE_S
A=$(vq_netns a) || exit $KSFT_FAIL

cat >"$VQ_TMP/slow.py" <<'EOF'
# slow.py PORT N SECONDS: N connections trickle header lines, one per second each; prints
# how many the server closed and whether any was still open at the end.
import socket, sys, time
port, n, dur = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
socks, closed = [], set()
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /v1/status HTTP/1.1\r\nHost: t\r\n")
    s.setblocking(False)
    socks.append(s)
end = time.monotonic() + dur
while time.monotonic() < end:
    for i, s in enumerate(socks):
        if i in closed:
            continue
        try:
            if s.recv(4096) == b"":
                closed.add(i)
                continue
        except BlockingIOError:
            pass
        except OSError:
            closed.add(i)
            continue
        try:
            s.send(b"X-Slow: %d\r\n" % i)
        except OSError:
            closed.add(i)
    time.sleep(1)
print("closed %d of %d" % (len(closed), n))
EOF

cat >"$VQ_TMP/slowok.py" <<'EOF'
# slowok.py PORT: a request whose header lines take 3 s in all; prints the status line.
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
for line in (b"GET /v1/status HTTP/1.1\r\n", b"Host: t\r\n", b"Accept: */*\r\n"):
    s.sendall(line)
    time.sleep(1)
s.sendall(b"Connection: close\r\n\r\n")
print(s.makefile("rb").readline().decode().strip())
EOF

vq_daemon_tcp --netns "$A" --interval 100 || { echo "FAIL: no daemon"; exit $KSFT_FAIL; }
vq_log "TCP listener on 127.0.0.1:$VQ_PORT"

python3 "$VQ_TMP/slow.py" "$VQ_PORT" $SLOW_CONNS $TRICKLE_S >"$VQ_TMP/slow.out" 2>&1 &
SPID=$!
VQ_PIDS+=("$SPID")
sleep 2
code=$(curl -s -m $CURL_MAX_S -o /dev/null -w '%{http_code}' "http://127.0.0.1:$VQ_PORT/v1/status")
check "a normal client is served while $SLOW_CONNS slow ones trickle: status" 200 "$code"
check_true "... and they were still trickling then" kill -0 "$SPID"
wait "$SPID"
check "slow clients closed by the server" "closed $SLOW_CONNS of $SLOW_CONNS" "$(cat "$VQ_TMP/slow.out")"
check_true "the daemon logs the deadline ($(grep -m1 'no whole request' "$VQ_TMP/vqtuned.log"))" \
	grep -q "sent no whole request within 10 s" "$VQ_TMP/vqtuned.log"

check "headers sent over 3 s (under the deadline): status line" "HTTP/1.1 200 OK" \
	"$(python3 "$VQ_TMP/slowok.py" "$VQ_PORT")"
check_true "the daemon is healthy" vq_healthy
vq_done
