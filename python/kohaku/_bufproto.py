# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Host memory for C calls through the buffer protocol (no numpy needed).

Anything that exports a C-contiguous buffer works: bytes, bytearray,
memoryview, array.array, ctypes arrays, numpy arrays.  Writable buffers
are passed by address (no copy); read-only ones other than bytes are
copied once.
"""

import ctypes

__all__ = ["readable", "writable", "nbytes"]


def _flat(obj):
    """A 1-D unsigned-byte memoryview of a C-contiguous buffer."""
    mv = obj if isinstance(obj, memoryview) else memoryview(obj)
    if not mv.c_contiguous:
        raise ValueError("kohaku: the buffer is not C-contiguous (numpy: "
                         "numpy.ascontiguousarray() first)")
    if mv.ndim != 1 or mv.format != "B":
        mv = mv.cast("B")
    return mv


def nbytes(obj):
    """The size in bytes of a buffer-protocol object."""
    return memoryview(obj).nbytes


def readable(obj):
    """(address, nbytes, keepalive) of ``obj``'s bytes, for a C function
    that reads them.  Keep ``keepalive`` referenced during the call."""
    if isinstance(obj, bytes):
        return ctypes.cast(ctypes.c_char_p(obj), ctypes.c_void_p).value, \
            len(obj), obj
    mv = _flat(obj)
    n = mv.nbytes
    if n == 0:
        return None, 0, None
    if mv.readonly:
        b = mv.tobytes()
        return ctypes.cast(ctypes.c_char_p(b), ctypes.c_void_p).value, n, b
    arr = (ctypes.c_char * n).from_buffer(mv)
    return ctypes.addressof(arr), n, (arr, mv)


def writable(obj):
    """(address, nbytes, keepalive) of a writable buffer, for a C function
    that writes into it.  Raises TypeError for a read-only one."""
    mv = _flat(obj)
    if mv.readonly:
        raise TypeError("kohaku: the buffer to read into is read-only")
    n = mv.nbytes
    if n == 0:
        return None, 0, None
    arr = (ctypes.c_char * n).from_buffer(mv)
    return ctypes.addressof(arr), n, (arr, mv)
