#!/bin/bash
# How often settings are re-read (daemon/sample.c SMP_ETHTOOL_REFRESH_NS, SMP_OBSERVED_NS):
# a managed device's after news of a change (settings_news.sh has the rest of that rule); an
# observed device is sampled every 10 s, settings and queue counts alike. vqtuned runs
# inside namespace A, so A's veth end va is its own namespace's device (observed,
# read-only), and B's end vb is managed (--netns B).
# - `ethtool -L` on both changes the queue counts: vb's rx-channels follow within
#   MANAGED_MS, va's within OBSERVED_MS, and each agrees with the rx queues shown.
# - va's device-wide gro_flush_timeout written in sysfs (no queue change; va has GRO off, so
#   no NAPI instance whose dump would carry it every tick) follows within
#   OBSERVED_MS; right after it followed (its refresh just ran), a second write is still not
#   seen STALE_MS later, and is seen by the next refresh.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
MANAGED_MS=2500		# a 1 s refresh behind a 100 ms tick, with room for a loaded machine
OBSERVED_MS=11500	# the 10 s sample of an observed device, same room
STALE_MS=3000		# va still shows the old value this long after its refresh
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
# GRO off: va has no NAPI instance, so its NAPI knobs are the device-wide sysfs ones, read
# at the settings refresh (with NAPIs they would come with every tick's NAPI dump)
ip netns exec "$A" ethtool -K va gro off >/dev/null || exit $KSFT_FAIL
VQ_DAEMON_NETNS=$A vq_daemon --netns "$B" --interval 100 || exit $KSFT_FAIL

# knob DEV NAME: the value vqtuned shows for DEV's ("va" or "$B:vb") device-wide knob NAME
knob() {
	curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$1" | vq_json \
		"[k['value'] for k in d.get('knobs', []) if k['name'] == '$2' and not k['instance']][0]" \
		2>/dev/null
}
channels() { knob "$1" rx-channels; }
gro() { knob va gro-flush-timeout; }
read_ns() {
	curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$1/queues" |
		vq_json 'd["settings_read_ns"]'
}
rx_queues() {
	curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$1" | vq_json 'd["rx_queues"]'
}
# set_channels N: `ethtool -L rx N tx N` on both ends, then vb (managed) shows N within
# MANAGED_MS (its queue counts changed), va (observed) by its next sample
set_channels() {
	local t
	ip netns exec "$A" ethtool -L va rx "$1" tx "$1"
	check "ethtool -L va rx $1 tx $1" 0 $?
	# news of it does not blank va's sample: its settings keep the time they were read
	sleep 0.3
	check_true "va (observed) keeps a settings_read_ns after the news ($(read_ns va))" \
		test "$(read_ns va)" -gt 0
	ip netns exec "$B" ethtool -L vb rx "$1" tx "$1"
	check "ethtool -L vb rx $1 tx $1" 0 $?
	t=$(vq_follow "channels $B:vb" "$1" "$MANAGED_MS")
	check_true "vb (managed) shows rx-channels $1 within $MANAGED_MS ms ($t)" \
		vq_within "$t" "$MANAGED_MS"
	check "... and its rx_queues agree" "$1" "$(rx_queues "$B:vb")"
	t=$(vq_follow "channels va" "$1" "$OBSERVED_MS")
	check_true "va (observed) shows rx-channels $1 within $OBSERVED_MS ms, its next sample ($t)" \
		vq_within "$t" "$OBSERVED_MS"
	check "... and its rx_queues agree" "$1" "$(rx_queues va)"
}
# set_gro NS: va's device-wide gro_flush_timeout (ns) written in its sysfs
set_gro() {
	ip netns exec "$A" sh -c "echo $1 > /sys/class/net/va/gro_flush_timeout"
	check "va gro_flush_timeout $1 written" 0 $?
}

check "va (observed) shows its 2 RX channels" 2 "$(channels va)"
check "vb (managed) shows its 2 RX channels" 2 "$(channels "$B:vb")"
check "va is observed read-only" False \
	"$(curl -s --unix-socket "$VQ_SOCK" http://localhost/v1/devices/va | vq_json 'd["managed"]')"
check "va shows a device-wide gro-flush-timeout of 0" 0 "$(gro)"

set_channels 1
set_channels 2

set_gro 20000
t_va=$(vq_follow gro 20000 "$OBSERVED_MS")
check_true "va (observed) shows gro-flush-timeout 20000 within $OBSERVED_MS ms ($t_va)" \
	vq_within "$t_va" "$OBSERVED_MS"
# va was just re-read: the next write waits for its next refresh
set_gro 30000
t_va=$(vq_follow gro 30000 "$STALE_MS")
check "va (observed) still shows gro-flush-timeout 20000 for $STALE_MS ms after its refresh" \
	never "$t_va"
t_va=$(vq_follow gro 30000 "$OBSERVED_MS")
check_true "va (observed) shows gro-flush-timeout 30000 by its next refresh ($t_va ms)" \
	vq_within "$t_va" "$OBSERVED_MS"
ip netns exec "$A" sh -c "echo 0 > /sys/class/net/va/gro_flush_timeout"
vq_done
