# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Compiler artifacts (docs/spec/artifact.md): parse, check, run in an
arena, and the refusals."""

import array
import errno
import json
import os
import tempfile
import unittest

import khtest
from khtest import kohaku

ARENA = 0x18000000


def saxpy_artifact(nodes, x_addr, y_addr, n=64, a=2.0, rounds=2):
    """rounds of one saxpy kick per SX node, awaited, barriers between:
    y = a*x + y, rounds * len(nodes) times."""
    flits = [kohaku.saxpy(n, a, x_addr, y_addr).to_int()]
    steps = []
    for r in range(rounds):
        if r:
            steps.append(["barrier"])
        steps.append(["seed", 1])
        for nd in nodes:
            steps.append(["kick", nd.x, nd.y, 0, 1])
        for nd in nodes:
            steps.append(["await", nd.x, nd.y, 1])
    return {"machine": "kohaku-test", "flits": flits, "steps": steps,
            "meta": {"unit": "SX"}}


class TestArtifact(unittest.TestCase):
    def setUp(self):
        if not kohaku.have("kohaku_artifact_parse"):
            self.skipTest("libkohaku has no kohaku_artifact_* API")
        self.dev = khtest.open_card(self, "saxpy")
        self.sx = self.dev.nodes_of("SX")
        self.arena = self.dev.buffer_at(ARENA, 65536)
        self.x = ARENA
        self.y = ARENA + 4096
        self.arena.write(array.array("f", [1.0] * 64), 0)
        self.arena.write(array.array("f", [0.0] * 64), 4096)

    def test_run_in_arena(self):
        """Two rounds, two nodes each: y = 4 * (2 * 1) = 8; the result
        counts the rounds and their device time."""
        d = saxpy_artifact(self.sx, self.x, self.y)
        with kohaku.Artifact.from_dict(d) as art:
            info = art.info
            self.assertEqual(info.machine, "kohaku-test")
            self.assertEqual(info.n_flits, 1)
            self.assertEqual(info.n_rounds, 2)
            self.assertEqual(info.n_kicks, 4)
            self.assertEqual(info.n_steps, len(d["steps"]))
            art.check(self.dev)
            res = art.run(self.dev, arenas=[self.arena], timeout_ms=10000)
        self.assertTrue(res.ok)
        self.assertEqual(res.rounds, 2)
        self.assertIsNone(res.failed_round)
        self.assertGreater(res.device_ns, 0)
        self.assertTrue(res.status.ok)
        self.assertEqual(set(array.array("f", self.arena.read(256, 4096))),
                         {8.0})

    def test_parse_and_load(self):
        """JSON text, bytes and a file give the same artifact; every
        payload up to 2^256-1 is an integer."""
        d = saxpy_artifact(self.sx, self.x, self.y, rounds=1)
        d["flits"].append(2 ** 256 - 1)
        text = json.dumps(d)
        a1 = kohaku.Artifact.parse(text)
        a2 = kohaku.Artifact.parse(text.encode())
        with tempfile.NamedTemporaryFile("w", suffix=".json",
                                         delete=False) as f:
            f.write(text)
        self.addCleanup(os.unlink, f.name)
        a3 = kohaku.Artifact.load(f.name)
        for a in (a1, a2, a3):
            self.assertEqual(a.info.n_flits, 2)
            self.assertEqual(a.info.n_rounds, 1)
            a.close()
        with self.assertRaises(kohaku.KohakuError):
            a1.info

    def test_parse_refusals(self):
        """Not the format: EINVAL naming the step, or line and column."""
        bad = [
            ('{"steps": [["kick", 1, 0, 0]]}', "step 0"),
            ('{"steps": [["jump"]]}', "step 0"),
            ('{"steps": []', "line"),
            ('{"flits": [1.5], "steps": []}', ""),
            ('{"steps": [["kick", 1, 0, 0, -1]]}', "step 0"),
        ]
        for text, what in bad:
            with self.assertRaises(kohaku.KohakuError, msg=text) as cm:
                kohaku.Artifact.parse(text)
            self.assertEqual(cm.exception.errno, errno.EINVAL, text)
            self.assertIn(what, cm.exception.strerror, text)
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.Artifact.load("/nonexistent/artifact.json")
        self.assertTrue(cm.exception.strerror)
        with self.assertRaises(kohaku.KohakuError) as cm:
            kohaku.Artifact.load("/")
        self.assertEqual(cm.exception.errno, errno.EINVAL)

    def test_check_refusals(self):
        """Against the mesh: no node there (ENXIO), a slot past the
        payloads (ERANGE), a unit type the card lacks (ENODEV), a kick
        after an await in one round (EINVAL); each names the step."""
        x, y = self.sx[0].x, self.sx[0].y
        flits = [kohaku.saxpy(8, 1.0, self.x, self.y).to_int()]
        cases = [
            ({"flits": flits, "steps": [["kick", 9, 9, 0, 1]]},
             errno.ENXIO),
            ({"flits": flits, "steps": [["kick", x, y, 0, 2]]},
             errno.ERANGE),
            ({"flits": flits, "steps": [["kick", x, y, 0, 1]],
              "meta": {"unit": "MG"}}, errno.ENODEV),
            ({"flits": flits, "steps": [["kick", x, y, 0, 1],
                                        ["await", x, y, 1],
                                        ["kick", x, y, 0, 1]]},
             errno.EINVAL),
            ({"flits": flits, "steps": [["seed", 100000],
                                        ["kick", x, y, 0, 1]]},
             errno.ERANGE),
        ]
        for d, want in cases:
            with kohaku.Artifact.from_dict(d) as art:
                with self.assertRaises(kohaku.KohakuError, msg=d) as cm:
                    art.check(self.dev)
                self.assertEqual(cm.exception.errno, want, d)
                self.assertIn("step", cm.exception.strerror)
                with self.assertRaises(kohaku.KohakuError) as cm:
                    art.run(self.dev, arenas=[self.arena])
                self.assertEqual(cm.exception.errno, want, d)

    def test_operand_outside_arena(self):
        """An operand outside the arenas: EACCES at SUBMIT, naming the
        round, the step and the flit; nothing ran."""
        other = self.dev.buffer(4096)
        d = saxpy_artifact(self.sx[:1], self.x, other.dev_addr, rounds=1)
        with kohaku.Artifact.from_dict(d) as art:
            with self.assertRaises(kohaku.KohakuError) as cm:
                art.run(self.dev, arenas=[self.arena])
            e = cm.exception
            self.assertEqual(e.errno, errno.EACCES)
            self.assertIn("round", e.strerror)
            self.assertIn("flit", e.strerror)
            # no arena named: every buffer of the file is reachable
            self.assertTrue(art.run(self.dev).ok)

    def test_failing_round(self):
        """A round that faults ends the run: JobError EIO naming the
        round in .result; the rounds after it do not run."""
        bad = kohaku.sx(0x7f, 8, 0, self.x, self.y).to_int()
        good = kohaku.saxpy(64, 1.0, self.x, self.y).to_int()
        x, y = self.sx[0].x, self.sx[0].y
        d = {"flits": [good, bad],
             "steps": [["kick", x, y, 0, 1], ["await", x, y, 1],
                       ["barrier"],
                       ["kick", x, y, 1, 1], ["await", x, y, 1],
                       ["barrier"],
                       ["kick", x, y, 0, 1], ["await", x, y, 1]]}
        with kohaku.Artifact.from_dict(d) as art:
            with self.assertRaises(kohaku.JobError) as cm:
                art.run(self.dev, arenas=[self.arena])
        e = cm.exception
        self.assertEqual(e.errno, errno.EIO)
        self.assertEqual(e.result.failed_round, 1)
        self.assertEqual(e.result.rounds, 1)
        self.assertEqual(e.status.status, kohaku.FAULT)
        # round 0 ran once: y = 1*x + 0 = 1, round 2 never ran
        self.assertEqual(set(array.array("f", self.arena.read(256, 4096))),
                         {1.0})


if __name__ == "__main__":
    unittest.main()
