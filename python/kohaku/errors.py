# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The error model: every negative return of libkohaku becomes an exception.

libkohaku returns 0 or a negative errno from every call that can fail, and
keeps a message per device and thread that says what failed, why and what
to do (``kohaku_last_error``); calls with no device yet (open, artifact
parsing) write it into a buffer.  The package turns each negative return
into a :class:`KohakuError`, an :class:`OSError` whose ``errno`` is the
positive errno and whose ``strerror`` is that message (or, when the library
gave none, ``kohaku_strerror``'s words).  Jobs that end other than DONE
through :meth:`kohaku.Device.run` raise :class:`JobError`, which also
carries the job's :class:`kohaku.JobStatus`.
"""

import errno as _errno

__all__ = ["KohakuError", "JobError", "check"]


class KohakuError(OSError):
    """A libkohaku call failed.

    Attributes: ``errno`` (positive, as :mod:`errno` names it),
    ``strerror`` (the library's message), ``function`` (the C function
    that failed, e.g. ``"kohaku_bo_free"``).  ``str()`` gives
    ``"[Errno N] message"`` like any :class:`OSError`.
    """

    def __init__(self, err, message=None, function=None):
        err = abs(int(err))
        if not message:
            message = strerror(err)
        super().__init__(err, message)
        self.function = function

    @property
    def errno_name(self):
        """The symbolic errno ("ENOENT"), or "E?" when unknown."""
        return _errno.errorcode.get(self.errno, "E?")

    def __reduce__(self):
        return (type(self), (self.errno, self.strerror, self.function))


class JobError(KohakuError):
    """A job ended other than DONE (FAULT, ERROR: EIO; TIMEOUT: ETIMEDOUT;
    ABORTED: ECANCELED).  ``status`` is its :class:`kohaku.JobStatus`
    (``status.describe()`` says where and why); for an artifact run,
    ``result`` is the :class:`kohaku.ArtifactResult` too."""

    def __init__(self, err, message=None, function=None, status=None,
                 result=None):
        super().__init__(err, message, function)
        self.status = status
        self.result = result

    def __reduce__(self):
        return (type(self), (self.errno, self.strerror, self.function,
                             self.status, self.result))


def strerror(err):
    """libkohaku's words for an errno (``kohaku_strerror``)."""
    from ._lib import lib, text
    try:
        return text(lib.kohaku_strerror(-abs(int(err))))
    except Exception:   # pragma: no cover - a broken library
        import os
        return os.strerror(abs(int(err)))


def check(ret, function, dev=None, message=None):
    """Raise :class:`KohakuError` for a negative ``ret``; return it
    otherwise.  ``dev`` is the raw device pointer whose last error explains
    it; ``message`` a text to use instead."""
    if ret is None or ret >= 0:
        return ret
    if message is None and dev is not None:
        from ._lib import lib, text
        message = text(lib.kohaku_last_error(dev))
    if not message:
        message = "%s: %s" % (function, strerror(ret))
    raise KohakuError(-ret, message, function)
