# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Opening a device, and what it is: info, meshes, nodes, firmware.

:meth:`Device.open` is ``kohaku_open``: a backend and a device string as
the C library takes them.

* backend ``"kernel"``: the device is a node path (``/dev/accel/accel0``;
  before Linux 6.2 ``/dev/dri/renderD128``), a node name (``accel0``) or
  a number (``"0"``); none means the first kohaku node.
* backend ``"sim"``: the device model and the driver core in this process;
  the device is a built-in card description name (``"saxpy"``,
  ``"pool"``, ``"mesh_2x2_8+2"``: :func:`sim_builtin_names`), a path to
  a description file, or description text (anything with a newline).
* backend ``"daemon"``: a card kohakud holds, shared with every process
  that names it (docs/kohakud.md); the device names it as for ``"sim"``.
* backend ``None`` (``"env"``): ``$KOHAKU_BACKEND`` (``kernel`` when
  unset), and a device of ``None`` reads ``$KOHAKU_DEVICE``.

There is never a fallback from one backend to the other.  The sim backend
also reads ``KOHAKU_FIRMWARE_PATH`` / ``KOHAKU_FIRMWARE`` (the POOL firmware
it boots at open), ``KOHAKU_SIM_CHECK``, ``KOHAKU_SIM_IRQ``,
``KOHAKU_SIM_CTRL`` and ``KOHAKU_LOG`` (docs/runtime.md).
"""

import ctypes
import weakref

from . import _lib
from ._lib import fn, text
from .buffer import Buffer
from .errors import JobError, KohakuError, check
from .jobs import Job, JobStatus, Syncobj, _job_error
from .program import programs_to_c

__all__ = ["Device", "Info", "Mesh", "Node", "FwLoad", "FwInfo",
           "BACKEND_ENV", "BACKEND_KERNEL", "BACKEND_SIM", "BACKEND_DAEMON",
           "backend_parse",
           "backend_name", "list_devices", "sim_builtin_names",
           "sim_builtin_desc", "cu_type_name"]

BACKEND_ENV = 0
BACKEND_KERNEL = 1
BACKEND_SIM = 2
BACKEND_DAEMON = 3

#: KOHAKU_CAP_* bits of Info.caps
CAPS = {
    "SIMULATED": 1 << 0, "DMA": 1 << 1, "IRQ": 1 << 2, "FENCES": 1 << 3,
    "FIRMWARE": 1 << 4, "JOB_DATA": 1 << 5, "DXA": 1 << 6,
    "CTRL32": 1 << 7, "JOB_BOS": 1 << 8, "LEASE": 1 << 9,
    "BO_FIXED": 1 << 10, "PEER_SIGNALS": 1 << 11,
}
SUBMIT_FILE_BOS = 1
SUBMIT_UNCHECKED = 2
NODES_LIVE = 1


def backend_parse(backend):
    """A backend number from ``None``/"env", "kernel", "sim", "daemon" or a number
    (``kohaku_backend_parse``); KohakuError EINVAL for anything else."""
    if backend is None or backend == "env":
        return BACKEND_ENV
    if isinstance(backend, int):
        return backend
    out = ctypes.c_int()
    r = fn("kohaku_backend_parse")(str(backend).encode(), ctypes.byref(out))
    if r < 0:
        raise KohakuError(-r, "%r is not a backend: kernel, sim or daemon" %
                          (backend,), "kohaku_backend_parse")
    return out.value


def backend_name(backend):
    """"kernel", "sim", "daemon" or "env" (``kohaku_backend_name``)."""
    return text(fn("kohaku_backend_name")(backend))


def cu_type_name(cu_type):
    """A cu_type as text: "SX", "null" for 0, ... (``kohaku_cu_type_name``)."""
    buf = ctypes.create_string_buffer(16)
    return text(fn("kohaku_cu_type_name")(cu_type, buf, 16))


def sim_builtin_names():
    """The built-in simulated card descriptions' names."""
    p = fn("kohaku_sim_builtin_names")()
    out = []
    i = 0
    while p and p[i]:
        out.append(text(p[i]))
        i += 1
    return out


def sim_builtin_desc(name):
    """A built-in card description's text, or None."""
    r = fn("kohaku_sim_builtin_desc")(name.encode())
    return None if r is None else text(r)


def _s(c, fields):
    """A dict of a ctypes struct's fields."""
    return {f: getattr(c, f) for f in fields}


class DeviceEntry:
    """One entry of :func:`list_devices` (``struct kohaku_device_entry``):
    backend, index, status (0 or -errno), path, driver, name, n_meshes,
    n_nodes, message (why status != 0)."""

    def __init__(self, e):
        self.backend = e.backend
        self.index = e.index
        self.status = e.status
        self.path = text(e.path)
        self.driver = text(e.driver)
        self.name = text(e.name)
        self.n_meshes = e.n_meshes
        self.n_nodes = e.n_nodes
        self.message = text(e.message)

    @property
    def usable(self):
        """A usable kohaku device."""
        return self.status == 0

    def __repr__(self):
        return "<kohaku.DeviceEntry %s %s status=%d%s>" % (
            self.path, self.name, self.status,
            ": " + self.message if self.message else "")


def list_devices(backend=None):
    """The devices of a backend (``kohaku_list_devices``): kernel: every
    node under /dev/accel with its status and reason; sim: the card
    KOHAKU_DEVICE names, else every built-in description."""
    b = backend_parse(backend)
    lst = ctypes.POINTER(_lib.DeviceEntry_C)()
    n = ctypes.c_uint()
    err = ctypes.create_string_buffer(_lib.KOHAKU_ERRMSG_MAX)
    r = fn("kohaku_list_devices")(b, ctypes.byref(lst), ctypes.byref(n),
                                  ctypes.sizeof(_lib.DeviceEntry_C), err,
                                  _lib.KOHAKU_ERRMSG_MAX)
    check(r, "kohaku_list_devices", message=text(err.value) or None)
    try:
        return [DeviceEntry(lst[i]) for i in range(n.value)]
    finally:
        fn("kohaku_free_device_list")(lst)


class Mesh:
    """One mesh of :attr:`Info.meshes` (``struct drm_kohaku_mesh_info``):
    index, n_nodes, grid_lo, grid_hi, pos_width, agent (x, y),
    cu_version, flit_width, min_inst_depth, caps_reg, mem_size,
    mem_free, flags."""

    _F = ("flags", "n_nodes", "grid_lo", "grid_hi", "pos_width", "agent_x",
          "agent_y", "cu_version", "flit_width", "min_inst_depth",
          "caps_reg", "mem_size", "mem_free")

    def __init__(self, index, m):
        self.index = index
        self.__dict__.update(_s(m, self._F))

    @property
    def agent(self):
        """The orchestrator's (x, y)."""
        return (self.agent_x, self.agent_y)

    def __repr__(self):
        return "<kohaku.Mesh %d: %d nodes, %d MiB>" % (
            self.index, self.n_nodes, self.mem_size >> 20)


class Info:
    """GET_INFO as read at open (``kohaku_get_info``): name, abi_version
    (major << 16 | minor; ``abi`` as a tuple), caps (KOHAKU_CAP_* bits;
    :meth:`has` by name), n_meshes, n_nodes, meshes (:class:`Mesh`)."""

    def __init__(self, gi):
        self.name = text(gi.name)
        self.abi_version = gi.abi_version
        self.caps = gi.caps
        self.n_meshes = gi.n_meshes
        self.n_nodes = gi.n_nodes
        self.flags = gi.flags
        self.meshes = [Mesh(i, gi.mesh[i]) for i in range(gi.n_meshes)]

    @property
    def abi(self):
        """(major, minor) of the driver's ABI."""
        return (self.abi_version >> 16, self.abi_version & 0xffff)

    def has(self, cap):
        """Whether a capability is offered: "FENCES", "BO_FIXED", ... (the
        KOHAKU_CAP_ name without its prefix) or a bit."""
        bit = CAPS[cap.upper()] if isinstance(cap, str) else int(cap)
        return bool(self.caps & bit)

    @property
    def cap_names(self):
        """The names of the capabilities offered."""
        return [n for n, b in CAPS.items() if self.caps & b]

    def __repr__(self):
        return "<kohaku.Info %s ABI %d.%d: %d meshes, %d nodes, caps %s>" % (
            self.name, self.abi[0], self.abi[1], self.n_meshes, self.n_nodes,
            ",".join(self.cap_names))


class Node:
    """One enumerated node (``struct drm_kohaku_node``): mesh, x, y,
    cu_type (``type_name`` in words: "SX", "GP", "null"), n_buffers,
    cu_version, flags, inst_depth, inst_space, retired, busy_cycles, busy,
    caps_reg, dbg and the POOL firmware fields fw_state, fw_version,
    fw_api, fw_boot_ns, fw_trap.  Usable wherever a Program wants a
    node."""

    _F = ("mesh", "x", "y", "n_buffers", "cu_type", "cu_version", "flags",
          "inst_depth", "inst_space", "retired", "busy_cycles", "busy",
          "caps_reg", "dbg", "fw_state", "fw_version", "fw_api",
          "fw_boot_ns", "fw_trap")

    def __init__(self, nd):
        self._c = _lib.Node_C()
        ctypes.memmove(ctypes.byref(self._c), ctypes.byref(nd),
                       ctypes.sizeof(nd))
        self.__dict__.update(_s(nd, self._F))

    @property
    def coord(self):
        """(mesh, x, y)."""
        return (self.mesh, self.x, self.y)

    @property
    def type_name(self):
        """cu_type in words (``kohaku_cu_type_name``)."""
        return cu_type_name(self.cu_type)

    @property
    def fw_state_name(self):
        """The POOL firmware state in words ("running", "absent", ...)."""
        return text(fn("kohaku_fw_state_name")(self.fw_state))

    @property
    def sx_datapath(self):
        """An SX node's datapath (program.DATAPATH_RTL or _FMA), from its
        CU_DBG (``kohaku_sx_datapath_of``)."""
        return fn("kohaku_sx_datapath_of")(ctypes.byref(self._c))

    def __repr__(self):
        return "<kohaku.Node mesh %d (%d,%d) %s>" % (
            self.mesh, self.x, self.y, self.type_name)


class FwLoad:
    """FW_LOAD's report (``struct drm_kohaku_fw_load``): n_units, reason
    (KOHAKU_FW_ERR_*; ``reason_text``), detail, fw_version, fw_api,
    loaded_by, boot_ns, fail node and trap."""

    _F = ("n_units", "reason", "detail", "fw_version", "fw_api",
          "fail_mesh", "fail_x", "fail_y", "loaded_by", "boot_ns",
          "fail_trap")

    def __init__(self, c):
        self.__dict__.update(_s(c, self._F))

    @property
    def reason_text(self):
        """The reason in words (``kohaku_fw_reason``)."""
        return text(fn("kohaku_fw_reason")(self.reason))

    def __repr__(self):
        return "<kohaku.FwLoad %d units, version 0x%x, api %d.%d: %s>" % (
            self.n_units, self.fw_version, self.fw_api >> 16,
            self.fw_api & 0xffff, self.reason_text)


class FwInfo:
    """What POOL firmware runs (``kohaku_fw_info``): units, running,
    fw_version, fw_api, driver_api, status (the host's own load at bind
    or open, in words)."""

    def __init__(self, c):
        self.units = c.units
        self.running = c.running
        self.fw_version = c.fw_version
        self.fw_api = c.fw_api
        self.driver_api = c.driver_api
        self.status = text(c.status)

    def __repr__(self):
        return "<kohaku.FwInfo %d/%d units running 0x%x: %s>" % (
            self.running, self.units, self.fw_version, self.status)


class Device:
    """An open kohaku device (one open file of it).

    Use :meth:`open`; close with :meth:`close` or a ``with`` block.
    Closing frees its buffers, syncobjs and forgets its jobs.
    """

    def __init__(self, ptr):
        self._ptr = ptr
        self._buffers = weakref.WeakSet()
        gi = _lib.GetInfo_C()
        check(fn("kohaku_get_info")(ptr, ctypes.byref(gi), ctypes.sizeof(gi)),
              "kohaku_get_info", ptr)
        self._info = Info(gi)

    # ---- open and close

    @classmethod
    def open(cls, device=None, backend=None, map=None):
        """Open a device (``kohaku_open``).  ``backend``: None/"env"
        (KOHAKU_BACKEND, kernel when unset), "kernel" or "sim";
        ``device``: as the backend takes it (None: KOHAKU_DEVICE).
        ``map=NAME`` is ``backend="sim", device=NAME`` (the CLI's
        --map).  Raises KohakuError: EINVAL bad backend or device string,
        ENOENT no such node or description, ENODEV not a kohaku device,
        EACCES, EPROTO (ABI major mismatch)."""
        if map is not None:
            if device is not None:
                raise ValueError("Device.open: map and device both name "
                                 "the card")
            device, backend = map, "sim" if backend is None else backend
        b = backend_parse(backend)
        ptr = ctypes.c_void_p()
        err = ctypes.create_string_buffer(_lib.KOHAKU_ERRMSG_MAX)
        dstr = None if device is None else str(device).encode()
        r = fn("kohaku_open")(b, dstr, ctypes.byref(ptr), err,
                              _lib.KOHAKU_ERRMSG_MAX)
        check(r, "kohaku_open", message=text(err.value) or None)
        try:
            return cls(ptr)
        except BaseException:
            fn("kohaku_close")(ptr)
            raise

    def reopen(self):
        """Another, independent open file on the same device
        (``kohaku_reopen``): its buffers and jobs are its own."""
        d = self._check_open()
        ptr = ctypes.c_void_p()
        check(fn("kohaku_reopen")(d, ctypes.byref(ptr)), "kohaku_reopen", d)
        return Device(ptr)

    def close(self):
        """Close (``kohaku_close``): frees the file's buffers and forgets its
        jobs.  A second call does nothing."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            for b in list(self._buffers):
                b._freed = True
            self._buffers = weakref.WeakSet()
            fn("kohaku_close")(ptr)

    @property
    def closed(self):
        """Whether the device was closed."""
        return self._ptr is None

    def _check_open(self):
        """The raw device pointer; EBADF once closed."""
        if self._ptr is None:
            raise KohakuError(9, "the device is closed", "Device")
        return self._ptr

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def last_error(self):
        """The reason for the last failed call on this device by this
        thread ("" when none)."""
        return text(fn("kohaku_last_error")(self._check_open()))

    @property
    def backend(self):
        """"kernel" or "sim"."""
        return backend_name(fn("kohaku_device_backend")(self._check_open()))

    @property
    def path(self):
        """What it was opened as: node path, or the description."""
        return text(fn("kohaku_device_path")(self._check_open()))

    @property
    def fd(self):
        """The kernel backend's file descriptor; -1 on the sim backend."""
        return fn("kohaku_device_fd")(self._check_open())

    # ---- what it is

    @property
    def info(self):
        """:class:`Info`: GET_INFO as read at open."""
        self._check_open()
        return self._info

    @property
    def meshes(self):
        """The meshes present, :class:`Mesh` each."""
        return self.info.meshes

    def nodes(self, live=False):
        """The enumerated node table (``kohaku_nodes_alloc``), a list of
        :class:`Node`; ``live`` re-reads status and counters."""
        d = self._check_open()
        p = ctypes.POINTER(_lib.Node_C)()
        n = ctypes.c_uint()
        check(fn("kohaku_nodes_alloc")(d, NODES_LIVE if live else 0,
                                       ctypes.byref(p),
                                       ctypes.sizeof(_lib.Node_C),
                                       ctypes.byref(n)),
              "kohaku_nodes_alloc", d)
        try:
            return [Node(p[i]) for i in range(n.value)]
        finally:
            libc_free(p)

    def nodes_of(self, cu_type, live=False):
        """The nodes of one cu_type (program.CU_SX, ..., or its name "SX",
        "GP", "MG")."""
        if isinstance(cu_type, str):
            cu_type = (ord(cu_type[0]) << 8) | ord(cu_type[1]) \
                if cu_type != "null" else 0
        return [n for n in self.nodes(live) if n.cu_type == cu_type]

    # ---- memory

    def buffer(self, size, mesh=0):
        """A new :class:`Buffer` of at least ``size`` bytes on ``mesh``."""
        return Buffer.create(self, size, mesh)

    def buffer_at(self, dev_addr, size, mesh=None):
        """A :class:`Buffer` at a fixed device address (an arena; ABI
        0.9)."""
        return Buffer.create_at(self, dev_addr, size, mesh)

    # ---- jobs

    def submit(self, programs, timeout_ms=0, buffers=None, in_syncobjs=(),
               out_syncobj=None, flags=0):
        """Submit one job (``kohaku_submit_ex``) and return its :class:`Job`.

        ``programs``: a :class:`kohaku.Program` or a list, one per target
        node.  ``timeout_ms``: the job's limit in device time (0: the
        default, 10 s).  ``buffers``: the buffers the job reaches (ABI
        0.8): :class:`Buffer` objects (read and write), ``(buffer,
        access)`` pairs or ``(handle, access)`` pairs (access
        buffer.READ, WRITE or RW); None or empty: every buffer of this
        file on the job's mesh.  ``in_syncobjs``: :class:`Syncobj`
        (or handles) whose fences the job waits for before dispatch;
        ``out_syncobj``: one that gets the job's fence.  ``flags``:
        SUBMIT_UNCHECKED (administrators only).  EACCES when an operand
        lies outside the buffers (the last error names it)."""
        d = self._check_open()
        keep = []
        arr, n = programs_to_c(programs, keep)
        a = _lib.SubmitArgs_C()
        a.programs = ctypes.cast(arr, ctypes.POINTER(_lib.Program_C))
        a.n_programs = n
        a.timeout_ms = timeout_ms
        ins = [s.handle if isinstance(s, Syncobj) else int(s)
               for s in in_syncobjs]
        if ins:
            iarr = (ctypes.c_uint32 * len(ins))(*ins)
            keep.append(iarr)
            a.in_syncobjs = ctypes.cast(iarr, ctypes.POINTER(ctypes.c_uint32))
        a.n_in_syncobjs = len(ins)
        if out_syncobj is not None:
            a.out_syncobj = out_syncobj.handle \
                if isinstance(out_syncobj, Syncobj) else int(out_syncobj)
        if buffers is not None:
            ents = []
            for b in buffers:
                if isinstance(b, Buffer):
                    ents.append((b.handle, 3))
                else:
                    h, acc = b
                    ents.append((h.handle if isinstance(h, Buffer) else
                                 int(h), int(acc)))
            barr = (_lib.JobBo_C * max(1, len(ents)))()
            for k, (h, acc) in enumerate(ents):
                barr[k].handle, barr[k].access = h, acc
            keep.append(barr)
            a.bos = ctypes.cast(barr, ctypes.POINTER(_lib.JobBo_C))
            a.n_bos = len(ents)     # 0: every buffer, as None
        a.flags = flags
        jid = ctypes.c_uint64()
        check(fn("kohaku_submit_ex")(d, ctypes.byref(a), ctypes.byref(jid)),
              "kohaku_submit_ex", d)
        return Job(self, jid.value, out_syncobj)

    def wait(self, job, timeout_ms=60000):
        """:meth:`Job.wait` of a Job or a job id."""
        if not isinstance(job, Job):
            job = Job(self, int(job))
        return job.wait(timeout_ms)

    def run(self, programs, timeout_ms=0, buffers=None, in_syncobjs=(),
            out_syncobj=None, flags=0):
        """Submit a job and wait for its final status (its own limit ends
        it).  Returns the :class:`JobStatus` when DONE; raises
        :class:`JobError` otherwise (EIO for FAULT/ERROR, ETIMEDOUT for
        TIMEOUT, ECANCELED for ABORTED), with ``.status``; a refused
        submit raises :class:`KohakuError`."""
        if buffers is None and not in_syncobjs and out_syncobj is None \
                and not flags:
            d = self._check_open()
            keep = []
            arr, n = programs_to_c(programs, keep)
            st = _lib.JobStatus_C()
            r = fn("kohaku_run")(d, arr, n, timeout_ms, ctypes.byref(st),
                                 ctypes.sizeof(st))
            if r < 0:
                msg = text(_lib.lib.kohaku_last_error(d))
                if st.status:
                    raise _job_error(JobStatus(st), "kohaku_run", msg, -r)
                check(r, "kohaku_run", d)
            return JobStatus(st)
        job = self.submit(programs, timeout_ms, buffers, in_syncobjs,
                          out_syncobj, flags)
        while True:
            try:
                return job.wait(3600 * 1000, check_done=True)
            except JobError as e:
                if e.errno == 110 and e.status is not None and \
                        not e.status.final:
                    continue
                raise

    def syncobj(self):
        """A new :class:`Syncobj` of this file."""
        return Syncobj(self)

    # ---- firmware

    def fw_load(self, image, flags=0):
        """Load and boot a POOL firmware image on every POOL unit
        (``kohaku_fw_load_file`` for a path, ``kohaku_fw_load`` for
        bytes-like).  Returns :class:`FwLoad`; a refusal raises
        KohakuError (EINVAL malformed, E2BIG, EPROTO API major, ENODEV no
        POOL unit, EBUSY, EIO/ETIMEDOUT boot failed, EACCES) with the
        report as ``.report``."""
        d = self._check_open()
        out = _lib.FwLoad_C()
        import os
        if isinstance(image, (str, os.PathLike)):
            r = fn("kohaku_fw_load_file")(d, os.fsencode(image), flags,
                                          ctypes.byref(out),
                                          ctypes.sizeof(out))
            name = "kohaku_fw_load_file"
        else:
            from ._bufproto import readable
            addr, n, keep = readable(image)
            r = fn("kohaku_fw_load")(d, addr, n, flags, ctypes.byref(out),
                                     ctypes.sizeof(out))
            name = "kohaku_fw_load"
        rep = FwLoad(out)
        if r < 0:
            e = KohakuError(-r, text(_lib.lib.kohaku_last_error(d)) or None,
                            name)
            e.report = rep
            raise e
        return rep

    def fw_info(self):
        """:class:`FwInfo`: what POOL firmware runs."""
        d = self._check_open()
        out = _lib.FwInfo_C()
        check(fn("kohaku_fw_info")(d, ctypes.byref(out), ctypes.sizeof(out)),
              "kohaku_fw_info", d)
        return FwInfo(out)

    # ---- meshes

    def lease(self, mesh, take=True):
        """Hold a mesh alone (or let it go) (``kohaku_mesh_lease``, ABI
        0.8)."""
        d = self._check_open()
        check(fn("kohaku_mesh_lease")(d, mesh, 1 if take else 0),
              "kohaku_mesh_lease", d)

    # ---- simulated cards

    def sim_command(self, line):
        """One line to the device model (``kohaku_sim_command``): "check
        on", "inject drop link=R1,1.E count=1", ...; EOPNOTSUPP on a
        real card."""
        d = self._check_open()
        check(fn("kohaku_sim_command")(d, line.encode()),
              "kohaku_sim_command", d)

    def sim_read(self, what):
        """The model's "stats", "knobs", "trace" or "check" text."""
        d = self._check_open()
        p = ctypes.c_void_p()
        check(fn("kohaku_sim_read")(d, what.encode(), ctypes.byref(p)),
              "kohaku_sim_read", d)
        try:
            return text(ctypes.string_at(p.value))
        finally:
            libc_free(p)

    def sim_check(self):
        """The protocol checker's violations so far."""
        d = self._check_open()
        return check(fn("kohaku_sim_check")(d), "kohaku_sim_check", d)

    def __repr__(self):
        if self._ptr is None:
            return "<kohaku.Device closed>"
        return "<kohaku.Device %s %s: %s>" % (self.backend, self.path,
                                             self._info.name)


_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None


def libc_free(p):
    """free() memory libkohaku malloc'ed (its *_alloc and sim_read)."""
    _libc.free(ctypes.cast(p, ctypes.c_void_p))
