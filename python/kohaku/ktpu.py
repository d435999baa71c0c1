# SPDX-License-Identifier: GPL-2.0 OR MIT
"""KohakuTPU's own runtime on a Kohaku device.

KohakuTPU's compiler produces artifacts and its runtime (``kohakutpu.rt`` /
``kohakutpu.api``: ``Device``, ``Tensor``, ``ktpu.tensor(x)``, a kernel
call, ``.numpy()``) executes them on its ``sim`` models or on a ``card``
over JTAG or a Windows XDMA driver.  This module gives that runtime a third
target, a Kohaku device (kohaku.ko, or the in-process simulated card):

    import kohakutpu.api as ktpu
    import kohaku.ktpu
    kohaku.ktpu.use(map="mesh_2x2_8+2")     # or use("/dev/accel/accel0")

after which every ``ktpu.*`` call of the program lands on Kohaku.  Nothing
here writes a register: memory goes through one arena buffer made at the
compiler's fixed address (``Buffer.create_at``), and dispatch through
artifacts (``Artifact.run``), so the driver keeps owning staging, credit,
completions and the checks that keep every operand inside the arena.

KohakuTPU is not a dependency of this package: it is imported only when
:func:`device` or :func:`use` is called, from wherever Python finds it
(its ``compiler/`` and ``driver/`` directories on ``sys.path``).
"""

from .artifact import Artifact
from .buffer import Buffer
from .device import Device as _KohakuDevice
from .errors import KohakuError

#: The compiler runtime's default arena (kohakutpu/rt.py ARENA_BASE/SIZE;
#: libkohaku's KOHAKU_ARTIFACT_ARENA_OFFSET/_SIZE).
ARENA_BASE = 0x1800_0000
ARENA_SIZE = 1 << 26
#: Bits [37:36] of a device address name its mesh.
MESH_SHIFT = 36

__all__ = ["ArenaTransport", "device", "use", "ARENA_BASE", "ARENA_SIZE"]


class ArenaTransport:
    """The block transport KohakuTPU's runtime moves bytes through.

    Addresses are the unit-global ones the compiler's arena hands out; they
    must lie inside the arena buffer.  There is no word access: KohakuTPU's
    register-level transports (``read64``/``write64``) have no counterpart,
    since Kohaku's driver owns the registers.
    """

    bulk = True

    def __init__(self, buf: Buffer, base: int, size: int) -> None:
        self.buf = buf
        self.base = base
        self.size = size

    def _offset(self, addr: int, nbytes: int) -> int:
        off = addr - self.base
        if off < 0 or nbytes < 0 or off + nbytes > self.size:
            raise ValueError(
                f"[{addr:#x}, {addr + nbytes:#x}) is outside the Kohaku arena "
                f"[{self.base:#x}, {self.base + self.size:#x})"
            )
        return off

    def write_block(self, addr: int, data) -> None:
        self.buf.write(data, offset=self._offset(addr, len(data)))

    def read_block(self, addr: int, nbytes: int) -> bytes:
        return self.buf.read(nbytes, offset=self._offset(addr, nbytes))

    def read64(self, addr: int) -> int:
        raise NotImplementedError(
            "Kohaku gives no register access to userspace; dispatch goes "
            "through artifacts (kohaku.Artifact.run)"
        )

    write64 = read64


def _unit_table(dev: _KohakuDevice, mesh: int) -> dict:
    """{cu_type name: coordinates} of one mesh, from the driver's node table."""
    units: dict = {}
    for nd in dev.nodes():
        if nd.mesh == mesh:
            units.setdefault(nd.type_name, []).append((nd.x, nd.y))
    return {k: tuple(sorted(v)) for k, v in units.items()}


_CLASS = None


def _device_class():
    """KohakuDevice, built on first use so KohakuTPU is imported only then."""
    global _CLASS
    if _CLASS is not None:
        return _CLASS
    try:
        from kohakuaccel.dispatch import plan
        from kohakuaccel.machinespec import MachineSpec, MeshSpec
        from kohakuaccel.memory import Arena
        from kohakuaccel.rt import Runtime
        from kohakutpu.isa.vecemit import BATCH_BYTES
        from kohakutpu.rt import Holder
    except ImportError as e:
        raise ImportError(
            f"kohaku.ktpu runs KohakuTPU's runtime, which Python cannot "
            f"import ({e}): put a KohakuTPU checkout's compiler/ and driver/ "
            f"directories on PYTHONPATH"
        ) from e

    class KohakuDevice(Holder, Runtime):
        """KohakuTPU's runtime with a Kohaku device under it."""

        def __init__(self, kdev, mesh=0, base=ARENA_BASE, size=ARENA_SIZE,
                     timeout_ms=0):
            if base + size > 1 << MESH_SHIFT:
                raise ValueError(
                    f"an arena of {size:#x} bytes at {base:#x} runs past one "
                    f"mesh's {1 << MESH_SHIFT:#x} bytes"
                )
            info = kdev.info
            if mesh >= info.n_meshes:
                raise ValueError(f"{kdev} has no mesh {mesh}")
            mi = info.meshes[mesh]
            self.kdev = kdev
            self.timeout_ms = timeout_ms
            gbase = (mesh << MESH_SHIFT) | base
            self.arena_buf = Buffer.create_at(kdev, gbase, size, mesh=mesh)
            machine = MachineSpec(
                name="kohaku",
                meshes=(
                    MeshSpec(mesh, _unit_table(kdev, mesh),
                             agent=(mi.agent_x, mi.agent_y)),
                ),
                default=mesh,
                inst_depth=mi.min_inst_depth,
            )
            super().__init__(
                machine,
                Arena(gbase, size, align=BATCH_BYTES, mesh=mesh),
                ArenaTransport(self.arena_buf, gbase, size),
            )

        def dispatch(self, payloads, unit, name="kernel", nodes=None,
                     acks=None):
            """Plan `payloads` as KohakuTPU does; run each round on Kohaku."""
            rounds = plan(
                payloads,
                tuple(nodes) if nodes is not None
                else self.machine.coords(unit),
                stage_flits=self.machine.stage_flits,
                credits=self.machine.inst_depth,
                name=name,
                acks=acks,
            )
            self.counters["dispatches"] += 1
            self.counters["rounds"] += len(rounds)
            for art in rounds:
                self.counters["flits"] += len(art.flits)
                d = art.to_dict()
                d["meta"]["unit"] = unit
                Artifact.from_dict(d).run(
                    self.kdev, mesh=self.machine.default,
                    arenas=[self.arena_buf], timeout_ms=self.timeout_ms,
                )
            return len(rounds)

        def close(self):
            """Give the arena back (the tensors on it are gone)."""
            if self.arena_buf is not None:
                self.arena_buf.free()
                self.arena_buf = None

        def __repr__(self):
            m = self.machine
            return (
                f"KohakuDevice({self.kdev}, mesh {m.default}: "
                f"{m.count('MG')} MG, {m.count('VC')} VC, "
                f"{self.arena.used:,}/{self.arena.size:,} bytes used)"
            )

    _CLASS = KohakuDevice
    return _CLASS


def device(spec=None, backend=None, map=None, mesh=0, base=ARENA_BASE,
           size=ARENA_SIZE, timeout_ms=0):
    """A KohakuTPU runtime device on a Kohaku device.

    `spec`, `backend` and `map` are :meth:`kohaku.Device.open`'s (all None:
    the environment's device, as every Kohaku command), or `spec` is an
    open :class:`kohaku.Device`.  The arena is a buffer made at
    ``mesh << 36 | base`` (KohakuTPU's default: 0x1800_0000, 64 MiB):
    KohakuError EBUSY when another open device holds any of it, EINVAL when
    the mesh's memory does not hold it.  `timeout_ms` is each round's limit
    in device time (0: the driver's default).
    """
    if isinstance(spec, _KohakuDevice):
        kdev = spec
    else:
        kdev = _KohakuDevice.open(spec, backend=backend, map=map)
    return _device_class()(kdev, mesh=mesh, base=base, size=size,
                           timeout_ms=timeout_ms)


def use(spec=None, **kwargs):
    """Make a Kohaku device the one ``kohakutpu.api`` calls land on.

    Takes :func:`device`'s arguments and returns the device; the program's
    ``ktpu.tensor()``, kernels and ``.numpy()`` then run on Kohaku.
    """
    import kohakutpu.api as api

    dev = device(spec, **kwargs)
    api._device = dev
    return dev


__all__ += ["KohakuError"]
