#!/bin/bash
# How often settings are re-read (daemon/sample.c SMP_ETHTOOL_*): a managed device's ethtool
# settings at most once a second, an observed one's every 10 s. vqtuned runs inside
# namespace A, so A's veth end va is its own namespace's device (observed, read-only), and
# B's end vb is managed (--netns B). `ethtool -L` on both: vb's rx-channels follows within
# MANAGED_MS, va's within OBSERVED_MS. Right after va's value followed (its refresh just
# ran), a second change shows on vb but not yet on va, and reaches va by the next refresh.
source "$(dirname "$0")/lib.sh"
vq_init
MANAGED_MS=2500		# a 1 s refresh behind a 100 ms tick, with room for a loaded machine
OBSERVED_MS=11500	# the 10 s refresh, same room
STALE_MS=3000		# va still shows the old value this long after its refresh
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
VQ_DAEMON_NETNS=$A vq_daemon --netns "$B" --interval 100 || exit $KSFT_FAIL

# channels DEV: the rx-channels value vqtuned shows for DEV ("va" or "$B:vb")
channels() {
	curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$1" | vq_json \
		'[k["value"] for k in d.get("knobs", []) if k["name"] == "rx-channels"][0]' \
		2>/dev/null
}
now_ms() { local t=${EPOCHREALTIME/[.,]/}; NOW=$((t / 1000)); }
# follow DEV VALUE LIMIT_MS: ms until DEV shows VALUE (polled every 100 ms), or "never"
follow() {
	local t0 v
	now_ms; t0=$NOW
	while now_ms; [ $((NOW - t0)) -le "$3" ]; do
		v=$(channels "$1")
		[ "$v" = "$2" ] && { echo $((NOW - t0)); return 0; }
		sleep 0.1
	done
	echo never
}
within() { [ "$1" != never ] && [ "$1" -le "$2" ]; }
# set_channels N: `ethtool -L rx N tx N` on both ends, then vb (managed) shows N within
# MANAGED_MS
set_channels() {
	ip netns exec "$A" ethtool -L va rx "$1" tx "$1"
	check "ethtool -L va rx $1 tx $1" 0 $?
	ip netns exec "$B" ethtool -L vb rx "$1" tx "$1"
	check "ethtool -L vb rx $1 tx $1" 0 $?
	t_vb=$(follow "$B:vb" "$1" "$MANAGED_MS")
	check_true "vb (managed) shows rx-channels $1 within $MANAGED_MS ms ($t_vb)" \
		within "$t_vb" "$MANAGED_MS"
}

check "va (observed) shows its 2 RX channels" 2 "$(channels va)"
check "vb (managed) shows its 2 RX channels" 2 "$(channels "$B:vb")"
check "va is observed read-only" False \
	"$(curl -s --unix-socket "$VQ_SOCK" http://localhost/v1/devices/va | vq_json 'd["managed"]')"

set_channels 1
t_va=$(follow va 1 "$OBSERVED_MS")
check_true "va (observed) shows rx-channels 1 within $OBSERVED_MS ms ($t_va)" \
	within "$t_va" "$OBSERVED_MS"

# va was just re-read: the next change waits for its next refresh, vb's does not
set_channels 2
t_va=$(follow va 2 "$STALE_MS")
check "va (observed) still shows rx-channels 1 for $STALE_MS ms after its refresh" never "$t_va"
t_va=$(follow va 2 "$OBSERVED_MS")
check_true "va (observed) shows rx-channels 2 by its next refresh ($t_va ms)" \
	within "$t_va" "$OBSERVED_MS"
vq_done
