# Shared by the two lab entry points (scripts/lab_vm.sh, scripts/lab_netns.sh); POSIX sh,
# sourced. Each caller sets PORT_SCAN, PHASE_DEFAULT_S, PHASE_MIN_S, PHASES_TOTAL,
# OVERHEAD_S and PHASE_SLACK_S (its own costs) and defines die() and say().

# lab_port_busy PORT: something listens on 127.0.0.1:PORT (ss, else busybox netstat)
lab_port_busy() {
	if command -v ss > /dev/null; then ss -Htln "sport = :$1" | grep -q .
	else busybox netstat -ltn | grep -q "[:.]$1 "
	fi
}

# lab_pick_port WHAT: PORT (LAB_PORT, checked by lab_settings, or 9477), or the first free
# one of the PORT_SCAN above it; WHAT is the notice's verb ("listens on", "is forwarded from").
lab_pick_port() {
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

# lab_refuse TEXT: a bad setting, refused by name before anything is fetched, built or
# booted: exit 2, as tests/vm/run.sh and the bench refuse theirs
lab_refuse() {
	echo "lab: $*" >&2
	exit 2
}

# lab_settings_only [ARG]: SETTINGS_ONLY=1 for --settings (check the settings, then exit 0),
# else 0; any other argument is refused (exit 2)
lab_settings_only() {
	case ${1:-} in
	--settings) SETTINGS_ONLY=1 ;;
	'') SETTINGS_ONLY=0 ;;
	*) lab_refuse "unknown argument '$1' (--settings)" ;;
	esac
}

# lab_uint NAME MIN MAX UNIT: refuses the variable NAME, when set, unless a decimal integer in
# MIN..MAX without a leading zero (the shell's $((...)) reads 010 as octal, 09 not at all);
# UNIT words the error (a phase of 0 s would be iperf3 -t 0, which never ends)
lab_uint() {
	eval "_v=\${$1:-}"
	[ -n "$_v" ] || return 0
	case $_v in
	*[!0-9]*) lab_refuse "$1 must be a whole number in $2..$3 ($4), not '$_v'" ;;
	0?*) lab_refuse "$1 must be a whole number in $2..$3 ($4) without a leading zero," \
		"not '$_v'" ;;
	esac
	[ ${#_v} -le 9 ] && [ "$_v" -ge "$2" ] && [ "$_v" -le "$3" ] ||
		lab_refuse "$1 must be a whole number in $2..$3 ($4), not '$_v'"
}

# lab_settings TOP PHASE_MIN SHORTEST: the settings both variants take, refused by name (exit 2)
# before anything else: LAB_PHASE_S (PHASE_MIN..3600 s), LAB_SECONDS (SHORTEST..604800 s,
# SHORTEST the caller's run at PHASE_MIN: a cap under it ends before the first figure),
# LAB_PORT, LAB_POLICY (a file TOP/policies/NAME.json), LAB_KEEP_LOG (lab_keep_log_check)
lab_settings() {
	lab_uint LAB_PHASE_S "$2" 3600 seconds
	lab_uint LAB_SECONDS "$3" 604800 "seconds; the shortest lab runs ~$3 s"
	lab_uint LAB_PORT 1 65535 "a TCP port"
	case ${LAB_POLICY:-balanced} in
	*/*|.*) _ok=0 ;;
	*) [ -f "$1/policies/${LAB_POLICY:-balanced}.json" ] && _ok=1 || _ok=0 ;;
	esac
	[ $_ok = 1 ] || lab_refuse "LAB_POLICY must be one of" \
		"$(cd "$1/policies" && ls *.json | sed 's/\.json$//' | tr '\n' ' ')(policies/NAME.json)," \
		"not '${LAB_POLICY:-balanced}'"
	lab_keep_log_check
}

# Filesystems whose files are kernel interfaces, not storage (stat -f's names): a log copied
# to /proc/sys/kernel/hostname would be written to the kernel
LAB_PSEUDO_FS="proc sysfs cgroupfs cgroup2fs debugfs tracefs securityfs configfs bpf_fs
pstorefs efivarfs devpts fusectl mqueue"

# lab_keep_log_check: refuses (exit 2) a LAB_KEEP_LOG, when set, that the copy at the end
# (lab_keep_log) could not write as a regular file: a name ending in / or naming a directory,
# a directory that does not exist or is not writable, one on a pseudo filesystem
# (LAB_PSEUDO_FS), an existing file that is not regular or not writable, or a new one that
# cannot be created (created with noclobber and removed again: nothing is left behind)
lab_keep_log_check() {
	_f=${LAB_KEEP_LOG:-}
	[ -n "$_f" ] || return 0
	case $_f in
	*/) lab_refuse "LAB_KEEP_LOG must name a file, not the directory '$_f'" ;;
	esac
	[ ! -d "$_f" ] || lab_refuse "LAB_KEEP_LOG must name a file, not the directory '$_f'"
	_d=$(dirname "$_f")
	# the filesystem first: /proc/sys/kernel is also unwritable, but that is not the point
	_t=$(stat -f -c %T "$_d" 2>/dev/null) || _t=
	for _p in $LAB_PSEUDO_FS; do
		[ "$_t" != "$_p" ] ||
			lab_refuse "LAB_KEEP_LOG must be on a regular filesystem, not '$_f' ($_t)"
	done
	[ -d "$_d" ] && [ -w "$_d" ] ||
		lab_refuse "LAB_KEEP_LOG must be a file in a writable directory, not '$_f'"
	if [ -e "$_f" ] || [ -L "$_f" ]; then
		# appending nothing opens it for writing and changes neither content nor mtime
		[ -f "$_f" ] && (: >> "$_f") 2>/dev/null ||
			lab_refuse "LAB_KEEP_LOG must be a regular file the lab can write, not '$_f'"
	else
		(set -C; : > "$_f") 2>/dev/null && rm -f "$_f" ||
			lab_refuse "LAB_KEEP_LOG cannot be created as '$_f'"
	fi
}

# lab_keep_log SRC: SRC copied to LAB_KEEP_LOG, when set; a copy that fails is said, and
# returns 1 (the run then fails: the log asked for is not there)
lab_keep_log() {
	[ -n "${LAB_KEEP_LOG:-}" ] || return 0
	_e=$(cp "$1" "$LAB_KEEP_LOG" 2>&1) && return 0
	say "lab: LAB_KEEP_LOG: the log could not be kept in '$LAB_KEEP_LOG': ${_e:-cp failed}"
	return 1
}

# lab_shortest: the caller's run at PHASE_MIN_S, in seconds (lab_phase_len's estimate)
lab_shortest() {
	echo $((OVERHEAD_S + PHASES_TOTAL * (PHASE_MIN_S + PHASE_SLACK_S)))
}

# lab_phase_len: PHASE_S from LAB_PHASE_S, else squeezed to fit LAB_SECONDS, else the
# default; EXPECT_S the run's expected length from that (lab_settings checked both); refuses
# (exit 2) a LAB_PHASE_S whose run cannot fit LAB_SECONDS
lab_phase_len() {
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
	# both given and the phases cannot fit the cap: the run would stop before its table
	[ -z "${LAB_SECONDS:-}" ] || [ "$EXPECT_S" -le "$LAB_SECONDS" ] ||
		lab_refuse "LAB_SECONDS=$LAB_SECONDS cannot hold $PHASES_TOTAL phases of" \
			"LAB_PHASE_S=$PHASE_S s (~$EXPECT_S s in all): raise it, or leave LAB_PHASE_S" \
			"unset to fit the phases to it"
}

# lab_phase_name PHASE: a phase as the README and the table name it (the protocol's rrbulk is
# rr+bulk)
lab_phase_name() {
	if [ "$1" = rrbulk ]; then echo rr+bulk; else echo "$1"; fi
}

# lab_expect_words: EXPECT_S for people: seconds under 3 min, else minutes
lab_expect_words() {
	if [ "$EXPECT_S" -lt 180 ]; then echo "~$EXPECT_S s"
	else echo "~$(( (EXPECT_S + 59) / 60 )) min"
	fi
}

# a phase's first seconds still show the phase before in the daemon's rates: its tools start
# (iperf3/sockperf, ~1-2 s on TCG) and the rate of a tick is over the tick before (500 ms)
LAB_STATUS_SETTLE_S=4
PHASE_T=0

# lab_measured_s LINES: the seconds of each phase its figures cover, as the workload
# (tests/vm/guest/lab.sh) said on its first "LAB phase" line; "?" without one
lab_measured_s() {
	awk '$2 == "phase" && NF >= 6 { print $6; found = 1; exit } END { if (!found) print "?" }' "$1"
}

# lab_status_due NOW LAST: whether a status line is due at NOW (s) after one at LAST: every
# STATUS_EVERY_S (the caller's), but not within LAB_STATUS_SETTLE_S of the phase start
# PHASE_T (the caller sets it when a phase line comes, and prints that same second on the
# phase line: a date of its own could read one second later), so a line's rates are its phase's
lab_status_due() {
	[ $(($1 - $2)) -ge "$STATUS_EVERY_S" ] && [ $(($1 - PHASE_T)) -ge $LAB_STATUS_SETTLE_S ]
}

# lab_status_line: one line from the API, the tx rate of each managed device; the caller
# has $C (vqtunectl with its address), say(), elapsed() and $PHASE. A request that fails says
# so with vqtunectl's own first words; an answer without a managed device's rate (the first
# ticks, a device being re-read) says that instead
lab_status_line() {
	local out rc=0
	out=$($C devices 2>&1) || rc=$?
	if [ $rc -ne 0 ]; then
		_s=" (API not answering: $(printf '%s\n' "$out" | head -1))"
	else
		_s=$(printf '%s\n' "$out" | awk 'NR > 1 && $8 == "yes" && $NF ~ /bit\/s$/ {
			printf " %s:%s tx %s %s", $2, $1, $(NF - 1), $NF }')
		_s=${_s:- (no managed device with a rate yet)}
	fi
	say "lab: [$(elapsed)s] $PHASE:$_s"
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
