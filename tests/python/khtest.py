# SPDX-License-Identifier: GPL-2.0 OR MIT
"""What the Python tests share: the package, the cards, test data.

The tests run unchanged on the in-process backend and on kohaku.ko:

  KOHAKU_BACKEND=sim (or unset)  each test opens the built-in card it
                     needs in this process ("saxpy", "pool",
                     "mesh_2x2_8+2", ...)
  KOHAKU_BACKEND=kernel  the cards are nodes named by KOHAKU_TEST_CARDS,
                     "saxpy=/dev/accel/accel0,pool=/dev/accel/accel2,...";
                     a test whose card is not listed skips
  KOHAKU_TEST_FW     the POOL firmware image the firmware tests load
                     (else build/firmware/pool.fw, else
                     /lib/firmware/kohaku/pool.fw)
  KOHAKU_TEST_NO_NUMPY=1  behave as if numpy were not installed

The package is imported from the tree (python/) unless it is importable
already (PYTHONPATH, or installed).
"""

import os
import struct
import sys
import unittest

_top = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
try:
    import kohaku  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(_top, "python"))
    import kohaku  # noqa: F401

if os.environ.get("KOHAKU_TEST_NO_NUMPY") == "1":
    sys.modules["numpy"] = None     # import numpy raises ImportError
try:
    import numpy
except ImportError:
    numpy = None

need_numpy = unittest.skipIf(numpy is None, "numpy is not importable")


def backend():
    """"sim" or "kernel", as KOHAKU_BACKEND says (sim when unset)."""
    return os.environ.get("KOHAKU_BACKEND") or "sim"


def kernel():
    """Whether the tests run on kohaku.ko."""
    return backend() == "kernel"


def shared():
    """Whether the cards are shared with other processes and outlive the
    test (kohaku.ko's, kohakud's), so that a test must not hang a unit."""
    return backend() in ("kernel", "daemon")


def _cards():
    out = {}
    for item in os.environ.get("KOHAKU_TEST_CARDS", "").split(","):
        if "=" in item:
            k, v = item.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def sim_backend():
    """The simulated cards' backend: "daemon" when the suite runs against
    kohakud (KOHAKU_BACKEND=daemon: its shared cards), else "sim"."""
    return "daemon" if os.environ.get("KOHAKU_BACKEND") == "daemon" else "sim"


def card_device(test, card):
    """(device string, backend) of ``card`` for Device.open; skips the
    test on the kernel backend when KOHAKU_TEST_CARDS names no node."""
    if kernel():
        node = _cards().get(card)
        if node is None:
            test.skipTest("no %s card on the kernel backend "
                          "(KOHAKU_TEST_CARDS)" % card)
        return node, "kernel"
    return card, sim_backend()


def open_card(test, card):
    """Open ``card`` (a built-in description's name) for ``test``, closed
    at its cleanup; skips the test on the kernel backend when
    KOHAKU_TEST_CARDS names no node for it.  In-process, the model's
    protocol checker is on and a violation fails the test."""
    if kernel():
        node = _cards().get(card)
        if node is None:
            test.skipTest("no %s card on the kernel backend "
                          "(KOHAKU_TEST_CARDS)" % card)
        dev = kohaku.Device.open(node, backend="kernel")
        test.addCleanup(dev.close)
        return dev
    dev = kohaku.Device.open(card, backend=sim_backend())
    dev.sim_command("check on")

    def done():
        if not dev.closed:
            n = dev.sim_check()
            dev.close()
            if n:
                test.fail("the model's protocol checker found %d "
                          "violation(s)" % n)
    test.addCleanup(done)
    return dev


def fw_image_path():
    """The POOL firmware image under test, or None."""
    for p in (os.environ.get("KOHAKU_TEST_FW"),
              os.path.join(_top, "build", "firmware", "pool.fw"),
              "/lib/firmware/kohaku/pool.fw"):
        if p and os.path.isfile(p):
            return p
    return None


def f32(x):
    """x rounded to binary32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def floats(n, salt):
    """n deterministic binary32 test values."""
    return [f32(((i * 37 + salt * 11) % 101 - 50) / 8.0) for i in range(n)]
