/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * cli_json_put: js, JSON text as json-c prints it, written to f as strict
 * UTF-8 JSON: a byte that starts no valid UTF-8 sequence as \u00XX (the
 * byte read as Latin-1), DEL and the C1 controls as \u007f..\u009f, any
 * other valid sequence copied (json_put.c).  The kohaku CLI and kh-trace.
 */
#ifndef KOHAKU_CLI_JSON_PUT_H
#define KOHAKU_CLI_JSON_PUT_H

#include <stdio.h>

void cli_json_put(const char *js, FILE *f);

#endif /* KOHAKU_CLI_JSON_PUT_H */
