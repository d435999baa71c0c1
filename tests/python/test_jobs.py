# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Jobs: saxpy against the host, null units, faults, the job's buffers."""

import array
import unittest

import khtest
from khtest import kohaku, need_numpy, numpy


def saxpy_setup(test, dev, n, salt):
    xs = khtest.floats(n, salt)
    ys = khtest.floats(n, salt + 1)
    bx = dev.buffer(4 * n)
    by = dev.buffer(4 * n + 64)
    bx.write(array.array("f", xs))
    by.write(array.array("f", ys))
    return xs, ys, bx, by


def saxpy_insts(n, a, bx, by):
    out = []
    for off in range(0, n, kohaku.SX_N_MAX):
        k = min(kohaku.SX_N_MAX, n - off)
        out.append(kohaku.saxpy(k, a, bx.dev_addr + 4 * off,
                                by.dev_addr + 4 * off))
    return out


class TestSaxpy(unittest.TestCase):
    def setUp(self):
        self.dev = khtest.open_card(self, "saxpy")
        self.sx = self.dev.nodes_of(kohaku.CU_SX)

    def test_wait_timeout_while_running(self):
        """wait(0) on a job still running: ETIMEDOUT with a non-final
        status; then it finishes DONE.  The unit is held busy (a knob of
        the simulated card) until the first wait has looked: a job left
        to itself may be over by then (kohaku.ko steps a simulated card
        at SUBMIT)."""
        sx = self.sx[0]
        try:
            self.dev.sim_command("inject busy node=%d,%d cycles=forever "
                                 "mesh=%d" % (sx.x, sx.y, sx.mesh))
        except kohaku.KohakuError as e:
            self.skipTest("no simulated card to hold the unit: %s" % e)
        n = 64
        xs, ys, bx, by = saxpy_setup(self, self.dev, n, 9)
        try:
            job = self.dev.submit(kohaku.Program(sx, saxpy_insts(
                n, 2.0, bx, by)))
            with self.assertRaises(kohaku.KohakuError) as cm:
                job.wait(0)
            self.assertEqual(cm.exception.errno, 110)
            self.assertFalse(cm.exception.status.final)
        finally:
            self.dev.sim_command("inject clear")
        self.assertTrue(job.wait(60000).ok)

    def test_saxpy_integers_exact(self):
        """Integer-valued data: y = a*x + y is exact in both datapaths, so
        the host's own arithmetic is the reference."""
        n = 64
        xs = [float(i - 20) for i in range(n)]
        ys = [float(3 * i) for i in range(n)]
        bx, by = self.dev.buffer(4 * n), self.dev.buffer(4 * n)
        bx.write(array.array("f", xs))
        by.write(array.array("f", ys))
        st = self.dev.run(kohaku.Program(self.sx[0], [kohaku.saxpy(
            n, 3.0, bx.dev_addr, by.dev_addr)]))
        self.assertTrue(st.ok)
        self.assertEqual(st.name, "DONE")
        self.assertIn("DONE", st.describe())
        got = array.array("f", by.read(4 * n))
        self.assertEqual(list(got), [3.0 * x + y for x, y in zip(xs, ys)])

    def test_saxpy_bit_exact_both_units(self):
        """200 elements (four instructions each) on both SX units in one
        job, bit for bit what kohaku_sx_element says for the unit's
        datapath, and nothing written past y."""
        n, a = 200, 1.75
        progs, want, bufs = [], [], []
        for k, nd in enumerate(self.sx):
            xs, ys, bx, by = saxpy_setup(self, self.dev, n, 3 + k)
            dp = nd.sx_datapath
            want.append([kohaku.sx_element(dp, a, x, y)
                         for x, y in zip(xs, ys)])
            bufs.append(by)
            progs.append(kohaku.Program(nd, saxpy_insts(n, a, bx, by),
                                        txn=k))
        st = self.dev.run(progs)
        self.assertTrue(st.ok, st.describe())
        for by, w in zip(bufs, want):
            raw = by.read(4 * n + 64)
            self.assertEqual(array.array("f", raw[:4 * n]).tolist(), w)
            self.assertEqual(raw[4 * n:], bytes(64))

    def test_submit_wait(self):
        xs, ys, bx, by = saxpy_setup(self, self.dev, 64, 9)
        job = self.dev.submit(kohaku.Program(self.sx[1], saxpy_insts(
            64, -2.0, bx, by)), buffers=[(bx, kohaku.READ), by])
        self.assertGreater(job.id, 0)
        st = job.wait(60000)
        self.assertTrue(st.ok)
        self.assertGreater(st.device_ns, 0)
        dp = self.sx[1].sx_datapath
        got = array.array("f", by.read(256)).tolist()
        self.assertEqual(got, [kohaku.sx_element(dp, -2.0, x, y)
                               for x, y in zip(xs, ys)])
        # waited once: the driver forgot it
        with self.assertRaises(kohaku.KohakuError) as cm:
            job.wait(0)
        self.assertEqual(cm.exception.errno, 2)

    @need_numpy
    def test_saxpy_numpy(self):
        """numpy in, numpy out (integers: exact on either datapath)."""
        x = numpy.arange(64, dtype=numpy.float32)
        y = numpy.full(64, 2.0, dtype=numpy.float32)
        bx, by = self.dev.buffer(256), self.dev.buffer(256)
        bx.write(x)
        by.write(y)
        self.dev.run(kohaku.Program(self.sx[0], [kohaku.saxpy(
            64, 4.0, bx.dev_addr, by.dev_addr)]))
        out = numpy.empty(64, dtype=numpy.float32)
        by.read_into(out)
        self.assertTrue(numpy.array_equal(out, 4.0 * x + y))

    def test_fault_raises_job_error(self):
        """A bad opcode faults: JobError EIO with the FAULT status, where
        and why; wait() returns the status without raising."""
        bx, by = self.dev.buffer(256), self.dev.buffer(256)
        bad = kohaku.sx(0x7f, 8, 0, bx.dev_addr, by.dev_addr)
        with self.assertRaises(kohaku.JobError) as cm:
            self.dev.run(kohaku.Program(self.sx[0], [bad]))
        e = cm.exception
        self.assertEqual(e.errno, 5)
        self.assertEqual(e.status.status, kohaku.FAULT)
        self.assertEqual(e.status.fault_node, self.sx[0].coord)
        self.assertIn("FAULT", e.status.describe())
        self.assertTrue(e.strerror)
        job = self.dev.submit(kohaku.Program(self.sx[0], [bad]))
        st = job.wait()
        self.assertEqual(st.name, "FAULT")
        self.assertEqual(st.n_faults, 1)
        # the unit still works
        self.assertTrue(self.dev.run(kohaku.Program(self.sx[0], [
            kohaku.saxpy(8, 1.0, bx.dev_addr, by.dev_addr)])).ok)

    def test_buffers_outside_refused(self):
        """An operand in a buffer the job does not name: EACCES at submit,
        naming the operand."""
        bx, by, other = (self.dev.buffer(256) for _ in range(3))
        p = kohaku.Program(self.sx[0], [kohaku.saxpy(
            8, 1.0, bx.dev_addr, other.dev_addr)])
        with self.assertRaises(kohaku.KohakuError) as cm:
            self.dev.submit(p, buffers=[bx, by])
        self.assertEqual(cm.exception.errno, 13)
        self.assertTrue(cm.exception.strerror)
        # read-only y is refused too: the unit writes it
        p = kohaku.Program(self.sx[0], [kohaku.saxpy(
            8, 1.0, bx.dev_addr, by.dev_addr)])
        with self.assertRaises(kohaku.KohakuError) as cm:
            self.dev.submit(p, buffers=[bx, (by, kohaku.READ)])
        self.assertEqual(cm.exception.errno, 13)
        self.assertTrue(self.dev.run(p, buffers=[(bx, kohaku.READ),
                                                 (by, kohaku.RW)]).ok)

    def test_builders_refuse(self):
        """Builder refusals are KohakuError EINVAL, nothing submitted."""
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.saxpy(65, 1.0, 0, 0)
        self.assertEqual(cm.exception.errno, 22)
        with self.assertRaises(kohaku.KohakuError):
            kohaku.saxpy(8, 1.0, 4, 0)      # unaligned
        d = kohaku.sx_decode(kohaku.saxpy(8, 2.0, 0x40, 0x80))
        self.assertEqual((d["opcode"], d["n"], d["x_addr"], d["y_addr"]),
                         (kohaku.SX_OP_SAXPY, 8, 0x40, 0x80))
        self.assertEqual(d["a_bits"], 0x40000000)
        with self.assertRaises(TypeError):
            kohaku.Program((0, 1, 0), ["not an inst"])


class TestNull(unittest.TestCase):
    def test_null_units(self):
        """null units on sx_null_2x2: every null node runs a job; the
        builder's XOR result; Inst words."""
        dev = khtest.open_card(self, "sx_null_2x2")
        nulls = dev.nodes_of(0)
        self.assertGreater(len(nulls), 0)
        words = [0x11111111 * k for k in range(8)]
        inst = kohaku.null(words)
        r = 0
        for w in words:
            r ^= w
        self.assertEqual(kohaku.null_result(inst), r)
        self.assertEqual(len(inst.words), 4)
        self.assertEqual(inst.bits(31, 0), words[0])
        self.assertEqual(kohaku.Inst(inst.words), inst)
        progs = [kohaku.Program(n, [inst] * 4, txn=i)
                 for i, n in enumerate(nulls)]
        st = dev.run(progs)
        self.assertTrue(st.ok, st.describe())


if __name__ == "__main__":
    unittest.main()
