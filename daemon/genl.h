/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * genl: the generic netlink plumbing the family files (nl_netdev.c, nl_ethtool.c) share,
 * over libmnl: socket set-up with extack, family id resolution (CTRL_CMD_GETFAMILY),
 * request headers, one request/reply exchange with a checked sequence number, and
 * NLMSG_ERROR / NLMSG_DONE parsing that keeps the kernel's extack text.
 * Kernel docs: Documentation/userspace-api/netlink/intro.rst ("Extended ACK", "Dumps").
 *
 * Only family files include this; their own headers stay the door for everyone else.
 */
#ifndef VQ_GENL_H
#define VQ_GENL_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

/* Receive buffer: the kernel sizes dump skbs up to 32 KiB after a large recvmsg(). */
#define GENL_RCVBUF_BYTES	32768
/* Request buffer: one header, a genl header and a few small attributes (a nest at most). */
#define GENL_REQ_BYTES		512

/* One family's socket; embedded in the family file's own socket struct. */
struct genl_sock {
	struct mnl_socket *nl;
	uint32_t portid;
	uint32_t seq;		/* last sequence number sent */
	uint16_t family;	/* resolved genl family id (nlmsg_type of requests) */
	char rbuf[GENL_RCVBUF_BYTES];
};

/*
 * Error/extack state of one request. mnl hands the same pointer to data and control
 * callbacks, so every request context struct starts with its struct genl_ack.
 */
struct genl_ack {
	int error;		/* 0 or -errno from NLMSG_ERROR / NLMSG_DONE or a data callback */
	char *err;		/* extack text out (NUL-terminated, may be ""); NULL: none */
	size_t errlen;		/* bytes at @err */
};

/*
 * Open a NETLINK_GENERIC socket in the calling thread's current network namespace with
 * NETLINK_EXT_ACK and NETLINK_CAP_ACK, and resolve family @name into @s->family.
 * Returns 0, -EOPNOTSUPP when the kernel has no such family, or -errno (socket closed).
 */
int genl_sock_open(struct genl_sock *s, const char *name);
/*
 * Open @s as genl_sock_open() does and join multicast group @group of family @name (its id
 * from CTRL_ATTR_MCAST_GROUPS of the same CTRL_CMD_GETFAMILY answer, then
 * NETLINK_ADD_MEMBERSHIP): @s then receives the group's notifications from its namespace.
 * Such a socket carries no requests of its own afterwards, since a notification between a
 * request and its reply would fail genl_run()'s sequence checks.
 * Returns 0, -EOPNOTSUPP when the kernel has no such family or group, or -errno.
 */
int genl_mon_open(struct genl_sock *s, const char *name, const char *group);
/* Close what genl_sock_open() or genl_mon_open() opened (does not free @s). NULL is fine. */
void genl_sock_close(struct genl_sock *s);

/*
 * Zero @buf (GENL_REQ_BYTES) and put a request header of @type (a family id or
 * GENL_ID_CTRL) with NLM_F_REQUEST | @flags and a genl header (@cmd, @version).
 * Returns the message to add attributes to; the sequence number is set by genl_run().
 */
struct nlmsghdr *genl_req(char *buf, uint16_t type, uint16_t flags, uint8_t cmd,
			  uint8_t version);

/*
 * Send @nlh with the next sequence number and read replies, each data message through @cb
 * with @ack as its data (see struct genl_ack), until the ack or NLMSG_DONE. Replies with
 * another sequence number or port id fail the exchange (-EPROTO/-ESRCH from libmnl).
 * @ack->err is cleared first. Returns 0, the first error a callback recorded in
 * @ack->error or the kernel reported (extack text in @ack->err), or -errno.
 */
int genl_run(struct genl_sock *s, struct nlmsghdr *nlh, mnl_cb_t cb, struct genl_ack *ack);

/* Data callback for requests that expect only an ack: ignores any message. */
int genl_ack_only_cb(const struct nlmsghdr *nlh, void *data);

/*
 * One NLMSG_ERROR / NLMSG_DONE message: returns its error (0 or -errno), extack text (or
 * "missing attribute N") into @err (@errlen bytes, NUL-terminated, "" when none).
 * -EBADMSG for any other type or a truncated NLMSG_ERROR.
 */
int genl_parse_ack(const struct nlmsghdr *nlh, char *err, size_t errlen);

#endif
