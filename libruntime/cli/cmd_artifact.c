// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku run-artifact FILE [--mesh M] [--arena MESH:ADDR:SIZE ...]
 *                          [--in ADDR=FILE ...] [--out ADDR:LEN=FILE ...]
 *                          [--timeout MS]
 *
 * A compiler artifact (docs/spec/artifact.md) on the device: its arenas
 * made at their fixed addresses (kohaku_bo_create_at; default the
 * compiler's, 64 MiB at local offset 0x18000000 of the mesh), each --in
 * file written at its address, the artifact checked and run
 * (kohaku_artifact_run), each --out range read into its file; then a
 * summary: rounds, device time, status (--json: one object).
 *
 * Exit codes: 2 for anything refused (the artifact's format or its check,
 * an operand outside the arenas, an arena taken, an address in no arena,
 * a file that cannot be read or written), 4 when a round did not finish
 * DONE, 3 no device.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "kohaku/kh_flit.h"

#define ART_DEFAULT_OFF		KOHAKU_ARTIFACT_ARENA_OFFSET
#define ART_DEFAULT_SIZE	KOHAKU_ARTIFACT_ARENA_SIZE

struct kohaku_cli_arena {
	unsigned int mesh;
	uint64_t addr, size;
	uint32_t handle;
};

struct kohaku_cli_xfer {
	uint64_t addr, len;
	const char *file;
	unsigned int arena;
	FILE *f;		/* --out: opened before the run */
	bool regular;		/* ... a regular file (removed on failure) */
};

/* "0x..." or decimal, all of s (dies naming opt) */
static uint64_t num(const char *opt, const char *s, size_t len)
{
	char buf[64];

	if (!len || len >= sizeof(buf))
		cli_die_usage("%s: '%.*s' is not a number (decimal or 0x hex)",
			      opt, (int)(len < 40 ? len : 40), s);
	memcpy(buf, s, len);
	buf[len] = '\0';
	return cli_parse_number(opt, buf, ~0UL);
}

/* --arena MESH:ADDR:SIZE: ADDR a device address or the mesh's local offset */
static void parse_arena(const char *s, unsigned int mesh, struct kohaku_cli_arena *a)
{
	const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

	if (!c1 || !c2 || strchr(c2 + 1, ':'))
		cli_die_usage("--arena: '%s' is not MESH:ADDR:SIZE", s);
	a->mesh = (unsigned int)num("--arena MESH", s, (size_t)(c1 - s));
	a->addr = num("--arena ADDR", c1 + 1, (size_t)(c2 - c1 - 1));
	a->size = num("--arena SIZE", c2 + 1, strlen(c2 + 1));
	if (a->mesh != mesh)
		cli_die_usage("--arena: '%s' is on mesh %u; the artifact runs on "
			      "mesh %u (--mesh), and a job reaches its own mesh's "
			      "memory only", s, a->mesh, mesh);
	if (!(a->addr >> KH_MADDR_MESH_SHIFT))
		a->addr |= (uint64_t)mesh << KH_MADDR_MESH_SHIFT;
	else if (a->addr >> KH_MADDR_MESH_SHIFT != mesh)
		cli_die_usage("--arena: '%s': address 0x%" PRIx64 " is not on "
			      "mesh %u", s, a->addr, mesh);
	if (!a->size)
		cli_die_usage("--arena: '%s': size 0", s);
}

/* the arena [addr, addr + len) lies in, or dies naming opt */
static unsigned int in_arena(const char *opt, const char *word,
			     const struct kohaku_cli_arena *ar, unsigned int n,
			     uint64_t addr, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (addr >= ar[i].addr && len <= ar[i].size &&
		    addr - ar[i].addr <= ar[i].size - len)
			return i;
	cli_die_usage("%s: '%s': 0x%" PRIx64 "..0x%" PRIx64 " lies in no arena "
		      "(--arena; default 64 MiB at 0x%llx of the mesh)", opt, word,
		      addr, addr + len, ART_DEFAULT_OFF);
}

/* --in ADDR=FILE: the file's bytes */
static void *read_in(const char *word, const char *path, uint64_t *len)
{
	struct stat st;
	FILE *f;
	void *buf;
	int fd;

	/*
	 * O_NONBLOCK: a FIFO's open waits for a writer, forever when there is
	 * none; opened this way it returns at once and fstat refuses it
	 */
	memset(&st, 0, sizeof(st));
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		cli_die_usage("--in: '%s': cannot open '%s': %s", word, path,
			      strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		cli_die_usage("--in: '%s': '%s' is %s, not a regular file (--in "
			      "files are read whole before the run)", word, path,
			      cli_file_kind(st.st_mode));
	}
	if (!st.st_size) {
		close(fd);
		cli_die_usage("--in: '%s': '%s' is not a regular file with bytes "
			      "in it", word, path);
	}
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		cli_die_usage("--in: '%s': cannot open '%s': %s", word, path,
			      strerror(errno));
	}
	buf = malloc((size_t)st.st_size);
	if (!buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		fclose(f);
		cli_die_usage("--in: '%s': reading '%s' failed", word, path);
	}
	fclose(f);
	*len = (uint64_t)st.st_size;
	return buf;
}

static int refused(int r)
{
	return r == -EIO || r == -ETIMEDOUT || r == -ECANCELED || r == -ENOMEM ?
	       EXIT_DEVICE : EXIT_USAGE;
}

static void print_json(kohaku_device *dev, const char *file, unsigned int mesh,
		       const struct kohaku_artifact_info *ai,
		       const struct kohaku_cli_arena *ar, unsigned int n_ar,
		       const struct kohaku_artifact_result *res, int r,
		       const char *err)
{
	struct json_object *j = json_object_new_object(), *aa;
	char b[32];
	unsigned int i;

	json_object_object_add(j, "path", json_object_new_string(kohaku_device_path(dev)));
	json_object_object_add(j, "file", json_object_new_string(file));
	json_object_object_add(j, "machine", json_object_new_string(ai->machine));
	json_object_object_add(j, "mesh", json_object_new_int64(mesh));
	json_object_object_add(j, "flits", json_object_new_int64(ai->n_flits));
	json_object_object_add(j, "steps", json_object_new_int64(ai->n_steps));
	json_object_object_add(j, "kicks", json_object_new_int64(ai->n_kicks));
	json_object_object_add(j, "rounds", json_object_new_int64(ai->n_rounds));
	aa = json_object_new_array();
	for (i = 0; i < n_ar; i++) {
		struct json_object *o = json_object_new_object();

		snprintf(b, sizeof(b), "0x%" PRIx64, ar[i].addr);
		json_object_object_add(o, "addr", json_object_new_string(b));
		json_object_object_add(o, "size", json_object_new_uint64(ar[i].size));
		json_object_array_add(aa, o);
	}
	json_object_object_add(j, "arenas", aa);
	json_object_object_add(j, "rounds_done", json_object_new_int64(res->rounds));
	json_object_object_add(j, "failed_round", res->failed_round == UINT32_MAX ?
			       NULL : json_object_new_int64(res->failed_round));
	json_object_object_add(j, "device_ns", json_object_new_uint64(res->device_ns));
	json_object_object_add(j, "status", json_object_new_string(
		res->status.status ? kohaku_job_status_name(res->status.status) : "-"));
	json_object_object_add(j, "ok", json_object_new_boolean(!r));
	json_object_object_add(j, "error", json_object_new_string(r ? err : ""));
	cli_json_print(j);
}

int cli_cmd_run_artifact(const struct kohaku_cli_opts *o, const char *file)
{
	struct kohaku_cli_arena ar[MAX_XFER];
	struct kohaku_cli_xfer in[MAX_XFER], out[MAX_XFER];
	struct kohaku_artifact *a = NULL;
	struct kohaku_artifact_info ai;
	struct kohaku_artifact_result res;
	struct kohaku_artifact_run args;
	struct drm_kohaku_get_info info;
	char err[KOHAKU_ERRMSG_MAX];
	uint32_t handles[MAX_XFER];
	unsigned int n_ar, mesh, i;
	struct stat st;
	kohaku_device *dev;
	void *buf;
	int r, ret;

	if (!file)
		cli_die_usage("run-artifact: which artifact? (run-artifact FILE)");
	r = kohaku_artifact_load(file, &a, err, sizeof(err));
	if (r) {
		cli_error("run-artifact: %s", err);
		return r == -ENOMEM ? EXIT_DEVICE : EXIT_USAGE;
	}
	kohaku_artifact_info(a, &ai, sizeof(ai));
	r = cli_open_dev(o, &dev);
	if (r) {
		kohaku_artifact_free(a);
		return r;
	}
	kohaku_get_info(dev, &info, sizeof(info));
	r = cli_check_mesh(o, &info);
	mesh = r < 0 ? 0 : (unsigned int)r;

	/* the arenas, and where each transfer lands */
	n_ar = o->n_arena;
	for (i = 0; i < n_ar; i++)
		parse_arena(o->arena[i], mesh, &ar[i]);
	if (!n_ar) {
		ar[0].mesh = mesh;
		ar[0].addr = (uint64_t)mesh << KH_MADDR_MESH_SHIFT | ART_DEFAULT_OFF;
		ar[0].size = ART_DEFAULT_SIZE;
		n_ar = 1;
	}
	for (i = 0; i < o->n_in; i++) {
		const char *eq = strchr(o->in[i], '=');

		if (!eq || !eq[1])
			cli_die_usage("--in: '%s' is not ADDR=FILE", o->in[i]);
		in[i].addr = num("--in ADDR", o->in[i], (size_t)(eq - o->in[i]));
		in[i].file = eq + 1;
	}
	for (i = 0; i < o->n_out; i++) {
		const char *c = strchr(o->out[i], ':');
		const char *eq = c ? strchr(c, '=') : NULL;

		if (!c || !eq || !eq[1])
			cli_die_usage("--out: '%s' is not ADDR:LEN=FILE", o->out[i]);
		out[i].addr = num("--out ADDR", o->out[i], (size_t)(c - o->out[i]));
		out[i].len = num("--out LEN", c + 1, (size_t)(eq - c - 1));
		out[i].file = eq + 1;
		if (!out[i].len)
			cli_die_usage("--out: '%s': LEN 0", o->out[i]);
		out[i].arena = in_arena("--out", o->out[i], ar, n_ar, out[i].addr,
					out[i].len);
	}
	/* the output files open before anything runs, as -o's */
	for (i = 0; i < o->n_out; i++) {
		out[i].f = fopen(out[i].file, "wb");
		if (!out[i].f)
			cli_die_usage("--out: cannot open '%s': %s", out[i].file,
				      strerror(errno));
		out[i].regular = !fstat(fileno(out[i].f), &st) &&
				 S_ISREG(st.st_mode);
	}

	for (i = 0; i < n_ar; i++) {
		r = kohaku_bo_create_at(dev, mesh, ar[i].addr, ar[i].size,
					&ar[i].handle);
		if (r) {
			cli_error("run-artifact: the arena at 0x%" PRIx64 " (%" PRIu64
				  " bytes): %s", ar[i].addr, ar[i].size,
				  kohaku_last_error(dev));
			ret = refused(r);
			goto out;
		}
		handles[i] = ar[i].handle;
	}
	for (i = 0; i < o->n_in; i++) {
		uint64_t len;
		unsigned int k;

		buf = read_in(o->in[i], in[i].file, &len);
		k = in_arena("--in", o->in[i], ar, n_ar, in[i].addr, len);
		r = kohaku_bo_write(dev, ar[k].handle, in[i].addr - ar[k].addr,
				    buf, len);
		free(buf);
		if (r) {
			cli_error("run-artifact: --in %s: %s", o->in[i],
				  kohaku_last_error(dev));
			ret = EXIT_DEVICE;
			goto out;
		}
	}

	memset(&args, 0, sizeof(args));
	args.mesh = mesh;
	args.arenas = handles;
	args.n_arenas = n_ar;
	args.timeout_ms = o->timeout_ms;
	cli_progress_begin("run-artifact");
	r = kohaku_artifact_run(dev, a, &args, &res, sizeof(res));
	cli_progress_end();
	snprintf(err, sizeof(err), "%s", r ? kohaku_last_error(dev) : "");
	ret = r ? refused(r) : EXIT_OK;
	/* the results, when every round finished DONE */
	for (i = 0; !r && i < o->n_out; i++) {
		const struct kohaku_cli_arena *z = &ar[out[i].arena];

		buf = malloc(out[i].len);
		if (!buf) {
			snprintf(err, sizeof(err), "--out %s: out of memory",
				 o->out[i]);
			ret = EXIT_DEVICE;
			break;
		}
		r = kohaku_bo_read(dev, z->handle, out[i].addr - z->addr, buf,
				   out[i].len);
		if (r) {
			snprintf(err, sizeof(err), "--out %s: %s", o->out[i],
				 kohaku_last_error(dev));
			ret = EXIT_DEVICE;
			free(buf);
			break;
		}
		if (fwrite(buf, 1, out[i].len, out[i].f) != out[i].len ||
		    fflush(out[i].f) || ferror(out[i].f)) {
			snprintf(err, sizeof(err), "--out: writing '%s' failed: %s",
				 out[i].file, strerror(errno));
			ret = EXIT_USAGE;
			r = -EIO;
			free(buf);
			break;
		}
		free(buf);
	}
	if (o->json) {
		cli_json_started();
		print_json(dev, file, mesh, &ai, ar, n_ar, &res, ret != EXIT_OK, err);
	} else {
		printf("%s: %s (machine \"%s\": %u flit%s, %u kick%s, %u step%s) on "
		       "mesh %u\n", kohaku_device_path(dev), file, ai.machine,
		       ai.n_flits, ai.n_flits == 1 ? "" : "s", ai.n_kicks,
		       ai.n_kicks == 1 ? "" : "s", ai.n_steps,
		       ai.n_steps == 1 ? "" : "s", mesh);
		for (i = 0; i < n_ar; i++)
			printf("  arena 0x%" PRIx64 "..0x%" PRIx64 " (%" PRIu64
			       " bytes)\n", ar[i].addr, ar[i].addr + ar[i].size,
			       ar[i].size);
		printf("  rounds %u/%u DONE, device time %.3f us, status %s\n",
		       res.rounds, ai.n_rounds, res.device_ns / 1e3,
		       res.status.status ?
		       kohaku_job_status_name(res.status.status) : "-");
		for (i = 0; ret == EXIT_OK && i < o->n_out; i++)
			printf("  out 0x%" PRIx64 ": %" PRIu64 " bytes to %s\n",
			       out[i].addr, out[i].len, out[i].file);
	}
	if (ret != EXIT_OK)
		cli_error("run-artifact %s: %s", file, err);
out:
	for (i = 0; i < o->n_out; i++)
		if (out[i].f && fclose(out[i].f) && ret == EXIT_OK) {
			cli_error("run-artifact: --out: closing '%s' failed: %s",
				  out[i].file, strerror(errno));
			ret = EXIT_USAGE;
		}
	/* no half-written results: a failed run leaves no --out file (a
	 * regular one: a device or a pipe is left alone) */
	for (i = 0; ret != EXIT_OK && i < o->n_out; i++)
		if (out[i].regular)
			unlink(out[i].file);
	kohaku_close(dev);
	kohaku_artifact_free(a);
	return ret;
}
