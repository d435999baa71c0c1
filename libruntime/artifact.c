// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Compiler artifacts: parsing (JSON text or a file) and what they hold
 * (docs/spec/artifact.md "The format").  The format is KohakuTPU's
 * Artifact.to_dict(); the checks against a device and the run are
 * artifact_run.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "artifact_int.h"
#include "json.h"
#include "kohaku/kh_flit.h"

KH_RT_HIDDEN const char *kh_rt_art_kind_name(enum kh_rt_art_kind k)
{
	switch (k) {
	case KH_ART_SEED:
		return "seed";
	case KH_ART_KICK:
		return "kick";
	case KH_ART_AWAIT:
		return "await";
	case KH_ART_BARRIER:
		return "barrier";
	}
	return "?";
}

KH_RT_HIDDEN void kh_rt_art_step_name(const struct kohaku_artifact *a, uint32_t i,
				   char *buf, size_t len)
{
	const struct kh_rt_art_step *s = &a->steps[i];

	if (s->kind == KH_ART_KICK || s->kind == KH_ART_AWAIT)
		snprintf(buf, len, "step %u (%s %u,%u)", i,
			 kh_rt_art_kind_name(s->kind), s->a[0], s->a[1]);
	else
		snprintf(buf, len, "step %u (%s)", i, kh_rt_art_kind_name(s->kind));
}

KH_RT_EXPORT void kohaku_artifact_free(struct kohaku_artifact *a)
{
	if (!a)
		return;
	free(a->machine);
	free(a->flits);
	free(a->flit_txn);
	free(a->steps);
	free(a);
}

/* where v starts, "line L, column C" */
static void where(const char *text, size_t len, const struct kh_rt_json *v,
		  char *buf, size_t blen)
{
	unsigned long line, col;

	kh_rt_json_where(text, len, v->off, &line, &col);
	snprintf(buf, blen, "line %lu, column %lu", line, col);
}

/* meta.unit: "SX", "null", "0xNNNN" (kohaku_cu_type_name's forms) */
static int parse_unit(const struct kh_rt_json *u, uint16_t *out)
{
	const unsigned char *s = (const unsigned char *)u->str;
	unsigned long v;
	char *end;

	if (u->len == 4 && !strcmp(u->str, "null")) {
		*out = 0;
		return 0;
	}
	if (u->len == 6 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		v = strtoul(u->str + 2, &end, 16);
		if (*end || end != u->str + 6)
			return -EINVAL;
		*out = (uint16_t)v;
		return 0;
	}
	if (u->len == 2 && s[0] >= 0x20 && s[0] < 0x7f && s[1] >= 0x20 &&
	    s[1] < 0x7f) {
		*out = (uint16_t)(s[0] << 8 | s[1]);
		return 0;
	}
	return -EINVAL;
}

static const struct {
	const char *tag;
	enum kh_rt_art_kind kind;
	unsigned int nargs;
	const char *form;
} step_forms[] = {
	{ "seed", KH_ART_SEED, 1, "[\"seed\", n]" },
	{ "kick", KH_ART_KICK, 4, "[\"kick\", x, y, base, nflits]" },
	{ "await", KH_ART_AWAIT, 3, "[\"await\", x, y, count]" },
	{ "barrier", KH_ART_BARRIER, 0, "[\"barrier\"]" },
};

static const char *const arg_names[][4] = {
	[KH_ART_SEED] = { "n" },
	[KH_ART_KICK] = { "x", "y", "base", "nflits" },
	[KH_ART_AWAIT] = { "x", "y", "count" },
};

static int parse_step(struct kohaku_artifact *a, uint32_t i,
		      const struct kh_rt_json *v, char *err, size_t errlen)
{
	struct kh_rt_art_step *s = &a->steps[i];
	const struct kh_rt_json *tag;
	unsigned int k, f;

	if (v->type != KH_JSON_ARRAY || !v->n) {
		kh_rt_errbuf(err, errlen, "step %u: %s, expected an array "
			     "whose first element is the tag (\"seed\", \"kick\", "
			     "\"await\", \"barrier\")", i,
			     v->type == KH_JSON_ARRAY ? "an empty array" :
			     kh_rt_json_type_name(v->type));
		return -EINVAL;
	}
	tag = v->items[0];
	if (tag->type != KH_JSON_STRING) {
		kh_rt_errbuf(err, errlen, "step %u: the tag is %s, expected a "
			     "string (\"seed\", \"kick\", \"await\", \"barrier\")",
			     i, kh_rt_json_type_name(tag->type));
		return -EINVAL;
	}
	for (f = 0; f < sizeof(step_forms) / sizeof(step_forms[0]); f++)
		if (strlen(step_forms[f].tag) == tag->len &&
		    !memcmp(step_forms[f].tag, tag->str, tag->len))
			break;
	if (f == sizeof(step_forms) / sizeof(step_forms[0])) {
		char tb[33];

		kh_rt_errbuf(err, errlen, "step %u: unknown step tag \"%s\" "
			     "(\"seed\", \"kick\", \"await\", \"barrier\")", i,
			     kh_rt_json_printable(tag, tb, sizeof(tb)));
		return -EINVAL;
	}
	s->kind = step_forms[f].kind;
	if (v->n - 1 != step_forms[f].nargs) {
		kh_rt_errbuf(err, errlen, "step %u (%s): %zu argument%s, expected "
			     "%u: %s", i, step_forms[f].tag, v->n - 1,
			     v->n == 2 ? "" : "s", step_forms[f].nargs,
			     step_forms[f].form);
		return -EINVAL;
	}
	for (k = 0; k < step_forms[f].nargs; k++) {
		const struct kh_rt_json *x = v->items[k + 1];
		uint64_t w;
		int r = kh_rt_json_uint(x, 64, &w);

		if (!r && w > UINT32_MAX)
			r = -ERANGE;
		if (r) {
			kh_rt_errbuf(err, errlen, "step %u (%s): %s is %s, "
				     "expected an integer 0..4294967295", i,
				     step_forms[f].tag, arg_names[s->kind][k],
				     r == -EDOM ? "negative" : r == -ERANGE ?
				     "too large" : x->type == KH_JSON_NUMBER ?
				     "not an integer" :
				     kh_rt_json_type_name(x->type));
			return -EINVAL;
		}
		s->a[k] = (uint32_t)w;
	}
	if (s->kind == KH_ART_BARRIER)
		a->n_rounds++;
	if (s->kind == KH_ART_KICK)
		a->n_kicks++;
	return 0;
}

/*
 * The header bits a flit may come with.  KohakuTPU's vector emitter
 * (kohakutpu/hw/vector.py _flit()) writes whole 288-bit flits: type
 * CU_INST and its program id in txn above the payload, which their
 * loader ORs into the header it makes.  The routing is the driver's, so
 * only that form is taken: no destination or source, type CU_INST, the
 * reserved bits clear; `last` is the driver's too (a program's final
 * instruction) and is ignored.  The txn becomes the program's.
 */
static int art_header(uint32_t i, uint32_t hdr, int16_t *txn, char *err,
		      size_t errlen)
{
	struct kh_flit f = { .w = { 0, 0, 0, 0, hdr } };
	unsigned int type = (unsigned int)kh_flit_get(&f, KH_HDR_TYPE);

	*txn = -1;
	if (!hdr)
		return 0;
	if (kh_flit_get(&f, KH_HDR_DST_X) || kh_flit_get(&f, KH_HDR_DST_Y) ||
	    kh_flit_get(&f, KH_HDR_SRC_X) || kh_flit_get(&f, KH_HDR_SRC_Y) ||
	    kh_flit_get(&f, KH_HDR_RSVD) || type != KH_T_CU_INST) {
		kh_rt_errbuf(err, errlen, "flit %u: header 0x%08x above the "
			     "payload is not a bare CU_INST header (type %u, "
			     "no destination, source or reserved bits): the "
			     "routing is the driver's", i, hdr, type);
		return -EINVAL;
	}
	*txn = (int16_t)kh_flit_get(&f, KH_HDR_TXN);
	return 0;
}

static int parse_tree(const char *text, size_t len, const struct kh_rt_json *t,
		      struct kohaku_artifact *a, char *err, size_t errlen)
{
	const struct kh_rt_json *machine, *flits, *steps, *meta, *unit;
	char at[64];
	uint32_t i;
	int r;

	if (t->type != KH_JSON_OBJECT) {
		kh_rt_errbuf(err, errlen, "the artifact is %s, expected an "
			     "object with \"steps\" (and \"flits\", \"machine\", "
			     "\"meta\")", kh_rt_json_type_name(t->type));
		return -EINVAL;
	}
	machine = kh_rt_json_get(t, "machine");
	if (machine && machine->type != KH_JSON_STRING) {
		where(text, len, machine, at, sizeof(at));
		kh_rt_errbuf(err, errlen, "%s: \"machine\" is %s, expected a "
			     "string", at, kh_rt_json_type_name(machine->type));
		return -EINVAL;
	}
	a->machine = strdup(machine ? machine->str : "generic");
	if (!a->machine)
		return -ENOMEM;

	flits = kh_rt_json_get(t, "flits");
	if (flits && flits->type != KH_JSON_ARRAY) {
		where(text, len, flits, at, sizeof(at));
		kh_rt_errbuf(err, errlen, "%s: \"flits\" is %s, expected an "
			     "array of integers", at,
			     kh_rt_json_type_name(flits->type));
		return -EINVAL;
	}
	if (flits && flits->n > KH_ART_MAX_FLITS) {
		kh_rt_errbuf(err, errlen, "%zu flits: an artifact holds at most %u",
			     flits->n, KH_ART_MAX_FLITS);
		return -EINVAL;
	}
	if (flits && flits->n) {
		a->flits = calloc(flits->n, sizeof(*a->flits));
		a->flit_txn = calloc(flits->n, sizeof(*a->flit_txn));
		if (!a->flits || !a->flit_txn)
			return -ENOMEM;
		a->n_flits = (uint32_t)flits->n;
		for (i = 0; i < a->n_flits; i++) {
			const struct kh_rt_json *f = flits->items[i];
			uint64_t w[5];
			unsigned int k;

			r = kh_rt_json_uint(f, 320, w);
			if (!r && w[4] >> 32)
				r = -ERANGE;
			for (k = 0; k < 4; k++)
				a->flits[i].w[k] = w[k];
			if (r) {
				where(text, len, f, at, sizeof(at));
				kh_rt_errbuf(err, errlen, "flit %u (%s): %s, "
					     "expected an integer 0..2^256-1 (a "
					     "256-bit instruction payload), or "
					     "below 2^288 with a CU_INST header",
					     i, at,
					     r == -EDOM ? "negative" :
					     r == -ERANGE ? "2^288 or more" :
					     f->type == KH_JSON_NUMBER ?
					     "not an integer" :
					     kh_rt_json_type_name(f->type));
				return -EINVAL;
			}
			r = art_header(i, (uint32_t)w[4], &a->flit_txn[i], err,
				       errlen);
			if (r)
				return r;
		}
	}

	steps = kh_rt_json_get(t, "steps");
	if (!steps) {
		kh_rt_errbuf(err, errlen, "no \"steps\": an artifact's schedule "
			     "is required");
		return -EINVAL;
	}
	if (steps->type != KH_JSON_ARRAY) {
		where(text, len, steps, at, sizeof(at));
		kh_rt_errbuf(err, errlen, "%s: \"steps\" is %s, expected an "
			     "array of steps", at,
			     kh_rt_json_type_name(steps->type));
		return -EINVAL;
	}
	if (steps->n > KH_ART_MAX_STEPS) {
		kh_rt_errbuf(err, errlen, "%zu steps: an artifact holds at most %u",
			     steps->n, KH_ART_MAX_STEPS);
		return -EINVAL;
	}
	a->n_rounds = 1;
	if (steps->n) {
		a->steps = calloc(steps->n, sizeof(*a->steps));
		if (!a->steps)
			return -ENOMEM;
		a->n_steps = (uint32_t)steps->n;
		for (i = 0; i < a->n_steps; i++) {
			r = parse_step(a, i, steps->items[i], err, errlen);
			if (r)
				return r;
		}
	}

	meta = kh_rt_json_get(t, "meta");
	unit = meta ? kh_rt_json_get(meta, "unit") : NULL;
	if (unit) {
		char ub[17];

		if (unit->type != KH_JSON_STRING || parse_unit(unit, &a->unit)) {
			where(text, len, unit, at, sizeof(at));
			kh_rt_errbuf(err, errlen, "%s: meta \"unit\" must be a "
				     "unit type as kohaku_cu_type_name() writes "
				     "it (\"SX\", \"MG\", \"VC\", \"null\", "
				     "\"0x4d47\"), not %s%s%s", at,
				     unit->type == KH_JSON_STRING ? "\"" :
				     kh_rt_json_type_name(unit->type),
				     unit->type == KH_JSON_STRING ?
				     kh_rt_json_printable(unit, ub, sizeof(ub)) : "",
				     unit->type == KH_JSON_STRING ? "\"" : "");
			return -EINVAL;
		}
		a->has_unit = true;
	}
	return 0;
}

KH_RT_EXPORT int kohaku_artifact_parse(const char *json, size_t len,
				       struct kohaku_artifact **out, char *err,
				       size_t errlen)
{
	struct kohaku_artifact *a;
	struct kh_rt_json *t;
	int r;

	kh_rt_errbuf(err, errlen, "%s", "");
	if (!out) {
		kh_rt_errbuf(err, errlen, "out is NULL");
		return -EINVAL;
	}
	*out = NULL;
	if (!json && len) {
		kh_rt_errbuf(err, errlen, "json is NULL with %zu bytes", len);
		return -EINVAL;
	}
	r = kh_rt_json_parse(json, len, KH_JSON_NO_DUP_TOP, &t, err, errlen);
	if (r == -ENOMEM)
		return r;
	if (r)
		return -EINVAL;
	a = calloc(1, sizeof(*a));
	if (!a) {
		kh_rt_json_free(t);
		kh_rt_errbuf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r = parse_tree(json, len, t, a, err, errlen);
	kh_rt_json_free(t);
	if (r) {
		if (r == -ENOMEM)
			kh_rt_errbuf(err, errlen, "out of memory");
		kohaku_artifact_free(a);
		return r;
	}
	*out = a;
	return 0;
}

KH_RT_EXPORT int kohaku_artifact_load(const char *path,
				      struct kohaku_artifact **out, char *err,
				      size_t errlen)
{
	struct stat st;
	size_t got = 0;
	char *buf;
	int fd, r;

	kh_rt_errbuf(err, errlen, "%s", "");
	if (out)
		*out = NULL;
	if (!path || !out) {
		kh_rt_errbuf(err, errlen, "%s is NULL", path ? "out" : "path");
		return -EINVAL;
	}
	/* O_NONBLOCK: a FIFO must reach the check below, not hang open(2) */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		kh_rt_errbuf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		kh_rt_errbuf(err, errlen, "%s: not a regular file", path);
		return -EINVAL;
	}
	if ((unsigned long long)st.st_size > KH_JSON_MAX_BYTES) {
		close(fd);
		kh_rt_errbuf(err, errlen, "%s: %lld bytes: an artifact's text is "
			     "at most %u", path, (long long)st.st_size,
			     KH_JSON_MAX_BYTES);
		return -EINVAL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		kh_rt_errbuf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + got, (size_t)st.st_size - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			r = -errno;
			close(fd);
			free(buf);
			kh_rt_errbuf(err, errlen, "%s: %s", path, strerror(-r));
			return r;
		}
		if (!k)
			break;
		got += (size_t)k;
	}
	close(fd);
	r = kohaku_artifact_parse(buf, got, out, err, errlen);
	free(buf);
	if (r && err && errlen) {
		char tmp[KOHAKU_ERRMSG_MAX];

		kh_rt_strlcpy(tmp, err, sizeof(tmp));
		kh_rt_errbuf(err, errlen, "%s: %s", path, tmp);
	}
	return r;
}

KH_RT_EXPORT void kohaku_artifact_info(const struct kohaku_artifact *a,
				       struct kohaku_artifact_info *out,
				       size_t size)
{
	struct kohaku_artifact_info i;

	if (!out || !size)
		return;
	memset(&i, 0, sizeof(i));
	if (a) {
		i.machine = a->machine;
		i.n_flits = a->n_flits;
		i.n_steps = a->n_steps;
		i.n_rounds = a->n_rounds;
		i.n_kicks = a->n_kicks;
	}
	kh_rt_copy_out(out, size, &i, sizeof(i));
}

/* libkohaku 0.1's kohaku_artifact_info (version node KOHAKU_0) */
void kh_rt_artifact_info_v0(const struct kohaku_artifact *a,
			    struct kohaku_artifact_info *out);
void kh_rt_artifact_info_v0(const struct kohaku_artifact *a,
			    struct kohaku_artifact_info *out)
{
	kohaku_artifact_info(a, out, KH_RT_V0_ARTIFACT_INFO_SIZE);
}
KH_RT_SYMVER(kh_rt_artifact_info_v0, kohaku_artifact_info, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_artifact_info, KOHAKU_0.2);
