# SPDX-License-Identifier: GPL-2.0 OR MIT
"""mat units (mesh_2x2_8+2): one GEMM block against kohaku_mat_gemm_ref."""

import array
import unittest

import khtest
from khtest import kohaku, need_numpy, numpy


def rnd_fp16(n, seed):
    """n FP16 bit patterns: moderate exponents, a zero now and then."""
    s = seed or 1
    out = []
    for _ in range(n):
        s ^= (s << 13) & 0xffffffff
        s ^= s >> 17
        s ^= (s << 5) & 0xffffffff
        if s % 16 == 0:
            out.append(0)
            continue
        e = 12 + (s >> 8) % 6
        out.append(((s >> 4) & 1) << 15 | e << 10 | (s >> 12) & 0x3ff)
    return array.array("H", out)


class TestMat(unittest.TestCase):
    def setUp(self):
        self.dev = khtest.open_card(self, "mesh_2x2_8+2")
        self.mg = self.dev.nodes_of(kohaku.CU_MG)
        self.assertTrue(self.mg)

    def gemm(self, nd, m, n, k, seed, pack=kohaku.mat_pack_a):
        a = rnd_fp16(m * k, seed)
        b = rnd_fp16(k * n, seed + 99)
        want = kohaku.mat_gemm_ref(a, b, m, n, k)
        ba = self.dev.buffer(2 * m * k, nd.mesh)
        bb = self.dev.buffer(2 * k * n, nd.mesh)
        bc = self.dev.buffer(2 * m * n + 256, nd.mesh)
        ba.write(kohaku.mat_pack_a(a, m, k))
        bb.write(kohaku.mat_pack_b(b, k, n))
        insts = kohaku.mat_gemm_program(ba.dev_addr, bb.dev_addr, bc.dev_addr,
                                        m, n, k)
        return insts, bc, want

    def test_gemm_vs_ref(self):
        """8x12x64 on the first cluster: C drained bit for bit as the host
        reference, nothing past it."""
        m, n, k = 8, 12, 64
        insts, bc, want = self.gemm(self.mg[0], m, n, k, 7)
        self.assertEqual(len(insts), 4)
        st = self.dev.run(kohaku.Program(self.mg[0], insts))
        self.assertTrue(st.ok, st.describe())
        raw = bc.read(2 * m * n + 256)
        c = kohaku.mat_unpack_c(array.array("H", raw[:2 * m * n]), m, n)
        self.assertEqual(list(c), list(want))
        self.assertEqual(raw[2 * m * n:], bytes(256))

    def test_gemm_every_cluster_one_job(self):
        """A block per cluster, all in one job, each against the
        reference."""
        progs, outs = [], []
        m, n, k = 16, 8, 32
        for i, nd in enumerate(self.mg):
            insts, bc, want = self.gemm(nd, m, n, k, 100 + i)
            progs.append(kohaku.Program(nd, insts, txn=i))
            outs.append((bc, want))
        st = self.dev.run(progs)
        self.assertTrue(st.ok, st.describe())
        for bc, want in outs:
            c = kohaku.mat_unpack_c(bc.read(2 * m * n), m, n)
            self.assertEqual(c, want)

    @need_numpy
    def test_gemm_numpy(self):
        """numpy float16 matrices through the buffer protocol: A and B
        viewed as their bit patterns, C compared with the reference and,
        loosely, with numpy's own product."""
        m, n, k = 8, 8, 32
        rng = numpy.random.default_rng(5)
        a = rng.uniform(-1, 1, (m, k)).astype(numpy.float16)
        b = rng.uniform(-1, 1, (k, n)).astype(numpy.float16)
        want = numpy.zeros((m, n), dtype=numpy.uint16)
        kohaku.mat_gemm_ref(a.view(numpy.uint16), b.view(numpy.uint16),
                            m, n, k, out=want)
        nd = self.mg[0]
        ba, bb, bc = (self.dev.buffer(4096) for _ in range(3))
        ba.write(kohaku.mat_pack_a(a.view(numpy.uint16), m, k))
        bb.write(kohaku.mat_pack_b(b.view(numpy.uint16), k, n))
        self.dev.run(kohaku.Program(nd, kohaku.mat_gemm_program(
            ba.dev_addr, bb.dev_addr, bc.dev_addr, m, n, k)))
        tiles = numpy.empty(m * n, dtype=numpy.uint16)
        bc.read_into(tiles)
        c = numpy.empty((m, n), dtype=numpy.uint16)
        kohaku.mat_unpack_c(tiles, m, n, out=c)
        self.assertTrue(numpy.array_equal(c, want))
        host = a.astype(numpy.float32) @ b.astype(numpy.float32)
        self.assertTrue(numpy.allclose(c.view(numpy.float16), host,
                                       atol=0.1, rtol=0.1))

    def test_builders(self):
        """The checked builders, the decode, and their refusals."""
        f = kohaku.mat_fill(addr=0x1000, n=4, sel=1)
        op, fields = kohaku.mat_decode(f)
        self.assertEqual((fields["addr"], fields["n"], fields["sel"]),
                         (0x1000, 4, 1))
        g = kohaku.mat_gemm(gm=2, gn=3, nk=2, anchor=40)
        self.assertNotEqual(kohaku.mat_decode(g)[0], op)
        kohaku.mat_drain(addr=0x2000, n=6)
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.mat_fill(addr=0x1000, n=4, gm=1)     # GEMM's field
        self.assertEqual(cm.exception.errno, 22)
        with self.assertRaises(TypeError):
            kohaku.mat_fill(bogus=1)
        with self.assertRaises(kohaku.KohakuError):
            kohaku.mat_shape_check(8, 4, 33)
        kohaku.mat_shape_check(8, 4, 64)
        with self.assertRaises(kohaku.KohakuError):
            kohaku.mat_gemm_program(16, 0, 0, 4, 4, 32)     # unaligned
        with self.assertRaises(ValueError):
            kohaku.mat_gemm_ref([0] * 10, [0] * 128, 4, 4, 32)


if __name__ == "__main__":
    unittest.main()
