#!/bin/bash
# Without --manage the daemon only observes the host's own link: eth0 is listed with the
# driver ethtool reports and the counters sysfs shows, and every write to it is refused
# (CLI exit 1 "read-only", API 403 read_only) with the kernel values left as they were.
# This test only READS eth0; it never writes it.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
HOST_DEV=eth0
STATS=/sys/class/net/$HOST_DEV/statistics
[ -d "/sys/class/net/$HOST_DEV" ] || { echo "SKIP: no $HOST_DEV"; exit $KSFT_SKIP; }
# eth0 is observed, so sampled at the start and every 10 s (vqtuned(8) --interval): its
# counters in the view lie between a read before the start and one after the query
rx1=$(cat "$STATS/rx_bytes"); tx1=$(cat "$STATS/tx_bytes")
vq_daemon --interval 100 || exit $KSFT_FAIL

drv=$(ethtool -i "$HOST_DEV" | awk '$1 == "driver:" { print $2 }')
ifx=$(cat "/sys/class/net/$HOST_DEV/ifindex")
gro_before=$(cat "/sys/class/net/$HOST_DEV/gro_flush_timeout")
napi_before=$(python3 "$NAPI_READ" | awk -v i="$ifx" '$2 == i' | sort -n)

vq_ctl --json devices >"$VQ_TMP/devs.json"
check "vqtunectl --json devices exit code" 0 $?
rx2=$(cat "$STATS/rx_bytes"); tx2=$(cat "$STATS/tx_bytes")

read -r n managed netns jdrv jifx rx tx < <(python3 - "$VQ_TMP/devs.json" "$HOST_DEV" <<'EOF'
import json, sys
d = [x for x in json.load(open(sys.argv[1]))["devices"]
     if x["name"] == sys.argv[2] and x["netns"] == ""]
x = d[0] if d else {}
print(len(d), x.get("managed"), repr(x.get("netns")), x.get("driver"), x.get("ifindex"),
      x.get("rx_bytes"), x.get("tx_bytes"))
EOF
)
check "$HOST_DEV listed once in the own namespace" 1 "$n"
check "$HOST_DEV managed" False "$managed"
check "$HOST_DEV netns" "''" "$netns"
check "$HOST_DEV driver as ethtool -i reports it" "$drv" "$jdrv"
check_true "$HOST_DEV driver not empty" test -n "$drv"
check "$HOST_DEV ifindex" "$ifx" "$jifx"
check_true "rx_bytes $rx within sysfs reads [$rx1, $rx2]" \
	test "${rx:-x}" -ge "$rx1" -a "${rx:-x}" -le "$rx2"
check_true "tx_bytes $tx within sysfs reads [$tx1, $tx2]" \
	test "${tx:-x}" -ge "$tx1" -a "${tx:-x}" -le "$tx2"

# the CLI refuses, with the documented exit status and message
for sel in "$HOST_DEV" "-:$HOST_DEV"; do
	out=$(vq_ctl set "$sel" gro-flush-timeout 1000 2>&1)
	check "vqtunectl set $sel exit code" 1 $?
	check_true "vqtunectl set $sel says read-only ($out)" grep -q 'read-only' <<<"$out"
done
# and so does the API
r=$(vq_api PUT "/v1/devices/-:$HOST_DEV/knobs/defer-hard-irqs" '{"value":3}')
check "API PUT on $HOST_DEV status" 403 "${r%% *}"
check "API PUT on $HOST_DEV error code" read_only "$(echo "${r#* }" | vq_json 'd["error"]["code"]')"

check "$HOST_DEV gro_flush_timeout unchanged" "$gro_before" \
	"$(cat "/sys/class/net/$HOST_DEV/gro_flush_timeout")"
check "$HOST_DEV NAPI values unchanged" "$napi_before" \
	"$(python3 "$NAPI_READ" | awk -v i="$ifx" '$2 == i' | sort -n)"
check "no change event" 0 "$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["events"]')"
vq_done
