#!/bin/sh
# tx-frames 32 gives fewer completion events per packet than tx-frames 1; the same knob is
# reachable as ethtool -C tx-frames and reads back over genl. The traffic is UDP of 1200-byte
# datagrams, one skb each: TCP's 64 KiB GSO packets came so few per tx-usecs window on a
# loaded host (one every ~200 us) that the timer, not tx-frames, set the event count, and
# the halving this test asks for was a matter of the host's load. With 1 ms windows and
# thousands of datagrams a second, tx-frames 32 cuts the events several-fold.
. /tests/lib.sh
trap cleanup EXIT

run_frames() {
	pair_up 1
	ina ethtool -C $FRONT tx-usecs "$2" tx-frames "$1" || fail "ethtool -C"
	[ "$(knob tx-frames)" = "$1" ] || fail "tx-frames reads $(knob tx-frames), want $1"
	tcp -u -b 1G -l 1200 -t 2 || fail "iperf3"
	ev=$(stat tx-events) done=$(stat tx-completed)
	epp=$(ratio "$ev" "$done" 1000)
	echo "tx-frames $1 tx-usecs $2: completions $done events $ev (x1000/pkt $epp)"
	cleanup
}
run_frames 1 0
epp1=$epp
run_frames 32 1000
[ $((epp * 2)) -lt "$epp1" ] || fail "tx-frames 32 not clearly fewer events ($epp vs $epp1)"
ok "coalescing lowers completion events"
