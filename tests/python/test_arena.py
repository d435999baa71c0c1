# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Buffers at fixed device addresses (arenas; ABI 0.9, KOHAKU_BO_FIXED)."""

import errno
import unittest

import khtest
from khtest import kohaku

ARENA = 0x18000000      # the compiler's default arena, local offset


class TestArena(unittest.TestCase):
    def setUp(self):
        if not kohaku.have("kohaku_bo_create_at"):
            self.skipTest("libkohaku has no kohaku_bo_create_at")
        self.dev = khtest.open_card(self, "saxpy")
        if not self.dev.info.has("BO_FIXED"):
            self.skipTest("the driver has no KOHAKU_CAP_BO_FIXED")

    def test_create_at(self):
        """The buffer lies where asked, and works like any other."""
        with self.dev.buffer_at(ARENA, 65536) as a:
            self.assertEqual(a.dev_addr, ARENA)
            self.assertEqual(a.mesh, 0)
            self.assertGreaterEqual(a.size, 65536)
            a.write(b"arena", 4096)
            self.assertEqual(a.read(5, 4096), b"arena")
        # freed: the range is free again
        self.dev.buffer_at(ARENA, 65536).free()

    def test_ebusy(self):
        """Any of the range taken, by this file or another: EBUSY, the
        message says by what."""
        a = self.dev.buffer_at(ARENA, 65536)
        with self.assertRaises(kohaku.KohakuError) as cm:
            self.dev.buffer_at(ARENA + 32768, 65536)
        self.assertEqual(cm.exception.errno, errno.EBUSY)
        self.assertTrue(cm.exception.strerror)
        self.assertEqual(cm.exception.function, "kohaku_bo_create_at")
        other = self.dev.reopen()
        self.addCleanup(other.close)
        with self.assertRaises(kohaku.KohakuError) as cm:
            other.buffer_at(ARENA, 4096)
        self.assertEqual(cm.exception.errno, errno.EBUSY)
        a.free()
        other.buffer_at(ARENA, 4096).free()

    def test_einval(self):
        """Misaligned, another mesh's address, past the mesh's memory:
        EINVAL."""
        with self.assertRaises(kohaku.KohakuError) as cm:
            self.dev.buffer_at(ARENA + 100, 4096)
        self.assertEqual(cm.exception.errno, errno.EINVAL)
        self.assertTrue(cm.exception.strerror)
        with self.assertRaises(kohaku.KohakuError) as cm:
            self.dev.buffer_at(ARENA, 4096, mesh=1)
        self.assertIn(cm.exception.errno, (errno.EINVAL, errno.ENODEV,
                                           errno.ENXIO))
        end = self.dev.meshes[0].mem_size
        with self.assertRaises(kohaku.KohakuError) as cm:
            self.dev.buffer_at(end - 4096, 8192)
        self.assertEqual(cm.exception.errno, errno.EINVAL)


if __name__ == "__main__":
    unittest.main()
