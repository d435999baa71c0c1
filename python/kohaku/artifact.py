# SPDX-License-Identifier: GPL-2.0 OR MIT
"""KohakuTPU compiler artifacts (docs/spec/artifact.md, docs/runtime.md
"Artifacts").

An artifact is what KohakuTPU's compiler produces
(``Artifact.to_dict()`` as JSON): 256-bit instruction payloads by staging
slot and steps (seed, kick, await, barrier).  :meth:`Artifact.parse`,
:meth:`Artifact.load` and :meth:`Artifact.from_dict` check its format
(``kohaku_artifact_parse`` / ``_load``); :meth:`Artifact.check` checks it
against a device's mesh; :meth:`Artifact.run` runs it through SUBMIT, one
job per round, in the caller's arenas (buffers made with
:meth:`kohaku.Device.buffer_at` at the artifact's absolute addresses).
"""

import ctypes
import json
import os

from . import _lib
from ._lib import fn, text
from .errors import JobError, KohakuError, check
from .jobs import JobStatus

__all__ = ["Artifact", "ArtifactInfo", "ArtifactResult"]


class ArtifactInfo:
    """What an artifact holds: machine, n_flits, n_steps, n_rounds
    (barriers + 1), n_kicks."""

    def __init__(self, c):
        self.machine = text(c.machine)
        self.n_flits = c.n_flits
        self.n_steps = c.n_steps
        self.n_rounds = c.n_rounds
        self.n_kicks = c.n_kicks

    def __repr__(self):
        return ("<kohaku.ArtifactInfo machine=%r %d flits, %d steps, "
                "%d rounds, %d kicks>" % (self.machine, self.n_flits,
                                          self.n_steps, self.n_rounds,
                                          self.n_kicks))


class ArtifactResult:
    """How a run went (``struct kohaku_artifact_result``): rounds (that
    finished DONE), failed_round (None when none failed), device_ns (the
    rounds' device time), status (:class:`kohaku.JobStatus` of the failed
    round, else the last one's)."""

    def __init__(self, c):
        self.rounds = c.rounds
        self.failed_round = None if c.failed_round == 0xffffffff \
            else c.failed_round
        self.device_ns = c.device_ns
        self.status = JobStatus(c.status)

    @property
    def ok(self):
        """True when every round finished DONE."""
        return self.failed_round is None

    def __repr__(self):
        return "<kohaku.ArtifactResult %d rounds done%s, %d ns>" % (
            self.rounds, "" if self.ok else ", round %d failed: %s" % (
                self.failed_round, self.status.describe()), self.device_ns)


def _errbuf():
    """A buffer for the library's messages."""
    return ctypes.create_string_buffer(_lib.KOHAKU_ERRMSG_MAX)


class Artifact:
    """A parsed artifact.  Free it with :meth:`close` or a ``with`` block
    (it is also freed when collected)."""

    def __init__(self, ptr):
        self._ptr = ptr

    @classmethod
    def parse(cls, json_text):
        """Parse JSON text (str or bytes).  KohakuError EINVAL says which
        step or flit breaks the format, and why."""
        if isinstance(json_text, str):
            json_text = json_text.encode("utf-8")
        json_text = bytes(json_text)
        p = ctypes.c_void_p()
        err = _errbuf()
        r = fn("kohaku_artifact_parse")(json_text, len(json_text),
                                        ctypes.byref(p), err,
                                        _lib.KOHAKU_ERRMSG_MAX)
        check(r, "kohaku_artifact_parse", message=text(err.value) or None)
        return cls(p)

    @classmethod
    def load(cls, path):
        """Parse an artifact file (a regular file only)."""
        p = ctypes.c_void_p()
        err = _errbuf()
        r = fn("kohaku_artifact_load")(os.fsencode(path), ctypes.byref(p),
                                       err, _lib.KOHAKU_ERRMSG_MAX)
        check(r, "kohaku_artifact_load", message=text(err.value) or None)
        return cls(p)

    @classmethod
    def from_dict(cls, d):
        """An artifact from its dict (the compiler's
        ``Artifact.to_dict()``), serialised with :mod:`json`."""
        return cls.parse(json.dumps(d))

    def _check_open(self):
        """The raw artifact pointer; EBADF once freed."""
        if self._ptr is None:
            raise KohakuError(9, "the artifact was freed", "Artifact")
        return self._ptr

    @property
    def info(self):
        """:class:`ArtifactInfo`."""
        c = _lib.ArtifactInfo_C()
        fn("kohaku_artifact_info")(self._check_open(), ctypes.byref(c),
                                   ctypes.sizeof(c))
        return ArtifactInfo(c)

    def check(self, device, mesh=0):
        """Check it against ``device``'s mesh without running it: ENXIO a
        coordinate with no node, ERANGE a slot past the staging depth or a
        seed above the credit, ENODEV a kick of a node type the card
        lacks, EINVAL a schedule Kohaku cannot run as jobs; the message
        names the step."""
        d = device._check_open()
        check(fn("kohaku_artifact_check")(d, self._check_open(), mesh),
              "kohaku_artifact_check", d)

    def run(self, device, arenas=(), mesh=0, timeout_ms=0):
        """Check, then run every round (``kohaku_artifact_run``); returns
        an :class:`ArtifactResult` once each has ended DONE.

        ``arenas``: the buffers (:class:`kohaku.Buffer` or handles) every
        operand must lie in; empty: every buffer of the device's file on
        the mesh.  ``timeout_ms``: each round's limit (0: default).  A
        round that fails raises :class:`kohaku.JobError` (EIO, ETIMEDOUT,
        ECANCELED) with ``.result`` and ``.status``; a SUBMIT refusal
        (EACCES: an operand outside the arenas) or a failed check raises
        KohakuError."""
        d = device._check_open()
        hs = [getattr(a, "handle", a) for a in arenas]
        args = _lib.ArtifactRun_C()
        args.mesh = mesh
        arr = None
        if hs:
            arr = (ctypes.c_uint32 * len(hs))(*hs)
            args.arenas = ctypes.cast(arr, ctypes.POINTER(ctypes.c_uint32))
        args.n_arenas = len(hs)
        args.timeout_ms = timeout_ms
        res = _lib.ArtifactResult_C()
        res.failed_round = 0xffffffff
        r = fn("kohaku_artifact_run")(d, self._check_open(),
                                      ctypes.byref(args), ctypes.byref(res),
                                      ctypes.sizeof(res))
        result = ArtifactResult(res)
        if r < 0:
            msg = text(_lib.lib.kohaku_last_error(d)) or None
            if result.failed_round is not None and r in (-5, -110, -125):
                raise JobError(-r, msg, "kohaku_artifact_run",
                               status=result.status, result=result)
            e = KohakuError(-r, msg, "kohaku_artifact_run")
            e.result = result
            raise e
        return result

    def close(self):
        """Free it (``kohaku_artifact_free``); once only."""
        p, self._ptr = self._ptr, None
        if p is not None:
            fn("kohaku_artifact_free")(p)

    free = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        if self._ptr is None:
            return "<kohaku.Artifact freed>"
        return "<kohaku.Artifact %r>" % (self.info,)
