# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The error model: KohakuError is an OSError with errno and the
library's message, for every negative return."""

import errno
import pickle
import unittest

import khtest
from khtest import kohaku


class TestErrors(unittest.TestCase):
    def test_bad_handle_enoent(self):
        """A handle this file never made: ENOENT, the message says so."""
        dev = khtest.open_card(self, "saxpy")
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.Buffer(dev, 0x7777)
        e = cm.exception
        self.assertIsInstance(e, OSError)
        self.assertEqual(e.errno, errno.ENOENT)
        self.assertEqual(e.errno_name, "ENOENT")
        self.assertEqual(e.function, "kohaku_bo_info")
        self.assertIn("buffer object", e.strerror)
        self.assertEqual(e.strerror, dev.last_error)
        self.assertIn("[Errno 2]", str(e))

    def test_bad_device_strings(self):
        """An unknown card: ENOENT; an unknown backend: EINVAL; a sim
        open without a device: EINVAL naming the built-in cards."""
        import os
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.Device.open("no_such_card", backend="sim")
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        self.assertIn("no_such_card", cm.exception.strerror)
        self.assertIn("saxpy", cm.exception.strerror)
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.Device.open("saxpy", backend="gpu")
        self.assertEqual(cm.exception.errno, errno.EINVAL)
        old = os.environ.pop("KOHAKU_DEVICE", None)
        try:
            with self.assertRaises(kohaku.KohakuError) as cm:
                kohaku.Device.open(backend="sim")
            self.assertEqual(cm.exception.errno, errno.EINVAL)
            self.assertIn("KOHAKU_DEVICE", cm.exception.strerror)
        finally:
            if old is not None:
                os.environ["KOHAKU_DEVICE"] = old
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.Device.open("/dev/accel/no_such_node", backend="kernel")
        self.assertIn(cm.exception.errno, (errno.ENOENT, errno.ENODEV))
        self.assertTrue(cm.exception.strerror)
        with self.assertRaises(ValueError):
            kohaku.Device.open("saxpy", map="saxpy")

    def test_job_timeout_etimedout(self):
        """A job past its own limit: TIMEOUT, JobError ETIMEDOUT (on a
        card of its own: the hung unit stays hung)."""
        if khtest.shared():
            self.skipTest("hangs a unit: a card of its own only")
        dev = khtest.open_card(self, "pool")
        fw = khtest.fw_image_path()
        if fw is None:
            self.skipTest("no POOL firmware image")
        dev.fw_load(fw)
        gp = dev.nodes_of("GP")[0]
        with self.assertRaises(kohaku.JobError) as cm:
            dev.run(kohaku.Program(gp, [kohaku.pool_delay(0xffffffff)]),
                    timeout_ms=1)
        e = cm.exception
        self.assertEqual(e.errno, errno.ETIMEDOUT)
        self.assertEqual(e.status.status, kohaku.TIMEOUT)
        self.assertIn("TIMEOUT", e.status.describe())

    def test_syncobj_wait_etimedout(self):
        """A fence not signalled within the wait: ETIMEDOUT.  The unit is
        held busy (a knob of the simulated card) until the wait has
        looked: a job left to itself may be over by then."""
        dev = khtest.open_card(self, "saxpy")
        sx = dev.nodes_of(kohaku.CU_SX)[0]
        try:
            dev.sim_command("inject busy node=%d,%d cycles=forever mesh=%d"
                            % (sx.x, sx.y, sx.mesh))
        except kohaku.KohakuError as e:
            self.skipTest("no simulated card to hold the unit: %s" % e)
        s = dev.syncobj()
        bx, by = dev.buffer(256), dev.buffer(256)
        try:
            job = dev.submit(kohaku.Program(sx, [kohaku.saxpy(
                64, 1.0, bx.dev_addr, by.dev_addr)]), out_syncobj=s)
            with self.assertRaises(kohaku.KohakuError) as cm:
                s.wait(0)
            self.assertEqual(cm.exception.errno, errno.ETIMEDOUT)
        finally:
            dev.sim_command("inject clear")
        self.assertTrue(job.wait(120000).ok)
        s.wait(0)

    def test_builder_einval(self):
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.pool_fill(3, 0, 32)
        self.assertEqual(cm.exception.errno, errno.EINVAL)
        self.assertIn("kohaku_inst_pool_fill", cm.exception.strerror)
        with self.assertRaises(kohaku.KohakuError):
            kohaku.rv("addi", 40, 0, 1)
        self.assertEqual(kohaku.rv("addi", 10, 0, 5), 0x00500513)
        self.assertEqual(kohaku.rv("ecall"), 0x00000073)

    def test_pickle_and_repr(self):
        e = kohaku.KohakuError(errno.EBUSY, "taken", "kohaku_x")
        e2 = pickle.loads(pickle.dumps(e))
        self.assertEqual((e2.errno, e2.strerror, e2.function),
                         (errno.EBUSY, "taken", "kohaku_x"))
        self.assertTrue(kohaku.KohakuError(errno.EIO).strerror)


if __name__ == "__main__":
    unittest.main()
