#!/bin/bash
# A managed device's ethtool settings and queue layout are re-read on news, not on a clock
# (daemon/sample.c SMP_NEWS_SAFETY_NS): the ethtool family's settings notifications (sent
# for netlink and ioctl writes alike), a link notification, a change in its NAPI ids; and at
# least every 10 s. Both veth ends are managed (--netns A --netns B), the tick is 100 ms.
# - Idle, vb's settings are read no more often than the safety net: over 12 s their age
#   (the device's sample time less settings_read_ns) passes 5 s (a once-a-second read would
#   keep it near 1 s) and never 10 s plus room, and the safety net reads them again.
# - A channels change through netlink (ethtool -L), then through the ioctl
#   (tests/tools/channels_ioctl.py): vb's rx-channels and rx_queues follow within NEWS_MS,
#   far under the safety net.
# Not here: which NAPI serves each queue (re-read on a change of the device's NAPI ids), since
# neither veth nor vqpair tells the netdev family's queue dump; virtio_net does.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
NEWS_MS=1500		# a notification read by the next tick (100 ms), with room for load
SAFETY_MS=10000		# SMP_NEWS_SAFETY_NS
ROOM_MS=1500
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL

queues() { curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$B:vb/queues"; }
# "sampled_ns settings_read_ns" of vb
times() { queues | vq_json 'str(d["sampled_ns"]) + " " + str(d["settings_read_ns"])'; }
channels() {
	curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$B:vb" | vq_json \
		"[k['value'] for k in d['knobs'] if k['name'] == 'rx-channels'][0]" 2>/dev/null
}
rx_queues() {
	curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$B:vb" | vq_json 'd["rx_queues"]'
}
check "vb is managed" True "$(curl -s --unix-socket "$VQ_SOCK" \
	"http://localhost/v1/devices/$B:vb" | vq_json 'd["managed"]')"

# idle: the settings age past a once-a-second poll, and the safety net reads them again
max_age=0 reads=0 last=
end=$((SECONDS + 12))
while [ "$SECONDS" -lt "$end" ]; do
	read -r s r < <(times)
	age=$(((s - r) / 1000000))
	[ "$age" -gt "$max_age" ] && max_age=$age
	[ -n "$last" ] && [ "$r" != "$last" ] && reads=$((reads + 1))
	last=$r
	sleep 0.25
done
check_true "idle: vb's settings get older than 5 s between reads (oldest $max_age ms)" \
	test "$max_age" -ge 5000
check_true "idle: ... and never older than the ${SAFETY_MS} ms safety net plus room ($max_age ms)" \
	test "$max_age" -le $((SAFETY_MS + ROOM_MS))
check_true "idle: the safety net read them again in 12 s ($reads reads)" test "$reads" -ge 1

# set_channels N HOW: vb's channels set to rx N tx N through HOW (netlink: ethtool -L; ioctl:
# SIOCETHTOOL); vb shows it within NEWS_MS
set_channels() {
	local t
	if [ "$2" = netlink ]; then
		ip netns exec "$B" ethtool -L vb rx "$1" tx "$1"
	else
		ip netns exec "$B" python3 "$CHANNELS_IOCTL" vb "$1" "$1"
	fi
	check "rx $1 tx $1 through $2" 0 $?
	t=$(vq_follow channels "$1" "$NEWS_MS")
	check_true "vb shows rx-channels $1 within $NEWS_MS ms of a write through $2 ($t)" \
		vq_within "$t" "$NEWS_MS"
	check "... and its rx_queues agree" "$1" "$(rx_queues)"
}
# vb down first: a veth that is up announces a channels change as link news too, which
# re-reads the layout on its own; a down one does not, so only settings news can tell
ip -n "$B" link set vb down
check "vb down" 0 $?
sleep 1			# the link news of the down itself, taken in
ip netns exec "$B" ip monitor link > "$VQ_TMP/linkmon" 2>&1 &
MON=$!
VQ_PIDS+=("$MON")
sleep 0.3
set_channels 1 netlink
set_channels 2 ioctl
set_channels 1 ioctl
kill "$MON"
wait "$MON" 2>/dev/null
check "no link news in B while the channels changed (settings news alone told the daemon)" "" \
	"$(cat "$VQ_TMP/linkmon")"
ip -n "$B" link set vb up
# a write the driver refuses changes nothing and is no news: the settings are not read
# for it (unless the 10 s safety net falls in these 0.5 s, a read 10 s after the last)
read -r _ r0 < <(times)
ip netns exec "$B" python3 "$CHANNELS_IOCTL" vb 9 9 2>/dev/null
check "rx 9 tx 9 through the ioctl: refused" 1 $?
sleep 0.5
read -r _ r1 < <(times)
check_true "... no settings read for it ($(((r1 - r0) / 1000000)) ms after the one before)" \
	test "$r1" = "$r0" -o $(((r1 - r0) / 1000000)) -ge $((SAFETY_MS - 500))
check "... vb still shows rx-channels 1" 1 "$(channels)"
vq_done
