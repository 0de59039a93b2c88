// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pure parsing and formatting helpers of vqtunectl. No I/O, no libcurl, so the unit
 * tests link this file alone.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <strings.h>

#include "ctl.h"

/* Milliseconds per second, for --timeout/--interval parsing. */
#define CTL_MS_PER_S		1000ULL
/* SI step used by ip -s / ethtool for rates: powers of 1000, not 1024. */
#define CTL_SI_STEP		1000.0
/* Bits in a byte: rates are shown in bit/s, as link speeds are. */
#define CTL_BITS_PER_BYTE	8.0
#define CTL_NS_PER_S		1000000000ULL
#define CTL_NS_PER_MS		1000000ULL
#define CTL_S_PER_MIN		60ULL
#define CTL_S_PER_HOUR		3600ULL
#define CTL_S_PER_DAY		86400ULL

/*
 * Below this a whole-number real prints as plain digits ("%.1f"): 1e21 is where
 * JavaScript's Number.prototype.toString (ECMA-262 Number::toString) turns to exponents.
 */
#define CTL_REAL_PLAIN_MAX	1e21
/* %g precisions tried for the shortest real that reads back exactly: DBL_DIG..DBL_DECIMAL_DIG */
#define CTL_REAL_DIGITS_MIN	15
#define CTL_REAL_DIGITS_MAX	17

/* RFC 1035 section 2.3.4: a host name is at most 253 characters in text form. */
#define CTL_HOSTNAME_MAX	253
/* Longest decimal port: "65535". */
#define CTL_PORT_DIGITS_MAX	5
/* Characters of a host name or IPv4 address (RFC 1123 section 2.1; '_' as DNS allows it). */
#define CTL_HOST_CHARS		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_"

/* "[ADDR6]" or "[ADDR6%ZONE]" at *p (RFC 6874); advances *p past ']'. 0 or -EINVAL. */
static int ctl_host_ipv6(const char **p)
{
	char a[INET6_ADDRSTRLEN];
	const char *end = strchr(*p, ']');
	size_t n = end ? (size_t)(end - *p - 1) : 0;
	struct in6_addr a6;
	char *zone;

	if (!n || n >= sizeof(a))
		return -EINVAL;
	memcpy(a, *p + 1, n);
	a[n] = '\0';
	zone = strchr(a, '%');
	if (zone) {
		*zone++ = '\0';
		if (!*zone || zone[strspn(zone, CTL_HOST_CHARS "%")])
			return -EINVAL;
	}
	if (inet_pton(AF_INET6, a, &a6) != 1)
		return -EINVAL;
	*p = end + 1;
	return 0;
}

int ctl_parse_host(const char *s)
{
	const char *p = s;
	unsigned long port = 0;
	size_t n, zeros;

	if (!strncasecmp(p, "http://", strlen("http://")))
		p += strlen("http://");
	else if (!strncasecmp(p, "https://", strlen("https://")))
		return -EPROTONOSUPPORT;	/* vqtuned's listener speaks plain HTTP */
	else if (strstr(p, "://"))
		return -EINVAL;
	if (*p == '[') {
		if (ctl_host_ipv6(&p))
			return -EINVAL;
	} else {
		n = strspn(p, CTL_HOST_CHARS);
		if (!n || n > CTL_HOSTNAME_MAX || *p == '.' || *p == '-')
			return -EINVAL;
		p += n;
	}
	if (*p++ != ':')
		return -EINVAL;
	n = strspn(p, "0123456789");
	/* a URL may end in slashes; anything else after the port is not ours to guess */
	if (!n || p[n + strspn(p + n, "/")])
		return -EINVAL;
	/* a number, but no TCP port: said apart so the message can name the range */
	zeros = strspn(p, "0");
	if (n - zeros > CTL_PORT_DIGITS_MAX)
		return -ERANGE;
	port = strtoul(p, NULL, 10);
	if (!port || port > CTL_PORT_MAX)
		return -ERANGE;
	/* vqtuned -l refuses "019478" too: one spelling of a port for both programs */
	return zeros ? -EDOM : 0;
}

void ctl_host_port_text(const char *s, char *out, size_t len)
{
	const char *c = strrchr(s, ':');

	snprintf(out, len, "%.*s", c ? (int)strspn(c + 1, "0123456789") : 0, c ? c + 1 : "");
}

int ctl_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s || s[strspn(s, "0123456789")])
		return -EINVAL;
	/* "010" is 10 here and 8 in C and the shell: one spelling, as vqtuned -i/-l ask */
	if (s[0] == '0' && s[1])
		return -EDOM;
	for (; *s; s++) {
		unsigned int d;

		d = (unsigned int)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int ctl_parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;
	int err = ctl_parse_u64(s, &v);

	if (err)
		return err;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int ctl_parse_seconds_ms(const char *s, uint64_t min_ms, uint64_t max_ms, uint64_t *out_ms)
{
	const char *dot = s ? strchr(s, '.') : NULL;
	char whole[32];
	uint64_t sec, frac = 0, ms;
	size_t n;
	int err;

	if (!s || !*s)
		return -EINVAL;
	n = dot ? (size_t)(dot - s) : strlen(s);
	if (n == 0 || n >= sizeof(whole))
		return n == 0 ? -EINVAL : -ERANGE;
	memcpy(whole, s, n);
	whole[n] = '\0';
	err = ctl_parse_u64(whole, &sec);
	if (err)
		return err;
	if (dot) {
		const char *p = dot + 1;
		unsigned int k;

		if (!*p || strlen(p) > CTL_SECONDS_DECIMALS)
			return -EINVAL;
		for (k = 0; k < CTL_SECONDS_DECIMALS; k++) {
			if (*p && (*p < '0' || *p > '9'))
				return -EINVAL;
			frac = frac * 10 + (*p ? (uint64_t)(*p++ - '0') : 0);
		}
	}
	if (sec > (UINT64_MAX - frac) / CTL_MS_PER_S)
		return -ERANGE;
	ms = sec * CTL_MS_PER_S + frac;
	if (ms < min_ms || ms > max_ms)
		return -ERANGE;
	*out_ms = ms;
	return 0;
}

static bool ctl_unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~';
}

char *ctl_url_escape(const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = malloc(len * 3 + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (ctl_unreserved(c)) {
			*o++ = (char)c;
		} else {
			*o++ = '%';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 0xf];
		}
	}
	*o = '\0';
	return out;
}

char *ctl_dev_path(const char *dev, const char *suffix, int *err)
{
	const char *colon = strrchr(dev, ':');
	const char *name = colon ? colon + 1 : dev;
	char *ens = NULL, *ename, *path = NULL;
	int n;

	*err = -EINVAL;
	/* an empty NETNS is a slip, not a name: "-" is spelled out for the daemon's own */
	if (!*name || colon == dev)
		return NULL;
	*err = -ENOMEM;
	ename = ctl_url_escape(name, strlen(name));
	if (!ename)
		return NULL;
	if (colon) {
		ens = ctl_url_escape(dev, (size_t)(colon - dev));
		if (!ens)
			goto err_free_name;
	}
	n = asprintf(&path, "%s/devices/%s%s%s%s", VQ_API_PREFIX, ens ? ens : "",
		     ens ? ":" : "", ename, suffix ? suffix : "");
	if (n < 0) {
		path = NULL;
	} else if (n > VQ_API_URI_MAX_BYTES) {
		free(path);
		path = NULL;
		*err = -E2BIG;
	} else {
		*err = 0;
	}
	free(ens);
err_free_name:
	free(ename);
	return path;
}

char *ctl_dev_selector(const char *netns, const char *name)
{
	char *s;

	if (asprintf(&s, "%s:%s", netns && *netns ? netns : "-", name) < 0)
		return NULL;
	return s;
}

char *ctl_dev_selector_hex(const char *netns, const char *name_hex)
{
	size_t i, n = name_hex ? strlen(name_hex) : 0;
	char *name, *s = NULL;

	if (!n || n % 2)
		return NULL;
	name = calloc(n / 2 + 1, 1);
	if (!name)
		return NULL;
	for (i = 0; i < n / 2; i++) {
		unsigned int b;

		if (!isxdigit((unsigned char)name_hex[2 * i]) ||
		    !isxdigit((unsigned char)name_hex[2 * i + 1]) ||
		    sscanf(name_hex + 2 * i, "%2x", &b) != 1 || !b)
			goto out;
		name[i] = (char)b;
	}
	s = ctl_dev_selector(netns, name);
out:
	free(name);
	return s;
}

/*
 * v scaled into [0.9995, 999.5) with its SI prefix ("" below 999.5): the bound is where
 * three significant digits would round up to "1000", which must read "1.00k" instead.
 */
static const char *ctl_si_scale(double *v)
{
	static const char *const prefix[] = { "", "k", "M", "G", "T", "P", "E" };
	unsigned int i = 0;

	while (*v >= CTL_SI_STEP - 0.5 && i + 1 < sizeof(prefix) / sizeof(prefix[0])) {
		*v /= CTL_SI_STEP;
		i++;
	}
	return prefix[i];
}

/* Three significant digits: 9.41, 94.1, 941. */
static int ctl_sig3_decimals(double v)
{
	if (v < 9.995)
		return 2;
	if (v < 99.95)
		return 1;
	return 0;
}

char *ctl_fmt_bitrate(double bytes_per_s, char *buf, size_t len)
{
	double v = bytes_per_s * CTL_BITS_PER_BYTE;
	const char *p;

	if (!isfinite(v) || v < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (v == 0) {
		snprintf(buf, len, "0 bit/s");
		return buf;
	}
	p = ctl_si_scale(&v);
	snprintf(buf, len, "%.*f %sbit/s", ctl_sig3_decimals(v), v, p);
	return buf;
}

char *ctl_fmt_si(double v, char *buf, size_t len)
{
	const char *p;

	if (!isfinite(v) || v < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (v < CTL_SI_STEP - 0.5) {
		/* whole counts print as integers, rates below 1000/s with one decimal */
		if (v == floor(v))
			snprintf(buf, len, "%.0f", v);
		else
			snprintf(buf, len, "%.1f", v);
		return buf;
	}
	p = ctl_si_scale(&v);
	snprintf(buf, len, "%.*f%s", ctl_sig3_decimals(v), v, p);
	return buf;
}

char *ctl_fmt_duration_ns(uint64_t ns, char *buf, size_t len)
{
	uint64_t s = ns / CTL_NS_PER_S;

	if (s >= CTL_S_PER_DAY)
		snprintf(buf, len, "%llud%02lluh%02llum", (unsigned long long)(s / CTL_S_PER_DAY),
			 (unsigned long long)(s % CTL_S_PER_DAY / CTL_S_PER_HOUR),
			 (unsigned long long)(s % CTL_S_PER_HOUR / CTL_S_PER_MIN));
	else if (s >= CTL_S_PER_HOUR)
		snprintf(buf, len, "%lluh%02llum", (unsigned long long)(s / CTL_S_PER_HOUR),
			 (unsigned long long)(s % CTL_S_PER_HOUR / CTL_S_PER_MIN));
	else if (s >= CTL_S_PER_MIN)
		snprintf(buf, len, "%llum%02llus", (unsigned long long)(s / CTL_S_PER_MIN),
			 (unsigned long long)(s % CTL_S_PER_MIN));
	/* under a second: rounded to 0.1 ms first, so 999.96 ms reads "1.0s", not "1000.0ms" */
	else if (s || ns + CTL_NS_PER_MS / 20 >= CTL_NS_PER_S)
		snprintf(buf, len, "%.1fs", (double)ns / (double)CTL_NS_PER_S);
	else if (ns >= CTL_NS_PER_MS && ns % CTL_NS_PER_MS == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / CTL_NS_PER_MS));
	else if (ns >= CTL_NS_PER_MS)
		snprintf(buf, len, "%.1fms", (double)ns / (double)CTL_NS_PER_MS);
	else if (ns >= 1000)
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000));
	else if (ns)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else
		snprintf(buf, len, "0s");
	return buf;
}

char *ctl_fmt_time_ns(uint64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / CTL_NS_PER_S);
	unsigned int ms = (unsigned int)(ns % CTL_NS_PER_S / 1000000ULL);
	struct tm tm;
	char tmp[32];

	if (!gmtime_r(&t, &tm) || !strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%S", &tm)) {
		snprintf(buf, len, "-");
		return buf;
	}
	snprintf(buf, len, "%s.%03uZ", tmp, ms);
	return buf;
}

char *ctl_fmt_json_number(const json_t *v, char *buf, size_t len)
{
	double d;
	int prec;

	if (json_is_integer(v)) {
		/* all 64 bits, never through a double (which keeps 53) */
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return buf;
	}
	if (!json_is_real(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	d = json_real_value(v);
	if (d == trunc(d) && fabs(d) < CTL_REAL_PLAIN_MAX) {
		/* ".0" keeps it a real when `policy set` reads it back */
		snprintf(buf, len, "%.1f", d);
		return buf;
	}
	for (prec = CTL_REAL_DIGITS_MIN; prec < CTL_REAL_DIGITS_MAX; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return buf;
	}
	snprintf(buf, len, "%.*g", CTL_REAL_DIGITS_MAX, d);
	return buf;
}

char *ctl_arg_shown(const char *arg, char *buf, size_t len)
{
	size_t n = strlen(arg);

	if (n <= CTL_ARG_SHOWN_MAX)
		snprintf(buf, len, "'%s'", arg);
	else
		snprintf(buf, len, "'%.*s...' (%zu bytes)", CTL_ARG_SHOWN_MAX / 2, arg, n);
	return buf;
}

char *ctl_fmt_range_error(char *buf, size_t len, const char *name, const char *arg,
			  const char *min, const char *max, const char *unit)
{
	char shown[CTL_ARG_SHOWN_BYTES];

	/* a long ARG cut: the range and unit must fit, they are the message */
	snprintf(buf, len, "%s: %s is out of range [%s, %s] (%s)", name,
		 ctl_arg_shown(arg, shown, sizeof(shown)), min, max, unit);
	return buf;
}

/* ---- the CLI's words for API errors whose message speaks in the API's terms ---- */

/* Text shown as typed: no control bytes or others the API would show in \\xHH form. */
static bool ctl_printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

const char *ctl_error_words(const char *code, const char *field, const char *reason,
			    const char *dev, const char *knob, char *buf, size_t len)
{
	if (!code || !field)
		return NULL;
	/* view_act.c asks for "disruptive":true in the body; the CLI's way is the option */
	if (!strcmp(code, VQ_ERR_CONFLICT) && !strcmp(field, "disruptive") && knob) {
		snprintf(buf, len, "%s may reset the device's queues: add --disruptive to accept",
			 knob);
		return buf;
	}
	/* the API says what is missing; the CLI says where the names are */
	if (!strcmp(code, VQ_ERR_NOT_FOUND) && !strcmp(field, "knob") && knob && dev &&
	    ctl_printable(knob) && ctl_printable(dev)) {
		snprintf(buf, len, "no knob named '%s' (" CTL_PROG " knobs %s lists %s's knobs)",
			 knob, dev, dev);
		return buf;
	}
	if (strcmp(code, VQ_ERR_READ_ONLY) || strcmp(field, "dev") || !dev || !reason)
		return NULL;
	/*
	 * The daemon's reason, not the name: it tells by IFF_LOOPBACK, and a namespace may have
	 * a loopback device renamed from "lo" or another device called "lo".
	 */
	if (!strcmp(reason, VQ_ERR_REASON_LOOPBACK))
		snprintf(buf, len, "%s is a loopback device: vqtuned observes it and never "
			 "writes it (--manage does not change that)", dev);
	else if (!strcmp(reason, VQ_ERR_REASON_NOT_MANAGED))
		snprintf(buf, len, "%s is observed read-only: vqtuned never writes the machine's "
			 "own interfaces (those of its own namespace) unless it was started with "
			 "--manage GLOB naming them", dev);
	else
		return NULL;	/* a reason this CLI does not know: the API's message says it */
	return buf;
}
