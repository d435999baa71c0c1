# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Device memory: buffer objects (BOs) of an open device.

A :class:`Buffer` is ``kohaku_bo_create``'s BO (or
``kohaku_bo_create_at``'s, at a fixed device address: a compiler's
arena, ABI 0.9).  Its ``dev_addr`` is the address units use (mesh << 36
| local offset); its ``size`` is rounded up to 4 KiB.  Data moves with
:meth:`Buffer.write` and :meth:`Buffer.read` / :meth:`Buffer.read_into`
through the buffer protocol: bytes, bytearray, memoryview, array.array or
numpy arrays, with no copy for writable contiguous ones.
"""

import ctypes

from . import _lib
from ._lib import fn
from ._bufproto import readable, writable
from .errors import KohakuError, check

__all__ = ["Buffer"]

#: job access flags (struct kohaku_job_bo)
READ = 1
WRITE = 2
RW = 3


class Buffer:
    """A buffer object of a :class:`kohaku.Device`.

    Made by :meth:`Buffer.create` / :meth:`Device.buffer` or
    :meth:`Buffer.create_at` / :meth:`Device.buffer_at`.  Freed by
    :meth:`free`, by leaving a ``with`` block, or with its device.
    """

    def __init__(self, device, handle):
        self.device = device
        self.handle = handle
        self._freed = False
        info = self.info()
        self.mesh = info.mesh
        self.size = info.size
        self.dev_addr = info.dev_addr
        device._buffers.add(self)

    @classmethod
    def create(cls, device, size, mesh=0):
        """A new BO of at least ``size`` bytes on ``mesh``, zeroed."""
        h = ctypes.c_uint32()
        a = ctypes.c_uint64()
        check(fn("kohaku_bo_create")(device._ptr, mesh, size,
                                     ctypes.byref(h), ctypes.byref(a)),
              "kohaku_bo_create", device._ptr)
        return cls(device, h.value)

    @classmethod
    def create_at(cls, device, dev_addr, size, mesh=None):
        """A BO at the fixed device address ``dev_addr`` (4 KiB-aligned;
        the mesh is dev_addr >> 36 unless given): an arena for artifacts
        with absolute addresses (ABI 0.9, KOHAKU_CAP_BO_FIXED).  EBUSY when
        any of the range is taken, EINVAL when misaligned, of another mesh
        or outside the mesh's memory, EOPNOTSUPP on an older driver."""
        if mesh is None:
            mesh = dev_addr >> 36
        h = ctypes.c_uint32()
        check(fn("kohaku_bo_create_at")(device._ptr, mesh, dev_addr, size,
                                        ctypes.byref(h)),
              "kohaku_bo_create_at", device._ptr)
        return cls(device, h.value)

    def _dev(self):
        """The device pointer; EINVAL once freed, EBADF once closed."""
        if self._freed:
            raise KohakuError(22, "buffer %d was freed" % self.handle,
                              "Buffer")
        return self.device._check_open()

    def info(self):
        """``kohaku_bo_info``: an object with handle, mesh, size,
        dev_addr."""
        d = self._dev()
        bi = _lib.BoInfo_C()
        check(fn("kohaku_bo_info")(d, self.handle, ctypes.byref(bi),
                                   ctypes.sizeof(bi)),
              "kohaku_bo_info", d)
        return bi

    def write(self, data, offset=0):
        """Write ``data`` (any buffer-protocol object) at byte ``offset``;
        partial 32-byte words are merged.  Returns the bytes written."""
        d = self._dev()
        addr, n, keep = readable(data)
        if n == 0:
            return 0
        check(fn("kohaku_bo_write")(d, self.handle, offset, addr, n),
              "kohaku_bo_write", d)
        return n

    def read(self, size=None, offset=0):
        """``size`` bytes (default: to the end) from byte ``offset``, as a
        new bytes."""
        if size is None:
            size = self.size - offset
        out = bytearray(size)
        self.read_into(out, offset)
        return bytes(out)

    def read_into(self, buf, offset=0):
        """Fill the writable buffer ``buf`` (bytearray, memoryview, numpy
        array, ...) from byte ``offset``; returns the bytes read."""
        d = self._dev()
        addr, n, keep = writable(buf)
        if n == 0:
            return 0
        check(fn("kohaku_bo_read")(d, self.handle, offset, addr, n),
              "kohaku_bo_read", d)
        return n

    def free(self):
        """Free the BO (``kohaku_bo_free``); a second call does nothing.
        A closed device has freed it already."""
        if self._freed:
            return
        self._freed = True
        self.device._buffers.discard(self)
        if self.device._ptr is None:
            return
        check(fn("kohaku_bo_free")(self.device._ptr, self.handle),
              "kohaku_bo_free", self.device._ptr)

    close = free

    @property
    def freed(self):
        """Whether the BO was freed (or its device closed)."""
        return self._freed or self.device._ptr is None

    def job_bo(self, access=RW):
        """This buffer as a job's buffer entry: (handle, access) where
        access is READ (1), WRITE (2) or both (3, the default)."""
        return (self.handle, access)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()

    def __len__(self):
        return self.size

    def __repr__(self):
        return "<kohaku.Buffer handle=%d mesh=%d dev_addr=0x%x size=%d%s>" % (
            self.handle, self.mesh, self.dev_addr, self.size,
            " freed" if self.freed else "")
