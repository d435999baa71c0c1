# SPDX-License-Identifier: GPL-2.0 OR MIT
"""kohaku.ktpu: KohakuTPU's runtime on a Kohaku device.

KohakuTPU is not in the tree and the tests need nothing outside it, so the
dispatch path runs here under a stand-in for the few names kohaku.ktpu
imports from it (kohakuaccel.dispatch.plan, MachineSpec/MeshSpec, Arena,
Runtime; kohakutpu.rt.Holder, BATCH_BYTES), written from what their
interfaces are documented to do (docs/python.md "KohakuTPU's runtime on
Kohaku"), with their planner's two rules: every round restages from slot
0, and a node is awaited once for all it was kicked.  The check against
KohakuTPU itself is made out of the tree (the closing note of the stop
that added this says what ran).
"""

import os
import shutil
import struct
import sys
import tempfile
import textwrap
import unittest

import khtest
from khtest import kohaku

STUB = {
    "kohakuaccel/__init__.py": "",
    "kohakuaccel/dispatch.py": '''
        class _Art:
            def __init__(self, flits, steps):
                self.flits, self.steps = flits, steps
            def to_dict(self):
                return {"machine": "stub", "flits": list(self.flits),
                        "steps": [list(s) for s in self.steps], "meta": {}}

        def plan(payloads, nodes, stage_flits=128, credits=512,
                 name="kernel", acks=None):
            out = []
            for i, key in enumerate(sorted(payloads)):
                x, y = nodes[i % len(nodes)]
                words = payloads[key]
                for at in range(0, len(words), stage_flits):
                    w = words[at:at + stage_flits]
                    out.append(_Art(w, [("seed", credits),
                                        ("kick", x, y, 0, len(w)),
                                        ("await", x, y, len(w))]))
            return out
        ''',
    "kohakuaccel/machinespec.py": '''
        class MeshSpec:
            def __init__(self, index=0, units=None, agent=None):
                self.index, self.units, self.agent = index, dict(units), agent

        class MachineSpec:
            def __init__(self, name, meshes, default=0, inst_depth=512):
                self.name, self.meshes, self.default = name, meshes, default
                self.inst_depth, self.stage_flits = inst_depth, 128
            def mesh(self, m=None):
                return self.meshes[0]
            def coords(self, unit):
                got = self.mesh().units.get(unit)
                if not got:
                    raise ValueError("no %s units" % unit)
                return got
            def count(self, unit):
                return len(self.mesh().units.get(unit, ()))
        ''',
    "kohakuaccel/memory.py": '''
        class Arena:
            def __init__(self, base, size, align=64, mesh=0):
                self.base, self.size, self.align, self.used = base, size, align, 0
            def alloc(self, n):
                at = self.base + self.used
                self.used += -(-n // self.align) * self.align
                if self.used > self.size:
                    raise MemoryError("arena full")
                return at
        ''',
    "kohakuaccel/rt.py": '''
        class Runtime:
            def __init__(self, machine, arena, transport, ctrl=None):
                self.machine, self.arena, self.transport = machine, arena, transport
                self.counters = dict.fromkeys(("dispatches", "rounds", "flits",
                                               "sent", "fetched"), 0)
            def alloc(self, n):
                return self.arena.alloc(n)
            def write(self, addr, blob):
                self.counters["sent"] += len(blob)
                self.transport.write_block(addr, blob)
            def read(self, addr, n):
                self.counters["fetched"] += n
                return self.transport.read_block(addr, n)
        ''',
    "kohakutpu/__init__.py": "",
    "kohakutpu/isa/__init__.py": "",
    "kohakutpu/isa/vecemit.py": "BATCH_BYTES = 64\n",
    "kohakutpu/rt.py": "class Holder:\n    pass\n",
}


def _inst_int(inst):
    """A kohaku.Inst as the 256-bit integer an artifact carries."""
    return sum(int(inst.w[k]) << (64 * k) for k in range(4))


class TestKtpu(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="kohaku-ktpu-stub-")
        for path, text in STUB.items():
            full = os.path.join(cls.tmp, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(textwrap.dedent(text))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def setUp(self):
        if not kohaku.have("kohaku_artifact_run"):
            self.skipTest("libkohaku has no kohaku_artifact_run")
        for m in [m for m in sys.modules
                  if m.split(".")[0] in ("kohakuaccel", "kohakutpu")]:
            del sys.modules[m]
        import kohaku.ktpu as ktpu
        ktpu._CLASS = None
        self.ktpu = ktpu
        self.dev = khtest.open_card(self, "saxpy")

    def _with_stub(self):
        sys.path.insert(0, self.tmp)
        self.addCleanup(sys.path.remove, self.tmp)

    def test_needs_kohakutpu(self):
        """Without KohakuTPU importable, device() says what to do."""
        saved = {m: sys.modules.get(m) for m in ("kohakuaccel", "kohakutpu")}
        for m in saved:
            sys.modules[m] = None       # import raises ImportError
        self.addCleanup(sys.modules.update, saved)
        with self.assertRaises(ImportError) as cm:
            self.ktpu.device(self.dev)
        self.assertIn("PYTHONPATH", str(cm.exception))

    def test_saxpy_through_dispatch(self):
        """Bytes through the arena transport, a kernel through artifacts:
        the saxpy card's answer (its integer datapath)."""
        self._with_stub()
        rt = self.ktpu.device(self.dev)
        self.addCleanup(rt.close)
        self.assertEqual(rt.arena_buf.dev_addr, self.ktpu.ARENA_BASE)
        self.assertEqual(rt.machine.coords("SX"),
                         tuple(sorted((n.x, n.y) for n in self.dev.nodes()
                                      if n.type_name == "SX")))
        n = 64
        x, y = rt.alloc(4 * n), rt.alloc(4 * n)
        xs = [float(i) for i in range(n)]
        ys = [float(3 * i + 1) for i in range(n)]
        rt.write(x, struct.pack("<%df" % n, *xs))
        rt.write(y, struct.pack("<%df" % n, *ys))
        half = n // 2
        payloads = {k: [_inst_int(kohaku.saxpy(half, 2.0, x + 4 * half * k,
                                               y + 4 * half * k))]
                    for k in range(2)}
        self.assertEqual(rt.dispatch(payloads, "SX"), 2)
        self.assertEqual(rt.counters["rounds"], 2)
        got = struct.unpack("<%df" % n, rt.read(y, 4 * n))
        sx = [nd for nd in self.dev.nodes() if nd.type_name == "SX"][0]
        if sx.sx_datapath == 0:     # saxpy_cu: i2f(f2i(a)*f2i(x)+f2i(y))
            want = [float(2 * int(a) + int(b)) for a, b in zip(xs, ys)]
        else:
            want = [2.0 * a + b for a, b in zip(xs, ys)]
        self.assertEqual(list(got), want)

    def test_unit_checked(self):
        """A dispatch names its unit: a kernel for another kind of node is
        refused by the artifact's check, not run."""
        self._with_stub()
        rt = self.ktpu.device(self.dev)
        self.addCleanup(rt.close)
        rt.machine.mesh().units["MG"] = rt.machine.coords("SX")
        with self.assertRaises(kohaku.KohakuError) as cm:
            rt.dispatch({0: [1]}, "MG")
        self.assertIn("MG", cm.exception.strerror)

    def test_transport_stays_in_the_arena(self):
        """Addresses outside the arena are refused; no register access."""
        self._with_stub()
        rt = self.ktpu.device(self.dev, size=1 << 20)
        self.addCleanup(rt.close)
        t = rt.transport
        t.write_block(t.base + t.size - 4, b"last")
        self.assertEqual(t.read_block(t.base + t.size - 4, 4), b"last")
        for addr, n in ((t.base - 4, 8), (t.base + t.size - 4, 8)):
            with self.assertRaises(ValueError):
                t.read_block(addr, n)
            with self.assertRaises(ValueError):
                t.write_block(addr, b"\0" * n)
        with self.assertRaises(NotImplementedError):
            t.read64(t.base)

    def test_second_arena_on_the_mesh_busy(self):
        """Two runtimes on one mesh may not share an arena: EBUSY, from
        any open device."""
        self._with_stub()
        rt = self.ktpu.device(self.dev)
        self.addCleanup(rt.close)
        with self.assertRaises(kohaku.KohakuError) as cm:
            self.ktpu.device(self.dev)
        self.assertEqual(cm.exception.errno, 16)
        other = self.ktpu.device(self.dev, base=self.ktpu.ARENA_BASE
                                 + self.ktpu.ARENA_SIZE)
        other.close()


if __name__ == "__main__":
    unittest.main()
