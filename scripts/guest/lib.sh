# shellcheck shell=sh disable=SC2034
# What the guest scripts share; sourced (". /guest/lib.sh"), never run.
d=/sys/kernel/debug/twheel
fails=0
# The runners a guest script checks, when the module runs them all: every
# engine (qemu.sh writes the list from engines/list.h) and the kernel's.
# On a real machine (compare --host) the list is read from the checkout.
if [ -r /guest/engines ]; then
	engines=$(cat /guest/engines)
	exact=$(cat /guest/engines.exact)
else
	engines=$("$(dirname "$0")/../engines.sh")
	exact=$("$(dirname "$0")/../engines.sh" --exact)
fi
runners="$engines timer_list hrtimer"
# but RUNNER...: the runners but those, as engines= takes them
but() {
	l=""
	for e in $runners; do
		case " $* " in *" $e "*) ;; *) l="$l,$e" ;; esac
	done
	echo "${l#,}"
}
# The same as insmod's engines= takes them, and how many there are.
all=$(echo $runners | tr ' ' ,)
nrunners=$(set -- $runners; echo $#)

ok() { echo "ok: $*"; }
# bad WHAT: a failure; when the last control write was refused, the line
# also says why (the shell's errno text and the module's last twheel: line)
bad() { echo "FAILED: $*${why:+ [$why]}"; fails=$((fails + 1)); why=""; }
# ctl COMMAND...: one control write; its error, if any, still goes to
# stderr (callers test it) and is kept in $why for bad()
ctl() {
	if echo "$*" 2>/tmp/ctl.err > $d/control; then
		why=""
		return 0
	fi
	cat /tmp/ctl.err >&2
	why="$(echo "$*" | cut -c1-60): $(sed -n 's/^.*write error: //p' /tmp/ctl.err | head -n 1)"
	why="$why; module: $(dmesg | grep 'twheel' | tail -n 1 | sed 's/^\[[ 0-9.]*\] //')"
	return 1
}
now() { cut -d' ' -f1 /proc/uptime; }
# get RUNNER KEY: a value from the stats block of RUNNER
get() { awk -v e="[$1]" -v k="$2:" '$0 == e { on = 1; next } /^\[/ { on = 0 } on && $1 == k { print $2; exit }' $d/stats; }
# snap [FILE]: one read of the stats (the module's, or FILE) into shell
# variables, for sv and sget; the debug kernel's guests spent most of a
# check in the awk and the stats read of one get per value. Read again
# after anything that changes them (a stop, a load, a module reload). A
# key twice in a block: its first line, as get reads it. The names go
# through a file, not an awk string: busybox awk copies a string it
# appends to, and 4000 appends took a minute on the debug kernel.
snap_vars=""
snap_tmp=${TMPDIR:-/tmp}/twheel-snap.$$
snap() {
	[ -z "$snap_vars" ] || unset $snap_vars
	eval "$(awk -v list="$snap_tmp" '
		function name(s) { gsub(/[^A-Za-z0-9]/, "_", s); return s }
		/^\[.*\]$/ { b = name(substr($0, 2, length($0) - 2)); next }
		$1 ~ /^[A-Za-z0-9_]+:$/ {
			v = "S_" b "__" name(substr($1, 1, length($1) - 1))
			if (v in seen)
				next
			seen[v] = 1
			print v > list
			w = $2; gsub(/[^A-Za-z0-9_.+=(<>\/-]/, "", w)
			printf "%s=\"%s\"\n", v, w
			if (NF >= 3) {
				w = $3; gsub(/[^A-Za-z0-9_.+=(<>\/-]/, "", w)
				printf "%s_3=\"%s\"\n", v, w
				print v "_3" > list
			}
		}' "${1:-$d/stats}")"
	snap_vars=$(cat "$snap_tmp" 2>/dev/null)
	rm -f "$snap_tmp"
}
# sv VAR BLOCK KEY [WORD]: KEY of BLOCK (empty for the lines before the
# first block) in the last snap, into the shell variable VAR: its value,
# or its third word with WORD=3; empty when there is none. No subshell:
# a fork costs tens of ms on the debug kernel, and a check reads hundreds
# of values. POSIX sh (compare --host runs this under dash): each
# character of BLOCK but a letter, digit or "_" (classic/cpu0,
# shadow:classic) is "_", as snap names it.
sv() {
	_b=$2
	while :; do
		case $_b in
		*[!A-Za-z0-9_]*)
			_p=${_b%%[!A-Za-z0-9_]*}
			_b=${_p}_${_b#"$_p"?}
			;;
		*) break ;;
		esac
	done
	case $3 in *[!A-Za-z0-9_]* | '') eval "$1=''"; return 0 ;; esac
	eval "$1=\"\${S_${_b}__$3${4:+_$4}-}\""
}
# after_stop WHAT BLOCK: BLOCK of the last snap, read after a stop: its
# counters consistent, nothing pending, nothing run early (a FAILED line,
# headed WHAT, for each that is not)
after_stop() {
	sv _as "$2" invariant
	[ -n "$_as" ] || { bad "$1: no [$2] block in the stats"; return; }
	[ "$_as" = ok ] || bad "$1: counters broken (expired + deleted > added, or more quiet mods than mods)"
	sv _as "$2" pending
	[ "$_as" = 0 ] || bad "$1: $_as pending after stop"
	sv _as "$2" runs_early
	[ "$_as" = 0 ] || bad "$1: $_as runs early"
}
# sget BLOCK KEY [WORD]: the same, printed
sget() {
	sv _sg "$@"
	echo "$_sg"
}
# fits RUNNER N: RUNNER takes a load of N timers (its max_timers key; a
# runner without one takes any load admission lets through)
fits() { m=$(get "$1" max_timers); [ -z "$m" ] || [ "$2" -le "$m" ]; }
# top KEY: a value from the lines before the first block of stats
top() { awk -v k="$1:" '/^\[/ { exit } $1 == k { print $2; exit }' $d/stats; }
# hdr KEY: a value from the "# HZ=250 jiffies=..." line heading stats
hdr() { sed -n "s/^#.*[ #]$1=\([^ ]*\).*/\1/p" $d/stats | head -n 1; }
# cols NAME...: each row of the compare table as the cells of the named
# columns, found by their header, joined by "|"; fails if one is missing.
cols() {
	w=""
	for c in "$@"; do w="$w|$c"; done
	awk -F'|' -v want="${w#|}" '
		function trim(s) { gsub(/^ +| +$/, "", s); return s }
		!/^\|/ || /^\|---/ { next }
		!n {
			for (i = 2; i < NF; i++) c[trim($i)] = i
			n = split(want, k, "|")
			for (j = 1; j <= n; j++)
				if (!(k[j] in c)) { print "no column " k[j] " in compare" > "/dev/stderr"; exit 1 }
			next
		}
		{ l = trim($c[k[1]]); for (j = 2; j <= n; j++) l = l "|" trim($c[k[j]]); print l }' $d/compare
}

# load_fit WORKLOAD KEY=VALUE...: load; if admission refuses it as more
# than this machine takes, load the largest count the module names instead
# (a later count= wins), or, where it names none (count=0 fits), the load
# as asked with force=1: the checks that use it test the engines, not
# admission. Prints what it changed on stderr.
load_fit() {
	# A mark in the kernel log: the refusal is the line after it (the log
	# is not cleared: other checks count its lines).
	mark="load_fit mark $$ $(now)"
	echo "$mark" > /dev/kmsg
	ctl "load $*" 2>/dev/null && return 0
	fit=$(dmesg | sed -n "/$mark/,\$ s/.* count=\\([0-9]*\\) fits.*/\\1/p" | tail -n 1)
	if [ -n "$fit" ] && [ "$fit" -gt 0 ]; then
		echo "admission: $* is more than this machine takes; count=$fit" >&2
		ctl "load $* count=$fit"
	elif case "$why" in *busy*) true ;; *) false ;; esac; then
		echo "admission: $* is more than this machine takes at any count; force=1" >&2
		ctl "load $* force=1"
	else
		ctl "load $*"
	fi
}
