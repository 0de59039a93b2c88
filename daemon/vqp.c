// SPDX-License-Identifier: GPL-2.0-only
/*
 * vqp: the vqpair generic netlink family over libmnl (include/vqpair.h): per-namespace
 * sockets, the per-tick QSTATS_GET dump of each vqpair device, PAIR_GET, KNOB_SET.
 * Parsers and interval arithmetic are in vqp_parse.c; sockets, sequence checks and extack
 * are genl.c's. Contracts in vqp.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "dev.h"
#include "genl.h"
#include "log.h"
#include "netns.h"
#include "util.h"
#include "vqp.h"

/*
 * A namespace whose kernel lacked the family is asked again at most this often (and at
 * once when a new vqpair device appears): one CTRL_CMD_GETFAMILY, cheap but not per tick.
 */
#define VQP_REPROBE_NS		(10 * NSEC_PER_SEC)

/* One socket per namespace that has vqpair devices; @refs counts those devices. */
struct vqp_ns {
	struct netns *ns;
	struct genl_sock *g;		/* NULL: closed, or the family is missing */
	uint64_t probe_ns;		/* CLOCK_MONOTONIC of the last failed open, 0: none */
	int last_err;			/* of the last open, for log-once */
	unsigned int refs;
	struct vqp_ns *next;
};

struct vqp_qstate {
	struct vqp_queue pub;
	struct vqp_track t;
};

struct vqp_dev {
	struct vqp_ns *vn;
	bool pair_known;		/* PAIR_GET answered */
	bool front;
	char front_name[IFNAMSIZ];	/* the pair's FRONT, as PAIR_GET names it ("" unknown) */
	unsigned int nq;		/* queues of the latest dump; 0: none yet */
	uint32_t gen;			/* bumped when @nq changes */
	uint64_t sampled_ns;		/* CLOCK_MONOTONIC right after the latest dump */
	int last_err;			/* of the latest dump, for log-once */
	struct vqp_qstate *q;		/* @nq entries */
};

static struct vqp_ns *vqp_nss;

/* ---- sockets ---- */

/* Open a genl socket inside @ns (setns there and back, as netns.c does for its handles). */
static int vqp_open_in(struct netns *ns, struct genl_sock *g)
{
	int home, ret;

	if (!ns->name[0])
		return genl_sock_open(g, VQPAIR_GENL_NAME);
	home = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (home < 0)
		return -errno;
	if (setns(ns->fd, CLONE_NEWNET) < 0) {
		ret = -errno;
		close(home);
		return ret;
	}
	ret = genl_sock_open(g, VQPAIR_GENL_NAME);
	/* always go home, whatever failed */
	if (setns(home, CLONE_NEWNET) < 0) {
		log_err("vqpair: cannot return to the own network namespace: %s", strerror(errno));
		abort();
	}
	close(home);
	return ret;
}

static void vqp_ns_close(struct vqp_ns *vn)
{
	if (!vn->g)
		return;
	genl_sock_close(vn->g);
	free(vn->g);
	vn->g = NULL;
}

/* The socket of @vn, opened on demand; NULL when the family is missing (or cannot open). */
static struct genl_sock *vqp_ns_sock(struct vqp_ns *vn, bool force)
{
	uint64_t now = util_now_ns(CLOCK_MONOTONIC);
	int ret;

	if (vn->g)
		return vn->g;
	if (!force && vn->probe_ns && now - vn->probe_ns < VQP_REPROBE_NS)
		return NULL;
	vn->g = calloc(1, sizeof(*vn->g));
	if (!vn->g)
		return NULL;
	ret = vqp_open_in(vn->ns, vn->g);
	if (ret) {
		free(vn->g);
		vn->g = NULL;
		vn->probe_ns = now;
		if (ret != vn->last_err)
			log_info("netns '%s': vqpair netlink family unavailable (%s): no vqpair stats or knobs",
				 vn->ns->name, strerror(-ret));
		vn->last_err = ret;
		return NULL;
	}
	vn->probe_ns = 0;
	vn->last_err = 0;
	return vn->g;
}

static struct vqp_ns *vqp_ns_get(struct netns *ns)
{
	struct vqp_ns *vn;

	for (vn = vqp_nss; vn; vn = vn->next)
		if (vn->ns == ns)
			break;
	if (!vn) {
		vn = calloc(1, sizeof(*vn));
		if (!vn)
			return NULL;
		vn->ns = ns;
		vn->next = vqp_nss;
		vqp_nss = vn;
	}
	vn->refs++;
	return vn;
}

static void vqp_ns_put(struct vqp_ns *vn)
{
	struct vqp_ns **pp;

	if (--vn->refs)
		return;
	for (pp = &vqp_nss; *pp; pp = &(*pp)->next) {
		if (*pp == vn) {
			*pp = vn->next;
			break;
		}
	}
	vqp_ns_close(vn);
	free(vn);
}

void vqp_dev_free(struct vqp_dev *v)
{
	if (!v)
		return;
	if (v->vn)
		vqp_ns_put(v->vn);
	free(v->q);
	free(v);
}

/* ---- requests ---- */

struct vqp_dump {
	struct genl_ack ack;	/* first: see struct genl_ack */
	struct vqp_qmsg *m;	/* VQPAIR_MAX_QUEUES entries, by queue id */
	unsigned int n;		/* messages taken */
	unsigned int nq;	/* highest queue id + 1 */
};

static int vqp_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct vqp_dump *c = data;
	struct vqp_qmsg m;
	int ret;

	/* after an error the rest is still read so the socket holds no stale replies */
	if (c->ack.error)
		return MNL_CB_OK;
	ret = vqp_parse_qstats(nlh, &m);
	if (ret) {
		c->ack.error = ret;
		return MNL_CB_OK;
	}
	if (m.queue >= VQPAIR_MAX_QUEUES)
		return MNL_CB_OK;
	c->m[m.queue] = m;
	c->n++;
	if (m.queue + 1 > c->nq)
		c->nq = m.queue + 1;
	return MNL_CB_OK;
}

/* One QSTATS_GET dump of @ifindex into @c (messages indexed by queue id). */
static int vqp_qstats_dump(struct genl_sock *g, int ifindex, struct vqp_dump *c)
{
	char buf[GENL_REQ_BYTES];
	struct nlmsghdr *nlh;

	nlh = genl_req(buf, g->family, NLM_F_DUMP, VQPAIR_CMD_QSTATS_GET, VQPAIR_GENL_VERSION);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, (uint32_t)ifindex);
	return genl_run(g, nlh, vqp_dump_cb, &c->ack);
}

struct vqp_pair_ctx {
	struct genl_ack ack;	/* first: see struct genl_ack */
	struct vqp_pair_info p;
	bool got;
};

static int vqp_pair_cb(const struct nlmsghdr *nlh, void *data)
{
	struct vqp_pair_ctx *c = data;
	int ret;

	if (c->ack.error)
		return MNL_CB_OK;
	ret = vqp_parse_pair(nlh, &c->p);
	if (ret)
		c->ack.error = ret;
	else
		c->got = true;
	return MNL_CB_OK;
}

static int vqp_pair_get(struct genl_sock *g, int ifindex, struct vqp_pair_info *p)
{
	char buf[GENL_REQ_BYTES];
	struct vqp_pair_ctx c = { .ack = { 0 } };
	struct nlmsghdr *nlh;
	int ret;

	nlh = genl_req(buf, g->family, NLM_F_ACK, VQPAIR_CMD_PAIR_GET, VQPAIR_GENL_VERSION);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, (uint32_t)ifindex);
	ret = genl_run(g, nlh, vqp_pair_cb, &c.ack);
	if (ret)
		return ret;
	if (!c.got)
		return -EBADMSG;
	*p = c.p;
	return 0;
}

/* ---- sampling ---- */

static bool vqp_kind(const struct device *d)
{
	return !strcmp(d->kind, VQPAIR_LINK_KIND);
}

static struct vqp_dev *vqp_attach(struct device *d)
{
	struct vqp_dev *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	v->vn = vqp_ns_get(d->ns);
	if (!v->vn) {
		free(v);
		return NULL;
	}
	v->gen = 1;
	d->vqp = v;
	/* a new vqpair device is the cue to ask a kernel that lacked the family again */
	vqp_ns_sock(v->vn, true);
	return v;
}

/*
 * Front or back: PAIR_GET names the front. The two ends may live in different namespaces
 * with colliding ifindexes, so the front's name must match too.
 */
static int vqp_learn_pair(struct device *d, struct genl_sock *g)
{
	struct vqp_pair_info p;
	int ret;

	ret = vqp_pair_get(g, d->ifindex, &p);
	if (ret)
		return ret;
	d->vqp->front = p.ifindex == (uint32_t)d->ifindex &&
			(!p.ifname[0] || !strcmp(p.ifname, d->name));
	snprintf(d->vqp->front_name, sizeof(d->vqp->front_name), "%s", p.ifname);
	d->vqp->pair_known = true;
	return 0;
}

static int vqp_resize(struct vqp_dev *v, unsigned int nq)
{
	struct vqp_qstate *q;

	if (nq == v->nq)
		return 0;
	q = calloc(nq ? nq : 1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	free(v->q);
	v->q = q;
	/* the first dump is generation 1; a later change of the pair's queue count a new one */
	if (v->nq)
		v->gen++;
	v->nq = nq;
	return 0;
}

static int vqp_sample_dev(struct device *d, struct genl_sock *g)
{
	static struct vqp_qmsg msgs[VQPAIR_MAX_QUEUES];
	struct vqp_dump c = { .m = msgs };
	struct vqp_dev *v = d->vqp;
	uint64_t now, dt;
	unsigned int q;
	int ret;

	if (!v->pair_known) {
		ret = vqp_learn_pair(d, g);
		if (ret)
			return ret;
	}
	memset(msgs, 0, sizeof(msgs));
	ret = vqp_qstats_dump(g, d->ifindex, &c);
	if (ret)
		return ret;
	/* timed right after the read, not at the tick (see struct device) */
	now = util_now_ns(CLOCK_MONOTONIC);
	if (c.n != c.nq)
		return -EBADMSG;	/* a queue id missing from the dump */
	ret = vqp_resize(v, c.nq);
	if (ret)
		return ret;
	dt = v->sampled_ns ? now - v->sampled_ns : 0;
	v->sampled_ns = now;
	for (q = 0; q < v->nq; q++)
		vqp_queue_feed(&v->q[q].pub, &v->q[q].t, &msgs[q], v->gen, dt);
	return 0;
}

void vqp_sample(struct device *d)
{
	struct genl_sock *g;
	struct vqp_dev *v = d->vqp;
	char shown[4 * IFNAMSIZ + 1];
	unsigned int q;
	int ret;

	if (!vqp_kind(d))
		return;
	if (!v) {
		v = vqp_attach(d);
		if (!v)
			return;
	}
	g = vqp_ns_sock(v->vn, false);
	if (!g)
		return;
	ret = vqp_sample_dev(d, g);
	if (ret && ret != v->last_err) {
		util_name_display(d->name, shown, sizeof(shown));
		log_warn("netns '%s' %s: vqpair stats: %s", d->ns->name, shown, strerror(-ret));
	}
	v->last_err = ret;
	if (!ret)
		return;
	/* an old sample must not pass for this tick's: no rates until the next good one */
	for (q = 0; q < v->nq; q++)
		v->q[q].pub.valid = false;
	/* a family gone with its module (or a broken socket) is resolved again next time */
	if (ret != -ENODEV && ret != -EINVAL && ret != -EBADMSG && ret != -ENOMEM)
		vqp_ns_close(v->vn);
}

/* ---- accessors and knobs ---- */

const struct vqp_queue *vqp_queue(const struct device *d, unsigned int q)
{
	const struct vqp_dev *v = d->vqp;

	if (!v || !v->sampled_ns || q >= v->nq)
		return NULL;
	return &v->q[q].pub;
}

bool vqp_is_front(const struct device *d)
{
	return d->vqp && d->vqp->pair_known && d->vqp->front;
}

bool vqp_is_back(const struct device *d)
{
	return d->vqp && d->vqp->pair_known && !d->vqp->front;
}

const char *vqp_front_name(const struct device *d)
{
	if (!vqp_is_back(d) || !d->vqp->front_name[0])
		return NULL;
	return d->vqp->front_name;
}

unsigned int vqp_queue_count(const struct device *d)
{
	return d->vqp && d->vqp->sampled_ns ? d->vqp->nq : 0;
}

int vqp_knob_read(struct device *d, unsigned int q, int knob, uint32_t *v, char *err,
		  size_t errlen)
{
	static struct vqp_qmsg msgs[VQPAIR_MAX_QUEUES];
	struct vqp_dump c = { .ack = { .err = err, .errlen = errlen }, .m = msgs };
	struct genl_sock *g;
	int ret;

	if (knob < 1 || knob > VQPAIR_KNOB_MAX)
		return -EINVAL;
	if (!d->vqp || !(g = vqp_ns_sock(d->vqp->vn, true)))
		return -ENODEV;
	memset(msgs, 0, sizeof(msgs));
	ret = vqp_qstats_dump(g, d->ifindex, &c);
	if (ret)
		return ret;
	if (q >= c.nq || !(msgs[q].knob_present & (1u << knob))) {
		snprintf(err, errlen, "vqpair: queue %u has no knob %s", q, vqp_knob_name(knob));
		return -ENOENT;
	}
	*v = msgs[q].knob[knob];
	/* keep the model as fresh as this read (act_check_outside compares against it) */
	if (q < d->vqp->nq)
		d->vqp->q[q].pub.knob[knob] = *v;
	return 0;
}

int vqp_knob_write(struct device *d, unsigned int q, int knob, uint32_t v, char *err,
		   size_t errlen)
{
	char buf[GENL_REQ_BYTES];
	struct genl_ack ack = { .err = err, .errlen = errlen };
	struct genl_sock *g;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (knob < 1 || knob > VQPAIR_KNOB_MAX)
		return -EINVAL;
	if (!d->vqp || !(g = vqp_ns_sock(d->vqp->vn, true)))
		return -ENODEV;
	nlh = genl_req(buf, g->family, NLM_F_ACK, VQPAIR_CMD_KNOB_SET, VQPAIR_GENL_VERSION);
	mnl_attr_put_u32(nlh, VQPAIR_A_IFINDEX, (uint32_t)d->ifindex);
	mnl_attr_put_u32(nlh, VQPAIR_A_QUEUE_ID, q);
	nest = mnl_attr_nest_start(nlh, VQPAIR_A_KNOBS);
	mnl_attr_put_u32(nlh, (uint16_t)knob, v);
	mnl_attr_nest_end(nlh, nest);
	ret = genl_run(g, nlh, genl_ack_only_cb, &ack);
	if (!ret && q < d->vqp->nq)
		d->vqp->q[q].pub.knob[knob] = v;
	return ret;
}
