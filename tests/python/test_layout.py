# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The ctypes mirrors against the C headers: every field's offset and
every struct's size, from a program compiled against libruntime/kohaku.h
(skipped where no C compiler or no headers are at hand: an installed
package in the VM)."""

import ctypes
import os
import shutil
import subprocess
import tempfile
import unittest

import khtest
from khtest import kohaku
from kohaku import _lib

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def headers():
    inc = [os.path.join(TOP, "libruntime"), os.path.join(TOP, "uapi")]
    if os.path.isfile(os.path.join(inc[0], "kohaku.h")):
        return inc
    return None


@unittest.skipIf(shutil.which(os.environ.get("CC", "cc")) is None,
                 "no C compiler")
@unittest.skipIf(headers() is None, "no source tree headers")
class TestLayout(unittest.TestCase):
    def test_every_mirror(self):
        lines = ['#include <stdio.h>', '#include <stddef.h>',
                 '#include "kohaku.h"', 'int main(void) {']
        want = []
        for s in _lib.STRUCTS:
            c = s._c_name_
            lines.append('printf("%%zu\\n", sizeof(%s));' % c)
            want.append(("sizeof " + c, ctypes.sizeof(s)))
            for f in s._fields_:
                lines.append('printf("%%zu\\n", offsetof(%s, %s));'
                             % (c, f[0]))
                want.append(("%s.%s" % (c, f[0]), getattr(s, f[0]).offset))
        lines += ["return 0;", "}"]
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "layout.c")
            exe = os.path.join(d, "layout")
            with open(src, "w") as f:
                f.write("\n".join(lines))
            drm = subprocess.run(["pkg-config", "--cflags", "libdrm"],
                                 capture_output=True, text=True).stdout.split() \
                if shutil.which("pkg-config") else []
            cmd = [os.environ.get("CC", "cc"), "-std=gnu11", "-o", exe, src] + \
                ["-I" + i for i in headers()] + (drm or ["-I/usr/include/libdrm"])
            r = subprocess.run(cmd, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            got = subprocess.run([exe], capture_output=True, text=True,
                                 check=True).stdout.split()
        self.assertEqual(len(got), len(want))
        bad = ["%s: C %s, ctypes %d" % (w[0], g, w[1])
               for w, g in zip(want, got) if int(g) != w[1]]
        self.assertEqual(bad, [])


class TestDeclared(unittest.TestCase):
    def test_sizes_table(self):
        """_lib.SIZES, checked at import, names every mirror."""
        self.assertEqual(sorted(_lib.SIZES),
                         sorted(s._c_name_ for s in _lib.STRUCTS))

    def test_functions_declared(self):
        """Every function the package calls has argtypes and restype."""
        missing = [n for n in _lib._FUNCS if _lib.have(n) and
                   getattr(_lib.lib, n).argtypes is None]
        self.assertEqual(missing, [])
        self.assertTrue(kohaku.library_path)


if __name__ == "__main__":
    unittest.main()
