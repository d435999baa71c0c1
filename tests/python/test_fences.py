# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Fences: out-fences, in-fences ordering jobs, poll()able fds."""

import array
import os
import select
import unittest

import khtest
from khtest import kohaku


class TestFences(unittest.TestCase):
    def setUp(self):
        self.dev = khtest.open_card(self, "saxpy")
        self.sx = self.dev.nodes_of(kohaku.CU_SX)
        self.x = self.dev.buffer(256)
        self.y = self.dev.buffer(256)
        self.x.write(array.array("f", [1.0] * 64))

    def prog(self, node=0, a=1.0):
        return kohaku.Program(self.sx[node], [kohaku.saxpy(
            64, a, self.x.dev_addr, self.y.dev_addr)])

    def test_b_waits_for_a(self):
        """B (y = 3x + y) waits on A's syncobj (y = 2x + y): both done,
        y = 5 when B ran after A; the fds poll readable."""
        with self.dev.syncobj() as sa, self.dev.syncobj() as sb:
            ja = self.dev.submit(self.prog(0, 2.0), out_syncobj=sa)
            jb = self.dev.submit(self.prog(1, 3.0), in_syncobjs=[sa],
                                 out_syncobj=sb)
            sb.wait(60000)
            self.assertTrue(sa.signalled())
            fd = sb.fd()
            try:
                p = select.poll()
                p.register(fd, select.POLLIN)
                ev = p.poll(10000)
                self.assertEqual(len(ev), 1)
                self.assertTrue(ev[0][1] & select.POLLIN)
            finally:
                os.close(fd)
            self.assertTrue(ja.wait().ok)
            self.assertTrue(jb.wait().ok)
        self.assertEqual(set(array.array("f", self.y.read(256))), {5.0})

    def test_wait_many(self):
        """Several out-fences: wait for all, and for any."""
        objs = [self.dev.syncobj() for _ in range(3)]
        jobs = [self.dev.submit(self.prog(i % 2), out_syncobj=s)
                for i, s in enumerate(objs)]
        kohaku.Syncobj.wait_many(self.dev, objs, True, 60000)
        first = kohaku.Syncobj.wait_many(self.dev, objs, False, 60000)
        self.assertIn(first, range(3))
        for j in jobs:
            self.assertTrue(j.wait().ok)
        for s in objs:
            s.destroy()
            s.destroy()     # twice is fine

    def test_fd_poll_before_done(self):
        """An fd taken right after submit polls readable once the job is
        done (poll with a timeout)."""
        s = self.dev.syncobj()
        j = self.dev.submit(self.prog(), out_syncobj=s)
        fd = s.fd()
        try:
            p = select.poll()
            p.register(fd, select.POLLIN)
            self.assertTrue(p.poll(30000))
        finally:
            os.close(fd)
        self.assertTrue(j.wait().ok)

    def test_refusals(self):
        """No job on it: EINVAL; a bad handle: ENOENT; a fault's fence
        aborts the job waiting on it."""
        empty = self.dev.syncobj()
        with self.assertRaises(kohaku.KohakuError) as cm:
            empty.wait(0)
        self.assertEqual(cm.exception.errno, 22)
        with self.assertRaises(kohaku.KohakuError) as cm:
            empty.fd()
        self.assertEqual(cm.exception.errno, 22)
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.Syncobj.wait_many(self.dev, [0xbad], True, 0)
        self.assertEqual(cm.exception.errno, 2)
        self.assertTrue(cm.exception.strerror)
        with self.assertRaises(kohaku.KohakuError) as cm:
            self.dev.submit(self.prog(), in_syncobjs=[0xbad])
        self.assertEqual(cm.exception.errno, 2)
        # a faulting job's fence: the job after it is ABORTED
        bad = kohaku.Program(self.sx[0], [kohaku.sx(
            0x7f, 8, 0, self.x.dev_addr, self.y.dev_addr)])
        sa = self.dev.syncobj()
        ja = self.dev.submit(bad, out_syncobj=sa)
        with self.assertRaises(kohaku.JobError) as cm:
            self.dev.run(self.prog(1), in_syncobjs=[sa])
        self.assertEqual(cm.exception.status.status, kohaku.ABORTED)
        self.assertEqual(cm.exception.errno, 125)
        self.assertEqual(ja.wait().status, kohaku.FAULT)


if __name__ == "__main__":
    unittest.main()
