// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku_version(): the library's release, from the macros of the
 * kohaku.h it was built with (kohaku.pc's Version is the same).
 */
#include "kohaku.h"

#define KH_RT_STR_(x) #x
#define KH_RT_STR(x) KH_RT_STR_(x)

const char *kohaku_version(void)
{
	return KH_RT_STR(KOHAKU_LIB_VERSION_MAJOR) "."
	       KH_RT_STR(KOHAKU_LIB_VERSION_MINOR) "."
	       KH_RT_STR(KOHAKU_LIB_VERSION_PATCH);
}
