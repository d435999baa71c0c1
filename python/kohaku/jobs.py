# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Jobs and fences.

A job is one program per target node, submitted at once
(:meth:`kohaku.Device.submit`, ``kohaku_submit_ex``) and waited for
(:meth:`Job.wait`, ``kohaku_wait``), or both (:meth:`kohaku.Device.run`,
``kohaku_run``).  Its final :class:`JobStatus` says DONE, FAULT, TIMEOUT,
ABORTED or ERROR, and :meth:`JobStatus.describe` says where and why.

A :class:`Syncobj` holds a job's fence (its out-fence) and can gate other
jobs (their in-fences), be waited for (host wall time), or give a file
descriptor that ``poll()`` reports readable once the fence signalled.
"""

import ctypes

from . import _lib
from ._lib import fn
from .errors import JobError, KohakuError, check

__all__ = ["JobStatus", "Job", "Syncobj", "QUEUED", "RUNNING", "DONE",
           "FAULT", "TIMEOUT", "ABORTED", "ERROR", "COORD_NONE",
           "SYNCOBJ_WAIT_ALL"]

QUEUED = 1
RUNNING = 2
DONE = 3
FAULT = 4
TIMEOUT = 5
ABORTED = 6
ERROR = 7
COORD_NONE = 0xff
FAULT_NODE_KNOWN = 1
FAULT_CODE_KNOWN = 2
SYNCOBJ_WAIT_ALL = 1


class JobStatus:
    """A job's status (``struct kohaku_job_status``).

    ``status`` (a KOHAKU_JOB_* number; ``name`` its name, "DONE"...),
    ``fault_code``, ``fault_node`` ((mesh, x, y) or None when unknown),
    ``fault_flags``, ``n_faults``, ``device_ns`` (device time from dispatch
    to the end), ``reason`` (KOHAKU_JOB_WHY_* for ERROR and ABORTED).
    """

    def __init__(self, st):
        self._c = _lib.JobStatus_C()
        ctypes.memmove(ctypes.byref(self._c), ctypes.byref(st),
                       ctypes.sizeof(st))
        self.status = st.status
        self.fault_code = st.fault_code
        self.fault_flags = st.fault_flags
        self.n_faults = st.n_faults
        self.device_ns = st.device_ns
        self.reason = st.reason
        self.fault_node = None
        if st.fault_flags & FAULT_NODE_KNOWN and st.fault_x != COORD_NONE:
            self.fault_node = (st.fault_mesh, st.fault_x, st.fault_y)

    @property
    def name(self):
        """"DONE", "FAULT", "TIMEOUT", "ABORTED", "ERROR", "QUEUED",
        "RUNNING" (``kohaku_job_status_name``)."""
        return _lib.text(fn("kohaku_job_status_name")(self.status))

    @property
    def ok(self):
        """True when the job finished DONE."""
        return self.status == DONE

    @property
    def final(self):
        """True once the job has ended (neither queued nor running)."""
        return self.status not in (QUEUED, RUNNING)

    def describe(self):
        """The status in words (``kohaku_job_describe``): "DONE in ...",
        "FAULT at mesh 0 (1,2): code 2 (...)"."""
        buf = ctypes.create_string_buffer(512)
        return _lib.text(fn("kohaku_job_describe")(ctypes.byref(self._c),
                                                   ctypes.sizeof(self._c),
                                                   buf, 512))

    def __repr__(self):
        return "<kohaku.JobStatus %s: %s>" % (self.name, self.describe())


class Job:
    """A submitted job: ``id``, its device, and its out-fence syncobj if
    one was given.  :meth:`wait` for its final status."""

    def __init__(self, device, job_id, out_syncobj=None):
        self.device = device
        self.id = job_id
        self.out_syncobj = out_syncobj
        self.status = None

    def wait(self, timeout_ms=60000, check_done=False):
        """Wait up to ``timeout_ms`` of device time (0: just look) for the
        final status, and return it as a :class:`JobStatus` (the job is
        then forgotten by the driver).  Raises :class:`KohakuError`
        ETIMEDOUT while it is still queued or running (``.status`` then
        says which), and with ``check_done`` a :class:`JobError` when the
        final status is not DONE."""
        d = self.device._check_open()
        st = _lib.JobStatus_C()
        r = fn("kohaku_wait")(d, self.id, timeout_ms, ctypes.byref(st),
                              ctypes.sizeof(st))
        if r < 0:
            msg = _lib.text(_lib.lib.kohaku_last_error(d))
            js = JobStatus(st) if r == -110 else None
            raise JobError(-r, msg or None, "kohaku_wait", status=js)
        self.status = JobStatus(st)
        if check_done and not self.status.ok:
            raise _job_error(self.status, "kohaku_wait",
                             _lib.text(_lib.lib.kohaku_last_error(d)))
        return self.status

    def __repr__(self):
        return "<kohaku.Job id=%d%s>" % (
            self.id, " " + self.status.name if self.status else "")


_STATUS_ERRNO = {FAULT: 5, ERROR: 5, TIMEOUT: 110, ABORTED: 125}


def _job_error(status, function, message=None, err=None):
    """A JobError for a final status other than DONE."""
    if err is None:
        err = _STATUS_ERRNO.get(status.status, 5)
    return JobError(err, message or status.describe(), function,
                    status=status)


class Syncobj:
    """A syncobj of a device's open file (``kohaku_syncobj_create``): give
    it to :meth:`Device.submit` as ``out_syncobj`` to get a job's fence,
    and in ``in_syncobjs`` to make a job wait for it."""

    def __init__(self, device):
        self.device = device
        h = ctypes.c_uint32()
        d = device._check_open()
        check(fn("kohaku_syncobj_create")(d, ctypes.byref(h)),
              "kohaku_syncobj_create", d)
        self.handle = h.value
        self._destroyed = False

    def wait(self, timeout_ms=60000):
        """Wait up to ``timeout_ms`` of host wall time (0: just look) for
        the fence it holds.  ETIMEDOUT when not signalled; EINVAL when no
        job was submitted on it."""
        Syncobj.wait_many(self.device, [self], True, timeout_ms)

    def signalled(self):
        """Whether its fence has signalled now (a wait of 0)."""
        try:
            self.wait(0)
            return True
        except KohakuError as e:
            if e.errno == 110:
                return False
            raise

    @staticmethod
    def wait_many(device, syncobjs, wait_all=True, timeout_ms=60000):
        """Wait for all (``wait_all``) or any of ``syncobjs`` (Syncobj or
        handles) of ``device``; returns the index of the first one that
        signalled (with ``wait_all`` false), else None."""
        d = device._check_open()
        hs = [s.handle if isinstance(s, Syncobj) else int(s)
              for s in syncobjs]
        arr = (ctypes.c_uint32 * max(1, len(hs)))(*hs)
        first = ctypes.c_uint()
        check(fn("kohaku_syncobj_wait")(
            d, arr, len(hs), SYNCOBJ_WAIT_ALL if wait_all else 0,
            timeout_ms, ctypes.byref(first)), "kohaku_syncobj_wait", d)
        return None if wait_all else first.value

    def fd(self):
        """A new file descriptor that poll() reports readable (POLLIN) once
        the fence the syncobj holds now has signalled (a sync_file on the
        kernel backend, an eventfd in-process).  The caller closes it
        (``os.close``)."""
        d = self.device._check_open()
        out = ctypes.c_int(-1)
        check(fn("kohaku_syncobj_fd")(d, self.handle, ctypes.byref(out)),
              "kohaku_syncobj_fd", d)
        return out.value

    def destroy(self):
        """Destroy it (``kohaku_syncobj_destroy``); once only."""
        if self._destroyed:
            return
        self._destroyed = True
        if self.device._ptr is None:
            return
        check(fn("kohaku_syncobj_destroy")(self.device._ptr, self.handle),
              "kohaku_syncobj_destroy", self.device._ptr)

    close = destroy

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()

    def __repr__(self):
        return "<kohaku.Syncobj handle=%d>" % self.handle
