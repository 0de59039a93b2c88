#!/bin/bash
# Extra helpers for the netns tier, on top of lib.sh (source lib.sh first). Same rules: only
# namespaces, processes and files this test created are touched; nothing writes the host's
# own interfaces.

VQ_POLL_S=0.1		# poll step while waiting for the daemon to see a change (one tick)

# vq_code METHOD PATH [BODY [CONTENT_TYPE]]: only the HTTP status of a request on the socket.
vq_code() { vq_api "$@" | cut -d' ' -f1; }

# vq_healthy: the daemon started by vq_daemon is alive and /healthz answers 200 "ok".
vq_healthy() {
	kill -0 "$VQ_DPID" 2>/dev/null || return 1
	[ "$(curl -s -m 5 --unix-socket "$VQ_SOCK" -o /dev/null -w '%{http_code}' \
		http://localhost/healthz)" == 200 ]
}

# vq_wait_code CODE METHOD PATH SECONDS: poll until the request answers CODE; prints the
# milliseconds it took; fails (and prints the last code) after SECONDS.
vq_wait_code() {
	local want=$1 m=$2 p=$3 limit_ms=$(( ${4%.*} * 1000 )) start now code
	start=$(date +%s%3N)
	while :; do
		code=$(vq_code "$m" "$p")
		now=$(date +%s%3N)
		[ "$code" == "$want" ] && { echo $((now - start)); return 0; }
		[ $((now - start)) -gt "$limit_ms" ] && { echo "timeout(last $code)"; return 1; }
		sleep "$VQ_POLL_S"
	done
}

# vq_free_port: a loopback TCP port nobody listens on right now (the daemon's bind is the
# real test: callers retry on a clash).
vq_free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 40000))
		ss -ltnH "sport = :$p" | grep -q . || { echo "$p"; return 0; }
	done
	return 1
}

# vq_daemon_tcp ARGS...: vq_daemon with --listen 127.0.0.1:PORT on a free port, retried on a
# port clash; sets VQ_PORT. The caller checks /v1/status's pid to be sure who answers.
vq_daemon_tcp() {
	for _ in 1 2 3; do
		VQ_PORT=$(vq_free_port) || return 1
		vq_daemon --listen "127.0.0.1:$VQ_PORT" "$@" >/dev/null && return 0
	done
	return 1
}

# vq_napi_lines NS IFINDEX: every NAPI line of one device from the independent reader,
# sorted by NAPI id (a fingerprint of all its NAPI values).
vq_napi_lines() {
	ip netns exec "$1" python3 "$NAPI_READ" | awk -v i="$2" '$2 == i' | sort -n
}

# vq_now_ms: the wall clock in ms, into $NOW (no subshell, so a poll loop can keep it)
vq_now_ms() { local t=${EPOCHREALTIME/[.,]/}; NOW=$((t / 1000)); }
# vq_follow CMD VALUE LIMIT_MS: ms until CMD prints VALUE (polled every 100 ms), or "never"
vq_follow() {
	local t0 v
	vq_now_ms; t0=$NOW
	while vq_now_ms; [ $((NOW - t0)) -le "$3" ]; do
		v=$($1)
		[ "$v" = "$2" ] && { echo $((NOW - t0)); return 0; }
		sleep 0.1
	done
	echo never
}
# vq_within T LIMIT_MS: vq_follow's T came, within LIMIT_MS
vq_within() { [ "$1" != never ] && [ "$1" -le "$2" ]; }
