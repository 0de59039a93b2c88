/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vqtune HTTP API v1: constants shared by vqtuned (server) and vqtunectl (client).
 * The JSON shapes of every route are documented in docs/api.md; this header holds
 * the names both sides must agree on.
 */
#ifndef VQTUNE_API_H
#define VQTUNE_API_H

#define VQ_VERSION			"0.1.0"
#define VQ_API_PREFIX			"/v1"

/* Default unix socket: mode 0660, allows writes (DESIGN.md "Access"). */
#define VQ_DEFAULT_SOCKET		"/run/vqtune/vqtuned.sock"
#define VQ_DEFAULT_STATE_DIR		"/var/lib/vqtune"
#define VQ_DEFAULT_RUN_DIR		"/run/vqtune"
/* Conventional TCP address when --listen is given without one. */
#define VQ_DEFAULT_TCP			"127.0.0.1:9477"

/*
 * Longest request-target (path and query, raw) answered normally; a longer one is a JSON 414
 * (RFC 9110 15.5.15). 8000 is the request-line length RFC 9112 3 asks every recipient to
 * support, well below the daemon's 32 KiB per-connection buffer that MHD must fit the request
 * line and headers in: past that MHD never hands the request over (docs/api.md).
 */
#define VQ_API_URI_MAX_BYTES		8000
/* Request bodies above this are refused with 413 (DESIGN.md). */
#define VQ_API_BODY_MAX_BYTES		(64 * 1024)
/*
 * A policy file (vqtuned --policy, -C, SIGHUP; vqtunectl policy load) is at most this: a
 * policy is a few KB, and anything near this is not a policy (it is not read into memory).
 * What vqtunectl sends of it is the compact JSON, held to VQ_API_BODY_MAX_BYTES.
 */
#define VQ_POLICY_FILE_MAX_BYTES	(1024 * 1024)
/* What a larger file is called, after "FILE: ", by vqtuned and vqtunectl alike (%d: the limit). */
#define VQ_POLICY_FILE_TOO_BIG_FMT	"larger than the %d-byte limit of a policy file (1 MiB)"
/* Deepest JSON nesting a request may have; deeper is 400 naming the limit. */
#define VQ_API_JSON_MAX_DEPTH		32

/*
 * Error codes: {"error":{"code":CODE,"message":TEXT[,"field":NAME][,"reason":WORD]}}.
 * The HTTP status that goes with each is given beside it.
 */
#define VQ_ERR_BAD_REQUEST		"bad_request"		/* 400 */
#define VQ_ERR_INVALID_JSON		"invalid_json"		/* 400 */
#define VQ_ERR_INVALID_FIELD		"invalid_field"		/* 400: wrong type, unknown field */
#define VQ_ERR_OUT_OF_RANGE		"out_of_range"		/* 422: value outside the knob's range */
#define VQ_ERR_UNAUTHORIZED		"unauthorized"		/* 401: missing/bad bearer token */
#define VQ_ERR_FORBIDDEN		"forbidden"		/* 403: write on a read-only listener */
#define VQ_ERR_NOT_FOUND		"not_found"		/* 404 */
#define VQ_ERR_METHOD_NOT_ALLOWED	"method_not_allowed"	/* 405 */
#define VQ_ERR_CONFLICT			"conflict"		/* 409: ambiguous device, disruption not accepted */
#define VQ_ERR_PAYLOAD_TOO_LARGE	"payload_too_large"	/* 413 */
#define VQ_ERR_URI_TOO_LONG		"uri_too_long"		/* 414: past VQ_API_URI_MAX_BYTES */
#define VQ_ERR_UNSUPPORTED_MEDIA	"unsupported_media_type"/* 415 */
#define VQ_ERR_READ_ONLY		"read_only"		/* 403: device is observed, not managed */
#define VQ_ERR_UNSUPPORTED		"unsupported"		/* 422: the device/kernel lacks the knob */
#define VQ_ERR_KERNEL			"kernel_error"		/* 502: the kernel refused; message has its extack */
#define VQ_ERR_INTERNAL			"internal"		/* 500 */
#define VQ_ERR_STOPPING			"stopping"		/* 503: the daemon is stopping, writes refused */

/*
 * "reason" of an error: a fixed word a client may act on where code and field alone do not
 * say which remedy applies (message is for people and may change). Absent on other errors.
 * read_only on field "dev" (view_act.c): the device has IFF_LOOPBACK, whatever its name;
 * --manage never makes it writable.
 */
#define VQ_ERR_REASON_LOOPBACK		"loopback"
/* read_only on field "dev": an interface of the daemon's own namespace not named by --manage. */
#define VQ_ERR_REASON_NOT_MANAGED	"not_managed"

/*
 * The range a JSON number must keep here (jansson: json_int_t is long long, a real a double),
 * in the words vqtuned (a policy file or body jansson refused) and vqtunectl (policy set
 * VALUE) both give a number too big to hold.
 */
#define VQ_JSON_INT_RANGE	"a JSON integer must lie within [-9223372036854775808, " \
				"9223372036854775807]"
#define VQ_JSON_REAL_RANGE	"a JSON real must fit a double, at most about 1.8e308"

/* vqtunectl exit codes (documented in vqtunectl(8)). */
enum vq_exit {
	VQ_EXIT_OK = 0,
	VQ_EXIT_ERROR = 1,	/* server answered with an error */
	VQ_EXIT_USAGE = 2,	/* bad command line */
	VQ_EXIT_CONNECT = 3,	/* could not reach the daemon */
	VQ_EXIT_NOT_FOUND = 4,	/* device or knob does not exist (404) */
};

#endif
