#!/bin/bash
# vqtunectl's exit statuses and messages as vqtunectl(8) documents them: 3 when the daemon
# cannot be reached (naming the socket), 4 for an unknown device, 2 for a VALUE that is not
# an unsigned decimal integer, a -T naming a directory, a -H that is not HOST:PORT, -s with
# -H, a repeated --queue/--napi-id or --queue with --napi-id (all refused before anything is
# sent, naming the option), 4 for release --queue N of a queue without an instance, 0
# otherwise; --json status, events --since and watch --count on a non-terminal; a UTF-8
# device name keeps its devices row aligned; status shows the restores owed and the last
# event id; a disruptive knob without consent is told to add --disruptive (--json keeps the
# API's words), one the device has not is unsupported first; a write to lo says lo is never
# written; policy set prints one line; an empty NETNS (':vb') is a usage error for every
# command taking DEV; watch waits, saying
# so, for a daemon away at an address that once accepted a connection (a listener that
# resets, a restart), and exits 3 at once where nothing ever did.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
IFX=$(vq_ifindex "$B" vb)
NOSOCK=$VQ_TMP/absent/vqtuned.sock
events() { vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["events"]'; }

"$VQTUNECTL" -s "$NOSOCK" status >/dev/null 2>"$VQ_TMP/err"
check "status on a missing socket: exit code" 3 $?
check_true "... stderr names the path ($(cat "$VQ_TMP/err"))" grep -qF "$NOSOCK" "$VQ_TMP/err"

# -T naming a directory: a usage error that says so, naming the option and the path
mkdir "$VQ_TMP/tokdir"
vq_ctl -T "$VQ_TMP/tokdir" status >/dev/null 2>"$VQ_TMP/err"
check "-T DIRECTORY: exit code" 2 $?
check_true "... stderr names -T, the path and 'is a directory' ($(cat "$VQ_TMP/err"))" \
	grep -qF -- "-T/--token-file: '$VQ_TMP/tokdir' is a directory" "$VQ_TMP/err"
"$VQTUNECTL" -s "$NOSOCK" -T "$VQ_TMP/tokdir" status >/dev/null 2>&1
check "-T DIRECTORY with no daemon: exit code (refused before connecting)" 2 $?

# -H that is not HOST:PORT: a usage error naming -H and the value, nothing sent
for h in garbage 'two words:1' host:port '[::1]' '[zz]:1' :9477 \
	ftp://h:9477 'http://' 'h:9477/x'; do
	"$VQTUNECTL" -H "$h" status >/dev/null 2>"$VQ_TMP/err"
	check "-H '$h': exit code" 2 $?
	check_true "... stderr names -H and the value ($(head -1 "$VQ_TMP/err"))" \
		grep -qF -- "-H/--host: '$h' is not HOST:PORT" "$VQ_TMP/err"
done
# a port that is a number but no TCP port: the range is named, nothing sent
for hp in host:0:0 127.0.0.1:0:0 host:65536:65536 'http://[::1]:123456/:123456'; do
	h=${hp%:*} p=${hp##*:}
	"$VQTUNECTL" -H "$h" status >/dev/null 2>"$VQ_TMP/err"
	check "-H '$h': exit code" 2 $?
	check "... names the port and its range" \
		"vqtunectl: -H/--host: '$h': port '$p' is out of range [1, 65535] (TCP port)" \
		"$(head -1 "$VQ_TMP/err")"
done
# well-formed but nobody listens: past the syntax check, so "cannot reach" (3)
PORT=$(vq_free_port) || exit $KSFT_FAIL
# a leading zero: refused alike by vqtunectl -H and vqtuned -l/-i, naming the option
"$VQTUNECTL" -H "127.0.0.1:0$PORT" status >/dev/null 2>"$VQ_TMP/err"
check "-H port with a leading zero: exit code" 2 $?
check "... names the port" "vqtunectl: -H/--host: '127.0.0.1:0$PORT': port '0$PORT' must be \
written without a leading zero" "$(head -1 "$VQ_TMP/err")"
timeout 10 "$VQTUNED" -s "$VQ_TMP/lz.sock" -S "$VQ_TMP/lz.state" -l "127.0.0.1:0$PORT" \
	>/dev/null 2>"$VQ_TMP/err"
check "vqtuned -l port with a leading zero: exit code" 2 $?
check "... names the port" "vqtuned: --listen: '127.0.0.1:0$PORT': port '0$PORT' must be \
written without a leading zero" "$(head -1 "$VQ_TMP/err")"
timeout 10 "$VQTUNED" -s "$VQ_TMP/lz.sock" -S "$VQ_TMP/lz.state" -i 010 >/dev/null \
	2>"$VQ_TMP/err"
check "vqtuned -i 010: exit code" 2 $?
check "... refused, not read as 10 ms" "vqtuned: --interval: '010' must be written without \
a leading zero (10..60000 ms)" "$(head -1 "$VQ_TMP/err")"
check "... nothing created" "" "$(ls -A "$VQ_TMP" | grep '^lz\.' || true)"
# a --manage glob fnmatch(3) would read literally, or an empty one, would manage nothing:
# refused as a policy's select.names entry is, in the same words
timeout 10 "$VQTUNED" -s "$VQ_TMP/lz.sock" -S "$VQ_TMP/lz.state" -m 'eth[0' >/dev/null \
	2>"$VQ_TMP/err"
check "vqtuned -m 'eth[0': exit code" 2 $?
check "... names the option and the fault" "vqtuned: --manage: 'eth[0' is not a valid \
fnmatch(3) glob: '[' without its closing ']' (byte 4)" "$(head -1 "$VQ_TMP/err")"
timeout 10 "$VQTUNED" -s "$VQ_TMP/lz.sock" -S "$VQ_TMP/lz.state" -m 'v*' --manage '' \
	>/dev/null 2>"$VQ_TMP/err"
check "vqtuned --manage '': exit code" 2 $?
check "... says it is empty" "vqtuned: --manage: an empty glob matches no device name" \
	"$(head -1 "$VQ_TMP/err")"
check "... nothing created" "" "$(ls -A "$VQ_TMP" | grep '^lz\.' || true)"
# an option refused by getopt_long(): named by the program, not by the path it was run as; an
# abbreviation by the option it stands for
for c in "--bogus=3:unknown option '--bogus'" "-x:unknown option '-x'" \
	"--interval:option '--interval' needs an argument" \
	"--ver:option '--ver' is ambiguous: --verbose, --version" \
	"--verbose=1:option '--verbose' takes no argument"; do
	timeout 10 "$VQTUNED" -s "$VQ_TMP/lz.sock" -S "$VQ_TMP/lz.state" "${c%%:*}" >/dev/null \
		2>"$VQ_TMP/err"
	check "vqtuned ${c%%:*}: exit code" 2 $?
	check "... says" "vqtuned: ${c#*:}" "$(head -1 "$VQ_TMP/err")"
	check "... then the usage" "Usage: vqtuned [OPTIONS]" "$(sed -n 2p "$VQ_TMP/err")"
done
# an empty path (an unset variable) is refused by name, not opened as ""
for o in --check-policy= --policy= --token-file=; do
	timeout 10 "$VQTUNED" -s "$VQ_TMP/lz.sock" -S "$VQ_TMP/lz.state" "$o" >/dev/null \
		2>"$VQ_TMP/err"
	check "vqtuned $o (empty): exit code" 2 $?
	check "... says" "vqtuned: ${o%=}: empty path" "$(cat "$VQ_TMP/err")"
done
# a 70 KB value of any option, a socket path unix(7) cannot hold, and a 70 KB stray word:
# refused by name, the value cut to its first 128 bytes and its size (util_arg_brief())
VBIG=$(head -c 70000 /dev/zero | tr '\0' x)
V128=$(head -c 128 /dev/zero | tr '\0' x)
for o in --netns --interval --listen --policy; do
	timeout 10 "$VQTUNED" -s "$VQ_TMP/lz.sock" -S "$VQ_TMP/lz.state" "$o" "$VBIG" >/dev/null \
		2>"$VQ_TMP/err"
	check "vqtuned $o of 70 KB: exit code" 2 $?
	check "... says" "vqtuned: $o: '$V128... (70000 bytes)' is longer than any value it takes \
(4095 bytes)" "$(cat "$VQ_TMP/err")"
done
LONG_SOCK=/tmp/$(head -c 120 /dev/zero | tr '\0' y)
timeout 10 "$VQTUNED" -s "$LONG_SOCK" -S "$VQ_TMP/lz.state" >/dev/null 2>"$VQ_TMP/err"
check "vqtuned -s of 125 bytes: exit code" 2 $?
check "... says, before reading any device" "vqtuned: --socket: '$LONG_SOCK' is longer than a \
unix socket path can be (107 bytes, unix(7))" "$(cat "$VQ_TMP/err")"
timeout 10 "$VQTUNED" -s "$VQ_TMP/lz.sock" -S "$VQ_TMP/lz.state" "x$VBIG" >/dev/null \
	2>"$VQ_TMP/err"
check "vqtuned with a 70 KB stray word: exit code" 2 $?
check "... says" "vqtuned: unexpected argument '$V128... (70001 bytes)'" "$(cat "$VQ_TMP/err")"
check "... nothing created" "" "$(ls -A "$VQ_TMP" | grep '^lz\.' || true)"
# https: the daemon has no TLS, refused with that reason before anything is sent
"$VQTUNECTL" -H "https://127.0.0.1:$PORT" status >/dev/null 2>"$VQ_TMP/err"
check "-H https://...: exit code" 2 $?
check_true "... says vqtuned serves plain HTTP ($(head -1 "$VQ_TMP/err"))" \
	grep -qF "vqtuned serves plain HTTP, not https" "$VQ_TMP/err"
for h in "127.0.0.1:$PORT" "http://127.0.0.1:$PORT/" "[::1]:$PORT"; do
	"$VQTUNECTL" -H "$h" status >/dev/null 2>"$VQ_TMP/err"
	check "-H '$h' (no listener): exit code" 3 $?
done

# a global option unknown, or without its value: 2, naming it as typed (an abbreviation: the
# option it stands for) and which it is
for c in "--bogus status:unknown option '--bogus'" "--bogus=3 status:unknown option '--bogus'" \
	"-x status:unknown option '-x'" "-s:option '-s' needs an argument" \
	"--timeout:option '--timeout' needs an argument" "events --bogus:unknown option '--bogus'" \
	"events foo:unexpected argument 'foo'" "--help=1:option '--help' takes no argument" \
	"--vers=1:option '--version' takes no argument"; do
	# shellcheck disable=SC2086 # the words split on purpose
	"$VQTUNECTL" ${c%%:*} >/dev/null 2>"$VQ_TMP/err"
	check "vqtunectl ${c%%:*}: exit code" 2 $?
	check "... says" "vqtunectl: ${c#*:}" "$(head -1 "$VQ_TMP/err")"
done

# -s and -H both: one would be ignored, so neither is chosen; 2 even with nothing listening
"$VQTUNECTL" -s "$NOSOCK" -H "127.0.0.1:$PORT" status >/dev/null 2>"$VQ_TMP/err"
check "-s with -H: exit code" 2 $?
check_true "... stderr names -s and -H ($(head -1 "$VQ_TMP/err"))" \
	grep -qF -- "-s/--socket and -H/--host cannot be used together" "$VQ_TMP/err"
"$VQTUNECTL" -H "127.0.0.1:$PORT" --socket="$VQ_SOCK" status >/dev/null 2>&1
check "-H with --socket= (a live socket): exit code" 2 $?
# $VQTUNE_SOCKET is a default, not a choice: -H alone still goes to TCP (nobody there: 3)
VQTUNE_SOCKET=$VQ_SOCK "$VQTUNECTL" -H "127.0.0.1:$PORT" status >/dev/null 2>&1
check "-H with VQTUNE_SOCKET set: exit code (TCP tried)" 3 $?

# instance selectors: each once, and not both. The live socket would answer, so 2 here
# means refused before sending; the journal must not move.
ev0=$(events)
opt_case() {	# DESCRIPTION EXPECTED-MESSAGE ARGS...
	local d=$1 msg=$2; shift 2
	vq_ctl "$@" >"$VQ_TMP/out" 2>"$VQ_TMP/err"
	check "$d: exit code" 2 $?
	check_true "... stderr says '$msg' ($(head -1 "$VQ_TMP/err"))" \
		grep -qF -- "$msg" "$VQ_TMP/err"
	check "... nothing on stdout" "" "$(cat "$VQ_TMP/out")"
}
opt_case "set --queue twice" "--queue given more than once" \
	set "$B:vb" gro-flush-timeout 777 --queue 0 --queue 1
opt_case "set --queue= twice" "--queue given more than once" \
	set "$B:vb" gro-flush-timeout 777 --queue=1 --queue=1
opt_case "set --disruptive=yes" "vqtunectl: option '--disruptive' takes no argument \
('--disruptive=yes'): it accepts a disruptive knob when given" \
	set "$B:vb" gro-flush-timeout 777 --disruptive=yes
opt_case "set --napi-id twice" "--napi-id given more than once" \
	set "$B:vb" gro-flush-timeout 777 --napi-id 1 --napi-id 2
opt_case "set --queue with --napi-id" "--queue and --napi-id cannot be used together" \
	set "$B:vb" gro-flush-timeout 777 --queue 0 --napi-id 1
opt_case "set --napi-id with --queue" "--queue and --napi-id cannot be used together" \
	set --napi-id=1 "$B:vb" gro-flush-timeout --queue=0 777
opt_case "release --queue twice" "--queue given more than once" \
	release "$B:vb" gro-flush-timeout --queue 0 --queue 1
# every option that takes a value is taken once, not the last one winning (the API refuses a
# repeated query parameter too); the live socket would answer, so 2 is a refusal
opt_case "events --since twice" "--since given more than once" events --since 5 --since 6
opt_case "events --since= twice" "--since given more than once" events --since=5 --since=5
opt_case "watch --count twice" "--count given more than once" watch --count 1 --count 2
opt_case "watch --interval twice" "--interval given more than once" \
	watch --interval 1 --interval=0.5
opt_case "-s twice (vq_ctl gives one)" "-s/--socket given more than once" -s "$VQ_SOCK" status
opt_case "--timeout twice" "-t/--timeout given more than once" -t 5 --timeout=6 status
opt_case "-T twice" "-T/--token-file given more than once" -T /dev/null -T /dev/null status
"$VQTUNECTL" -H "127.0.0.1:$PORT" --host="127.0.0.1:$PORT" status >/dev/null 2>"$VQ_TMP/err"
check "-H twice: exit code" 2 $?
check_true "... stderr names -H ($(head -1 "$VQ_TMP/err"))" \
	grep -qF -- "-H/--host given more than once" "$VQ_TMP/err"
# a 70000-digit VALUE: the range and unit survive, the digits are cut (ctl_arg_shown())
opt_case "set VALUE of 70000 digits" "VALUE: '$(printf '9%.0s' $(seq 32))...' (70000 bytes) \
is out of range [0, 1000000000] (ns of gro-flush-timeout on $B:vb)" \
	set "$B:vb" gro-flush-timeout "$(head -c 70000 /dev/zero | tr '\0' 9)"
check "... stderr stays short" 2 "$(wc -l <"$VQ_TMP/err")"
# a 70 KB global option, command word or policy file path is cut to its head and size too
# (ctl_arg_shown(): 32 bytes of an argument; util_arg_brief(): 128 of a path over 256); a
# socket path also by what unix(7) allows, 107 bytes
BIG=$(head -c 70000 /dev/zero | tr '\0' x)
X32=$(printf 'x%.0s' $(seq 32))
X128=$(printf 'x%.0s' $(seq 128))
big_case() {	# DESCRIPTION EXPECTED-MESSAGE EXIT [NAME=VALUE...] COMMAND ARGS...
	local d=$1 msg=$2 rc=$3; shift 3
	env "$@" >"$VQ_TMP/out" 2>"$VQ_TMP/err"
	check "$d: exit code" "$rc" $?
	check_true "... stderr says '$msg' ($(head -c 200 "$VQ_TMP/err"))" \
		grep -qF -- "$msg" "$VQ_TMP/err"
	check_true "... in under 300 bytes ($(wc -c <"$VQ_TMP/err"))" \
		test "$(wc -c <"$VQ_TMP/err")" -lt 300
}
big_case "-s of 70 KB" "vqtunectl: -s/--socket: '$X32...' (70000 bytes) is longer than a unix \
socket path can be (107 bytes, unix(7))" 2 "$VQTUNECTL" -s "$BIG" status
big_case "\$VQTUNE_SOCKET of 70 KB" "vqtunectl: \$VQTUNE_SOCKET: '$X32...' (70000 bytes) is \
longer than a unix socket path can be" 2 VQTUNE_SOCKET="$BIG" "$VQTUNECTL" status
big_case "-s of 108 bytes" "vqtunectl: -s/--socket: '/tmp/$(printf 'y%.0s' $(seq 27))...' (108 \
bytes) is longer than a unix socket path can be (107 bytes" 2 "$VQTUNECTL" \
	-s "/tmp/$(printf 'y%.0s' $(seq 103))" status
big_case "-H of 70 KB" "vqtunectl: -H/--host: '$X32...' (70000 bytes) is not HOST:PORT" 2 \
	"$VQTUNECTL" -H "$BIG" status
big_case "-T of 70 KB" "vqtunectl: -T/--token-file: '$X32...' (70000 bytes) cannot be read: \
File name too long" 2 "$VQTUNECTL" -s "$VQ_SOCK" -T "$BIG" status
big_case "a command word of 70 KB" "vqtunectl: unknown command '$X32...' (70000 bytes)" 2 \
	"$VQTUNECTL" -s "$VQ_SOCK" "$BIG"
big_case "policy load of a 70 KB path" "vqtunectl: $X128... (70000 bytes): File name too long" \
	2 "$VQTUNECTL" -s "$VQ_SOCK" policy load "$BIG"
big_case "vqtuned --check-policy of a 70 KB path" "vqtuned: --check-policy: '$X128... (70000 \
bytes)' is longer than any value it takes (4095 bytes)" 2 "$VQTUNED" --check-policy "$BIG"
# policy set: a JSON number vqtune cannot hold is refused naming KEY and the range, not
# sent on as a string
opt_case "policy set beyond a JSON integer" "vqtunectl: policy set: guard.hold_ticks: \
'99999999999999999999' is too big for a JSON integer (a JSON integer must lie within \
[-9223372036854775808, 9223372036854775807])" policy set guard.hold_ticks 99999999999999999999
opt_case "policy set 2^64" "'18446744073709551616' is too big for a JSON integer" \
	policy set guard.hold_ticks 18446744073709551616
# a number out of range: one wording for every option and VALUE, naming it, the value and
# the range with its unit. VALUE beyond the API's integer gets the knob's own range and
# unit from the daemon; on a device the daemon does not know, the integer's (a smaller
# VALUE is the daemon's to check, below)
big=99999999999999999999	# more than 64 bits
opt_case "set VALUE beyond 64 bits" \
	"VALUE: '$big' is out of range [0, 1000000000] (ns of gro-flush-timeout on $B:vb)" \
	set "$B:vb" gro-flush-timeout "$big"
opt_case "set VALUE beyond a JSON integer" "VALUE: '9223372036854775808' is out of range \
[0, 1000000000] (ns of gro-flush-timeout on $B:vb)" set "$B:vb" gro-flush-timeout \
	9223372036854775808
opt_case "set VALUE beyond 64 bits, unknown device" "VALUE: '$big' is out of range \
[0, 9223372036854775807] (gro-flush-timeout's unit)" set "$B:nosuch" gro-flush-timeout "$big"
opt_case "set --queue beyond 64 bits" "--queue: '$big' is out of range [0, 1023] (queue index)" \
	set "$B:vb" gro-flush-timeout 777 --queue "$big"
opt_case "release --queue 1024" "--queue: '1024' is out of range [0, 1023] (queue index)" \
	release "$B:vb" gro-flush-timeout --queue 1024
opt_case "set --napi-id 0" "--napi-id: '0' is out of range [1, 4294967295] (NAPI id)" \
	set "$B:vb" gro-flush-timeout 777 --napi-id 0
opt_case "set --napi-id beyond u32" \
	"--napi-id: '4294967296' is out of range [1, 4294967295] (NAPI id)" \
	set "$B:vb" gro-flush-timeout 777 --napi-id 4294967296
opt_case "events --since beyond 64 bits" \
	"--since: '$big' is out of range [0, 9223372036854775807] (event id)" events --since "$big"
opt_case "events --since beyond a JSON integer" \
	"--since: '9223372036854775808' is out of range [0, 9223372036854775807] (event id)" \
	events --since 9223372036854775808
opt_case "watch --count beyond 64 bits" \
	"--count: '$big' is out of range [1, 18446744073709551615] (frames)" watch --count "$big"
opt_case "watch --count 0" "--count: '0' is out of range [1, 18446744073709551615] (frames)" \
	watch --count 0
# events --follow waits only for a daemon that answered once: a socket nobody ever served
# (a typo) exits 3 at once, not "waiting for the daemon to come back" forever
timeout 10 "$VQTUNECTL" -s "$VQ_TMP/nobody.sock" events --follow >/dev/null 2>"$VQ_TMP/err"
check "events --follow, never answered: exit code" 3 $?
check "... no wait announced" "" "$(grep 'waiting for the daemon' "$VQ_TMP/err")"
# a leading zero: refused as -H and vqtuned -i refuse it (010 is 8 to C and the shell)
opt_case "set --queue 05" "--queue: '05' must be written without a leading zero" \
	set "$B:vb" gro-flush-timeout 777 --queue 05
opt_case "set VALUE 010" "VALUE: '010' must be written without a leading zero" \
	set "$B:vb" gro-flush-timeout 010
opt_case "events --since 05" "--since: '05' must be written without a leading zero" \
	events --since 05
opt_case "watch --interval 01.5" "--interval: '01.5' must be written without a leading zero" \
	watch --interval 01.5
opt_case "watch --interval beyond 64 bits" \
	"--interval: '$big' is out of range [0.01, 3600] (seconds)" watch --interval "$big"
opt_case "--timeout 86401" "--timeout: '86401' is out of range [0.001, 86400] (seconds)" \
	--timeout 86401 status
check "events count unchanged by the refused options" "$ev0" "$(events)"

vq_ctl device "$B:nodev" >/dev/null 2>"$VQ_TMP/err"
check "device on an unknown device: exit code" 4 $?
check_true "... stderr names it ($(cat "$VQ_TMP/err"))" grep -q 'nodev' "$VQ_TMP/err"
vq_ctl set "$B:vb" no-such-knob 1 >/dev/null 2>&1
check "set of an unknown knob: exit code" 4 $?

ev0=$(events)
orig=$(vq_napi "$B" "$IFX" gro_flush_timeout)
for v in -1 abc 1e3 '' 0x10 ' 5'; do
	vq_ctl set "$B:vb" gro-flush-timeout "$v" >/dev/null 2>"$VQ_TMP/err"
	check "set VALUE '$v': exit code" 2 $?
	check_true "... stderr names the VALUE ($(head -1 "$VQ_TMP/err"))" \
		grep -q 'VALUE' "$VQ_TMP/err"
	# refused before connecting: the same with no daemon behind the socket is 2, not 3
	"$VQTUNECTL" -s "$NOSOCK" set "$B:vb" gro-flush-timeout "$v" >/dev/null 2>&1
	check "set VALUE '$v' with no daemon: exit code" 2 $?
done
check "events count unchanged by the refused sets" "$ev0" "$(events)"
check "gro-flush-timeout untouched" "$orig" "$(vq_napi "$B" "$IFX" gro_flush_timeout)"

vq_ctl --json status >"$VQ_TMP/status.json"
check "--json status: exit code" 0 $?
read -r ver pid < <(vq_json 'd["version"], d["pid"]' <"$VQ_TMP/status.json" | tr -d "(),'")
check "--json status version is vqtunectl's" "$("$VQTUNECTL" -V | awk '{ print $2 }')" "$ver"
check "vqtuned --version (and -V): its name and the running daemon's version, exit 0" \
	"vqtuned $ver 0 vqtuned $ver 0" \
	"$("$VQTUNED" --version) $? $("$VQTUNED" -V) $?"
check "--json status pid" "$VQ_DPID" "$pid"

vq_ctl set "$B:vb" gro-flush-timeout 12345 >"$VQ_TMP/out"
check "set gro-flush-timeout 12345: exit code" 0 $?
# each change line is "KNOB[ INSTANCE]: OLD -> NEW", no gap before the colon
check_true "set prints its changes without a gap ($(head -1 "$VQ_TMP/out"))" \
	grep -Eq "^gro-flush-timeout( napi-[0-9]+)?: $orig -> 12345$" "$VQ_TMP/out"
check "... and no line with one" "" "$(grep ' :' "$VQ_TMP/out")"
vq_ctl events --since 0 >"$VQ_TMP/events"
check "events --since 0: exit code" 0 $?
check_true "events --since 0 lists the change ($(head -1 "$VQ_TMP/events"))" \
	grep -Eq "manual +$B:vb +gro-flush-timeout/napi-[0-9]+ +$orig -> 12345" "$VQ_TMP/events"
# status shows what only --json showed: the restores owed and the newest event's id
vq_ctl status >"$VQ_TMP/status"
check "status: exit code" 0 $?
vq_ctl --json status >"$VQ_TMP/status.json"
read -r owed lastid < <(vq_json 'd["changed_knobs"], d["last_event_id"]' <"$VQ_TMP/status.json" |
	tr -d "(),")
check "... --json changed_knobs counts the 2 instances set" 2 "$owed"
check "status: changed knobs line" "changed knobs:    $owed (restores owed)" \
	"$(grep '^changed knobs:' "$VQ_TMP/status")"
check "status: last event id line" "last event id:    $lastid" \
	"$(grep '^last event id:' "$VQ_TMP/status")"
# release --queue N: a queue without an instance of the knob is an error naming the queue
vq_ctl release "$B:vb" gro-flush-timeout --queue 7 >"$VQ_TMP/out" 2>"$VQ_TMP/err"
check "release --queue 7 (vb has 2 queues): exit code" 4 $?
check_true "... stderr names queue 7 ($(cat "$VQ_TMP/err"))" \
	grep -q 'vb has no gro-flush-timeout instance on queue 7 .*(not_found, field queue)' \
	"$VQ_TMP/err"
check "... nothing on stdout" "" "$(cat "$VQ_TMP/out")"
# veth ties no NAPI to a queue: the error lists the instances there are instead
check_true "... and lists the instances (napi-N)" \
	grep -Eq '\(its instances: napi-[0-9]+ napi-[0-9]+\)' "$VQ_TMP/err"
pinned() {
	vq_api GET "/v1/devices/$B:vb" | cut -d' ' -f2- |
		vq_json 'sum(k["pinned"] for k in d["knobs"] if k["name"] == "gro-flush-timeout")'
}
check "... both pins still in place" 2 "$(pinned)"
vq_ctl release "$B:vb" rx-channels --queue 0 >/dev/null 2>"$VQ_TMP/err"
check "release of a device-wide knob with --queue 0: exit code" 4 $?
check_true "... stderr says it is device-wide ($(cat "$VQ_TMP/err"))" \
	grep -qF 'no rx-channels instance on queue 0 (a device-wide knob: leave out the queue)' \
	"$VQ_TMP/err"
# release --napi-id N: that NAPI's pin alone; one without an instance is exit 4 naming it
napi=$(grep -Eo "gro-flush-timeout/napi-[0-9]+" "$VQ_TMP/events" | head -1 | cut -d- -f4)
check "release --napi-id $napi: one instance" "released 1" \
	"$(vq_ctl release "$B:vb" gro-flush-timeout --napi-id "$napi")"
check "... one pin left" 1 "$(pinned)"
vq_ctl release "$B:vb" gro-flush-timeout --napi-id 4000000000 >"$VQ_TMP/out" 2>"$VQ_TMP/err"
check "release --napi-id of no instance: exit code" 4 $?
check_true "... stderr names the NAPI ($(cat "$VQ_TMP/err"))" \
	grep -qF 'napi_id 4000000000: gro-flush-timeout has no instance on that NAPI' \
	"$VQ_TMP/err"
check "... still one pin" 1 "$(pinned)"
check "release without --queue: the other instance" "released 1" \
	"$(vq_ctl release "$B:vb" gro-flush-timeout)"
check "... no pin left" 0 "$(pinned)"
last=$(vq_api GET /v1/events | cut -d' ' -f2- | vq_json 'd["events"][-1]["id"]')
check "events --since <last id> lists nothing" "" "$(vq_ctl events --since "$last")"

vq_ctl watch --count 2 --interval 0.2 >"$VQ_TMP/watch" 2>&1
check "watch --count 2 (stdout a file): exit code" 0 $?
check "watch printed two frames" 2 "$(grep -c '^NAME ' "$VQ_TMP/watch")"
check "each frame lists vb" 2 "$(grep -Ec "^vb +$B " "$VQ_TMP/watch")"
check "no terminal escape sequences" 0 "$(grep -c $'\e' "$VQ_TMP/watch")"
# a device that is not there: only the error (stderr), no frame header on stdout, status 4
for d in nosuchdev "$B:nosuchdev"; do
	vq_ctl watch "$d" --count 2 --interval 0.2 >"$VQ_TMP/out" 2>"$VQ_TMP/err"
	check "watch $d: exit code" 4 $?
	check "... nothing on stdout" "" "$(cat "$VQ_TMP/out")"
	check "... one line on stderr" 1 "$(wc -l <"$VQ_TMP/err")"
	check_true "... naming the device ($(cat "$VQ_TMP/err"))" \
		grep -qF "no device '$d' (not_found, field dev)" "$VQ_TMP/err"
done

# an empty NETNS is a usage error naming DEV in every command taking DEV, refused before
# anything is sent (not read as '-': ':vb' gave "no device '-:vb'", exit 4)
for args in "device :vb" "knobs :vb" "queues :vb" "set :vb gro-flush-timeout 1" \
	"release :vb gro-flush-timeout" "pause :vb" "resume :vb" "watch :vb --count 1"; do
	for sock in "$VQ_SOCK" "$NOSOCK"; do
		# shellcheck disable=SC2086 # the words of $args are the command line
		"$VQTUNECTL" -s "$sock" $args >"$VQ_TMP/out" 2>"$VQ_TMP/err"
		rc=$?
		check "$args ($([ "$sock" = "$NOSOCK" ] && echo no daemon || echo daemon)): exit code" \
			2 $rc
		check "... names DEV" "vqtunectl: DEV: ':vb' has an empty NETNS (vqtuned's own \
namespace is '-', as in '-:vb')" "$(head -1 "$VQ_TMP/err")"
	done
done

# a DEV too long for any selector (past the API's 8000-byte request-target limit; past 32 KiB
# the server does not answer and it read as "cannot reach vqtuned", exit 3) is a usage error
LONG=$(head -c 40000 /dev/zero | tr '\0' v)
for args in "device" "knobs" "queues" "pause"; do
	# shellcheck disable=SC2086 # the words of $args are the command line
	timeout 5 "$VQTUNECTL" -s "$VQ_SOCK" $args "$B:$LONG" >"$VQ_TMP/out" 2>"$VQ_TMP/err"
	check "$args DEV of 40 KB: exit code (usage)" 2 $?
	check "... names DEV and the limit" "vqtunectl: DEV: $((${#B} + 40001)) bytes, longer than\
 any device selector (its path would pass the API's 8000-byte request-target limit)" \
		"$(head -1 "$VQ_TMP/err")"
done
# ... and a KNOB that takes a short DEV's path past it names KNOB, not DEV
KLONG=$(head -c 7990 /dev/zero | tr '\0' k)
for args in "set $B:vb $KLONG 1" "release $B:vb $KLONG"; do
	# shellcheck disable=SC2086 # the words of $args are the command line
	timeout 5 "$VQTUNECTL" -s "$VQ_SOCK" $args >"$VQ_TMP/out" 2>"$VQ_TMP/err"
	check "${args%% *} KNOB of 7990 bytes: exit code (usage)" 2 $?
	check "... names KNOB and the limit" "vqtunectl: KNOB: 7990 bytes, longer than any knob\
 name (its path would pass the API's 8000-byte request-target limit)" "$(head -1 "$VQ_TMP/err")"
done

# a UTF-8 name pads by display columns: every row's NETNS starts under the header's
U=$'v\xc3\xab0'
ip -n "$B" link add "$U" type veth peer name "${U}p" && ip -n "$B" link set "$U" up ||
	exit $KSFT_FAIL
vq_wait_code 200 GET "/v1/devices/$B:v%C3%AB0" 5 >/dev/null
check "the UTF-8 device is watched" 200 "$(vq_code GET "/v1/devices/$B:v%C3%AB0")"
vq_ctl devices >"$VQ_TMP/devs"
check "devices: exit code" 0 $?
check_true "devices lists $U" grep -q "^$U " "$VQ_TMP/devs"
check "NETNS column starts at one display column in every row" 1 "$(python3 -c '
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
print(len({l.index(" " + w) for l in lines for w in (sys.argv[2], "NETNS") if " " + w in l}))
' "$VQ_TMP/devs" "$B")"
ip -n "$B" link del "$U"

# v, 0xFF, 0 beside a device literally named v\xff0: the first one's display form is the
# second one's raw name, so that selector is ambiguous (409); the table still shows both
# devices' rates (asked by raw bytes), not "-"
RAW=$(printf 'v\xff0')
ip -n "$B" link add "$RAW" type veth peer name vq3p && ip -n "$B" link add 'v\xff0' type veth \
	peer name vq4p || exit $KSFT_FAIL
vq_wait_code 200 GET "/v1/devices/$B:v%FF0" 5 >/dev/null
vq_wait_code 200 GET "/v1/devices/$B:v%5C%5Cxff0" 5 >/dev/null
check "the display form v\\xff0 is ambiguous in $B" 409 "$(vq_code GET "/v1/devices/$B:v%5Cxff0")"
# rates need two samples of a device: the first tick after the links appeared shows "-"
rated() {
	awk -v b="$B" '$2 == b && $1 ~ /^v\\+xff0$/ && $(NF - 4) == "bit/s" &&
		$(NF - 2) == "bit/s" && $NF == "ago"' \
		"$VQ_TMP/devs" | wc -l
}
for _ in 1 2 3 4 5 6 7 8 9 10; do
	vq_ctl devices >"$VQ_TMP/devs" || break
	[ "$(rated)" = 2 ] && break
	sleep 0.5
done
vq_ctl devices >"$VQ_TMP/devs"
check "devices: exit code" 0 $?
check "devices: both rows have rates, not '-'" 2 "$(rated)"
ip -n "$B" link del "$RAW" && ip -n "$B" link del 'v\xff0'

# how old each device's sample is: the API's sample_age_ns (this reply's moment) and the
# SAMPLED column. vb is managed (a sample every 100 ms tick), lo of $B observed (every 10 s)
ages=$(vq_api GET /v1/devices | cut -d' ' -f2- | vq_json '" ".join("%s=%s" % (x["name"],
	x["sample_age_ns"]) for x in d["devices"] if x["netns"] == "'"$B"'" and
	x["name"] in ("vb", "lo"))')
check_true "sample_age_ns: vb's under 2 s, lo's under 12 s ($ages)" python3 -c '
import sys
a = dict(w.split("=") for w in sys.argv[1].split())
sys.exit(not (0 <= int(a["vb"]) < 2e9 and 0 <= int(a["lo"]) < 12e9))' "$ages"
vq_ctl devices >"$VQ_TMP/devs"
check_true "devices: vb's SAMPLED reads 'N[m]s ago' ($(awk -v b="$B" '$1 == "vb" && $2 == b {
	print $(NF - 1), $NF }' "$VQ_TMP/devs"))" awk -v b="$B" '$1 == "vb" && $2 == b {
	ok = $NF == "ago" && $(NF - 1) ~ /^[0-9][0-9.]*(ms|us|s)$/ } END { exit !ok }' "$VQ_TMP/devs"
vq_ctl queues "$B:vb" >"$VQ_TMP/q"
check_true "queues: its header says when it was sampled ($(head -1 "$VQ_TMP/q"))" \
	grep -Eq "^vb  netns $B  generation [0-9]+  sampled [0-9][0-9.]*(ms|us|s) ago" "$VQ_TMP/q"

# a disruptive knob without consent: the CLI names its option, --json keeps the API's words
ev0=$(events)
chan=$(ip netns exec "$B" ethtool -l vb | awk '/^Current/ { c = 1 } c && /^RX:/ { print $2; exit }')
vq_ctl set "$B:vb" rx-channels 1 >"$VQ_TMP/out" 2>"$VQ_TMP/err"
check "set rx-channels without --disruptive: exit code" 1 $?
check "... stderr tells to add --disruptive" \
	"vqtunectl: rx-channels may reset the device's queues: add --disruptive to accept (conflict, field disruptive)" \
	"$(cat "$VQ_TMP/err")"
vq_ctl --json set "$B:vb" rx-channels 1 >/dev/null 2>"$VQ_TMP/err"
check "--json set rx-channels without --disruptive: exit code" 1 $?
check_true "... the API's message ($(cat "$VQ_TMP/err"))" \
	grep -qF 'send "disruptive":true to accept (conflict, field disruptive)' "$VQ_TMP/err"
check "rx-channels untouched" "$chan" \
	"$(ip netns exec "$B" ethtool -l vb | awk '/^Current/ { c = 1 } c && /^RX:/ { print $2; exit }')"
# a disruptive knob the device has not (veth has no ethtool rings): unsupported, before
# any word about consent, with or without --disruptive
for o in "" --disruptive; do
	vq_ctl set "$B:vb" rx-ring-size 512 $o >"$VQ_TMP/out" 2>"$VQ_TMP/err"
	check "set rx-ring-size ${o:-without --disruptive} on veth: exit code" 1 $?
	check "... stderr says unsupported, not --disruptive" \
		"vqtunectl: rx-ring-size is not supported by this device or kernel (unsupported, field knob)" \
		"$(cat "$VQ_TMP/err")"
done
# lo is never written, in a watched namespace or the daemon's own: no --manage advice
for d in "$B:lo" -:lo; do
	vq_ctl set "$d" gro-flush-timeout 20000 >"$VQ_TMP/out" 2>"$VQ_TMP/err"
	check "set $d: exit code" 1 $?
	check "... stderr says lo is never written" "vqtunectl: $d is a loopback device:\
 vqtuned observes it and never writes it (--manage does not change that) (read_only, field dev)" \
		"$(cat "$VQ_TMP/err")"
	vq_ctl pause "$d" >/dev/null 2>"$VQ_TMP/err"
	check "pause $d: exit code" 1 $?
	check_true "... the same words ($(cat "$VQ_TMP/err"))" grep -qF -- "$d is a loopback device" \
		"$VQ_TMP/err"
done
check "events count unchanged by the refused writes" "$ev0" "$(events)"

# policy set: one line saying what changed (the whole policy with --json)
vq_ctl policy set guard.cooldown_ticks 7 >"$VQ_TMP/out" 2>"$VQ_TMP/err"
check "policy set guard.cooldown_ticks 7: exit code" 0 $?
pname=$(vq_api GET /v1/policy | cut -d' ' -f2- | vq_json 'd["policy"]["name"]')
old=$(grep -o 'guard.cooldown_ticks [0-9]* ->' "$VQ_TMP/out" | cut -d' ' -f2)
check "... one line, naming the policy, the key, old -> new" \
	"policy '$pname': guard.cooldown_ticks ${old:-?} -> 7" "$(cat "$VQ_TMP/out")"
check "... the policy's name says it was modified" "(modified)" "${pname: -10}"
vq_ctl --json policy set guard.cooldown_ticks 8 >"$VQ_TMP/out"
check "--json policy set: the whole policy, as set" "8|$pname" \
	"$(vq_json 'str(d["policy"]["guard"]["cooldown_ticks"]) + "|" + d["policy"]["name"]' \
		<"$VQ_TMP/out")"

vq_ctl restore >/dev/null
check "restore: exit code" 0 $?
check "gro-flush-timeout restored" "$orig" "$(vq_napi "$B" "$IFX" gro_flush_timeout)"

# ---- watch waits for a daemon that is away, as events --follow does
# nothing at the address: not waited for, exit 3 at once
"$VQTUNECTL" -s "$NOSOCK" watch --interval 0.2 >/dev/null 2>"$VQ_TMP/err"
check "watch on a missing socket: exit code" 3 $?
check "... no waiting said" 0 "$(grep -c 'waiting for the daemon' "$VQ_TMP/err")"
# a listener that closes every connection unanswered, as QEMU's port forwarder does while
# the guest's vqtuned is not up: waited for, asking every interval; one accept per line
FWD=$VQ_TMP/fwd.sock
# (bound and listening under another name first: the path appears ready to connect)
python3 -c 'import os, socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1] + ".new"); s.listen(8)
os.rename(sys.argv[1] + ".new", sys.argv[1])
while True:
    c, _ = s.accept(); print(flush=True); c.close()' "$FWD" >"$VQ_TMP/fwd.n" &
VQ_PIDS+=("$!")
for _ in $(seq 50); do [ -S "$FWD" ] && break; sleep 0.1; done
"$VQTUNECTL" -s "$FWD" watch --interval 0.2 --count 4 >"$VQ_TMP/out" 2>"$VQ_TMP/err"
check "watch at a listener that resets: --count 4 ran out waiting, exit code" 3 $?
check "... asked 4 times" 4 "$(wc -l <"$VQ_TMP/fwd.n")"
check "... the failure, then the wait, said once on stderr ($(tr '\n' ' ' <"$VQ_TMP/err"))" \
	"1 1 2" "$(grep -c 'cannot reach vqtuned' "$VQ_TMP/err") $(grep -c \
	'^vqtunectl: waiting for the daemon to come back$' "$VQ_TMP/err") $(wc -l <"$VQ_TMP/err")"
check "... no frame on a non-terminal stdout" "" "$(cat "$VQ_TMP/out")"
# on a terminal the screen is redrawn with the waiting line, frame after frame
script -qec "$VQTUNECTL -s $FWD watch --interval 0.2 --count 3 2>/dev/null" /dev/null \
	>"$VQ_TMP/out"
check "... on a terminal: exit code" 3 $?
check "... three frames with header and waiting line" "3 3" \
	"$(grep -c 'Every 0.20s: devices' "$VQ_TMP/out") $(tr -d '\r' <"$VQ_TMP/out" |
		grep -c '^waiting for the daemon to come back$')"
# a daemon that answered, then went away and came back: the frames go on after it
"$VQTUNECTL" -s "$VQ_SOCK" watch --interval 0.2 >"$VQ_TMP/watch" 2>"$VQ_TMP/err" &
WPID=$!
VQ_PIDS+=("$WPID")
sleep 1
vq_daemon_stop TERM
sleep 1
n1=$(grep -c '^NAME ' "$VQ_TMP/watch")
check_true "watch across a restart: still runs while the daemon is away" kill -0 "$WPID"
check "... said once that it waits" 1 "$(grep -c 'waiting for the daemon to come back' \
	"$VQ_TMP/err")"
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL
sleep 1
check "... and once that the daemon answers again" 1 \
	"$(grep -c '^vqtunectl: the daemon answers again$' "$VQ_TMP/err")"
# stopped before its frames are counted: two greps of a file it still writes every 0.2 s
# can fall on both sides of a new frame
kill -TERM "$WPID"
wait "$WPID"
check "... SIGTERM ends it with exit status 0" 0 $?
check_true "... frames again after it ($n1 before)" \
	test "$(grep -c '^NAME ' "$VQ_TMP/watch")" -gt "$n1"
check_true "... each frame lists vb" test "$(grep -c '^NAME ' "$VQ_TMP/watch")" -eq \
	"$(grep -Ec "^vb +$B " "$VQ_TMP/watch")"
vq_done
