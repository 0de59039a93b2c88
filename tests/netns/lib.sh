#!/bin/bash
# Shared helpers for the netns integration tier (kselftest style: exit 0 pass, 1 fail,
# 4 skip). Source it, then call vq_init. Everything a test creates is recorded here and
# removed by vq_cleanup (trapped on EXIT): namespaces by name, processes by PID, files.
# Nothing here touches the host's own interfaces.

VQ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VQTUNED=$VQ_ROOT/build/vqtuned
VQTUNECTL=$VQ_ROOT/build/vqtunectl
NAPI_READ=$VQ_ROOT/tests/tools/napi_read.py
CHANNELS_IOCTL=$VQ_ROOT/tests/tools/channels_ioctl.py
KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

VQ_PIDS=()
VQ_TMP=
VQ_FAILS=0
VQ_SOCK=
VQ_STATE=
VQ_DPID=

vq_log() { printf '# %s\n' "$*"; }

vq_cleanup() {
	local p ns
	for p in "${VQ_PIDS[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in "${VQ_PIDS[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	# vq_netns runs in $(...) subshells, so namespaces are found by this test's unique prefix
	for ns in $(ip netns list | awk -v p="$VQ_ID-" 'index($1, p) == 1 { print $1 }'); do
		ip netns del "$ns" || echo "# cleanup: could not delete netns $ns"
	done
	[ -n "$VQ_TMP" ] && rm -rf "$VQ_TMP"
}

# vq_init: temp dir, cleanup trap, unique prefix in $VQ_ID.
vq_init() {
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for network namespaces"; exit $KSFT_SKIP; }
	VQ_TMP=$(mktemp -d /tmp/vqtest.XXXXXX)
	VQ_ID=vqt$$
	trap vq_cleanup EXIT
}

# vq_netns NAME: create a namespace (name prefixed with $VQ_ID-) and print its full name.
vq_netns() {
	local ns=$VQ_ID-$1
	ip netns add "$ns" || return 1
	ip -n "$ns" link set lo up
	echo "$ns"
}

# vq_veth NS_A DEV_A NS_B DEV_B QUEUES: a veth pair across two namespaces with QUEUES
# channels each way, GRO on (so veth runs NAPI), addresses 192.0.2.1/.2 (TEST-NET-1), which
# exist only inside these two namespaces.
vq_veth() {
	local a=$1 da=$2 b=$3 db=$4 q=${5:-1}
	ip -n "$a" link add "$da" numtxqueues "$q" numrxqueues "$q" type veth \
		peer name "$db" netns "$b" numtxqueues "$q" numrxqueues "$q" || return 1
	ip -n "$a" addr add 192.0.2.1/24 dev "$da"
	ip -n "$b" addr add 192.0.2.2/24 dev "$db"
	ip -n "$a" link set "$da" up
	ip -n "$b" link set "$db" up
	ip netns exec "$a" ethtool -K "$da" gro on >/dev/null
	ip netns exec "$b" ethtool -K "$db" gro on >/dev/null
}

# vq_daemon ARGS...: start vqtuned with a private socket and state dir; wait until it serves.
# VQ_DAEMON_NETNS=NS runs it inside NS (ip netns exec execs it: $VQ_DPID is vqtuned's pid).
vq_daemon() {
	VQ_SOCK=$VQ_TMP/vqtuned.sock
	VQ_STATE=${VQ_STATE:-$VQ_TMP/state}
	${VQ_DAEMON_NETNS:+ip netns exec "$VQ_DAEMON_NETNS"} "$VQTUNED" -s "$VQ_SOCK" -S "$VQ_STATE" "$@" >>"$VQ_TMP/vqtuned.log" 2>&1 &
	VQ_DPID=$!
	VQ_PIDS+=("$VQ_DPID")
	for _ in $(seq 100); do
		[ -S "$VQ_SOCK" ] && curl -sf --unix-socket "$VQ_SOCK" http://localhost/healthz \
			>/dev/null && return 0
		kill -0 "$VQ_DPID" 2>/dev/null || break
		sleep 0.1
	done
	echo "vqtuned did not start:"; cat "$VQ_TMP/vqtuned.log"
	return 1
}

# vq_daemon_stop [SIGNAL]: stop the daemon started by vq_daemon and wait for it.
vq_daemon_stop() {
	kill -"${1:-TERM}" "$VQ_DPID" 2>/dev/null
	wait "$VQ_DPID" 2>/dev/null
	local rc=$?
	VQ_DPID=
	return $rc
}

# vq_api METHOD PATH [BODY [CONTENT_TYPE]]: prints "STATUS BODY".
vq_api() {
	local m=$1 p=$2 body=${3-} ct=${4:-application/json} out code
	out=$VQ_TMP/api.out
	if [ -n "$body" ]; then
		code=$(curl -s -o "$out" -w '%{http_code}' --unix-socket "$VQ_SOCK" -X "$m" \
			-H "Content-Type: $ct" --data-binary "$body" "http://localhost$p")
	else
		code=$(curl -s -o "$out" -w '%{http_code}' --unix-socket "$VQ_SOCK" -X "$m" \
			"http://localhost$p")
	fi
	printf '%s %s\n' "$code" "$(cat "$out")"
}

vq_ctl() { "$VQTUNECTL" -s "$VQ_SOCK" "$@"; }

# jq-free JSON field access: vq_json 'EXPR' reads JSON on stdin, prints python's eval of
# EXPR with the document bound to d.
vq_json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# vq_napi NS IFINDEX FIELD: a NAPI value read by the independent reader (not the daemon).
# FIELD: defer_hard_irqs | gro_flush_timeout | irq_suspend_timeout | threaded
vq_napi() {
	local col
	case $3 in
	defer_hard_irqs) col=3 ;; gro_flush_timeout) col=4 ;;
	irq_suspend_timeout) col=5 ;; threaded) col=6 ;;
	esac
	ip netns exec "$1" python3 "$NAPI_READ" | awk -v i="$2" -v c="$col" '$2 == i { print $c; exit }'
}

vq_ifindex() { ip netns exec "$1" cat "/sys/class/net/$2/ifindex"; }

# check DESCRIPTION EXPECTED ACTUAL
check() {
	if [ "$2" == "$3" ]; then
		printf 'ok: %s (%s)\n' "$1" "$3"
	else
		printf 'FAIL: %s: expected [%s], got [%s]\n' "$1" "$2" "$3"
		VQ_FAILS=$((VQ_FAILS + 1))
	fi
}

# check_true DESCRIPTION COMMAND...
check_true() {
	local d=$1; shift
	if "$@"; then
		printf 'ok: %s\n' "$d"
	else
		printf 'FAIL: %s\n' "$d"
		VQ_FAILS=$((VQ_FAILS + 1))
	fi
}

vq_done() {
	if [ "$VQ_FAILS" -ne 0 ]; then
		echo "--- vqtuned log ---"; tail -50 "$VQ_TMP/vqtuned.log" 2>/dev/null
		exit $KSFT_FAIL
	fi
	exit $KSFT_PASS
}
