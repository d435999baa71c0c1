# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Buffers: create, write and read through the buffer protocol, free."""

import array
import unittest

import khtest
from khtest import kohaku, need_numpy, numpy


class TestBuffer(unittest.TestCase):
    def setUp(self):
        self.dev = khtest.open_card(self, "saxpy")

    def test_create_info(self):
        """A new buffer: handle, dev_addr 32-byte aligned, size, zeroed."""
        b = self.dev.buffer(10000)
        self.assertGreaterEqual(b.size, 10000)
        self.assertEqual(b.dev_addr % 4096, 0)
        self.assertEqual(b.mesh, 0)
        self.assertEqual(len(b), b.size)
        self.assertEqual(b.read(), bytes(b.size))
        self.assertEqual(b.info().dev_addr, b.dev_addr)
        self.assertIn("dev_addr=0x", repr(b))

    def test_bytes_round_trip(self):
        data = bytes(range(256)) * 16
        with self.dev.buffer(len(data)) as b:
            self.assertEqual(b.write(data), len(data))
            self.assertEqual(b.read(len(data)), data)
            self.assertEqual(b.read(100, offset=7), data[7:107])
        self.assertTrue(b.freed)

    def test_partial_words_merge(self):
        """Writes at odd offsets and sizes merge with what is there."""
        b = self.dev.buffer(4096)
        b.write(b"\xff" * 256)
        b.write(b"abc", offset=5)
        got = b.read(256)
        self.assertEqual(got[:5], b"\xff" * 5)
        self.assertEqual(got[5:8], b"abc")
        self.assertEqual(got[8:], b"\xff" * 248)

    def test_bytearray_memoryview_array(self):
        b = self.dev.buffer(4096)
        b.write(bytearray(b"hello, kohaku"))
        self.assertEqual(b.read(13), b"hello, kohaku")
        src = memoryview(bytearray(range(200)))[50:150]
        b.write(src, offset=1000)
        self.assertEqual(b.read(100, 1000), bytes(range(50, 150)))
        ro = memoryview(bytes(range(64)))[8:40]     # read-only, sliced
        b.write(ro, offset=64)
        self.assertEqual(b.read(32, 64), bytes(range(8, 40)))
        a = array.array("i", range(-50, 50))
        b.write(a)
        back = array.array("i", b.read(400))
        self.assertEqual(back, a)

    def test_read_into(self):
        b = self.dev.buffer(4096)
        b.write(bytes(range(256)))
        out = bytearray(64)
        self.assertEqual(b.read_into(out, 16), 64)
        self.assertEqual(bytes(out), bytes(range(16, 80)))
        mv = memoryview(bytearray(300))
        b.read_into(mv[100:200])
        self.assertEqual(mv[100:200].tobytes(), bytes(range(100)))
        self.assertEqual(mv[:100].tobytes(), bytes(100))
        fa = array.array("f", [0.0] * 4)
        b.write(array.array("f", [1.5, -2.0, 3.25, 0.0]), offset=512)
        b.read_into(fa, 512)
        self.assertEqual(list(fa), [1.5, -2.0, 3.25, 0.0])

    def test_refusals(self):
        """Read-only or non-contiguous targets, past the end, freed."""
        b = self.dev.buffer(4096)
        with self.assertRaises(TypeError):
            b.read_into(b"immutable")
        with self.assertRaises(ValueError):
            b.write(memoryview(bytearray(64))[::2])
        with self.assertRaises(kohaku.KohakuError) as cm:
            b.read(64, offset=b.size)
        self.assertEqual(cm.exception.errno, 22)
        self.assertTrue(cm.exception.strerror)
        b.free()
        b.free()    # twice is fine
        with self.assertRaises(kohaku.KohakuError):
            b.read(4)

    def test_zero_sized_io(self):
        b = self.dev.buffer(4096)
        self.assertEqual(b.write(b""), 0)
        self.assertEqual(b.read(0), b"")

    def test_closed_device_frees(self):
        """Closing the device frees its buffers: free() is then a no-op."""
        device, backend = khtest.card_device(self, "saxpy")
        dev = kohaku.Device.open(device, backend=backend)
        b = dev.buffer(4096)
        dev.close()
        self.assertTrue(b.freed)
        b.free()

    @need_numpy
    def test_numpy_round_trip(self):
        """numpy arrays in and out, no copy on the way in."""
        b = self.dev.buffer(8192)
        x = numpy.arange(1000, dtype=numpy.float32) * 0.5
        b.write(x)
        y = numpy.empty_like(x)
        b.read_into(y)
        self.assertTrue(numpy.array_equal(x, y))
        z = numpy.frombuffer(b.read(4000), dtype=numpy.float32)
        self.assertTrue(numpy.array_equal(x, z))
        m = numpy.arange(64, dtype=numpy.int16).reshape(8, 8)
        b.write(m, offset=4096)
        m2 = numpy.zeros((8, 8), dtype=numpy.int16)
        b.read_into(m2, offset=4096)
        self.assertTrue(numpy.array_equal(m, m2))
        with self.assertRaises(ValueError):
            b.write(m[:, ::2])      # not contiguous
        ro = numpy.arange(8, dtype=numpy.uint8)
        ro.flags.writeable = False
        b.write(ro)
        self.assertEqual(b.read(8), bytes(range(8)))
        with self.assertRaises(TypeError):
            b.read_into(ro)


if __name__ == "__main__":
    unittest.main()
