// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku sim trace|stats|knobs|check|inject SPEC: the device model's knobs
 * and records (docs/spec/fault-injection.md), thin over libkohaku's
 * kohaku_sim_read(), kohaku_sim_check() and kohaku_sim_inject().  On a
 * device that is not simulated (GET_INFO without KOHAKU_CAP_SIMULATED, or
 * a backend that cannot reach the model) they are refused, exit 2.
 *
 *   trace    the event ring, one event per line (kh-trace reads it)
 *   stats    counters per card, mesh, link and unit
 *   knobs    the active knobs
 *   check    the protocol checker's report; exit 1 when it found
 *            violations
 *   inject   one knob: `kohaku sim inject drop link=R1,1.E count=1`, the
 *            words after inject as one spec ("clear" clears them)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* sim's JSON object: {"schema": 1, "command": "sim SUB", ...} */
static struct json_object *sim_json(const char *sub)
{
	struct json_object *j = json_object_new_object();
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "sim %s", sub);
	json_object_object_add(j, "schema", json_object_new_int(1));
	json_object_object_add(j, "command", json_object_new_string(cmd));
	return j;
}

static int sim_refused(const struct kohaku_cli_opts *o, const char *sub,
		       kohaku_device *dev, int r)
{
	const char *why = r == -EOPNOTSUPP ?
		"this device is not a simulated card (try --map saxpy, or a "
		"kohaku_sim.ko card as root with debugfs mounted)" :
		kohaku_last_error(dev);

	int ret = r == -EOPNOTSUPP || r == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;

	if (o->json) {
		struct json_object *j = sim_json(sub);

		json_object_object_add(j, "ok", json_object_new_boolean(0));
		json_object_object_add(j, "error", json_object_new_string(why));
		json_object_object_add(j, "exit", json_object_new_int(ret));
		cli_json_print(j);
	}
	fprintf(stderr, "%s: sim %s: %s\n", CLI_PROG, sub, why);
	return ret;
}

static void sim_print_text(const struct kohaku_cli_opts *o, const char *sub,
			   const char *text, int violations)
{
	if (o->json) {
		struct json_object *j = sim_json(sub);

		if (violations >= 0)
			json_object_object_add(j, "violations",
					       json_object_new_int(violations));
		json_object_object_add(j, "text", json_object_new_string(text));
		json_object_object_add(j, "ok",
				       json_object_new_boolean(violations <= 0));
		cli_json_print(j);
		return;
	}
	fputs(text, stdout);
	if (text[0] && text[strlen(text) - 1] != '\n')
		putchar('\n');
}

int cli_cmd_sim(const struct kohaku_cli_opts *o, const char *sub,
		const char *arg)
{
	struct drm_kohaku_get_info gi;
	kohaku_device *dev;
	char *text = NULL;
	int r, ret = EXIT_OK;

	if (!sub)
		cli_die_usage("sim: which? (sim trace, sim stats, sim knobs, "
			      "sim check, sim inject SPEC)");
	if (strcmp(sub, "trace") && strcmp(sub, "stats") &&
	    strcmp(sub, "knobs") && strcmp(sub, "check") &&
	    strcmp(sub, "inject"))
		cli_die_usage("sim: unknown subcommand '%s' (sim trace, sim "
			      "stats, sim knobs, sim check, sim inject SPEC)",
			      sub);
	if (!strcmp(sub, "inject") && !arg)
		cli_die_usage("sim inject: which knob? (e.g. sim inject fault "
			      "node=1,2; docs/spec/fault-injection.md)");
	r = cli_open_dev(o, &dev);
	if (r)
		return r;
	memset(&gi, 0, sizeof(gi));
	kohaku_get_info(dev, &gi, sizeof(gi));
	if (!(gi.caps & KOHAKU_CAP_SIMULATED)) {
		ret = sim_refused(o, sub, dev, -EOPNOTSUPP);
		goto out;
	}
	if (!strcmp(sub, "inject")) {
		r = kohaku_sim_inject(dev, arg);
		if (r < 0) {
			ret = sim_refused(o, sub, dev, r);
			goto out;
		}
		if (o->json) {
			struct json_object *j = sim_json(sub);

			json_object_object_add(j, "spec",
					       json_object_new_string(arg));
			json_object_object_add(j, "ok",
					       json_object_new_boolean(1));
			cli_json_print(j);
		} else {
			printf("sim inject: %s: taken\n", arg);
			/* a knob on a card this command made ends with it */
			if (kohaku_device_backend(dev) == KOHAKU_BACKEND_SIM)
				fprintf(stderr, "kohaku: note: %s is this command's "
					"own card and ends with it; for a card the "
					"next command finds as this one left it, "
					"run kohakud and use KOHAKU_BACKEND=daemon "
					"(docs/kohakud.md)\n", kohaku_device_path(dev));
		}
		goto out;
	}
	if (!strcmp(sub, "check")) {
		int v = kohaku_sim_check(dev);

		if (v < 0) {
			ret = sim_refused(o, sub, dev, v);
			goto out;
		}
		r = kohaku_sim_read(dev, "check", &text);
		if (r < 0) {
			ret = sim_refused(o, sub, dev, r);
			goto out;
		}
		sim_print_text(o, sub, text, v);
		if (!o->json)
			printf("sim check: %s (%d violation%s)\n",
			       v ? "FAIL" : "PASS", v, v == 1 ? "" : "s");
		ret = v ? EXIT_WRONG : EXIT_OK;
		goto out;
	}
	r = kohaku_sim_read(dev, sub, &text);
	if (r < 0) {
		ret = sim_refused(o, sub, dev, r);
		goto out;
	}
	sim_print_text(o, sub, text, -1);
out:
	free(text);
	kohaku_close(dev);
	return ret;
}
