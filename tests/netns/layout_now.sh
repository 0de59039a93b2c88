#!/bin/bash
# A device's queue layout and settings in the views and the sets follow a reconfiguration at
# once, not at the next tick (daemon/sample.c smp_news_refresh()): the tick here is 30 s, so
# the start's sample is the only one. A channel change through vqtunectl (the daemon's own
# write), an outside `ethtool -L` (the ethtool family's news, drained by the request) and a
# restore each leave the device view's queue counts, channel counts and the NAPI instances
# of its knobs those the kernel has; a set of a NAPI knob on every instance right after a
# channel change writes the NAPIs that exist, where it used to fail on one the change had
# deleted. A device-wide NAPI value's restore shows in every NAPI's row at once.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
vq_daemon --netns "$A" --netns "$B" --interval 30000 || exit $KSFT_FAIL
IFX=$(vq_ifindex "$A" va)
# the kernel's NAPI ids of va, ascending (an independent netlink reader)
kernel_napis() { ip netns exec "$A" python3 "$NAPI_READ" | awk -v i="$IFX" '$2 == i { print $1 }' |
	sort -n | paste -sd' '; }
# "rx_queues tx_queues | NAPI ids of gro-flush-timeout | rx-channels tx-channels" as the
# device view gives them
view() {
	vq_ctl --json device "$A:va" | vq_json '"%d %d | %s | %s" % (d["rx_queues"], d["tx_queues"],
		" ".join(str(k["napi_id"]) for k in d["knobs"] if k["name"] == "gro-flush-timeout"),
		" ".join(str(k["value"]) for n in ("rx-channels", "tx-channels")
			 for k in d["knobs"] if k["name"] == n))'
}
gft() { ip netns exec "$A" python3 "$NAPI_READ" | awk -v i="$IFX" '$2 == i { print $4 }' |
	paste -sd' '; }

check "at the start: 2 queues each way, the kernel's two NAPIs, 2 channels each way" \
	"2 2 | $(kernel_napis) | 2 2" "$(view)"

vq_ctl set "$A:va" rx-channels 1 --disruptive >/dev/null &&
	vq_ctl set "$A:va" tx-channels 1 --disruptive >/dev/null
check "vqtunectl set rx-channels 1, tx-channels 1: exit code" 0 $?
check_true "... one NAPI left ($(kernel_napis))" bash -c "[ \$(wc -w <<<'$(kernel_napis)') = 1 ]"
check "... the view at once: 1 queue each way, that NAPI, 1 channel each way" \
	"1 1 | $(kernel_napis) | 1 1" "$(view)"
out=$(vq_ctl set "$A:va" gro-flush-timeout 20000 2>&1)
check "set gro-flush-timeout 20000 on every NAPI: exit code ($out)" 0 $?
check "... one change, on the NAPI that is left" \
	"gro-flush-timeout napi-$(kernel_napis): 0 -> 20000" "$out"
check "... the kernel's" 20000 "$(gft)"

# an outside writer: the ethtool family's news tells the next request
ip netns exec "$A" ethtool -L va rx 2 tx 2 || exit $KSFT_FAIL
check_true "ethtool -L va rx 2 tx 2: two NAPIs again ($(kernel_napis))" \
	bash -c "[ \$(wc -w <<<'$(kernel_napis)') = 2 ]"
check "... the view at once: 2 queues each way, both NAPIs, 2 channels each way" \
	"2 2 | $(kernel_napis) | 2 2" "$(view)"

# the restore puts the channels back (2, where ethtool left them too) and the NAPI value
vq_ctl restore >/dev/null
check "vqtunectl restore: exit code" 0 $?
check "... the view: 2 queues each way, the kernel's NAPIs, 2 channels each way" \
	"2 2 | $(kernel_napis) | 2 2" "$(view)"
check "... gro-flush-timeout back to 0 on every NAPI" "0 0" "$(gft)"
check "... nothing owed" 0 "$(vq_api GET /v1/status | cut -d' ' -f2- |
	vq_json 'd["changed_knobs"]')"

# a device-wide NAPI value (sysfs, written while va has no NAPI) is copied into the NAPIs
# it gets with GRO on; its restore writes them all, and the view shows that at once
view_gft() {
	vq_ctl --json knobs "$A:va" | vq_json '" ".join("%s:%s" % (k.get("napi_id", "-"), k["value"])
		for k in d["knobs"] if k["name"] == "gro-flush-timeout")'
}
ip netns exec "$A" ethtool -K va gro off >/dev/null || exit $KSFT_FAIL
vq_ctl set "$A:va" gro-flush-timeout 40000 >/dev/null
check "GRO off: set gro-flush-timeout 40000 device-wide, exit code" 0 $?
check "... through sysfs" sysfs-napi "$(vq_ctl --json knobs "$A:va" | vq_json '[k["provider"]
	for k in d["knobs"] if k["name"] == "gro-flush-timeout"][0]')"
ip netns exec "$A" ethtool -K va gro on >/dev/null || exit $KSFT_FAIL
check "GRO on: the new NAPIs hold it" "40000 40000" "$(gft)"
check "... and the view says so" "$(kernel_napis | sed 's/\([0-9]*\)/\1:40000/g')" "$(view_gft)"
vq_ctl restore >/dev/null
check "restore: exit code" 0 $?
check "... every NAPI back at 0" "0 0" "$(gft)"
check "... the view at once" "$(kernel_napis | sed 's/\([0-9]*\)/\1:0/g')" "$(view_gft)"
vq_done
