#!/bin/bash
# Policies (policies/README.md): vqtuned started with the shipped observe policy; a policy
# with an unknown field, a wrong unit type or inverted bounds is rejected whole, naming the
# field, over PUT (vqtunectl policy load/set) and on SIGHUP, and changes nothing; the daemon
# survives a broken file; a good variant replaces it. The policy of --policy is an event at
# start like a reload; a directory given as a policy file is named as one everywhere.
# `vqtuned --check-policy` accepts every shipped file (mode active too) and names
# FILE:LINE:COLUMN: FIELD for each bad one. A file or PUT body that is no JSON text (a UTF-8
# byte order mark, a control byte, nothing at all) is named in words, not as jansson's quote;
# a C1 control in name or a select entry is refused naming the field, as C0 and DEL are.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) || exit $KSFT_FAIL
# a path as long as a site's may be: the rejection event must still hold the whole first error
POL=$VQ_TMP/etc/vqtune/policies/site-specific-production-configuration/frontends.json
mkdir -p "$(dirname "$POL")" && cp "$VQ_ROOT/policies/observe.json" "$POL"
vq_daemon --netns "$A" --interval 100 --policy "$POL" || exit $KSFT_FAIL

show() { vq_ctl --json policy show; }
field() { show | vq_json "d['policy']$1"; }
# snap: a digest of the whole policy as GET shows it, to compare before and after
snap() { show | sha256sum | cut -c1-16; }
# the reason of the last policy install's event
ev_last_policy() { vq_ctl --json events |
	vq_json "[e['reason'] for e in d['events'] if e['reason'].startswith('policy ')][-1]"; }

# the policy of --policy is journalled at start like a SIGHUP or PUT install
want="policy 'observe' installed from $POL (start), mode observe"
check "policy installed at start: one event" 1 "$(vq_ctl --json events |
	WANT=$want vq_json "[e['reason'] for e in d['events']].count(__import__('os').environ['WANT'])")"
check "policy show: name" '"observe"' "$(vq_ctl policy show | sed -n 's/^name = //p')"
check "policy show: mode" '"observe"' "$(vq_ctl policy show | sed -n 's/^mode = //p')"
check "policy show: guard.cooldown_ticks (balanced default)" 2 "$(field "['guard']['cooldown_ticks']")"

# ---- bad files: FILE, the line:column of the offending key/value, the field path
cat >"$VQ_TMP/unknown.json" <<'EOF'
{
	"name": "bad-unknown",
	"mode": "observe",
	"guard": { "cooldown_tick": 2 }
}
EOF
cat >"$VQ_TMP/unit.json" <<'EOF'
{
	"name": "bad-unit",
	"mode": "observe",
	"objective": { "latency_target_us": "100us" }
}
EOF
cat >"$VQ_TMP/real.json" <<'EOF'
{
	"name": "bad-real",
	"controllers": { "qlimit": { "target_delay_us": 0.5 } }
}
EOF
cat >"$VQ_TMP/inverted.json" <<'EOF'
{
	"name": "bad-inverted",
	"mode": "observe",
	"controllers": {
		"polling": {
			"rx_usecs": { "min_us": 300, "max_us": 100 }
		}
	}
}
EOF
# an fnmatch glob with an unterminated bracket would only match its own text: refused
cat >"$VQ_TMP/glob.json" <<'EOF'
{
	"name": "bad-glob",
	"select": { "names": ["eth*", "va[0-9"] }
}
EOF
# file  line:column  field
BAD="unknown 4:13 guard.cooldown_tick
unit 4:38 objective.latency_target_us
real 3:50 controllers.qlimit.target_delay_us
inverted 6:43 controllers.polling.rx_usecs.max_us
glob 3:32 select.names[1]"

before=$(snap)
while read -r name pos fld; do
	f=$VQ_TMP/$name.json
	vq_ctl policy load "$f" >/dev/null 2>"$VQ_TMP/err"
	check "policy load $name.json: exit code" 1 $?
	# the file goes as it is: the daemon's place is the file's, as --check-policy gives it
	check_true "... says $f:$pos: $fld: ($(cat "$VQ_TMP/err"))" \
		grep -qF "vqtunectl: $f:$pos: $fld: " "$VQ_TMP/err"
	check "... policy unchanged" "$before" "$(snap)"
	"$VQTUNED" --check-policy "$f" >/dev/null 2>"$VQ_TMP/err"
	check "--check-policy $name.json: exit code" 1 $?
	check_true "... says $f:$pos: $fld: ($(head -1 "$VQ_TMP/err"))" \
		grep -qF "$f:$pos: $fld: " "$VQ_TMP/err"
done <<<"$BAD"
# one file per run: a second -C or a stray argument is a usage error (2), never a pass for
# the file that was not read
"$VQTUNED" -C "$VQ_ROOT/policies/balanced.json" -C "$VQ_TMP/glob.json" >/dev/null 2>"$VQ_TMP/err"
check "-C twice: exit code" 2 $?
check_true "... names both files ($(cat "$VQ_TMP/err"))" grep -qF "one FILE per run" "$VQ_TMP/err"
"$VQTUNED" -C "$VQ_ROOT/policies/balanced.json" junk >/dev/null 2>"$VQ_TMP/err"
check "-C FILE junk: exit code" 2 $?
check_true "... names the stray argument" grep -qF "unexpected argument 'junk'" "$VQ_TMP/err"
# options that could not run together are refused with -C as without it (a valid policy
# file does not make them pass)
"$VQTUNED" -C "$VQ_ROOT/policies/balanced.json" --interval 1000 --max-interval 500 \
	>/dev/null 2>"$VQ_TMP/err"
check "-C FILE --max-interval below --interval: exit code" 2 $?
check_true "... names --max-interval" grep -qF "vqtuned: --max-interval: 500 ms is below" \
	"$VQ_TMP/err"
"$VQTUNED" -C "$VQ_ROOT/policies/balanced.json" --token-file /nonexistent >/dev/null \
	2>"$VQ_TMP/err"
check "-C FILE --token-file without --listen: exit code" 2 $?
check_true "... names --token-file" grep -qF "vqtuned: --token-file needs --listen" "$VQ_TMP/err"
# a token file that is missing or holds no token: refused as without -C
"$VQTUNED" -C "$VQ_ROOT/policies/balanced.json" --listen 127.0.0.1:9 \
	--token-file "$VQ_TMP/no-such-token" >/dev/null 2>"$VQ_TMP/err"
check "-C FILE --listen --token-file MISSING: exit code" 2 $?
check_true "... names --token-file and the file ($(cat "$VQ_TMP/err"))" \
	grep -qF "vqtuned: --token-file: '$VQ_TMP/no-such-token'" "$VQ_TMP/err"
printf ' \n' >"$VQ_TMP/blank-token"
"$VQTUNED" -C "$VQ_ROOT/policies/balanced.json" --listen 127.0.0.1:9 \
	--token-file "$VQ_TMP/blank-token" >/dev/null 2>"$VQ_TMP/err"
check "-C FILE --listen --token-file BLANK: exit code" 2 $?
# FILE "-": standard input, a pipe too, named <stdin>; a file named "-" is ./-
check "-C - from a pipe: a shipped policy is valid" "<stdin>: valid: 'balanced', mode active" \
	"$(cat "$VQ_ROOT/policies/balanced.json" | "$VQTUNED" -C - 2>&1)"
check "-C - from a pipe: an inverted policy, at its line and column" \
	"<stdin>:6:43: controllers.polling.rx_usecs.max_us: 100 is below min_us 300" \
	"$(cat "$VQ_TMP/inverted.json" | "$VQTUNED" -C - 2>&1)"
cat "$VQ_TMP/inverted.json" | "$VQTUNED" -C - >/dev/null 2>&1
check "... exit code" 1 $?
check "-C - of an empty stdin" "<stdin>: file is empty" "$("$VQTUNED" -C - </dev/null 2>&1)"
# what `--json policy show` prints ({"policy":{...}}) is a policy file as it stands
check "-C - of policy show --json: valid, the wrapper taken off" \
	"<stdin>: valid: 'observe', mode observe" "$(show | "$VQTUNED" -C - 2>&1)"
check "-C - of a wrapper: an error names policy.FIELD at its place" \
	"<stdin>:1:39: policy.guard.settle_ticks: 0 is below the minimum 1" \
	"$(printf '{"policy": {"guard": {"settle_ticks": 0}}}' | "$VQTUNED" -C - 2>&1)"
check "-C ./- is the file" "./-: No such file or directory" \
	"$(cd "$VQ_TMP" && "$VQTUNED" -C ./- 2>&1)"
check "glob.json: the message says what is wrong with the glob" \
	"$VQ_TMP/glob.json:3:32: select.names[1]: 'va[0-9' is not a valid fnmatch(3) glob: '[' without its closing ']' (byte 3)" \
	"$("$VQTUNED" --check-policy "$VQ_TMP/glob.json" 2>&1)"
check "inverted.json: the message gives both bounds" \
	"$VQ_TMP/inverted.json:6:43: controllers.polling.rx_usecs.max_us: 100 is below min_us 300" \
	"$("$VQTUNED" --check-policy "$VQ_TMP/inverted.json" 2>&1)"
# a real just past its bound is shown with the digits that tell them apart, in both programs
printf '{"guard":{"rollback_worse_pct":100.00000000000001}}' >"$VQ_TMP/near.json"
want="guard.rollback_worse_pct: 100.00000000000001 is above the maximum 100"
check "near.json: --check-policy shows why" "$VQ_TMP/near.json:1:32: $want" \
	"$("$VQTUNED" --check-policy "$VQ_TMP/near.json" 2>&1)"
check "near.json: policy load says the same, at the same place" \
	"vqtunectl: $VQ_TMP/near.json:1:32: $want (out_of_range, field guard.rollback_worse_pct)" \
	"$(vq_ctl policy load "$VQ_TMP/near.json" 2>&1)"
# a wrapper ({"policy":{...}}, what policy show --json prints) is the daemon's to take off:
# its fault is policy.FIELD at its place in the file, or in <stdin>
printf '{"policy": {"guard": {"settle_ticks": 0}}}' >"$VQ_TMP/wrapped.json"
check "policy load of a wrapper: policy.FIELD at its place" \
	"vqtunectl: $VQ_TMP/wrapped.json:1:39: policy.guard.settle_ticks: 0 is below the minimum 1 \
(out_of_range, field policy.guard.settle_ticks)" \
	"$(vq_ctl policy load "$VQ_TMP/wrapped.json" 2>&1)"
check "policy load - of a wrapper: at its place in <stdin>" \
	"vqtunectl: <stdin>:1:39: policy.guard.settle_ticks: 0 is below the minimum 1 \
(out_of_range, field policy.guard.settle_ticks)" \
	"$(vq_ctl policy load - <"$VQ_TMP/wrapped.json" 2>&1)"
# both_say NAME CPOS LPOS WHY: vqtuned -C and vqtunectl policy load word $VQ_TMP/NAME.json's
# fault alike, each at its position (":L:C" or "")
both_say() {
	local f="$VQ_TMP/$1.json"

	check "$1.json: --check-policy" "$f$2: $4" "$("$VQTUNED" --check-policy "$f" 2>&1)"
	check "$1.json: policy load says the same" "vqtunectl: $f$3: $4" \
		"$(vq_ctl policy load "$f" 2>&1)"
}
# a JSON text that is no object: both programs in the same words
printf '[1]\n' >"$VQ_TMP/array.json"
both_say array :1:1 :1:1 "a policy is a JSON object, not an array"
printf '\n  [1,2]\n' >"$VQ_TMP/array2.json"
both_say array2 :2:3 :2:3 "a policy is a JSON object, not an array"
# a NUL escape in a string: the API's words, not jansson's (which name its JSON_ALLOW_NUL)
printf '{"name":"x\\u0000y"}\n' >"$VQ_TMP/nul.json"
both_say nul :1:11 :1:11 'NUL character (\u0000) in a string is not allowed'

# ---- two errors, the range one first in the text and the unknown field first in the
# schema: PUT, policy load and --check-policy all give the first in text order, and the PUT
# reply says where it is (line, column)
printf '{\n "guard": {\n  "hold_ticks": -1,\n  "x": 1\n }\n}\n' >"$VQ_TMP/two.json"
code=$(curl -s -o "$VQ_TMP/two.out" -w '%{http_code}' --unix-socket "$VQ_SOCK" -X PUT \
	-H 'Content-Type: application/json' --data-binary "@$VQ_TMP/two.json" http://localhost/v1/policy)
check "PUT two errors: the first in text order's status" 422 "$code"
check "... its field, line and column" "guard.hold_ticks|3|17" \
	"$(vq_json 'd["error"]["field"] + "|" + str(d["error"]["line"]) + "|" + str(d["error"]["column"])' \
	<"$VQ_TMP/two.out")"
first=$("$VQTUNED" --check-policy "$VQ_TMP/two.json" 2>&1 | head -1)
check "... --check-policy's first line names the same" "$VQ_TMP/two.json:3:17: guard.hold_ticks: " \
	"${first%%: -1*}: "
vq_ctl policy load "$VQ_TMP/two.json" >/dev/null 2>"$VQ_TMP/err"
check "... policy load: exit code" 1 $?
check_true "... policy load names guard.hold_ticks first, at 3:17 ($(cat "$VQ_TMP/err"))" \
	grep -qF "vqtunectl: $VQ_TMP/two.json:3:17: guard.hold_ticks: " "$VQ_TMP/err"
check "... policy unchanged" "$before" "$(snap)"

# ---- a C1 control (U+009B is CSI: "\u009b[2J" clears a terminal) is a control character:
# refused in name and in a select entry like C0 and DEL, naming the field, nothing installed
for body in '{"name":"a\u009b[2J"}|name' '{"select":{"names":["a\u0085"]}}|select.names[0]'; do
	fld=${body##*|} body=${body%|*}
	code=$(curl -s -o "$VQ_TMP/c1.out" -w '%{http_code}' --unix-socket "$VQ_SOCK" -X PUT \
		-H 'Content-Type: application/json' -d "$body" http://localhost/v1/policy)
	check "PUT $body: status" 422 "$code"
	check "... out_of_range naming $fld" \
		"out_of_range|$fld|$fld: must not contain control characters" \
		"$(vq_json 'd["error"]["code"] + "|" + d["error"]["field"] + "|" + d["error"]["message"]' \
		<"$VQ_TMP/c1.out")"
	check "... policy unchanged" "$before" "$(snap)"
done
check "vqtunectl status: the name in force" observe \
	"$(vq_ctl --json status | vq_json 'd["policy"]')"
check "no C1 byte in the log" 0 "$(LC_ALL=C grep -c $'\xc2[\x80-\x9f]' "$VQ_TMP/vqtuned.log")"

# ---- a number too big for the JSON parser is named by its field, in both programs
printf '{\n "name": "huge",\n "guard": {\n  "hold_ticks": 99999999999999999999999\n }\n}\n' \
	>"$VQ_TMP/huge.json"
check "huge.json: --check-policy names the field" \
	"$VQ_TMP/huge.json:4:39: guard.hold_ticks: too big integer (a JSON integer must lie \
within [-9223372036854775808, 9223372036854775807])" \
	"$("$VQTUNED" --check-policy "$VQ_TMP/huge.json" 2>&1)"
check "huge.json: policy load says the same" \
	"vqtunectl: $("$VQTUNED" --check-policy "$VQ_TMP/huge.json" 2>&1)" \
	"$(vq_ctl policy load "$VQ_TMP/huge.json" 2>&1)"
check "... policy unchanged" "$before" "$(snap)"

# ---- vqtunectl policy load names a file that is no JSON text in the daemon's words, at the
# same line and column as --check-policy, and sends nothing
printf '\xef\xbb\xbf{"name":"bom"}\n' >"$VQ_TMP/bom.json"
: >"$VQ_TMP/empty.json"
printf '{\n "name":\x01 "x"}' >"$VQ_TMP/ctlbyte.json"
printf '{"name":"x"}\0' >"$VQ_TMP/nul.json"
printf '\x7f' >"$VQ_TMP/del.json"
for f in bom empty ctlbyte nul del; do
	vq_ctl policy load "$VQ_TMP/$f.json" >/dev/null 2>"$VQ_TMP/err"
	check "policy load $f.json: exit code (usage)" 2 $?
	check "... the daemon's words" "vqtunectl: $("$VQTUNED" --check-policy "$VQ_TMP/$f.json" 2>&1)" \
		"$(cat "$VQ_TMP/err")"
done
check "... BOM named" "vqtunectl: $VQ_TMP/bom.json:1:1: file starts with a UTF-8 byte order mark; \
save it without one" "$(vq_ctl policy load "$VQ_TMP/bom.json" 2>&1)"
check "... DEL named, not quoted raw" "vqtunectl: $VQ_TMP/del.json:1:1: byte 0x7F is not JSON \
text (a control character)" "$(vq_ctl policy load "$VQ_TMP/del.json" 2>&1)"
check "... policy unchanged" "$before" "$(snap)"

# ---- a directory is named as one, not "Input/output error", and changes nothing
vq_ctl policy load "$VQ_TMP" >/dev/null 2>"$VQ_TMP/err"
check "policy load DIR: exit code (usage)" 2 $?
check "... says so" "vqtunectl: $VQ_TMP: is a directory, not a policy file" "$(cat "$VQ_TMP/err")"
check "... policy unchanged" "$before" "$(snap)"
"$VQTUNED" --check-policy "$VQ_TMP" >/dev/null 2>"$VQ_TMP/err"
check "--check-policy DIR: exit code" 1 $?
check "... says so" "$VQ_TMP: is a directory, not a policy file" "$(cat "$VQ_TMP/err")"
"$VQTUNED" -s "$VQ_TMP/dir.sock" -S "$VQ_TMP/dir.state" --policy "$VQ_TMP" \
	>"$VQ_TMP/dir.log" 2>&1
check "vqtuned --policy DIR: exit code" 1 $?
check_true "... says so ($(head -1 "$VQ_TMP/dir.log"))" \
	grep -qF "policy $VQ_TMP: is a directory, not a policy file" "$VQ_TMP/dir.log"

# ---- a FIFO with no writer is refused at once (it would block the open), as vqtuned does
mkfifo "$VQ_TMP/p.fifo"
timeout 10 "$VQTUNECTL" -s "$VQ_SOCK" policy load "$VQ_TMP/p.fifo" >/dev/null 2>"$VQ_TMP/err"
check "policy load FIFO: exit code (usage; 124: it hung)" 2 $?
check "... says so, in vqtuned's words" "vqtunectl: $VQ_TMP/p.fifo: is a FIFO, socket or device,\
 not a regular policy file" "$(cat "$VQ_TMP/err")"
check "... policy unchanged" "$before" "$(snap)"

# ---- every shipped policy validates, and the active one installs
for f in "$VQ_ROOT"/policies/*.json; do
	"$VQTUNED" --check-policy "$f" >"$VQ_TMP/out" 2>&1
	rc=$?			# before the $(basename) below, which sets $? anew
	check "--check-policy $(basename "$f"): exit code" 0 $rc
	check_true "... says valid ($(cat "$VQ_TMP/out"))" grep -q ': valid: ' "$VQ_TMP/out"
done
n=$(ls "$VQ_ROOT"/policies/*.json | wc -l)
check "four shipped policies" 4 "$n"
# ---- size: a file may be as large as vqtuned takes one (1 MiB); what policy load sends is
# its compact JSON, which must fit the API's 64 KiB body limit
pad() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d.update(json.loads(sys.argv[3]))
print(json.dumps(d, indent=int(sys.argv[2])))' "$VQ_ROOT/policies/balanced.json" "$@"; }
pad 360 '{}' >"$VQ_TMP/indented.json"
check_true "indented balanced.json is over 64 KiB ($(stat -c %s "$VQ_TMP/indented.json"))" \
	test "$(stat -c %s "$VQ_TMP/indented.json")" -gt 65536
check "... --check-policy: valid" "$VQ_TMP/indented.json: valid: 'balanced', mode active" \
	"$("$VQTUNED" --check-policy "$VQ_TMP/indented.json" 2>&1)"
check "... policy load: installed" "policy 'balanced' installed, mode active" \
	"$(vq_ctl policy load "$VQ_TMP/indented.json" 2>&1)"
pad 1 "{\"x\": \"$(head -c 70000 /dev/zero | tr '\0' a)\"}" >"$VQ_TMP/wide.json"
n=$(python3 -c 'import json, sys; print(len(json.dumps(json.load(open(sys.argv[1])), separators=(",", ":"))))' \
	"$VQ_TMP/wide.json")
before_size=$(snap)
vq_ctl policy load "$VQ_TMP/wide.json" >/dev/null 2>"$VQ_TMP/err"
check "policy load of $n compact bytes: exit code (usage)" 2 $?
check "... names the compact size and the body limit" "vqtunectl: $VQ_TMP/wide.json: $n bytes as \
compact JSON, above the API's 65536-byte body limit" "$(cat "$VQ_TMP/err")"
check "... policy unchanged" "$before_size" "$(snap)"
# policy set: a VALUE that takes the policy past the body limit is refused before the PUT,
# naming KEY (the daemon's 413 could not say which field)
vq_ctl policy set name "$(head -c 70000 /dev/zero | tr '\0' a)" >/dev/null 2>"$VQ_TMP/err"
check "policy set name of 70000 bytes: exit code (usage)" 2 $?
check_true "... names KEY, VALUE's size and the body limit ($(head -c 200 "$VQ_TMP/err"))" \
	grep -qx "vqtunectl: policy set: KEY 'name' and a 70000-byte VALUE make the policy [0-9]* \
bytes as compact JSON, above the API's 65536-byte body limit" "$VQ_TMP/err"
check "... policy unchanged" "$before_size" "$(snap)"
# ... and a 70000-byte KEY is named as KEY, cut to its first 32 bytes, not echoed whole
vq_ctl policy set "$(head -c 70000 /dev/zero | tr '\0' a)" 5 >/dev/null 2>"$VQ_TMP/err"
check "policy set of a 70000-byte KEY: exit code (usage)" 2 $?
check_true "... names KEY cut, with its size ($(head -c 200 "$VQ_TMP/err"))" \
	grep -qx "vqtunectl: policy set: KEY '$(printf 'a%.0s' $(seq 32))...' (70000 bytes) and a \
1-byte VALUE make the policy [0-9]* bytes as compact JSON, above the API's 65536-byte body \
limit" "$VQ_TMP/err"
check "... stderr stays short" 2 "$(wc -l <"$VQ_TMP/err")"
check "... policy unchanged" "$before_size" "$(snap)"
# a 70000-digit VALUE: the reason survives, the digits are cut
vq_ctl policy set guard.hold_ticks "$(head -c 70000 /dev/zero | tr '\0' 1)" >/dev/null \
	2>"$VQ_TMP/err"
check "policy set of a 70000-digit VALUE: exit code (usage)" 2 $?
check "... the reason whole, VALUE cut" "vqtunectl: policy set: guard.hold_ticks: \
'$(printf '1%.0s' $(seq 32))...' (70000 bytes) is too big for a JSON integer (a JSON integer \
must lie within [-9223372036854775808, 9223372036854775807])" "$(head -1 "$VQ_TMP/err")"
check "... policy unchanged" "$before_size" "$(snap)"
pad 4000 '{}' >"$VQ_TMP/huge.json"
n=$(stat -c %s "$VQ_TMP/huge.json")
"$VQTUNED" --check-policy "$VQ_TMP/huge.json" >/dev/null 2>"$VQ_TMP/err"
check "--check-policy of $n bytes: exit code" 1 $?
check "... names the limit" "$VQ_TMP/huge.json: larger than the 1048576-byte limit of a policy \
file (1 MiB)" "$(cat "$VQ_TMP/err")"
vq_ctl policy load "$VQ_TMP/huge.json" >/dev/null 2>"$VQ_TMP/err"
check "... policy load: exit code (usage)" 2 $?
check "... in the same words" "vqtunectl: $("$VQTUNED" --check-policy "$VQ_TMP/huge.json" 2>&1)" \
	"$(cat "$VQ_TMP/err")"
check "... policy unchanged" "$before_size" "$(snap)"

vq_ctl policy load "$VQ_ROOT/policies/balanced.json" >/dev/null 2>"$VQ_TMP/err"
check "policy load balanced.json (mode active): exit code" 0 $?
check "... name" balanced "$(field "['name']")"
check "... mode" active "$(field "['mode']")"
# a value equal to the one in force, as JSON reads it, changes nothing: no PUT, no rename
ev_before=$(vq_ctl --json status | vq_json "d['last_event_id']")
for kv in "objective.event_budget_per_s 20000" "guard.hysteresis_pct 4" \
	"guard.step_factor_max 2.0" "controllers.qlimit.tx_full_mode {}" \
	'controllers.qlimit.tx_full_mode {"max":1}'; do
	vq_ctl policy set ${kv%% *} "${kv#* }" >"$VQ_TMP/out"
	check "policy set $kv: unchanged, nothing sent" \
		"policy 'balanced': ${kv%% *} unchanged, nothing sent" "$(cat "$VQ_TMP/out")"
done
check "... name kept" balanced "$(field "['name']")"
check "... no event" "$ev_before" "$(vq_ctl --json status | vq_json "d['last_event_id']")"
# an object sets the members it gives and keeps the others
vq_ctl policy set controllers.qlimit.tx_full_mode '{"max":0}' >"$VQ_TMP/out"
check "policy set tx_full_mode {\"max\":0}: min kept" \
	"policy 'balanced (modified)': controllers.qlimit.tx_full_mode {\"min\":0,\"max\":1} -> \
{\"min\":0,\"max\":0}" "$(cat "$VQ_TMP/out")"

# ---- PUT: a good variant replaces it; set of one key keeps the rest; a real is refused
sed 's/"name": "observe"/"name": "observe-put"/' "$VQ_ROOT/policies/observe.json" \
	>"$VQ_TMP/put.json"
vq_ctl policy load "$VQ_TMP/put.json" >"$VQ_TMP/out"
check "policy load of a good variant: exit code" 0 $?
check "... one line naming what is in force" "policy 'observe-put' installed, mode observe" \
	"$(cat "$VQ_TMP/out")"
check "... name" observe-put "$(field "['name']")"
vq_ctl policy set guard.cooldown_ticks 5 >/dev/null
check "policy set guard.cooldown_ticks 5: exit code" 0 $?
check "... value" 5 "$(field "['guard']['cooldown_ticks']")"
check "... the rest kept" 30 "$(field "['guard']['hold_ticks']")"
# the policy is no longer observe-put as loaded: its name says so, everywhere it is shown
check "... name marked modified" "observe-put (modified)" "$(field "['name']")"
check "... status shows that name" "observe-put (modified)" \
	"$(vq_ctl --json status | vq_json "d['policy']")"
check "... journalled under that name, with what changed" \
	"policy 'observe-put (modified)' installed, mode observe; changed guard.cooldown_ticks 2 -> 5" \
	"$(ev_last_policy)"
vq_ctl policy set mode advise >/dev/null
check "policy set mode advise: marked once" "observe-put (modified)" "$(field "['name']")"
ev_before=$(vq_ctl --json status | vq_json "d['last_event_id']")
vq_ctl policy set mode advise >"$VQ_TMP/out"
check "... a set that changes nothing: name unchanged" "observe-put (modified)" \
	"$(field "['name']")"
check "... says so, and sends nothing" "policy 'observe-put (modified)': mode unchanged, \
nothing sent" "$(cat "$VQ_TMP/out")"
check "... no event" "$ev_before" "$(vq_ctl --json status | vq_json "d['last_event_id']")"
vq_ctl policy set name observe-set >/dev/null
check "policy set name: taken as given" observe-set "$(field "['name']")"
vq_ctl policy set mode observe >/dev/null
check "policy set mode observe: marked again" "observe-set (modified)" "$(field "['name']")"
check "... mode" observe "$(field "['mode']")"
after_set=$(snap)
vq_ctl policy set guard.cooldown_ticks 2.5 >/dev/null 2>"$VQ_TMP/err"
check "policy set guard.cooldown_ticks 2.5: exit code" 1 $?
check_true "... names the field ($(cat "$VQ_TMP/err"))" grep -qF 'guard.cooldown_ticks' "$VQ_TMP/err"
check "... policy unchanged" "$after_set" "$(snap)"
# an inverted pair names the bound the set changed, not the one it kept
mx=$(field "['controllers']['polling']['rx_usecs']['max_us']")
vq_ctl policy set controllers.polling.rx_usecs.min_us $((mx + 1)) >/dev/null 2>"$VQ_TMP/err"
check "policy set rx_usecs.min_us above max_us: exit code" 1 $?
check_true "... names min_us and its value ($(cat "$VQ_TMP/err"))" grep -qF \
	"controllers.polling.rx_usecs.min_us: $((mx + 1)) is above max_us $mx (out_of_range, field controllers.polling.rx_usecs.min_us)" \
	"$VQ_TMP/err"
check "... policy unchanged" "$after_set" "$(snap)"

# ---- SIGHUP re-reads --policy FILE: a broken or bad file changes nothing
# hup_wait N: SIGHUP, then wait until the log has N "policy ... rejected"/"loaded" lines
hup_wait() {
	kill -HUP "$VQ_DPID"
	for _ in $(seq 50); do
		[ "$(grep -cE "policy $POL (rejected|loaded)" "$VQ_TMP/vqtuned.log")" -ge "$1" ] &&
			return 0
		sleep 0.1
	done
	return 1
}
seen=$(grep -cE "policy $POL (rejected|loaded)" "$VQ_TMP/vqtuned.log")
printf '{ "name": "broken", ' >"$POL"
seen=$((seen + 1)); check_true "SIGHUP handled (reload $seen logged)" hup_wait $seen
check_true "SIGHUP with a broken file: daemon alive" kill -0 "$VQ_DPID"
check "... policy unchanged" "$after_set" "$(snap)"
check_true "... the log has file:line:column" grep -qE "policy $POL:1:[0-9]+: " "$VQ_TMP/vqtuned.log"
check_true "... an event says the reload was rejected, with the position" \
	bash -c "'$VQTUNECTL' -s '$VQ_SOCK' events | grep -qE \"policy reload \\(SIGHUP\\) rejected, .* stays in force: .*:1:[0-9]+: \""
# two errors: the event gives the first one exactly as the log's first "policy ..." line does
cat >"$POL" <<'EOF'
{
	"name": "bad-two",
	"guard": { "cooldown_tick": 2 },
	"controllers": { "polling": { "rx_usecs": { "min_us": 300, "max_us": 100 } } }
}
EOF
lines=$(wc -l <"$VQ_TMP/vqtuned.log")
seen=$((seen + 1)); check_true "SIGHUP handled (reload $seen logged)" hup_wait $seen
first=$(tail -n "+$((lines + 1))" "$VQ_TMP/vqtuned.log" | grep -m1 "^<3>policy $POL:" |
	sed 's/^<3>policy //')
check "... the log's first error is the guard's" \
	"$POL:3:13: guard.cooldown_tick: unknown field (known: cooldown_ticks, settle_ticks, hold_ticks, osc_window_ticks, osc_reversals_max, hysteresis_pct, step_factor_max, rollback_worse_pct)" \
	"$first"
check "... the event gives that same first error, whole" \
	"policy reload (SIGHUP) rejected, 'observe-set (modified)' stays in force: $first" \
	"$(vq_ctl --json events | vq_json "[e['reason'] for e in d['events'] if e['who'] == 'error'][-1]")"
for name in unknown unit inverted; do
	cp "$VQ_TMP/$name.json" "$POL"
	seen=$((seen + 1)); check_true "SIGHUP handled (reload $seen logged)" hup_wait $seen
	check_true "SIGHUP with $name.json: daemon alive" kill -0 "$VQ_DPID"
	check "... policy unchanged" "$after_set" "$(snap)"
done
check_true "... the log names the field" \
	grep -qF "$POL:6:43: controllers.polling.rx_usecs.max_us" "$VQ_TMP/vqtuned.log"
rm "$POL" && mkdir "$POL"
seen=$((seen + 1)); check_true "SIGHUP handled (reload $seen logged)" hup_wait $seen
check_true "SIGHUP with a directory: daemon alive" kill -0 "$VQ_DPID"
check "... policy unchanged" "$after_set" "$(snap)"
check_true "... the log says it is a directory" \
	grep -qF "policy $POL: is a directory, not a policy file" "$VQ_TMP/vqtuned.log"
rmdir "$POL"
# a FIFO nobody writes: refused at once; the daemon neither blocks in open(2) nor stops
# answering, and SIGTERM still works later (the last check of this test stops it)
mkfifo "$POL"
seen=$((seen + 1)); check_true "SIGHUP with a FIFO handled (reload $seen logged)" hup_wait $seen
check_true "... daemon answers" vq_ctl status
check "... policy unchanged" "$after_set" "$(snap)"
check_true "... the log says it is a FIFO, not a regular file" \
	grep -qF "policy $POL: is a FIFO, socket or device, not a regular policy file" "$VQ_TMP/vqtuned.log"
rm "$POL"
# not JSON text at all: named in words (no invisible byte quoted, no column 0), in the log and
# in the event; a PUT body with a byte order mark likewise
ev_last_error() { vq_ctl --json events | vq_json "[e['reason'] for e in d['events'] if e['who'] == 'error'][-1]"; }
printf '\xef\xbb\xbf' >"$POL" && cat "$VQ_ROOT/policies/observe.json" >>"$POL"
seen=$((seen + 1)); check_true "SIGHUP with a BOM handled (reload $seen logged)" hup_wait $seen
check "... policy unchanged" "$after_set" "$(snap)"
check "... the event names the byte order mark" "policy reload (SIGHUP) rejected, 'observe-set \
(modified)' stays in force: $POL:1:1: file starts with a UTF-8 byte order mark; save it without one" \
	"$(ev_last_error)"
printf '{\n  "name": "x\x01"}\n' >"$POL"
seen=$((seen + 1)); check_true "SIGHUP with byte 0x01 handled (reload $seen logged)" hup_wait $seen
check_true "... the log names the byte and its place" \
	grep -qF "policy $POL:2:13: byte 0x01 is not JSON text (a control character)" "$VQ_TMP/vqtuned.log"
# DEL (0x7F) likewise, in the log, the event and the log's line of the event
printf '{\n  "name": 1\x7f}\n' >"$POL"
seen=$((seen + 1)); check_true "SIGHUP with byte 0x7F handled (reload $seen logged)" hup_wait $seen
want="$POL:2:12: byte 0x7F is not JSON text (a control character)"
check_true "... the log names the byte and its place" grep -qF "<3>policy $want" "$VQ_TMP/vqtuned.log"
check "... so does the event" "policy reload (SIGHUP) rejected, 'observe-set (modified)' stays \
in force: $want" "$(ev_last_error)"
check_true "... and the log's line of it" grep -qF "stays in force: $want" "$VQ_TMP/vqtuned.log"
check "... no raw DEL in the log" 0 "$(grep -c $'\x7f' "$VQ_TMP/vqtuned.log")"
# an error that quotes a backslash (jansson's "invalid escape near '"a\q'"): the log and the
# event give it in the same (display) form, the backslash doubled in both
printf '{\n "name": "a\\q"}\n' >"$POL"
lines=$(wc -l <"$VQ_TMP/vqtuned.log")
seen=$((seen + 1)); check_true "SIGHUP with an invalid escape handled (reload $seen logged)" \
	hup_wait $seen
first=$(tail -n "+$((lines + 1))" "$VQ_TMP/vqtuned.log" | grep -m1 "^<3>policy $POL:" |
	sed 's/^<3>policy //')
check "... the log's first error, in display form" "$POL:2:13: invalid escape near '\"a\\\\q'" \
	"$first"
check "... the event gives that same text" "policy reload (SIGHUP) rejected, 'observe-set \
(modified)' stays in force: $first" "$(ev_last_error)"
check "... and so does the log's line of that event" "stays in force: $first" \
	"$(tail -n "+$((lines + 1))" "$VQ_TMP/vqtuned.log" | grep -m1 '^<6>event [0-9]*: error' |
	   grep -o 'stays in force: .*')"
: >"$POL"
seen=$((seen + 1)); check_true "SIGHUP with an empty file handled (reload $seen logged)" hup_wait $seen
check "... the event says it is empty" "policy reload (SIGHUP) rejected, 'observe-set (modified)' \
stays in force: $POL: file is empty" "$(ev_last_error)"
check "... policy unchanged" "$after_set" "$(snap)"
printf '\xef\xbb\xbf' >"$VQ_TMP/bom.json" && cat "$VQ_ROOT/policies/observe.json" >>"$VQ_TMP/bom.json"
code=$(curl -s -o "$VQ_TMP/bom.out" -w '%{http_code}' --unix-socket "$VQ_SOCK" -X PUT \
	-H 'Content-Type: application/json' --data-binary "@$VQ_TMP/bom.json" http://localhost/v1/policy)
check "PUT /v1/policy with a BOM: status" 400 "$code"
check "... invalid_json naming the byte order mark" "invalid_json|line 1 column 1: body starts \
with a UTF-8 byte order mark; send it without one" \
	"$(vq_json 'd["error"]["code"] + "|" + d["error"]["message"]' <"$VQ_TMP/bom.out")"
check "... policy unchanged" "$after_set" "$(snap)"
rm "$POL"
sed 's/"mode": "observe"/"mode": "advise"/' "$VQ_ROOT/policies/observe.json" >"$POL"
seen=$((seen + 1)); check_true "SIGHUP handled (reload $seen logged)" hup_wait $seen
check "SIGHUP with mode advise: installed" advise "$(field "['mode']")"
sed 's/"name": "observe"/"name": "observe-hup"/' "$VQ_ROOT/policies/observe.json" >"$POL"
seen=$((seen + 1)); check_true "SIGHUP handled (reload $seen logged)" hup_wait $seen
check "SIGHUP with a good variant: name" observe-hup "$(field "['name']")"
check "... journalled as an event, with what changed (the name left out)" \
	"policy 'observe-hup' installed from $POL (SIGHUP), mode observe; changed mode \
\"advise\" -> \"observe\"" \
	"$(ev_last_policy)"
check "... mode" observe "$(field "['mode']")"
check "... replaced whole (cooldown back to the default)" 2 "$(field "['guard']['cooldown_ticks']")"
check_true "daemon alive at the end" kill -0 "$VQ_DPID"
vq_done
