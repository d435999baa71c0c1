# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Opening devices, GET_INFO, the node table, meshes, listing."""

import unittest

import khtest
from khtest import kohaku


class TestOpen(unittest.TestCase):
    def test_saxpy_info_and_nodes(self):
        """saxpy: one mesh, two SX nodes at (1,0) and (1,2), ABI 0.x."""
        dev = khtest.open_card(self, "saxpy")
        info = dev.info
        self.assertEqual(info.abi[0], 0)
        self.assertGreaterEqual(info.abi[1], 8)
        self.assertEqual(info.n_meshes, 1)
        self.assertEqual(info.n_nodes, 2)
        self.assertEqual(len(dev.meshes), 1)
        self.assertGreater(dev.meshes[0].mem_size, 0)
        self.assertTrue(info.has("DMA"))
        self.assertTrue(info.has("FENCES"))
        nodes = dev.nodes()
        self.assertEqual(len(nodes), 2)
        self.assertEqual(sorted(n.coord for n in nodes),
                         [(0, 1, 0), (0, 1, 2)])
        for n in nodes:
            self.assertEqual(n.cu_type, kohaku.CU_SX)
            self.assertEqual(n.type_name, "SX")
            self.assertGreater(n.inst_depth, 0)
        self.assertEqual(len(dev.nodes(live=True)), 2)
        self.assertEqual(len(dev.nodes_of("SX")), 2)
        self.assertEqual(dev.nodes_of(kohaku.CU_GP), [])
        self.assertIn(dev.backend, ("sim", "kernel", "daemon"))
        if khtest.kernel():
            self.assertGreaterEqual(dev.fd, 0)
        else:
            self.assertTrue(info.has("SIMULATED"))
            self.assertEqual(dev.fd, -1)
            self.assertEqual(dev.path, "%s:saxpy" % dev.backend)
            self.assertIn("saxpy", repr(dev) + info.name)

    def test_pool_info_and_nodes(self):
        """pool: three POOL units (GP) beside SX and null units, their
        firmware state, FIRMWARE capability."""
        dev = khtest.open_card(self, "pool")
        self.assertTrue(dev.info.has("FIRMWARE"))
        gp = dev.nodes_of(kohaku.CU_GP)
        self.assertEqual(len(gp), 3)
        self.assertEqual(len(dev.nodes_of(kohaku.CU_SX)), 2)
        for n in gp:
            self.assertEqual(n.type_name, "GP")
            self.assertIn(n.fw_state_name, ("running", "absent", "failed",
                                            "booting"))
        self.assertEqual(dev.info.n_nodes, len(dev.nodes()))

    def test_mesh_2x2_8_2(self):
        """KohakuTPU's shipped map: eight mat clusters, two vector cores."""
        dev = khtest.open_card(self, "mesh_2x2_8+2")
        self.assertEqual(len(dev.nodes_of("MG")), 8)
        self.assertEqual(len(dev.nodes_of("VC")), 2)

    def test_context_manager_and_close(self):
        """A with block closes; a closed device raises EBADF."""
        device, backend = khtest.card_device(self, "saxpy")
        with kohaku.Device.open(device, backend=backend) as dev:
            self.assertFalse(dev.closed)
        self.assertTrue(dev.closed)
        dev.close()     # twice is fine
        with self.assertRaises(kohaku.KohakuError) as cm:
            dev.nodes()
        self.assertEqual(cm.exception.errno, 9)
        self.assertIn("closed", repr(dev))

    def test_reopen_is_another_file(self):
        """A reopened device has its own buffers: the first one's handle
        is not the second one's (ENOENT)."""
        dev = khtest.open_card(self, "saxpy")
        other = dev.reopen()
        self.addCleanup(other.close)
        b = dev.buffer(4096)
        self.assertEqual(other.info.n_nodes, dev.info.n_nodes)
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.Buffer(other, b.handle)
        self.assertEqual(cm.exception.errno, 2)

    def test_env_backend(self):
        """Backend None reads KOHAKU_BACKEND, device None KOHAKU_DEVICE."""
        import os
        if khtest.kernel():
            self.skipTest("in-process cards")
        old = {k: os.environ.get(k) for k in ("KOHAKU_BACKEND",
                                              "KOHAKU_DEVICE")}
        try:
            os.environ["KOHAKU_BACKEND"] = "sim"
            os.environ["KOHAKU_DEVICE"] = "sx_null_2x2"
            with kohaku.Device.open() as dev:
                self.assertEqual(dev.backend, "sim")
                self.assertEqual(dev.path, "sim:sx_null_2x2")
            os.environ["KOHAKU_BACKEND"] = "bogus"
            with self.assertRaises(kohaku.KohakuError) as cm:
                kohaku.Device.open()
            self.assertEqual(cm.exception.errno, 22)
            self.assertIn("KOHAKU_BACKEND", cm.exception.strerror)
        finally:
            for k, v in old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    def test_description_text(self):
        """A description text (with a newline) is a card of its own."""
        if khtest.kernel():
            self.skipTest("in-process cards")
        desc = kohaku.sim_builtin_desc("saxpy")
        self.assertIn("\n", desc)
        with kohaku.Device.open(desc, backend="sim") as dev:
            self.assertEqual(len(dev.nodes_of("SX")), 2)

    def test_backend_parse(self):
        self.assertEqual(kohaku.backend_parse("sim"), kohaku.BACKEND_SIM)
        self.assertEqual(kohaku.backend_parse("kernel"),
                         kohaku.BACKEND_KERNEL)
        self.assertEqual(kohaku.backend_parse(None), kohaku.BACKEND_ENV)
        self.assertEqual(kohaku.backend_name(kohaku.BACKEND_SIM), "sim")
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.backend_parse("gpu")
        self.assertEqual(cm.exception.errno, 22)

    def test_list_devices_and_builtins(self):
        names = kohaku.sim_builtin_names()
        for n in ("saxpy", "pool", "mesh_2x2_8+2", "sx_null_2x2"):
            self.assertIn(n, names)
        import os
        old = os.environ.pop("KOHAKU_DEVICE", None)
        try:
            ents = kohaku.list_devices("sim")
        finally:
            if old is not None:
                os.environ["KOHAKU_DEVICE"] = old
        self.assertTrue(any(e.path == "sim:saxpy" and e.usable
                            for e in ents), ents)
        if khtest.kernel():
            ents = kohaku.list_devices("kernel")
            self.assertTrue(any(e.usable for e in ents), ents)

    def test_cu_type_name(self):
        self.assertEqual(kohaku.cu_type_name(kohaku.CU_SX), "SX")
        self.assertEqual(kohaku.cu_type_name(0), "null")


if __name__ == "__main__":
    unittest.main()
