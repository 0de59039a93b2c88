#!/bin/bash
# Bad requests to the write API: each gets its documented status, error code and field, the
# daemon keeps serving after every one, and none of them reaches the kernel or the journal.
# Also: a release of a queue without an instance of the knob is 404 naming the queue, of a
# knob the device lacks 422; a query parameter without "=value" is 400, not ignored; a body
# over the limit sent without waiting for "100 Continue" gets its 413 every time (read and
# dropped first, so the close does not reset the reply away); a path with %00 is 400 saying
# so, not "malformed"; a "\u0000" in the body is 400 in our words at the escape's line and
# column, a raw NUL byte too (the value before it is not applied); a request-target over
# 8000 bytes is a JSON 414, one past MHD's buffer is MHD's business (its 414 or no reply), so
# are header fields past it (its 431 or no reply), and the daemon serves on; two
# Authorization headers are 400 naming the header, also when one holds the right token; vqtuned refuses --token-file without --listen, and warns
# (naming path and mode) about a token file group or others may read or write, not about a
# 0600 one. rx-channels 0 is 422 out_of_range before the kernel sees it (min 1 in the device
# view); a queue on veth, whose NAPIs are not linked to queues, is 404 saying so and naming
# napi_id; a release's ?queue= out of range is 422 in the words of the same queue in a PUT body,
# and events' ?since= and ?limit= get the same codes as ?queue= (empty or not a number: 400
# invalid_field; out of range: 422 out_of_range), the parameter as field.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
BIG_BYTES=71680		# 70 KiB: above the 64 KiB body limit
DEEP=3000		# nesting depth: far above the documented limit of 32
BIG_TRIES=15		# the reset race showed in 4 of 15 before the body was drained
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
IFX=$(vq_ifindex "$B" vb)
napi_before=$(vq_napi_lines "$B" "$IFX")
[ -n "$napi_before" ] || { echo "FAIL: vb has no NAPI"; exit $KSFT_FAIL; }
K=/v1/devices/$B:vb/knobs

URI_MAX_BYTES=8000	# docs/api.md: the longest request-target answered normally
MHD_OVER_BYTES=40000	# past libmicrohttpd's 32 KiB connection buffer
# uri_of PREFIX LEN: PREFIX padded with 'x' to LEN bytes
uri_of() { printf '%s%s' "$1" "$(head -c $(($2 - ${#1})) /dev/zero | tr '\0' x)"; }
big='{"value":1,"pad":"'$(head -c "$BIG_BYTES" /dev/zero | tr '\0' x)'"}'
deep='{"value":'$(printf "%${DEEP}s" | tr ' ' '[')$(printf "%${DEEP}s" | tr ' ' ']')'}'

# name | method | path | body | content type
cat >"$VQ_TMP/cases" <<EOF
defer_max|PUT|$K/defer-hard-irqs|{"value":4294967295}|
gro_max|PUT|$K/gro-flush-timeout|{"value":5000000000}|
negative|PUT|$K/defer-hard-irqs|{"value":-1}|
string|PUT|$K/defer-hard-irqs|{"value":"7"}|
nan|PUT|$K/defer-hard-irqs|{"value":NaN}|
big|PUT|$K/defer-hard-irqs|@$VQ_TMP/big.json|
text|PUT|$K/defer-hard-irqs|{"value":1}|text/plain
form|PUT|$K/defer-hard-irqs|{"value":1}|application/x-www-form-urlencoded
deep|PUT|$K/defer-hard-irqs|@$VQ_TMP/deep.json|
unknown_field|PUT|$K/defer-hard-irqs|{"value":1,"bogus":2}|
unknown_knob|PUT|$K/no-such-knob|{"value":1}|
unknown_dev|PUT|/v1/devices/$B:nodev/knobs/defer-hard-irqs|{"value":1}|
get_put_path|GET|$K/defer-hard-irqs||
get_restore|GET|/v1/restore||
release_typo|DELETE|$K/defer-hard-irqs?queu=0||
release_noqueue|DELETE|$K/defer-hard-irqs?queue=7||
release_devwide|DELETE|$K/rx-channels?queue=0||
release_unsupported|DELETE|$K/busyloop-us?queue=0||
release_lacks|DELETE|$K/busyloop-us||
release_bare|DELETE|$K/defer-hard-irqs?queue||
release_q_big|DELETE|$K/defer-hard-irqs?queue=1024||
release_q_neg|DELETE|$K/defer-hard-irqs?queue=-1||
release_q_text|DELETE|$K/defer-hard-irqs?queue=1x||
release_q_empty|DELETE|$K/defer-hard-irqs?queue=||
put_q_big|PUT|$K/defer-hard-irqs|{"value":1,"queue":1024}|
put_q_neg|PUT|$K/defer-hard-irqs|{"value":1,"queue":-1}|
napi_queue|PUT|$K/gro-flush-timeout|{"value":1,"queue":0}|
chan_zero|PUT|$K/rx-channels|{"value":0,"disruptive":true}|
events_since_bare|GET|/v1/events?since||
events_since_big|GET|/v1/events?since=9223372036854775808||
events_since_empty|GET|/v1/events?since=||
events_since_text|GET|/v1/events?since=1x||
events_limit_empty|GET|/v1/events?limit=||
events_limit_zero|GET|/v1/events?limit=0||
events_dup|GET|/v1/events?limit=1&limit=99999999999||
events_unknown|GET|/v1/events?x=1||
pct_nul|GET|/v1/devices/$B:v%00b||
pct_nul_put|PUT|$K/defer-hard-irqs%00|{"value":1}|
pct_bad|GET|/v1/devices/$B:v%G0b||
pct_nul_since|GET|/v1/events?since=8%00abc||
pct_nul_queue|DELETE|$K/defer-hard-irqs?queue=0%00junk||
nul_value|PUT|$K/defer-hard-irqs|{"value":1,"reason":"a\u0000b"}|
nul_key|PUT|$K/defer-hard-irqs|{"v\u0000":1}|
raw_nul_after|PUT|$K/defer-hard-irqs|@$VQ_TMP/raw_nul_after.json|
empty_policy|PUT|/v1/policy|@$VQ_TMP/empty.json|
raw_nul_in|PUT|$K/defer-hard-irqs|@$VQ_TMP/raw_nul_in.json|
raw_nul_num|PUT|$K/defer-hard-irqs|@$VQ_TMP/raw_nul_num.json|
raw_nul_true|PUT|$K/rx-channels|@$VQ_TMP/raw_nul_true.json|
uri_at_limit|GET|$(uri_of "/v1/devices/$B:" $URI_MAX_BYTES)||
uri_over_limit|GET|$(uri_of "/v1/devices/$B:" $((URI_MAX_BYTES + 1)))||
uri_query_over|GET|$(uri_of "/v1/status?x=" $((URI_MAX_BYTES + 1)))||
EOF
printf '%s' "$big" >"$VQ_TMP/big.json"
printf '%s' "$deep" >"$VQ_TMP/deep.json"
# raw NUL bytes (a shell argument cannot hold one: curl reads them from files); the value
# before the first must not be applied
printf '{"value":3}\0{"value":4}' >"$VQ_TMP/raw_nul_after.json"
: >"$VQ_TMP/empty.json"
printf '{\n "value":\0 3}' >"$VQ_TMP/raw_nul_in.json"
# right after a number or true, jansson itself would take the NUL for the end of the text
printf '{"value":1\0}' >"$VQ_TMP/raw_nul_num.json"
printf '{"value":1,"disruptive":true\0}' >"$VQ_TMP/raw_nul_true.json"
mkdir "$VQ_TMP/r"
while IFS='|' read -r name m path body ct; do
	args=(-s -o "$VQ_TMP/r/$name.body" -w '%{http_code}' --unix-socket "$VQ_SOCK" -X "$m")
	[ -n "$body" ] && args+=(-H "Content-Type: ${ct:-application/json}" --data-binary "$body")
	# a body the server refuses while curl still sends it can end in a reset before the
	# reply is read (HTTP's known close race): that is curl's 000, so ask again
	for _ in 1 2 3; do
		curl "${args[@]}" "http://localhost$path" >"$VQ_TMP/r/$name.code"
		[ "$(cat "$VQ_TMP/r/$name.code")" != 000 ] && break
	done
	check_true "daemon alive and /healthz 200 after $name" vq_healthy
done <"$VQ_TMP/cases"

# one python for all replies: "name status code field message"
python3 - "$VQ_TMP/r" >"$VQ_TMP/replies" <<'EOF'
import json, os, sys
r = sys.argv[1]
for f in sorted(os.listdir(r)):
    if not f.endswith(".code"):
        continue
    name = f[:-5]
    status = open(os.path.join(r, f)).read().strip()
    try:
        e = json.load(open(os.path.join(r, name + ".body")))["error"]
    except (OSError, ValueError, KeyError, TypeError):
        e = {}
    print("%s|%s|%s|%s|%s" % (name, status, e.get("code", "-"), e.get("field", "-"),
                              e.get("message", "-")))
EOF
reply() { awk -F'|' -v n="$1" -v c="$2" '$1 == n { print $c }' "$VQ_TMP/replies"; }
# expect NAME STATUS CODE FIELD [MESSAGE-REGEX]; FIELD "*": not checked (no one field at fault)
expect() {
	check "$1: status" "$2" "$(reply "$1" 2)"
	check "$1: error code" "$3" "$(reply "$1" 3)"
	[ "$4" != '*' ] && check "$1: field" "$4" "$(reply "$1" 4)"
	[ -n "${5-}" ] && check_true "$1: message matches /$5/ ($(reply "$1" 5))" \
		grep -Eq "$5" <<<"$(reply "$1" 5)"
}
expect defer_max 422 out_of_range value '4294967295.*2147483647'
expect gro_max 422 out_of_range value '5000000000.*1000000000'
check_true "negative: 4xx ($(reply negative 2))" grep -q '^4' <<<"$(reply negative 2)"
check "negative: field" value "$(reply negative 4)"
expect string 400 invalid_field value
expect nan 400 invalid_json '*' 'NaN'
expect big 413 payload_too_large '*' '65536'
expect text 415 unsupported_media_type '*' 'application/json'
# what curl -d sends when no Content-Type is given (docs/api.md's curl example says so)
expect form 415 unsupported_media_type '*' 'must be Content-Type: application/json'
expect deep 400 invalid_json '*' '(nest|depth|deep).*32'
expect unknown_field 400 invalid_field bogus 'bogus'
expect unknown_knob 404 not_found knob 'no-such-knob'
expect unknown_dev 404 not_found dev 'nodev'
expect get_put_path 405 method_not_allowed '*' 'PUT'
check "get_restore: status" 405 "$(reply get_restore 2)"
expect release_typo 400 invalid_field queu 'not a parameter'
expect release_noqueue 404 not_found queue '^vb has no defer-hard-irqs instance on queue 7 '
expect release_devwide 404 not_found queue 'rx-channels instance on queue 0 \(a device-wide'
expect release_unsupported 422 unsupported knob 'busyloop-us is not supported'
expect release_lacks 422 unsupported knob 'busyloop-us is not supported'
expect release_bare 400 invalid_field queue 'queue: needs a value'
# out of range in the query: as in a PUT body (422, same words); not a number: 400
expect release_q_big 422 out_of_range queue '^queue: 1024 is above the maximum 1023$'
expect release_q_neg 422 out_of_range queue '^queue: -1 is negative$'
expect release_q_text 400 invalid_field queue '^queue: must be an integer 0\.\.1023$'
expect put_q_big 422 out_of_range queue "^$(reply release_q_big 5)\$"
expect put_q_neg 422 out_of_range queue "^$(reply release_q_neg 5)\$"
# veth links no NAPI to a queue: say so and how to address one
expect napi_queue 404 not_found queue \
	'^vb has no gro-flush-timeout instance on queue 0 \(its instances: napi-[0-9]+ napi-[0-9]+\): the device.s NAPIs are not linked to queues, address one by its napi_id \("napi_id":N in the body, vqtunectl set --napi-id N\)$'
# 0 RX channels with no combined ones is what the kernel refuses: refused before it
expect chan_zero 422 out_of_range value '^value: 0 is below the minimum 1 of rx-channels$'
check "rx-channels min in the device view" 1 "$(vq_api GET "/v1/devices/$B:vb" | cut -d' ' -f2- |
	vq_json '[k["min"] for k in d["knobs"] if k["name"] == "rx-channels"][0]')"
check "vb still has 2 RX channels" 2 "$(ip netns exec "$B" ethtool -l vb |
	awk '/^Current/ { c = 1 } c && /^RX:/ { print $2 }')"
expect events_since_bare 400 invalid_field since 'since: needs a value'
# the same kind of fault, the same code as a release's ?queue=, the parameter as field
expect release_q_empty 400 invalid_field queue '^queue: must be an integer 0\.\.1023$'
expect events_since_big 422 out_of_range since \
	'^since: 9223372036854775808 is above the maximum 9223372036854775807$'
expect events_since_empty 400 invalid_field since \
	'^since: must be an integer 0\.\.9223372036854775807$'
expect events_since_text 400 invalid_field since \
	'^since: must be an integer 0\.\.9223372036854775807$'
expect events_limit_empty 400 invalid_field limit '^limit: must be an integer 1\.\.10000$'
expect events_limit_zero 422 out_of_range limit '^limit: 0 is below the minimum 1$'
expect events_dup 400 invalid_field limit 'more than once'
expect events_unknown 400 invalid_field x 'not a parameter'
expect pct_nul 400 bad_request '-' '^percent-encoded NUL \(%00\) in the path$'
expect pct_nul_put 400 bad_request '-' '^percent-encoded NUL \(%00\) in the path$'
# in a query value: refused, not cut at the NUL (since=8, queue=0 of a DELETE)
expect pct_nul_since 400 invalid_field since '^since: percent-encoded NUL \(%00\)'
expect pct_nul_queue 400 invalid_field queue '^queue: percent-encoded NUL \(%00\)'
expect pct_bad 400 bad_request '-' '^malformed percent-encoding in the path$'
# our words and the escape's own position, not jansson's "JSON_ALLOW_NUL"
expect nul_value 400 invalid_json '-' \
	'^line 1 column 23: NUL character \(\\u0000\) in a string is not allowed$'
expect nul_key 400 invalid_json '-' \
	'^line 1 column 4: NUL character \(\\u0000\) in a string is not allowed$'
# a raw NUL byte at its own place, not "end of file expected near end of file"
expect raw_nul_after 400 invalid_json '-' '^line 1 column 12: a NUL byte is not allowed in JSON text$'
expect raw_nul_in 400 invalid_json '-' '^line 2 column 10: a NUL byte is not allowed in JSON text$'
expect raw_nul_num 400 invalid_json '-' '^line 1 column 11: a NUL byte is not allowed in JSON text$'
expect raw_nul_true 400 invalid_json '-' '^line 1 column 29: a NUL byte is not allowed in JSON text$'
# an empty body in the words policies/README.md gives an empty file ("body" for "file")
expect empty_policy 400 invalid_json '-' '^body is empty: this request needs a JSON object$'
# 8000 bytes is routed (no such device), one more is a JSON 414, query included
expect uri_at_limit 404 not_found dev '^no device'
expect uri_over_limit 414 uri_too_long '-' \
	'^request-target is 8001 bytes, longer than the limit of 8000$'
expect uri_query_over 414 uri_too_long '-' '^request-target is 8001 bytes'
# beyond MHD's buffer the request never reaches the API: MHD's own HTML 414, or no reply
# until the 10 s request deadline (docs/api.md, it depends on how the bytes arrive); never
# a routed answer, and the daemon goes on serving
code=$(curl -s -m 3 -o /dev/null -w '%{http_code}' --unix-socket "$VQ_SOCK" \
	"http://localhost$(uri_of "/v1/status?" $MHD_OVER_BYTES)")
check_true "request-target of $MHD_OVER_BYTES bytes: MHD's 414 or no reply ($code)" \
	grep -Eqx '414|000' <<<"$code"
check_true "daemon alive and /healthz 200 after it" vq_healthy
# header fields past that buffer, line by line: MHD's own HTML 431 (docs/api.md), or no reply
# when the bytes arrive otherwise; never a routed answer, and the daemon serves on
code=$(python3 - "$VQ_SOCK" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.settimeout(3)
lines = [b"GET /v1/status HTTP/1.1\r\n", b"Host: x\r\n"]
lines += [b"X-H%d: %s\r\n" % (i, b"y" * 1000) for i in range(40)] + [b"\r\n"]
d = b""
try:
    for l in lines:
        s.sendall(l)
        time.sleep(0.01)
except OSError:
    pass	# MHD may answer and close before the last line
try:
    while True:
        c = s.recv(65536)
        if not c:
            break
        d += c
except OSError:
    pass
ok_html = b"<html>" in d
print(d.split(b" ")[1].decode() + ("" if ok_html else "-not-html") if d else "000")
PY
)
check_true "40 header lines of 1000 bytes: MHD's HTML 431 or no reply ($code)" \
	grep -Eqx '431|000' <<<"$code"
check_true "daemon alive and /healthz 200 after it" vq_healthy

# Authorization is a singleton field (RFC 9110 5.3): two lines are refused, on any route
code=$(curl -s -o "$VQ_TMP/auth2.body" -w '%{http_code}' --unix-socket "$VQ_SOCK" \
	-H 'Authorization: Bearer a' -H 'Authorization: Bearer b' http://localhost/v1/status)
check "two Authorization headers on the unix socket: status" 400 "$code"
msg=$(vq_json 'd["error"]["code"] + "|" + d["error"]["message"]' <"$VQ_TMP/auth2.body")
check_true "... bad_request naming Authorization ($msg)" \
	grep -Eq '^bad_request\|2 Authorization headers: it is a singleton field' <<<"$msg"
code=$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$VQ_SOCK" \
	-H 'Authorization: Bearer a' http://localhost/v1/status)
check "one Authorization header on the unix socket: status" 200 "$code"

# the 413 of an over-limit body sent at once (no "Expect: 100-continue"): every try, no retry
n413=0
for _ in $(seq $BIG_TRIES); do
	code=$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$VQ_SOCK" -X PUT -H 'Expect:' \
		-H 'Content-Type: application/json' --data-binary "@$VQ_TMP/big.json" \
		"http://localhost$K/defer-hard-irqs")
	[ "$code" == 413 ] && n413=$((n413 + 1))
done
check "70 KiB body without Expect: 413 answers" "$BIG_TRIES" "$n413"

check "NAPI values of vb unchanged" "$napi_before" "$(vq_napi_lines "$B" "$IFX")"
check "no event in /v1/events" 0 "$(vq_api GET /v1/events | cut -d' ' -f2- |
	vq_json 'len(d["events"])')"
# the same path with a good body does write: the refusals above were about the bodies
check "good PUT after all the bad ones" 200 "$(vq_code PUT "$K/defer-hard-irqs" '{"value":4}')"
check "defer-hard-irqs as the kernel reports it" 4 "$(vq_napi "$B" "$IFX" defer_hard_irqs)"
# threaded on a veth without NAPI (GRO off), which the kernel refuses: once the daemon has
# sampled it, the refusal comes before any write (422, field knob), naming device and knob
ip -n "$A" link add nn0 type veth peer name nn1 && ip -n "$A" link set nn0 up &&
	ip -n "$A" link set nn1 up || exit $KSFT_FAIL
vq_wait_code 200 GET "/v1/devices/$A:nn0" 2 >/dev/null
for _ in $(seq 50); do
	vq_api GET "/v1/devices/$A:nn0/queues" | cut -d' ' -f2- |
		vq_json 'd["sample_age_ns"] is not None' | grep -q True && break
	sleep 0.1
done
out=$(vq_api PUT "/v1/devices/$A:nn0/knobs/threaded" '{"value":1}')
check "threaded on a veth without NAPI: status" 422 "${out%% *}"
msg=$(cut -d' ' -f2- <<<"$out" | vq_json 'd["error"]["code"] + "|" + d["error"]["field"] + "|" +
	d["error"]["message"]')
check "... unsupported, naming the field, device and knob" "unsupported|knob|threaded is not\
 writable on nn0: the kernel refuses threaded on a device with no NAPI instance (the netdev\
 family lists none; a veth has one while up with GRO or XDP on)" "$msg"
# the kernel's own refusal (ifb has no NAPI either; vqtuned says so of a veth only): 502, the
# message names the device and the knob, never the daemon's private sysfs mount (under its
# run dir, $VQ_TMP here)
ip -n "$A" link add ib0 type ifb && ip -n "$A" link set ib0 up || exit $KSFT_FAIL
vq_wait_code 200 GET "/v1/devices/$A:ib0" 2 >/dev/null
out=$(vq_api PUT "/v1/devices/$A:ib0/knobs/threaded" '{"value":1}')
check "threaded on an ifb (no NAPI): status" 502 "${out%% *}"
msg=$(cut -d' ' -f2- <<<"$out" | vq_json 'd["error"]["code"] + "|" + d["error"]["message"]')
check_true "... kernel_error naming device and knob ($msg)" \
	grep -Eq '^kernel_error\|ib0: threaded: [A-Z][a-z]' <<<"$msg"
check_true "... no file path in the message" eval '! grep -q / <<<"$msg"'
check_true "... the run dir not named" eval '! grep -qF "$VQ_TMP" <<<"$out"'
vq_ctl restore >/dev/null
check "restore exit code" 0 $?

# --token-file without --listen would guard nothing: vqtuned refuses to start (2, usage),
# naming both options, before it binds its socket or opens its state directory
printf 'secret\n' >"$VQ_TMP/token"
timeout 10 "$VQTUNED" -s "$VQ_TMP/tok.sock" -S "$VQ_TMP/tokstate" \
	--token-file "$VQ_TMP/token" >"$VQ_TMP/tok.out" 2>&1
check "vqtuned --token-file without --listen: exit code" 2 $?
check_true "... message names --token-file and --listen ($(cat "$VQ_TMP/tok.out"))" \
	grep -q -- '--token-file needs --listen' "$VQ_TMP/tok.out"
check_true "... no socket left behind" test ! -e "$VQ_TMP/tok.sock"
check_true "... no state directory made" test ! -e "$VQ_TMP/tokstate"
# a token file of white space only holds no token no client could send: refused at start
# (2), in the words vqtunectl -T refuses it with
printf ' \t\r\n\n' >"$VQ_TMP/blank"
timeout 10 "$VQTUNED" -s "$VQ_TMP/tok.sock" -S "$VQ_TMP/tokstate" -l "127.0.0.1:$(vq_free_port)" \
	-t "$VQ_TMP/blank" >"$VQ_TMP/tok.out" 2>&1
check "vqtuned -t FILE of white space: exit code" 2 $?
check "... says why" "vqtuned: --token-file: '$VQ_TMP/blank' holds no token (its first line, \
the token, is empty or white space only)" "$(cat "$VQ_TMP/tok.out")"
check "... vqtunectl -T says the same of it" \
	"vqtunectl: -T/--token-file: $(cut -d' ' -f3- "$VQ_TMP/tok.out")" \
	"$("$VQTUNECTL" -H 127.0.0.1:9 -T "$VQ_TMP/blank" status 2>&1)"
check_true "... no socket left behind" test ! -e "$VQ_TMP/tok.sock"
check_true "... no state directory made" test ! -e "$VQ_TMP/tokstate"
# a FIFO with no writer as the token file: refused at once (2), by daemon and CLI alike; a
# blocking open would hang the start (and systemd's start job) for ever
mkfifo "$VQ_TMP/tokfifo"
timeout 10 "$VQTUNED" -s "$VQ_TMP/tok.sock" -S "$VQ_TMP/tokstate" -l "127.0.0.1:$(vq_free_port)" \
	-t "$VQ_TMP/tokfifo" >"$VQ_TMP/tok.out" 2>&1
check "vqtuned -t FIFO: exit code (124: it hung)" 2 $?
check "... says why" "vqtuned: --token-file: '$VQ_TMP/tokfifo' is a FIFO, socket or device, \
not a regular file holding the token" "$(cat "$VQ_TMP/tok.out")"
timeout 10 "$VQTUNECTL" -H 127.0.0.1:9 -T "$VQ_TMP/tokfifo" status >"$VQ_TMP/tok.out" 2>&1
check "vqtunectl -T FIFO: exit code (124: it hung)" 2 $?
check "... in the daemon's words" "vqtunectl: -T/--token-file: '$VQ_TMP/tokfifo' is a FIFO, \
socket or device, not a regular file holding the token" \
	"$(cat "$VQ_TMP/tok.out")"
check_true "... no socket left behind" test ! -e "$VQ_TMP/tok.sock"
# an option of one value given twice is refused (2) naming it, not the last one taken (a
# second --listen dropped the first unseen); --policy alone takes the later one, the
# systemd unit's override (below)
for rep in "-l 127.0.0.1:9 --listen 127.0.0.1:10:--listen" \
	"-i 500 -i 1000:--interval" "-s $VQ_TMP/a.sock -s $VQ_TMP/b.sock:--socket" \
	"-S $VQ_TMP/s1 --state-dir $VQ_TMP/s2:--state-dir"; do
	# shellcheck disable=SC2086 # the option words split on purpose
	timeout 10 "$VQTUNED" ${rep%:*} >"$VQ_TMP/tok.out" 2>&1
	check "vqtuned ${rep%:*}: exit code" 2 $?
	check_true "... names ${rep##*:} ($(cat "$VQ_TMP/tok.out"))" \
		grep -qF -- "vqtuned: ${rep##*:} given more than once" "$VQ_TMP/tok.out"
done
check_true "... nothing bound or made" eval 'test ! -e "$VQ_TMP/a.sock" && test ! -e "$VQ_TMP/s1"'
# a --netns name ip-netns could not have made is a usage error (2), as every bad option is
for bad in - .. a/b ""; do
	timeout 10 "$VQTUNED" -s "$VQ_TMP/a.sock" -n "$bad" >"$VQ_TMP/tok.out" 2>&1
	check "vqtuned -n '$bad': exit code" 2 $?
	check "... the reason" "vqtuned: --netns: '$bad' is not a namespace name (1..63 bytes, \
no '/', not '.', '..' or '-')" "$(cat "$VQ_TMP/tok.out")"
done
check_true "... nothing bound" test ! -e "$VQ_TMP/a.sock"
# a well-formed name with no namespace behind it says where it looked and how to make one
absent=vqtune-absent-$$
timeout 10 "$VQTUNED" -s "$VQ_TMP/a.sock" -S "$VQ_TMP/absent.state" -n "$absent" \
	>"$VQ_TMP/tok.out" 2>&1
check "vqtuned -n ABSENT: exit code" 1 $?
check_true "... names /run/netns/NAME and ip netns add" grep -qF -e \
	"--netns $absent: /run/netns/$absent does not exist (create it with 'ip netns add $absent')" \
	"$VQ_TMP/tok.out"
check_true "... nothing bound" test ! -e "$VQ_TMP/a.sock"
# the unit's --policy, then VQTUNED_OPTS' own: the later one is the policy in force
"$VQTUNED" -s "$VQ_TMP/pp.sock" -S "$VQ_TMP/pp.state" -p "$VQ_ROOT/policies/balanced.json" \
	--policy "$VQ_ROOT/policies/observe.json" >"$VQ_TMP/pp.log" 2>&1 &
PP_PID=$!
VQ_PIDS+=("$PP_PID")
for _ in $(seq 100); do
	curl -sf --unix-socket "$VQ_TMP/pp.sock" http://localhost/healthz >/dev/null && break
	kill -0 "$PP_PID" 2>/dev/null || break
	sleep 0.1
done
check "vqtuned -p balanced --policy observe: the policy in force" observe \
	"$(curl -s --unix-socket "$VQ_TMP/pp.sock" http://localhost/v1/policy | jq -r .policy.name)"
kill -TERM "$PP_PID"
wait "$PP_PID"
check "... and stops cleanly" 0 $?

# A daemon of its own in namespace A (its own loopback, so a fixed port is free; va managed
# so a write can succeed) with a TCP listener and a token file of MODE; stopped at the end.
TOK_PORT=9477
tok_daemon() {	# NAME MODE
	local n=$1 pid
	printf 'tok-%s\n' "$n" >"$VQ_TMP/tok.$n"
	chmod "$2" "$VQ_TMP/tok.$n"
	ip netns exec "$A" "$VQTUNED" -s "$VQ_TMP/$n.sock" -S "$VQ_TMP/$n.state" \
		--listen "127.0.0.1:$TOK_PORT" --token-file "$VQ_TMP/tok.$n" --manage va \
		>"$VQ_TMP/$n.log" 2>&1 &
	pid=$!
	VQ_PIDS+=("$pid")
	for _ in $(seq 100); do
		curl -sf --unix-socket "$VQ_TMP/$n.sock" http://localhost/healthz >/dev/null &&
			break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	check "vqtuned with a $2 token file serves" 200 "$(curl -s -o /dev/null -w '%{http_code}' \
		--unix-socket "$VQ_TMP/$n.sock" http://localhost/healthz)"
	[ "$n" == open ] && tok_auth_twice "$n"
	kill -TERM "$pid"
	wait "$pid" 2>/dev/null
	check "... and stops cleanly" 0 $?
	# reaped: drop it so the cleanup cannot signal a reused PID
	local keep=() p
	for p in "${VQ_PIDS[@]}"; do [ "$p" == "$pid" ] || keep+=("$p"); done
	VQ_PIDS=("${keep[@]}")
}
# Two Authorization lines on the token listener: 400 even when the first one is right
tok_auth_twice() {
	local n=$1 tcp="http://127.0.0.1:$TOK_PORT/v1/devices/va" code
	code=$(ip netns exec "$A" curl -s -o "$VQ_TMP/tcp2.body" -w '%{http_code}' -X POST \
		-H "Authorization: Bearer tok-$n" -H 'Authorization: Bearer wrong' "$tcp/pause")
	check "TCP pause with the right then a wrong token line: status" 400 "$code"
	check_true "... message names Authorization ($(cat "$VQ_TMP/tcp2.body"))" \
		grep -qF '2 Authorization headers' "$VQ_TMP/tcp2.body"
	code=$(ip netns exec "$A" curl -s -o /dev/null -w '%{http_code}' -X POST \
		-H 'Authorization: Bearer wrong' -H "Authorization: Bearer tok-$n" "$tcp/pause")
	check "TCP pause with a wrong then the right token line: status" 400 "$code"
	check "... va not paused" False "$(curl -s --unix-socket "$VQ_TMP/$n.sock" \
		http://localhost/v1/devices/va | vq_json 'd["paused"]')"
	code=$(ip netns exec "$A" curl -s -o /dev/null -w '%{http_code}' -X POST \
		-H "Authorization: Bearer tok-$n" "$tcp/pause")
	check "TCP pause with the one right token line: status" 200 "$code"
	check "... va paused" True "$(curl -s --unix-socket "$VQ_TMP/$n.sock" \
		http://localhost/v1/devices/va | vq_json 'd["paused"]')"
}
tok_daemon open 0644
check_true "0644 token file: warning names path and mode ($(grep token "$VQ_TMP/open.log"))" \
	grep -qF "api: token file $VQ_TMP/tok.open has mode 0644: group or others may read" \
	"$VQ_TMP/open.log"
tok_daemon grp 0660
check_true "0660 token file: warning with mode 0660" \
	grep -qF "api: token file $VQ_TMP/tok.grp has mode 0660:" "$VQ_TMP/grp.log"
tok_daemon closed 0600
check "0600 token file: no token warning" 0 "$(grep -c 'token file' "$VQ_TMP/closed.log")"
check "NAPI values of vb restored" "$napi_before" "$(vq_napi_lines "$B" "$IFX")"
vq_done
