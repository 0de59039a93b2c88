#!/bin/bash
# A device name that is not UTF-8 (byte 0xFF): the JSON stays valid and shows the display
# form v\xff0 with name_hex 76ff30; the device is found by its raw bytes and by its display
# form, percent-encoded; /metrics escapes the display form's backslash once more and
# promtool accepts it; the CLI prints and writes it. With a second device literally named
# "v\xff0" beside it, that selector is a 409 whose message gives each its own selector.
# Event reasons and the log's event lines quote the display form once (v\xff0; a device
# named q"\ reads q"\\, never q"\\\\).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
RAW=$'v\xff0'
DISPLAY='v\xff0'		# literal backslash, x, f, f
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
ip -n "$A" link add "$RAW" type veth peer name vp netns "$B" || exit $KSFT_FAIL
ip -n "$A" link set "$RAW" up && ip -n "$B" link set vp up || exit $KSFT_FAIL
ip netns exec "$A" ethtool -K "$RAW" gro on >/dev/null	# a NAPI to write
IFX=$(vq_ifindex "$A" "$RAW")
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL

curl -s --unix-socket "$VQ_SOCK" http://localhost/v1/devices >"$VQ_TMP/devs.raw"
read -r n name hex ifx < <(python3 - "$VQ_TMP/devs.raw" "$A" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1], "rb").read())	# raises on bytes that are not UTF-8
x = [x for x in d["devices"] if x["netns"] == sys.argv[2] and x["name"] != "lo"]
print(len(x), x[0]["name"] if x else "-", x[0]["name_hex"] if x else "-",
      x[0]["ifindex"] if x else "-")
EOF
)
check "/v1/devices is valid JSON with one device in A" 1 "$n"
check "name in display form" "$DISPLAY" "$name"
check "name_hex" 76ff30 "$hex"
check "ifindex" "$IFX" "$ifx"

for enc in 'v%FF0' 'v%5Cxff0' 'v%5cxff0'; do
	r=$(curl -s --unix-socket "$VQ_SOCK" -w ' %{http_code}' \
		"http://localhost/v1/devices/$A:$enc")
	check "GET /v1/devices/NS:$enc status" 200 "${r##* }"
	check "GET /v1/devices/NS:$enc name_hex" 76ff30 \
		"$(echo "${r% *}" | vq_json 'd["name_hex"]')"
done

curl -s --unix-socket "$VQ_SOCK" http://localhost/metrics >"$VQ_TMP/metrics"
check_true '/metrics has device="v\\xff0" (display form, backslash escaped)' \
	grep -qF "vqtune_device_info{device=\"v\\\\xff0\",netns=\"$A\"" "$VQ_TMP/metrics"
check "/metrics has no raw 0xFF byte" 0 "$(LC_ALL=C grep -c $'\xff' "$VQ_TMP/metrics")"
promtool check metrics <"$VQ_TMP/metrics" >"$VQ_TMP/promtool.out" 2>&1
check "promtool check metrics exit code" 0 $?
[ -s "$VQ_TMP/promtool.out" ] && cat "$VQ_TMP/promtool.out"

line=$(vq_ctl devices | awk -v ns="$A" '$2 == ns && $1 != "lo"')
check "vqtunectl devices prints the display form" "$DISPLAY" "$(awk '{ print $1 }' <<<"$line")"

ORIG=$(vq_napi "$A" "$IFX" gro_flush_timeout)
vq_ctl set "$A:$RAW" gro-flush-timeout 1000 >/dev/null
check "vqtunectl set NS:<raw name> exit code" 0 $?
check "gro-flush-timeout as the kernel reports it" 1000 "$(vq_napi "$A" "$IFX" gro_flush_timeout)"
vq_ctl set "$A:$DISPLAY" gro-flush-timeout 2000 >/dev/null
check "vqtunectl set NS:<display form> exit code" 0 $?
check "gro-flush-timeout after the display-form set" 2000 \
	"$(vq_napi "$A" "$IFX" gro_flush_timeout)"
ev=$(vq_api GET /v1/events | cut -d' ' -f2- | vq_json '" ".join(e["device"] for e in d["events"])')
check "events name the device in display form" "$DISPLAY $DISPLAY" "$ev"
# the reason quotes the name in display form once, in the event and in the log alike
WANT="manual set of gro-flush-timeout on $A:$DISPLAY"
ev=$(vq_api GET /v1/events | cut -d' ' -f2- | vq_json '"|".join(e["reason"] for e in d["events"])')
check "event reasons quote the display form once" "$WANT|$WANT" "$ev"
check "log lines of the events quote it once" 2 \
	"$(grep -c -F -e ": manual $A:$DISPLAY gro-flush-timeout napi-" "$VQ_TMP/vqtuned.log")"
check "... with the same reason" 2 "$(grep -c -F -e ": $WANT" "$VQ_TMP/vqtuned.log")"
check "no log line doubles the backslash" 0 "$(grep -c -F 'v\\xff0' "$VQ_TMP/vqtuned.log")"
vq_ctl restore >/dev/null
check "restore exit code" 0 $?
check "gro-flush-timeout restored" "$ORIG" "$(vq_napi "$A" "$IFX" gro_flush_timeout)"

# A second device in A named by the display form's text itself (backslash, x, f, f): the
# selector "A:v\xff0" is now its raw name and the first device's display form. The 409
# names both and gives each a selector that is its own, not "use NETNS:NAME" (already given).
ip -n "$A" link add "$DISPLAY" type veth peer name vp2 netns "$B" || exit $KSFT_FAIL
LIT_HEX=765c78666630	# v \ x f f 0
vq_wait_code 200 GET "/v1/devices/$A:v%5C%5Cxff0" 5 >/dev/null
check 'literal-named device appears (by its display form v\\xff0)' 200 \
	"$(vq_code GET "/v1/devices/$A:v%5C%5Cxff0")"
out=$(vq_api GET "/v1/devices/$A:v%5Cxff0")
check "GET NS:v\xff0 with both present: status" 409 "${out%% *}"
msg=$(cut -d' ' -f2- <<<"$out" | vq_json 'd["error"]["code"] + "|" + d["error"]["message"]')
check_true "... conflict naming 2 devices ($msg)" grep -q '^conflict|.* names 2 devices' <<<"$msg"
check_true "... the 0xFF device by display form, selector $A:v%FF0" \
	grep -qF "(display form, name_hex 76ff30): '$A:v%FF0'" <<<"$msg"
check_true "... the literal device by raw name, selector $A:v%5C%5Cxff0" \
	grep -qF "(raw name, name_hex $LIT_HEX): '$A:v%5C%5Cxff0'" <<<"$msg"
check_true "... no advice to add the netns the selector has" \
	eval '! grep -q "use NETNS:NAME" <<<"$msg"'
# a write through that selector is refused the same way, and changes nothing
out=$(vq_api PUT "/v1/devices/$A:v%5Cxff0/knobs/gro-flush-timeout" '{"value":20000}')
check "PUT NS:v\xff0 with both present: status" 409 "${out%% *}"
check_true "... the same conflict message" grep -qF "(raw name, name_hex $LIT_HEX)" <<<"$out"
check "... gro-flush-timeout unchanged" "$ORIG" "$(vq_napi "$A" "$IFX" gro_flush_timeout)"
# the advice works: each selector finds its own device
for pair in "v%FF0 76ff30" "v%5C%5Cxff0 $LIT_HEX"; do
	read -r enc want <<<"$pair"
	r=$(vq_api GET "/v1/devices/$A:$enc")
	check "advised $A:$enc: status" 200 "${r%% *}"
	check "advised $A:$enc: name_hex" "$want" "$(cut -d' ' -f2- <<<"$r" | vq_json 'd["name_hex"]')"
done
# a quote and a backslash: q"\ in display form is q"\\, in the reason too, never q"\\\\
QRAW='q"\'
QSHOWN='q"\\'
ip -n "$A" link add "$QRAW" type veth peer name vp3 netns "$B" || exit $KSFT_FAIL
ip -n "$A" link set "$QRAW" up && ip -n "$B" link set vp3 up || exit $KSFT_FAIL
ip netns exec "$A" ethtool -K "$QRAW" gro on >/dev/null
vq_wait_code 200 GET "/v1/devices/$A:q%22%5C" 5 >/dev/null
QIFX=$(vq_ifindex "$A" "$QRAW")
QORIG=$(vq_napi "$A" "$QIFX" gro_flush_timeout)
vq_ctl set "$A:$QRAW" gro-flush-timeout 5 >/dev/null
check "vqtunectl set NS:$QRAW exit code" 0 $?
WANT="manual set of gro-flush-timeout on $A:$QSHOWN"
out=$(vq_ctl events | tail -1)
check_true "vqtunectl events: the reason quotes $QSHOWN once ($out)" \
	grep -qF "($WANT)" <<<"$out"
ev=$(vq_api GET /v1/events | cut -d' ' -f2- |
     vq_json '"|".join((d["events"][-1]["device"], d["events"][-1]["reason"]))')
check "event device and reason in display form" "$QSHOWN|$WANT" "$ev"
check "the log's event line alike" 1 \
	"$(grep -c -F -e ": manual $A:$QSHOWN gro-flush-timeout napi-" "$VQ_TMP/vqtuned.log")"
check "... with the same reason" 1 "$(grep -c -F -e ": $WANT" "$VQ_TMP/vqtuned.log")"
vq_ctl restore >/dev/null
check "gro-flush-timeout of $QRAW restored" "$QORIG" \
	"$(vq_napi "$A" "$QIFX" gro_flush_timeout)"
vq_done
