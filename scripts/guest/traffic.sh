#!/bin/sh
# In the guest: real TCP traffic over lo for SECONDS, with busybox tools
# only, so that the kernel's own TCP timers (timer_list) start, get
# cancelled and expire:
#   sh traffic.sh [SECONDS [CLIENTS]]      (defaults: 10 s, 4 clients)
# - CLIENTS loops of wget against httpd, connection after connection
#   (retransmit and delayed-ACK timers armed and cancelled on every one;
#   httpd sets SO_KEEPALIVE, so its sockets' keepalive timers start and are
#   cancelled at close; TIME_WAIT timers are left behind);
# - two slow talkers (nc -i 1: one segment a second): the receiver's
#   delayed-ACK timer expires on each;
# - two idle connections to httpd, with tcp_keepalive_time lowered to 1 s
#   for the run: the server's keepalive timer expires every second;
# - a stalled reader (the receiving nc stopped): the window closes and the
#   sender's zero-window probe timer (the retransmit timer) expires;
# - a stalled listener (httpd stopped): its accept queue fills, further
#   SYNs are dropped, and the clients' SYN retransmit timers expire.
# Everything is stopped at the end, the sysctls restored. Prints one line:
#   traffic: S s, N clients: C connections, B bytes; ...
# and the TcpExt counters the timers' expiries bump. Exits 1 with a reason
# if the kernel has no IPv4 TCP or lo cannot be brought up.
secs=${1:-10} clients=${2:-4}
case "$secs$clients" in *[!0-9]*) echo "usage: traffic.sh [SECONDS [CLIENTS]]" >&2; exit 2 ;; esac
[ "$secs" -ge 1 ] && [ "$clients" -ge 1 ] && [ "$clients" -le 64 ] ||
	{ echo "traffic: SECONDS >= 1 and 1 <= CLIENTS <= 64" >&2; exit 2; }

fail() { echo "traffic: $*" >&2; exit 1; }
[ -d /proc/sys/net ] || fail "this kernel has no networking (CONFIG_NET)"
[ -e /proc/net/tcp ] || fail "this kernel has no IPv4 TCP (CONFIG_INET)"
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null ||
	fail "cannot bring lo up"
ip addr show lo 2>/dev/null | grep -q 'inet 127\.0\.0\.1' ||
	ifconfig lo 2>/dev/null | grep -q 'addr:127\.0\.0\.1' || fail "lo has no 127.0.0.1"

w=/tmp/traffic.$$
mkdir -p $w/www || fail "cannot make $w"
# tcpext NAME: a TcpExt counter of /proc/net/netstat
tcpext() {
	awk -v k="$1" '$1 == "TcpExt:" { if (!n) { for (i = 2; i <= NF; i++) c[$i] = i; n = 1; next }
		if (k in c) print $c[k]; exit }' /proc/net/netstat
}
counters="DelayedACKs TCPTimeouts TCPKeepAlive TCPWinProbe TCPSynRetrans"
for c in $counters; do echo "$c $(tcpext $c)"; done > $w/before

ka=/proc/sys/net/ipv4/tcp_keepalive_time ki=/proc/sys/net/ipv4/tcp_keepalive_intvl
old_ka=$(cat $ka) old_ki=$(cat $ki)
pids="" stopped=""
cleanup() {
	: > $w/stop
	exec 3>&-
	# shellcheck disable=SC2086
	[ -n "$stopped" ] && kill -CONT $stopped 2>/dev/null
	# shellcheck disable=SC2086
	[ -n "$pids" ] && kill $pids 2>/dev/null
	wait
	echo "$old_ka" > $ka
	echo "$old_ki" > $ki
	rm -rf $w
}
trap cleanup EXIT
trap 'exit 1' INT TERM
echo 1 > $ka
echo 1 > $ki

# Pages of 100 B, 16 KiB and 256 KiB: one segment, a few, many.
dd if=/dev/zero of=$w/www/s bs=100 count=1 2>/dev/null
dd if=/dev/zero of=$w/www/m bs=1024 count=16 2>/dev/null
dd if=/dev/zero of=$w/www/l bs=1024 count=256 2>/dev/null
port=8080 stall=8081
httpd -f -p 127.0.0.1:$port -h $w/www & pids="$pids $!"
httpd -f -p 127.0.0.1:$stall -h $w/www & hs=$!
pids="$pids $hs"
# A FIFO this shell holds open and never writes: the input of every nc
# that must outlive the run (busybox nc ends at the end of its input).
mkfifo $w/hold
# up (PORT): wait until something listens on PORT (nc -l listens on
# IPv6's wildcard when the kernel has IPv6: /proc/net/tcp6)
up() {
	h=$(printf ':%04X 0*:0000 0A' "$1")
	i=0
	while ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -q "$h"; do
		i=$((i + 1))
		[ $i -le 50 ] || fail "nothing listens on port $1"
		sleep 0.1
	done
}
up $port
up $stall
kill -STOP $hs
stopped=$hs

# The clients: each fetches s, m, l in turn until told to stop, and writes
# its connection and byte counts. (No timeout: httpd over lo answers, and
# busybox 1.35's wget -T crashes.)
client() {
	n=0 b=0
	while :; do
		for f in s m l; do
			[ -e $w/stop ] && break 2
			wget -q -O $w/got.$1 http://127.0.0.1:$port/$f 2>/dev/null || continue
			n=$((n + 1))
			b=$((b + $(wc -c < $w/got.$1)))
		done
	done
	echo "$n $b" > $w/client.$1
}
i=0
while [ $i -lt "$clients" ]; do
	client $i & pids="$pids $!"
	i=$((i + 1))
done
# slow talkers: a segment a second; the receiver acks it late
for p in 9001 9002; do
	nc -l -p $p < $w/hold > /dev/null & pids="$pids $!"
done
exec 3> $w/hold
up 9001
up 9002
for p in 9001 9002; do
	yes talk | nc -i 1 127.0.0.1 $p & pids="$pids $!"
done
# idle connections to httpd: keepalive probes every second
for i in 1 2; do
	nc 127.0.0.1 $port < $w/hold > /dev/null & pids="$pids $!"
done
# a stalled reader: stopped once its window is full
nc -l -p 9003 < $w/hold > /dev/null & sr=$!
pids="$pids $sr"
up 9003
nc 127.0.0.1 9003 < /dev/zero & pids="$pids $!"
sleep 1
kill -STOP $sr
stopped="$stopped $sr"
# a stalled listener: connections beyond its accept queue retry their SYN
# (1 s, 3 s, 7 s...) until the end of the run
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	wget -q -O /dev/null http://127.0.0.1:$stall/s 2>/dev/null & pids="$pids $!"
done

sleep "$((secs - 1))" 2>/dev/null
: > $w/stop
i=0 conns=0 bytes=0
while [ $i -lt "$clients" ]; do
	# a client ends after its current fetch
	j=0
	while [ ! -s $w/client.$i ] && [ $j -lt 200 ]; do sleep 0.1; j=$((j + 1)); done
	[ -s $w/client.$i ] || fail "client $i did not finish"
	read -r n b < $w/client.$i
	conns=$((conns + n)) bytes=$((bytes + b))
	i=$((i + 1))
done
[ $conns -gt 0 ] || fail "no connection made"
d=$(for c in $counters; do echo "$c $(tcpext $c)"; done |
	paste -d' ' $w/before - | awk '{ printf " %s +%d", $1, $4 - $2 }')
echo "traffic: $secs s, $clients clients: $conns connections, $bytes bytes;$d"
