# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The package's version and the library's: the tree's one version
(kohaku.h's KOHAKU_LIB_VERSION_*), and kohaku.library_version() the
loaded libkohaku.so.0's kohaku_version()."""

import os
import re
import unittest

import khtest
from khtest import kohaku

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
HEADER = os.path.join(TOP, "libruntime", "kohaku.h")


def header_version():
    if not os.path.isfile(HEADER):
        return None
    v = {}
    with open(HEADER) as f:
        for line in f:
            m = re.match(r"#define KOHAKU_LIB_VERSION_(MAJOR|MINOR|PATCH)"
                         r"\s+(\d+)", line)
            if m:
                v[m.group(1)] = m.group(2)
    return "%s.%s.%s" % (v["MAJOR"], v["MINOR"], v["PATCH"])


class TestVersion(unittest.TestCase):
    def test_library_version(self):
        v = kohaku.library_version()
        self.assertRegex(v, r"^\d+\.\d+\.\d+$")
        self.assertEqual(v, kohaku.__version__)

    @unittest.skipIf(header_version() is None, "no source tree")
    def test_header_version(self):
        self.assertEqual(kohaku.__version__, header_version())


if __name__ == "__main__":
    unittest.main()
