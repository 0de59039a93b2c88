#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Independent NAPI reader: shares no code with the daemon.

Raw AF_NETLINK generic netlink (standard library only): resolve the "netdev" family with
CTRL_CMD_GETFAMILY, dump NETDEV_CMD_NAPI_GET and print one line per NAPI instance:

    napi_id ifindex defer_hard_irqs gro_flush_timeout irq_suspend_timeout threaded

Attributes the kernel does not send print as "-". Ids are from the kernel's
Documentation/netlink/specs/netdev.yaml and include/uapi/linux/genetlink.h, written out
here on purpose instead of taken from the project's headers.
Usage: napi_read.py [IFINDEX]   (exit 0; 1 on a netlink error; 4 if the family is missing)
"""
import os
import socket
import struct
import sys

NETLINK_GENERIC = 16
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 0x1, 0x4, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
NETDEV_CMD_NAPI_GET = 11
A_IFINDEX, A_ID, A_DEFER, A_GRO, A_SUSPEND, A_THREADED = 1, 2, 5, 6, 7, 8
RECV_BYTES = 65536  # larger than any dump skb the kernel builds (32 KiB)


def attr(atype, payload):
    """One netlink attribute, padded to 4 bytes."""
    hdr = struct.pack("=HH", 4 + len(payload), atype)
    return hdr + payload + b"\0" * ((4 - len(payload) % 4) % 4)


def parse_attrs(buf):
    """Type -> payload for a run of attributes (nested flag bits masked off)."""
    out, off = {}, 0
    while off + 4 <= len(buf):
        alen, atype = struct.unpack_from("=HH", buf, off)
        if alen < 4 or off + alen > len(buf):
            break
        out[atype & 0x3FFF] = buf[off + 4:off + alen]
        off += (alen + 3) & ~3
    return out


def uint(payload):
    """u32 or NLA_UINT (4 or 8 bytes) in host order."""
    return struct.unpack("=Q" if len(payload) == 8 else "=I", payload)[0]


def request(sock, seq, ntype, flags, cmd, attrs):
    """Send one genl request and yield (type, payload) of each reply until done."""
    body = struct.pack("=BBH", cmd, 1, 0) + attrs
    sock.send(struct.pack("=IHHII", 16 + len(body), ntype, NLM_F_REQUEST | flags, seq, 0)
              + body)
    while True:
        data = sock.recv(RECV_BYTES)
        off = 0
        while off + 16 <= len(data):
            mlen, mtype, _flags, mseq, _pid = struct.unpack_from("=IHHII", data, off)
            if mlen < 16:
                raise OSError("bad netlink message length")
            payload = data[off + 16:off + mlen]
            off += (mlen + 3) & ~3
            if mseq != seq:
                raise OSError("sequence mismatch %d != %d" % (mseq, seq))
            if mtype in (NLMSG_DONE, NLMSG_ERROR):
                # both carry a status int; a failed dump reports it in NLMSG_DONE
                err = struct.unpack_from("=i", payload)[0] if len(payload) >= 4 else 0
                if err:
                    raise OSError(-err, os.strerror(-err))
                return
            yield mtype, payload[4:]  # skip genlmsghdr


def main():
    ifindex = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.bind((0, 0))
    family = None
    try:
        for _t, p in request(sock, 1, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY,
                             attr(CTRL_ATTR_FAMILY_NAME, b"netdev\0")):
            a = parse_attrs(p)
            if CTRL_ATTR_FAMILY_ID in a:
                family = struct.unpack("=H", a[CTRL_ATTR_FAMILY_ID][:2])[0]
    except OSError as e:
        print("napi_read: no netdev family: %s" % e, file=sys.stderr)
        return 4
    if family is None:
        return 4
    req = attr(A_IFINDEX, struct.pack("=I", ifindex)) if ifindex else b""
    try:
        for _t, p in request(sock, 2, family, NLM_F_DUMP, NETDEV_CMD_NAPI_GET, req):
            a = parse_attrs(p)
            cols = [A_ID, A_IFINDEX, A_DEFER, A_GRO, A_SUSPEND, A_THREADED]
            print(" ".join(str(uint(a[c])) if c in a else "-" for c in cols))
    except OSError as e:
        print("napi_read: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
