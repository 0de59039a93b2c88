#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Set a device's RX and TX channel counts through the SIOCETHTOOL ioctl, not netlink.

ethtool(8) of Debian 12 always takes the netlink path; this is the other door a writer may
use (ETHTOOL_GCHANNELS, then ETHTOOL_SCHANNELS with the new rx_count and tx_count), from
the standard library only. Layouts: struct ethtool_channels and struct ifreq of
include/uapi/linux/ethtool.h and if.h, written out here on purpose instead of taken from
the project's headers.
Usage: channels_ioctl.py IFNAME RX TX   (exit 0; 1 when the kernel refuses; 2 bad usage)
"""
import ctypes
import fcntl
import socket
import struct
import sys

SIOCETHTOOL = 0x8946
ETHTOOL_GCHANNELS, ETHTOOL_SCHANNELS = 0x3C, 0x3D
# cmd, max_rx, max_tx, max_other, max_combined, rx_count, tx_count, other_count, combined_count
CHANNELS = "=9I"
RX_COUNT, TX_COUNT = 5, 6
IFNAMSIZ = 16


def ethtool(sock, ifname, fields):
    """One SIOCETHTOOL call on a struct ethtool_channels; returns the fields after it."""
    data = struct.pack(CHANNELS, *fields)
    buf = ctypes.create_string_buffer(data, len(data))
    # struct ifreq: the name, then ifr_data in a 24-byte union
    ifr = struct.pack("%dsP" % IFNAMSIZ, ifname.encode(), ctypes.addressof(buf))
    ifr += b"\0" * (40 - len(ifr))
    fcntl.ioctl(sock, SIOCETHTOOL, ifr)
    return list(struct.unpack(CHANNELS, buf.raw))


def main():
    if len(sys.argv) != 4 or not sys.argv[2].isdigit() or not sys.argv[3].isdigit():
        print("usage: channels_ioctl.py IFNAME RX TX", file=sys.stderr)
        return 2
    ifname, rx, tx = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            ch = ethtool(sock, ifname, [ETHTOOL_GCHANNELS] + [0] * 8)
            ch[0], ch[RX_COUNT], ch[TX_COUNT] = ETHTOOL_SCHANNELS, rx, tx
            ethtool(sock, ifname, ch)
        except OSError as e:
            print("channels_ioctl.py: %s: %s" % (ifname, e.strerror), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
