# SPDX-License-Identifier: GPL-2.0 OR MIT
"""POOL units: firmware load and info, kernels against the host."""

import array
import os
import struct
import unittest
import zlib

import khtest
from khtest import kohaku


class TestPool(unittest.TestCase):
    def setUp(self):
        self.dev = khtest.open_card(self, "pool")
        self.gp = self.dev.nodes_of(kohaku.CU_GP)
        self.fw = khtest.fw_image_path()
        if self.fw is None:
            self.skipTest("no POOL firmware image (make firmware)")
        if os.environ.get("KOHAKU_TEST_FW_LOAD", "1") == "1":
            rep = self.dev.fw_load(self.fw)
            self.assertEqual(rep.n_units, len(self.gp))
            self.assertEqual(rep.reason, 0, rep.reason_text)

    def test_fw_info(self):
        """After the load every unit runs the image's version."""
        fi = self.dev.fw_info()
        self.assertEqual(fi.units, len(self.gp))
        self.assertEqual(fi.running, fi.units)
        self.assertNotEqual(fi.fw_version, 0)
        self.assertEqual(fi.fw_api >> 16, fi.driver_api >> 16)
        for n in self.dev.nodes_of("GP", live=True):
            self.assertEqual(n.fw_state_name, "running")
            self.assertEqual(n.fw_version, fi.fw_version)

    def test_fw_load_bytes_and_refusal(self):
        """The image as bytes loads too; a corrupt one is refused (EINVAL)
        with FW_LOAD's reason, and the old firmware keeps running."""
        with open(self.fw, "rb") as f:
            img = f.read()
        rep = self.dev.fw_load(img)
        self.assertEqual(rep.n_units, len(self.gp))
        bad = bytearray(img)
        bad[len(bad) // 2] ^= 0xff
        with self.assertRaises(kohaku.KohakuError) as cm:
            self.dev.fw_load(bytes(bad))
        e = cm.exception
        self.assertEqual(e.errno, 22)
        self.assertNotEqual(e.report.reason, 0)
        self.assertTrue(e.report.reason_text)
        self.assertTrue(e.strerror)
        with self.assertRaises(kohaku.KohakuError) as cm:
            self.dev.fw_load("/nonexistent/pool.fw")
        self.assertEqual(self.dev.fw_info().running, len(self.gp))

    def test_crc32_fill_copy(self):
        """CRC32 against zlib; FILL and COPY against the host, on every
        unit in one job."""
        data = bytes((i * 7 + 3) & 0xff for i in range(4096))
        src = self.dev.buffer(4096)
        src.write(data)
        progs, outs = [], []
        for k, nd in enumerate(self.gp):
            res = self.dev.buffer(4096)
            outs.append(res)
            progs.append(kohaku.Program(nd, [
                kohaku.pool_crc32(src.dev_addr, res.dev_addr, 4000),
                kohaku.pool_fill(res.dev_addr + 64, 0xdeadbeef + k, 256),
                kohaku.pool_copy(src.dev_addr, res.dev_addr + 1024, 512),
            ], txn=k))
        st = self.dev.run(progs)
        self.assertTrue(st.ok, st.describe())
        for k, res in enumerate(outs):
            got = res.read(2048)
            self.assertEqual(struct.unpack("<I", got[:4])[0],
                             zlib.crc32(data[:4000]))
            self.assertEqual(got[64:320],
                             struct.pack("<I", 0xdeadbeef + k) * 64)
            self.assertEqual(got[1024:1536], data[:512])

    def test_vadd_sum(self):
        """VADD_I32 (int32) and SUM_I64 (int64 elements) against the host."""
        n = 256
        a = array.array("i", [i * 3 - 100 for i in range(n)])
        b = array.array("i", [1000 - i for i in range(n)])
        ba, bb, bc, bs = (self.dev.buffer(4096) for _ in range(4))
        ba.write(a)
        bb.write(b)
        big = array.array("q", [(i - 100) * 123456789 for i in range(n)])
        bl = self.dev.buffer(8 * n)
        bl.write(big)
        st = self.dev.run(kohaku.Program(self.gp[0], [
            kohaku.pool_vadd_i32(ba.dev_addr, bb.dev_addr, bc.dev_addr, n),
            kohaku.pool_sum_i64(bl.dev_addr, bs.dev_addr, n)]))
        self.assertTrue(st.ok)
        c = array.array("i", bc.read(4 * n))
        self.assertEqual(list(c), [x + y for x, y in zip(a, b)])
        self.assertEqual(struct.unpack("<q", bs.read(8))[0], sum(big))

    def test_delay_runs_to_done(self):
        """A DELAY kernel (20M cycles) ends DONE within its wait."""
        job = self.dev.submit(kohaku.Program(self.gp[0], [
            kohaku.pool_delay(20000000)]))
        self.assertTrue(job.wait(60000).ok)

    def test_trap_fault(self):
        """A core trapping on purpose: FAULT, the node's fw_trap names the
        core; the unit is halted until the firmware is loaded again."""
        with self.assertRaises(kohaku.JobError) as cm:
            self.dev.run(kohaku.Program(self.gp[0], [kohaku.pool_trap(3, 0)]))
        st = cm.exception.status
        self.assertEqual(st.status, kohaku.FAULT)
        self.assertEqual(st.fault_node, self.gp[0].coord)
        self.assertTrue(kohaku.pool_fault_describe(st.fault_code))
        nd = [n for n in self.dev.nodes(live=True)
              if n.coord == self.gp[0].coord][0]
        self.assertTrue(nd.fw_trap >> 63)
        self.assertEqual((nd.fw_trap >> 56) & 7, 3)
        self.dev.fw_load(self.fw)
        ping = kohaku.pool_ping(0x1234)
        self.assertTrue(self.dev.run(kohaku.Program(self.gp[0], [ping])).ok)

    def test_builders_refuse(self):
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.pool_copy(0, 64, 33)
        self.assertEqual(cm.exception.errno, 22)
        with self.assertRaises(kohaku.KohakuError):
            kohaku.pool_vadd_i32(0, 0, 0, 7)
        raw = kohaku.pool(0x05, [1, 2, 3, 4, 5, 6, 7])
        self.assertIsInstance(raw, kohaku.Inst)


if __name__ == "__main__":
    unittest.main()
