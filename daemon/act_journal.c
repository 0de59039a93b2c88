// SPDX-License-Identifier: GPL-2.0-only
/*
 * act_journal: the journal of original values (<state dir>/originals.json) and the state
 * dir it lives in (act.h: act_init(), act_fini()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "act.h"
#include "act_priv.h"
#include "log.h"
#include "netns.h"
#include "util.h"

#define ACT_JOURNAL_FILE	"originals.json"
#define ACT_JOURNAL_VERSION	1

static char journal_path[4096];
/* the last save failed: the file lags the table until a save succeeds */
static bool journal_stale;
struct entry *act_entries;
unsigned int act_n_entries, act_cap_entries;
uint64_t act_next_seq = 1;

/* The table's entries that owe a restore, written to the journal file durably. */
static int journal_write(void)
{
	json_t *root, *arr = json_array();
	unsigned int i;
	char *text;
	int ret;

	for (i = 0; i < act_n_entries; i++) {
		const struct entry *e = &act_entries[i];

		char hex[2 * IFNAMSIZ + 1];

		if (!e->changed)
			continue;
		/* the name is bytes: store them exactly, as hex */
		util_hex(e->device, strnlen(e->device, IFNAMSIZ), hex);
		json_array_append_new(arr, json_pack(
			"{s:s, s:i, s:s, s:s, s:s, s:i, s:I, s:I, s:I, s:I}",
			"netns", e->netns, "ifindex", e->ifindex, "device_hex", hex,
			"knob", knob_table[e->k].name, "instance", e->inst, "queue", e->queue,
			"napi_id", (json_int_t)e->napi_id, "original", (json_int_t)e->original,
			"written", (json_int_t)e->written, "seq", (json_int_t)e->seq));
		if (e->has_pending)
			json_object_set_new(json_array_get(arr, json_array_size(arr) - 1),
					    "pending", json_integer((json_int_t)e->pending));
		if (e->left)
			json_object_set_new(json_array_get(arr, json_array_size(arr) - 1),
					    "left", json_true());
	}
	root = json_pack("{s:i, s:o}", "version", ACT_JOURNAL_VERSION, "entries", arr);
	text = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	if (!text)
		return -ENOMEM;
	ret = util_write_durable(journal_path, text, strlen(text));
	free(text);
	return ret;
}

int act_journal_save(void)
{
	int ret = journal_write();

	/* once per stale spell: a full disk retried each tick must not flood the log */
	if (ret && !journal_stale)
		log_err("journal %s: %s; it lags the knobs until a save succeeds (retried each "
			"tick)", journal_path, strerror(-ret));
	else if (!ret && journal_stale)
		log_info("journal %s saved: it holds what the knobs owe again", journal_path);
	journal_stale = ret != 0;
	return ret;
}

int act_journal_sync(bool changed)
{
	return changed || journal_stale ? act_journal_save() : 0;
}

const char *act_journal_file(void)
{
	return journal_path;
}

static int unhex(const char *hex, char *out, size_t outlen)
{
	size_t n = strlen(hex) / 2, i;
	unsigned int b;

	if (strlen(hex) % 2 || n >= outlen)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -EINVAL;
		out[i] = (char)b;
	}
	out[n] = '\0';
	return 0;
}

static int journal_load(void)
{
	json_error_t jerr;
	json_t *root, *arr, *it;
	size_t i;

	root = json_load_file(journal_path, 0, &jerr);
	if (!root) {
		struct stat st;

		if (stat(journal_path, &st) < 0 && errno == ENOENT)
			return 0;
		log_err("journal %s:%d:%d: %s. It holds the original values of knobs a previous "
			"run changed: check those knobs, then repair the file or move it aside "
			"(vqtuned(8), FILES)", journal_path, jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	arr = json_object_get(root, "entries");
	json_array_foreach(arr, i, it) {
		const char *ns = "", *hex = "", *knob = "", *inst = "";
		char name[IFNAMSIZ];
		json_int_t ifindex = 0, queue = -1, napi = 0, orig = 0, wr = 0, seq = 0;
		json_t *pend;
		struct entry *e;
		int k;

		if (json_unpack(it, "{s:s, s:I, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I}",
				"netns", &ns, "ifindex", &ifindex, "device_hex", &hex, "knob", &knob,
				"instance", &inst, "queue", &queue, "napi_id", &napi,
				"original", &orig, "written", &wr, "seq", &seq) ||
		    (k = knob_by_name(knob)) < 0) {
			log_err("journal %s: entry %zu is malformed, skipped", journal_path, i);
			continue;
		}
		/* a replayed original is a write like any other: same ranges as the API */
		if (orig < 0 || (uint64_t)orig < knob_table[k].min ||
		    (uint64_t)orig > knob_table[k].max || ifindex <= 0 ||
		    strlen(ns) >= NETNS_NAME_MAX || strchr(ns, '/') || !strcmp(ns, "..") ||
		    strlen(inst) >= sizeof(act_entries[0].inst) || unhex(hex, name, sizeof(name))) {
			log_err("journal %s: entry %zu (%s %s) is out of range or malformed, skipped",
				journal_path, i, knob, inst);
			continue;
		}
		if (act_n_entries == act_cap_entries) {
			unsigned int cap = act_cap_entries ? 2 * act_cap_entries : 16;
			struct entry *n = realloc(act_entries, cap * sizeof(*n));

			if (!n)
				break;
			act_entries = n;
			act_cap_entries = cap;
		}
		e = &act_entries[act_n_entries++];
		memset(e, 0, sizeof(*e));
		snprintf(e->netns, sizeof(e->netns), "%s", ns);
		e->ifindex = ifindex;
		memcpy(e->device, name, sizeof(e->device));
		e->k = k;
		snprintf(e->inst, sizeof(e->inst), "%s", inst);
		e->queue = queue;
		e->napi_id = napi;
		e->original = orig;
		e->written = wr;
		e->seq = seq;
		e->changed = true;
		e->unseen = true;
		e->left = json_is_true(json_object_get(it, "left"));
		pend = json_object_get(it, "pending");
		if (json_is_integer(pend) && json_integer_value(pend) >= 0 &&
		    (uint64_t)json_integer_value(pend) <= knob_table[k].max) {
			e->pending = (uint64_t)json_integer_value(pend);
			e->has_pending = true;
		}
		if ((uint64_t)seq >= act_next_seq)
			act_next_seq = seq + 1;
	}
	json_decref(root);
	if (act_n_entries)
		log_warn("journal: %u knob(s) left changed by a previous run; restoring",
			 act_n_entries);
	return 0;
}

/*
 * One vqtuned per state directory: a second one would restore (and empty) the journal of
 * the first, whose knobs are live. <state_dir>/lock is held with flock(2) for the life of
 * the process (the fd is never closed; the kernel drops the lock at exit, also on kill -9)
 * and holds the owner's pid for the message. -EBUSY when another process holds it.
 */
static int state_lock(const char *state_dir)
{
	char path[4096], pid[16];
	ssize_t n;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/lock", state_dir) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno == EWOULDBLOCK ? -EBUSY : -errno;

		n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		if (err == -EBUSY)
			log_err("state dir %s is in use by another vqtuned (pid %s): one daemon per "
				"state dir (--state-dir)", state_dir, pid[0] ? pid : "?");
		close(fd);
		return err;
	}
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)n, 0) != n)
		log_warn("state dir %s: cannot record the pid in its lock", state_dir);
	return 0;
}

int act_init(const char *state_dir)
{
	unsigned int i;
	int ret;

	if (mkdir(state_dir, 0750) < 0 && errno != EEXIST)
		return -errno;
	ret = state_lock(state_dir);
	if (ret)
		return ret;
	if ((size_t)snprintf(journal_path, sizeof(journal_path), "%s/%s", state_dir,
			     ACT_JOURNAL_FILE) >= sizeof(journal_path))
		return -ENAMETOOLONG;
	ret = act_events_open(state_dir);
	if (ret)
		return ret;
	if (journal_load())
		return -EINVAL;
	/* prove the journal is writable now, not at the first knob change */
	ret = journal_write();
	if (ret)
		return ret;
	/* a journal may name a namespace this run does not watch: open it for the restore */
	for (i = 0; i < act_n_entries; i++)
		if (!netns_get(act_entries[i].netns))
			log_warn("journal: netns '%s' is gone", act_entries[i].netns);
	return 0;
}

void act_fini(void)
{
	free(act_entries);
	act_entries = NULL;
	act_n_entries = act_cap_entries = 0;
	act_events_close();
}
