# SPDX-License-Identifier: GPL-2.0 OR MIT
"""kohaku.rv, the Python RV32I encoders, against kohaku-asm.h's C ones
(libkohaku-asm.a, which libkohaku.so does not export): every encoder on
operands at and past each field's limits, word for word, refusals
included.  Skipped where there is no C compiler, no source tree or no
built libkohaku-asm.a next to the library under test."""

import os
import shutil
import subprocess
import tempfile
import unittest

import khtest
from khtest import kohaku
from kohaku import program

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CC = os.environ.get("CC", "cc")

# per operand kind, values at and past the limits
VALUES = {
    "r": [0, 1, 10, 31, 32],
    "i": [0, 4, -4, 2047, -2048, 2048, -2049, 4092, -4096, 4094, 1048572,
          -1048576, 1048576, 6],
    "u": [0, 1, 31, 32, 0xfffff, 0x100000, 15, 16],
}


def archive():
    lib = os.environ.get("KOHAKU_LIBRARY", "")
    d = os.path.dirname(os.path.abspath(lib)) if lib else \
        os.path.join(TOP, "build")
    a = os.path.join(d, "libkohaku-asm.a")
    ok = os.path.isfile(a) and os.path.isfile(os.path.join(d, "libkohaku.so.0"))
    return a if ok else None


def cases():
    out = []
    for name, kinds in sorted(program.RV_ENCODERS.items()):
        ops = [[]]
        for k in kinds:
            ops = [o + [v] for o in ops for v in VALUES[k]]
        out += [(name, o) for o in ops]
    return out


@unittest.skipIf(shutil.which(CC) is None, "no C compiler")
@unittest.skipIf(archive() is None, "no libkohaku-asm.a built")
@unittest.skipIf(not os.path.isfile(os.path.join(TOP, "libruntime",
                                                 "kohaku-asm.h")),
                 "no source tree")
class TestRvAgainstC(unittest.TestCase):
    def test_every_encoder(self):
        todo = cases()
        lines = ['#include <stdio.h>', '#include "kohaku-asm.h"',
                 'int main(void) {']
        for name, ops in todo:
            lines.append('printf("%%u\\n", kohaku_rv_%s(NULL%s));' % (
                name, "".join(", %d" % o for o in ops)))
        lines += ["return 0;", "}"]
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "rv.c")
            exe = os.path.join(d, "rv")
            with open(src, "w") as f:
                f.write("\n".join(lines))
            # the archive's kohaku_rv_asm_image calls libkohaku's
            # kohaku_cpu_data: the library next to it, by path
            so = os.path.join(os.path.dirname(archive()), "libkohaku.so.0")
            drm = subprocess.run(["pkg-config", "--cflags", "libdrm"],
                                 capture_output=True, text=True).stdout.split() \
                if shutil.which("pkg-config") else []
            cmd = [CC, "-std=gnu11", "-w", "-o", exe, src,
                   "-I" + os.path.join(TOP, "libruntime"),
                   "-I" + os.path.join(TOP, "uapi")] + \
                (drm or ["-I/usr/include/libdrm"]) + [archive(), so,
                "-Wl,-rpath," + os.path.dirname(so)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            got = subprocess.run([exe], capture_output=True, text=True,
                                 check=True).stdout.split()
        self.assertEqual(len(got), len(todo))
        bad = []
        for (name, ops), g in zip(todo, got):
            try:
                w = kohaku.rv(name, *ops)
            except kohaku.KohakuError:
                w = 0
            if w != int(g):
                bad.append("%s %s: C 0x%08x, Python 0x%08x" % (
                    name, ops, int(g), w))
        self.assertEqual(bad[:10], [])


if __name__ == "__main__":
    unittest.main()
