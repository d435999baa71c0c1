# SPDX-License-Identifier: GPL-2.0 OR MIT
"""kohaku: Python bindings of libkohaku, the runtime for KohakuAccel cards.

A ctypes layer over ``libkohaku.so.0`` (nothing compiled; numpy used
through the buffer protocol when present, never required).  The same code
runs on both of the library's backends: ``kernel`` (kohaku.ko's
``/dev/accel`` nodes) and ``sim`` (the device model and the driver core in
this process, no card needed).

A tour (docs/python.md has more)::

    import array, kohaku

    with kohaku.Device.open("saxpy", backend="sim") as dev:
        sx = dev.nodes_of(kohaku.CU_SX)[0]
        x = dev.buffer(256)
        y = dev.buffer(256)
        x.write(array.array("f", range(64)))
        y.write(array.array("f", [1.0] * 64))
        dev.run(kohaku.Program(sx, [kohaku.saxpy(64, 2.0, x.dev_addr,
                                                 y.dev_addr)]))
        out = array.array("f")
        out.frombytes(y.read(256))

Errors: every negative return of the C library raises
:class:`KohakuError` (an :class:`OSError` with ``errno`` and the
library's message); a job that ends other than DONE under
:meth:`Device.run` raises :class:`JobError` with its :class:`JobStatus`.
"""

from . import _lib
from .errors import KohakuError, JobError
from .device import (Device, Info, Mesh, Node, FwLoad, FwInfo, DeviceEntry,
                     BACKEND_ENV, BACKEND_KERNEL, BACKEND_SIM, BACKEND_DAEMON, CAPS,
                     SUBMIT_UNCHECKED, backend_parse, backend_name,
                     list_devices, sim_builtin_names, sim_builtin_desc,
                     cu_type_name)
from .buffer import Buffer, READ, WRITE, RW
from .jobs import (Job, JobStatus, Syncobj, QUEUED, RUNNING, DONE, FAULT,
                   TIMEOUT, ABORTED, ERROR)
from .program import *  # noqa: F401,F403 - the builders
from .program import __all__ as _program_all
from .artifact import Artifact, ArtifactInfo, ArtifactResult

#: the package's version: the tree's one version (kohaku.h's
#: KOHAKU_LIB_VERSION_*; scripts/check-readme.sh checks they agree)
__version__ = "0.2.0"

#: where the loaded libkohaku.so.0 came from
library_path = _lib.path


def library_version():
    """The version of the libkohaku.so.0 loaded (``kohaku_version()``),
    "0.2.0"; None for a library too old to say."""
    if not _lib.have("kohaku_version"):
        return None
    return _lib.text(_lib.fn("kohaku_version")())


def have(function):
    """Whether the loaded libkohaku has the C function ``function`` (an
    older library lacks the newer API: kohaku_bo_create_at,
    kohaku_artifact_*)."""
    return _lib.have(function)


__all__ = [
    "library_version", "KohakuError", "JobError", "Device", "Info", "Mesh", "Node", "FwLoad",
    "FwInfo", "DeviceEntry", "BACKEND_ENV", "BACKEND_KERNEL", "BACKEND_SIM", "BACKEND_DAEMON",
    "CAPS", "SUBMIT_UNCHECKED", "backend_parse", "backend_name",
    "list_devices", "sim_builtin_names", "sim_builtin_desc", "cu_type_name",
    "Buffer", "READ", "WRITE", "RW", "Job", "JobStatus", "Syncobj",
    "QUEUED", "RUNNING", "DONE", "FAULT", "TIMEOUT", "ABORTED", "ERROR",
    "Artifact", "ArtifactInfo", "ArtifactResult", "library_path", "have",
] + list(_program_all)
