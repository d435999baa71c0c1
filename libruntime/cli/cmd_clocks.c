// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku clocks [--mesh M]: each mesh's clocks under the driver's governor
 * (CLOCKS): the policy, the profile now and each output's MHz as the
 * mesh's clock wizard reads back, the idle, run and fixed profiles, the
 * idle window, the retunes, the device time at each profile, the resets,
 * recoveries and the recovery limit.  A block per mesh; --json one object
 * with a "meshes" array.
 *
 * kohaku clocks set --mesh M [--policy auto|fixed] [--profile P] [--idle P]
 * [--run P] [--idle-ms N] [--recover N]: one MESH_SET with the bits of what
 * was given (--profile is the fixed profile and, without --policy, means
 * --policy fixed), then what the mesh reports, as `clocks` prints it.  The
 * driver retunes the mesh once no job is on it and the call does not wait
 * for that: with the fixed policy this waits a little for the profile to
 * be the one asked for, and says so when it is not yet.
 *
 * kohaku reset [--mesh M]: RESET on the mesh (every present mesh, one
 * after the other, without --mesh): the jobs it aborted, the hung marks it
 * cleared, the POOL units running firmware again, the device time it took.
 *
 * MESH_SET and RESET are the administrator's on kohaku.ko: EACCES/EPERM
 * say so (exit 2).  A reset the mesh did not come back from is exit 4.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define J_ADD(j, k, v)	json_object_object_add((j), (k), (v))
#define J_INT(v)	json_object_new_int64((int64_t)(v))
#define J_STR(v)	json_object_new_string(v)

/* CLKOUT0..3, drm_kohaku_clocks.mhz's order */
static const char *const clk_outputs[4] = { "noc", "mat2x", "vec", "mag" };


void cli_clock_str(kohaku_device *dev, unsigned int mesh, char *buf,
		   size_t len)
{
	struct drm_kohaku_clocks c;

	if (kohaku_clocks(dev, mesh, &c, sizeof(c)) < 0)
		snprintf(buf, len, "-");
	else if (!c.mhz[0])
		snprintf(buf, len, "%s", kohaku_clk_profile_name(c.profile));
	else
		snprintf(buf, len, "%s %uMHz", kohaku_clk_profile_name(c.profile),
			 c.mhz[0]);
}

/* device time at all the profiles, for the percentages (never 0) */
static double clk_total_ns(const struct drm_kohaku_clocks *c)
{
	double t = 0;
	unsigned int p;

	for (p = 0; p < 3; p++)
		t += (double)c->ns_at[p];
	return t > 0 ? t : 1;
}

static struct json_object *clocks_json(unsigned int mesh,
				       const struct drm_kohaku_clocks *c)
{
	struct json_object *j = json_object_new_object();
	struct json_object *mhz = json_object_new_object();
	struct json_object *ts = json_object_new_object();
	struct json_object *tns = json_object_new_object();
	struct json_object *pct = json_object_new_object();
	double total = clk_total_ns(c);
	unsigned int i;

	J_ADD(j, "mesh", J_INT(mesh));
	J_ADD(j, "policy", J_STR(kohaku_clk_policy_name(c->policy)));
	J_ADD(j, "profile", J_STR(kohaku_clk_profile_name(c->profile)));
	for (i = 0; i < 4; i++)
		J_ADD(mhz, clk_outputs[i], J_INT(c->mhz[i]));
	J_ADD(j, "mhz", mhz);
	J_ADD(j, "idle_profile", J_STR(kohaku_clk_profile_name(c->idle_profile)));
	J_ADD(j, "run_profile", J_STR(kohaku_clk_profile_name(c->run_profile)));
	J_ADD(j, "fixed_profile",
	      J_STR(kohaku_clk_profile_name(c->fixed_profile)));
	J_ADD(j, "idle_ms", J_INT(c->idle_ms));
	J_ADD(j, "retunes", J_INT(c->retunes));
	for (i = 0; i < 3; i++) {
		J_ADD(ts, kohaku_clk_profile_name(i),
		      cli_json_fixed(c->ns_at[i] / 1e9, 3));
		J_ADD(tns, kohaku_clk_profile_name(i),
		      json_object_new_uint64(c->ns_at[i]));
		J_ADD(pct, kohaku_clk_profile_name(i),
		      cli_json_fixed(100.0 * (double)c->ns_at[i] / total, 1));
	}
	J_ADD(j, "time_s", ts);
	J_ADD(j, "time_ns", tns);
	J_ADD(j, "time_pct", pct);
	J_ADD(j, "resets", J_INT(c->resets));
	J_ADD(j, "recoveries", J_INT(c->recoveries));
	J_ADD(j, "recover_max", J_INT(c->recover_max));
	return j;
}

static void clocks_print(const kohaku_device *dev, unsigned int mesh,
			 const struct drm_kohaku_clocks *c)
{
	double total = clk_total_ns(c);
	unsigned int i;

	printf("%s: mesh %u\n", kohaku_device_path(dev), mesh);
	printf("  policy      %s%s\n", kohaku_clk_policy_name(c->policy),
	       c->policy == KOHAKU_CLK_POLICY_NONE ?
	       " (this host cannot reach the mesh's clock wizard)" : "");
	printf("  profile     %s\n", kohaku_clk_profile_name(c->profile));
	printf("  clocks     ");
	for (i = 0; i < 4; i++)
		printf(" %s %u MHz%s", clk_outputs[i], c->mhz[i],
		       i < 3 ? "," : "\n");
	printf("  idle        %s after %u ms without a job\n",
	       kohaku_clk_profile_name(c->idle_profile), c->idle_ms);
	printf("  run         %s\n", kohaku_clk_profile_name(c->run_profile));
	printf("  fixed       %s\n", kohaku_clk_profile_name(c->fixed_profile));
	printf("  retunes     %u\n", c->retunes);
	printf("  time at    ");
	for (i = 0; i < 3; i++)
		printf(" %s %.3f s (%.1f%%)%s", kohaku_clk_profile_name(i),
		       c->ns_at[i] / 1e9, 100.0 * (double)c->ns_at[i] / total,
		       i < 2 ? "," : "\n");
	printf("  resets      %u\n", c->resets);
	printf("  recoveries  %u\n", c->recoveries);
	if (c->recover_max)
		printf("  recover     at most %u in a row\n", c->recover_max);
	else
		printf("  recover     off\n");
}

/* open the device and check --mesh against it; 0 or an exit code (said) */
static int clk_open(const struct kohaku_cli_opts *o, kohaku_device **dev,
		    struct drm_kohaku_get_info *in)
{
	int r;

	r = cli_open_dev(o, dev);
	if (r)
		return r;
	memset(in, 0, sizeof(*in));
	if (kohaku_get_info(*dev, in, sizeof(*in)) < 0) {
		cli_error("%s", kohaku_last_error(*dev));
		kohaku_close(*dev);
		return EXIT_DEVICE;
	}
	return 0;
}

static bool mesh_present(const struct drm_kohaku_get_info *in, unsigned int m)
{
	return in->mesh[m].flags & KOHAKU_MESH_PRESENT;
}

/* a refusal for want of privileges, or of a clock wizard: exit 2 */
static int clk_refused(kohaku_device *dev, const char *what, unsigned int mesh,
		       int r)
{
	if (r == -EACCES || r == -EPERM) {
		cli_error("%s: mesh %u: needs root on kohaku.ko (%s)", what,
			  mesh, kohaku_last_error(dev));
		return EXIT_USAGE;
	}
	if (r == -EOPNOTSUPP) {
		cli_error("%s: mesh %u: this host cannot reach the mesh's "
			  "clock wizard (%s)", what, mesh,
			  kohaku_last_error(dev));
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * The start of `clocks` and `reset`: the device open, the mesh asked for
 * (-1: every present one), and with --json the object and its "meshes".
 */
static int clk_begin(const struct kohaku_cli_opts *o, kohaku_device **dev,
		     struct drm_kohaku_get_info *in, int *only,
		     struct json_object **j, struct json_object **ma)
{
	int r = clk_open(o, dev, in);

	if (r)
		return r;
	*only = cli_check_mesh(o, in);
	if (o->json) {
		*j = json_object_new_object();
		*ma = json_object_new_array();
		J_ADD(*j, "path", J_STR(kohaku_device_path(*dev)));
	}
	return 0;
}

int cli_cmd_clocks(const struct kohaku_cli_opts *o)
{
	struct drm_kohaku_get_info in;
	struct json_object *j = NULL, *ma = NULL;
	kohaku_device *dev;
	unsigned int m, shown = 0;
	int only, r;

	r = clk_begin(o, &dev, &in, &only, &j, &ma);
	if (r)
		return r;
	for (m = 0; m < KOHAKU_MAX_MESHES; m++) {
		struct drm_kohaku_clocks c;

		if (!mesh_present(&in, m) || (only >= 0 && m != (unsigned int)only))
			continue;
		if (kohaku_clocks(dev, m, &c, sizeof(c)) < 0) {
			cli_error("clocks: %s", kohaku_last_error(dev));
			json_object_put(j);
			json_object_put(ma);
			kohaku_close(dev);
			return EXIT_DEVICE;
		}
		if (o->json) {
			json_object_array_add(ma, clocks_json(m, &c));
		} else {
			if (shown)
				printf("\n");
			clocks_print(dev, m, &c);
		}
		shown++;
	}
	if (o->json) {
		J_ADD(j, "meshes", ma);
		cli_json_print(j);
	} else if (!shown) {
		printf("%s: no mesh present\n", kohaku_device_path(dev));
	}
	kohaku_close(dev);
	return EXIT_OK;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * The retune MESH_SET asked for happens in the driver's worker once the
 * mesh has no job: under the fixed policy, wait up to 2 s (wall time) for
 * the profile to be the fixed one.  The last reading is in c.
 */
static int clk_settle(kohaku_device *dev, unsigned int mesh,
		      struct drm_kohaku_clocks *c)
{
	unsigned int tries;
	int r;

	for (tries = 0; ; tries++) {
		r = kohaku_clocks(dev, mesh, c, sizeof(*c));
		if (r < 0 || c->policy != KOHAKU_CLK_POLICY_FIXED ||
		    c->profile == c->fixed_profile || tries >= 1000)
			return r;
		sleep_ms(2);
	}
}

int cli_cmd_clocks_set(const struct kohaku_cli_opts *o)
{
	struct drm_kohaku_get_info in;
	struct drm_kohaku_mesh_set s;
	struct drm_kohaku_clocks c;
	kohaku_device *dev;
	unsigned int mesh;
	int r;

	if (!(o->given & CLI_TAKES_CLK_SET))
		cli_die_usage("clocks set: nothing to set (--policy, --profile, "
			      "--idle, --run, --idle-ms, --recover)");
	if (!(o->given & CLI_TAKES_MESH))
		cli_die_usage("clocks set: which mesh? (--mesh M)");
	r = clk_open(o, &dev, &in);
	if (r)
		return r;
	mesh = (unsigned int)cli_check_mesh(o, &in);
	memset(&s, 0, sizeof(s));
	s.mesh = mesh;
	if (o->given & CLI_TAKES_POLICY) {
		s.set |= KOHAKU_MESH_SET_POLICY;
		s.policy = o->policy;
	}
	if (o->given & CLI_TAKES_PROFILE) {
		s.set |= KOHAKU_MESH_SET_FIXED;
		s.fixed_profile = o->profile;
		if (!(o->given & CLI_TAKES_POLICY)) {
			s.set |= KOHAKU_MESH_SET_POLICY;
			s.policy = KOHAKU_CLK_POLICY_FIXED;
		}
	}
	if (o->given & CLI_TAKES_IDLE) {
		s.set |= KOHAKU_MESH_SET_IDLE;
		s.idle_profile = o->idle;
	}
	if (o->given & CLI_TAKES_RUN) {
		s.set |= KOHAKU_MESH_SET_RUN;
		s.run_profile = o->run;
	}
	if (o->given & CLI_TAKES_IDLE_MS) {
		s.set |= KOHAKU_MESH_SET_IDLE_MS;
		s.idle_ms = o->idle_ms;
	}
	if (o->given & CLI_TAKES_RECOVER) {
		s.set |= KOHAKU_MESH_SET_RECOVER;
		s.recover_max = o->recover;
	}
	r = kohaku_mesh_set(dev, &s);
	if (r < 0) {
		int e = clk_refused(dev, "clocks set", mesh, r);

		if (!e) {
			cli_error("clocks set: %s", kohaku_last_error(dev));
			e = EXIT_DEVICE;
		}
		kohaku_close(dev);
		return e;
	}
	r = clk_settle(dev, mesh, &c);
	if (r < 0) {
		cli_error("clocks set: %s", kohaku_last_error(dev));
		kohaku_close(dev);
		return EXIT_DEVICE;
	}
	if (o->json) {
		struct json_object *j = json_object_new_object();
		struct json_object *ma = json_object_new_array();

		J_ADD(j, "path", J_STR(kohaku_device_path(dev)));
		J_ADD(j, "pending", json_object_new_boolean(
			c.policy == KOHAKU_CLK_POLICY_FIXED &&
			c.profile != c.fixed_profile));
		json_object_array_add(ma, clocks_json(mesh, &c));
		J_ADD(j, "meshes", ma);
		cli_json_print(j);
	} else {
		clocks_print(dev, mesh, &c);
		if (c.policy == KOHAKU_CLK_POLICY_FIXED &&
		    c.profile != c.fixed_profile)
			printf("  (the retune to %s is pending: the driver "
			       "makes it once no job is on the mesh)\n",
			       kohaku_clk_profile_name(c.fixed_profile));
	}
	kohaku_close(dev);
	return EXIT_OK;
}

static struct json_object *reset_json(unsigned int mesh, int r,
				      const struct drm_kohaku_reset *a,
				      const char *err)
{
	struct json_object *j = json_object_new_object();

	J_ADD(j, "mesh", J_INT(mesh));
	J_ADD(j, "ok", json_object_new_boolean(!r));
	if (r) {
		J_ADD(j, "error", J_STR(err));
		return j;
	}
	J_ADD(j, "aborted", J_INT(a->aborted));
	J_ADD(j, "hung_cleared", J_INT(a->hung_cleared));
	J_ADD(j, "fw_units", J_INT(a->fw_units));
	J_ADD(j, "device_ns", json_object_new_uint64(a->device_ns));
	J_ADD(j, "device_ms", cli_json_fixed(a->device_ns / 1e6, 3));
	return j;
}

int cli_cmd_reset(const struct kohaku_cli_opts *o)
{
	struct drm_kohaku_get_info in;
	struct json_object *j = NULL, *ma = NULL;
	kohaku_device *dev;
	unsigned int m, done = 0;
	int only, r, ret = EXIT_OK;

	r = clk_begin(o, &dev, &in, &only, &j, &ma);
	if (r)
		return r;
	for (m = 0; m < KOHAKU_MAX_MESHES && ret == EXIT_OK; m++) {
		struct drm_kohaku_reset a;

		if (!mesh_present(&in, m) || (only >= 0 && m != (unsigned int)only))
			continue;
		memset(&a, 0, sizeof(a));
		cli_progress_begin("reset");
		r = kohaku_mesh_reset(dev, m, &a, sizeof(a));
		cli_progress_end();
		if (r < 0) {
			ret = clk_refused(dev, "reset", m, r);
			if (!ret) {
				cli_error("reset: mesh %u%s: %s", m,
					  r == -EIO ? " did not come back" : "",
					  kohaku_last_error(dev));
				ret = EXIT_DEVICE;
			}
		}
		done++;
		if (o->json) {
			json_object_array_add(ma, reset_json(m, r, &a,
				r ? kohaku_last_error(dev) : ""));
			continue;
		}
		if (!r)
			printf("%s: mesh %u reset in %.3f ms of device time: "
			       "%u job%s aborted, %u hung mark%s cleared, %u "
			       "POOL unit%s running firmware again\n",
			       kohaku_device_path(dev), m, a.device_ns / 1e6,
			       a.aborted, a.aborted == 1 ? "" : "s",
			       a.hung_cleared, a.hung_cleared == 1 ? "" : "s",
			       a.fw_units, a.fw_units == 1 ? "" : "s");
	}
	if (o->json) {
		J_ADD(j, "ok", json_object_new_boolean(ret == EXIT_OK));
		J_ADD(j, "meshes", ma);
		cli_json_started();
		cli_json_print(j);
	} else if (!done) {
		printf("%s: no mesh present\n", kohaku_device_path(dev));
	}
	kohaku_close(dev);
	return ret;
}
