# Shared by the two lab entry points (scripts/lab_vm.sh, scripts/lab_netns.sh); POSIX sh,
# sourced. Each caller sets PORT_SCAN, PHASE_DEFAULT_S, PHASE_MIN_S, PHASES_TOTAL,
# OVERHEAD_S and PHASE_SLACK_S (its own costs) and defines die().

# lab_port_busy PORT: something listens on 127.0.0.1:PORT (ss, else busybox netstat)
lab_port_busy() {
	if command -v ss > /dev/null; then ss -Htln "sport = :$1" | grep -q .
	else busybox netstat -ltn | grep -q "[:.]$1 "
	fi
}

# lab_pick_port WHAT: PORT (default LAB_PORT or 9477), or the first free one of the
# PORT_SCAN above it; WHAT is the notice's verb ("listens on", "is forwarded from").
lab_pick_port() {
	lab_uint LAB_PORT 1 65535 "a TCP port"
	PORT=${LAB_PORT:-9477}
	lab_port_busy "$PORT" || return 0
	_p=$PORT
	_i=1
	while [ $_i -le "$PORT_SCAN" ]; do
		lab_port_busy $((_p + _i)) || { PORT=$((_p + _i)); break; }
		_i=$((_i + 1))
	done
	[ "$PORT" != "$_p" ] || die "127.0.0.1:$_p and the $PORT_SCAN ports above it are in use"
	echo "lab: 127.0.0.1:$_p is in use: the API $1 127.0.0.1:$PORT instead"
}

# lab_uint NAME MIN MAX UNIT: dies unless the variable NAME, when set, is a decimal integer in
# MIN..MAX; UNIT words the error (a phase of 0 s would be iperf3 -t 0, which never ends)
lab_uint() {
	eval "_v=\${$1:-}"
	[ -n "$_v" ] || return 0
	case $_v in
	*[!0-9]*) die "$1 must be a whole number in $2..$3 ($4), not '$_v'" ;;
	esac
	[ ${#_v} -le 9 ] && [ "$_v" -ge "$2" ] && [ "$_v" -le "$3" ] ||
		die "$1 must be a whole number in $2..$3 ($4), not '$_v'"
}

# lab_phase_len: PHASE_S from LAB_PHASE_S, else squeezed to fit LAB_SECONDS, else the
# default; EXPECT_S the run's expected length from that
lab_phase_len() {
	lab_uint LAB_PHASE_S "$PHASE_MIN_S" 3600 seconds
	lab_uint LAB_SECONDS 1 604800 seconds
	if [ -n "${LAB_PHASE_S:-}" ]; then
		PHASE_S=$LAB_PHASE_S
	elif [ -n "${LAB_SECONDS:-}" ]; then
		PHASE_S=$(( (LAB_SECONDS - OVERHEAD_S) / PHASES_TOTAL - PHASE_SLACK_S ))
		[ $PHASE_S -gt $PHASE_DEFAULT_S ] && PHASE_S=$PHASE_DEFAULT_S
		[ $PHASE_S -lt $PHASE_MIN_S ] && PHASE_S=$PHASE_MIN_S
	else
		PHASE_S=$PHASE_DEFAULT_S
	fi
	EXPECT_S=$((OVERHEAD_S + PHASES_TOTAL * (PHASE_S + PHASE_SLACK_S)))
}

# lab_status_line: one line from the API, the tx rate of each managed device; the caller
# has $C (vqtunectl with its address), say(), elapsed() and $PHASE
lab_status_line() {
	_s=$($C devices 2>/dev/null | awk 'NR > 1 && $8 == "yes" && $NF ~ /bit\/s$/ {
		printf " %s:%s tx %s %s", $2, $1, $(NF - 1), $NF }')
	say "lab: [$(elapsed)s] $PHASE:${_s:- (API not answering)}"
}

# lab_write_hint: the write examples (write_commands) once the active pass runs ($ACTIVE 1),
# else why they wait: a write in the default pass changes what the default column measures.
# The caller has say() and write_commands().
lab_write_hint() {
	if [ "$ACTIVE" = 1 ]; then
		write_commands
	else
		say "     Write examples (set, with the run's token) come when the active pass starts:"
		say "     a write in the default pass changes the default column."
	fi
}
