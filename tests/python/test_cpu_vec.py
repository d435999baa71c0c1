# SPDX-License-Identifier: GPL-2.0 OR MIT
"""cpu units (cpu_2x1): an RV32I program loaded by the job's data, kicked,
storing into device memory; vec builders' words."""

import struct
import unittest

import khtest
from khtest import kohaku

A0, A1, T0, ZERO = 10, 11, 5, 0


def li(rd, value):
    """lui + addi for any 32-bit constant."""
    value &= 0xffffffff
    hi = ((value + 0x800) >> 12) & 0xfffff
    lo = value - ((hi << 12) & 0xffffffff)
    if lo >= 2048:
        lo -= 1 << 32
    return [kohaku.rv("lui", rd, hi), kohaku.rv("addi", rd, rd, lo)]


class TestCpu(unittest.TestCase):
    def test_store_to_dram(self):
        """The program stores arg + 42 at a buffer's address and halts
        with ECALL; the host reads the word back."""
        dev = khtest.open_card(self, "cpu_2x1")
        cpus = dev.nodes_of(kohaku.CU_RV)
        self.assertTrue(cpus)
        dev.lease(cpus[0].mesh)
        buf = dev.buffer(4096)
        addr = kohaku.cpu_dram_addr(buf.mesh, buf.dev_addr, 4096)
        self.assertEqual(addr & 0x80000000, 0x80000000)
        words = li(T0, addr)
        words += li(A1, 0x20000000 + 0x14)          # KH_CPU_CTL_ARG
        words += [kohaku.rv("lw", A1, A1, 0),
                  kohaku.rv("addi", A1, A1, 42),
                  kohaku.rv("sw", A1, T0, 0),
                  kohaku.rv("sw", A1, T0, 4),
                  kohaku.rv("addi", A0, ZERO, 0),
                  kohaku.rv("ecall")]
        words += [0] * (-len(words) % 8)
        data = kohaku.cpu_data(kohaku.CPU_BUF_IMEM, 0, words)
        st = dev.run(kohaku.Program(cpus[0], [kohaku.cpu_kick(0, 1000)],
                                    data=[data]), buffers=[buf])
        self.assertTrue(st.ok, st.describe())
        self.assertEqual(struct.unpack("<II", buf.read(8)), (1042, 1042))
        with self.assertRaises(kohaku.KohakuError):
            kohaku.cpu_data(kohaku.CPU_BUF_IMEM, 0, [0] * 7)
        with self.assertRaises(kohaku.KohakuError):
            kohaku.cpu_kick(2, 0)


class TestVecWords(unittest.TestCase):
    def test_builders(self):
        """vec CU_INST builders and kernel words: fields checked."""
        self.assertIsInstance(kohaku.vec_imem(3, 0x1234), kohaku.Inst)
        self.assertEqual(len(kohaku.vec_imem_words(0, [1, 2, 3])), 3)
        kohaku.vec_desc_base(0, 0x1000)
        kohaku.vec_desc_dim(0, 0, 4, 16)
        kohaku.vec_run(0)
        self.assertIsInstance(kohaku.vec_word("vadd", 1, 2, 3), int)
        self.assertEqual(len(kohaku.vec_word("vseti", 1, 5)), 2)
        self.assertNotEqual(kohaku.vec_vhalt(), kohaku.vec_vbar())
        with self.assertRaises(kohaku.KohakuError):
            kohaku.vec_imem(512, 0)
        with self.assertRaises(kohaku.KohakuError):
            kohaku.vec_word("vadd", 16, 0, 0)
        with self.assertRaises(ValueError):
            kohaku.vec_word("nope")
        self.assertTrue(kohaku.vec_fault_describe(1))


if __name__ == "__main__":
    unittest.main()
