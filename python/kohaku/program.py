# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Programs and the instruction builders of the C library.

An :class:`Inst` is one 256-bit CU_INST payload, four 64-bit words
(``Inst(w0, w1, w2, w3)``, w0 holding bits 63..0).  The builders below are
libkohaku's (``kohaku_inst_*``, ``kohaku_vec_*``; the RV32I encoders,
kohaku-asm.h's ``kohaku_rv_*``, are Python here): each returns a new
:class:`Inst` (or kernel word) and raises :class:`kohaku.KohakuError`
(EINVAL) where the C builder refuses a field.

A :class:`Program` is what one node of a job runs: its coordinate, its
instructions, optionally data written into its CU_DATA buffers first
(:class:`Data`, ABI 0.5) and the peer signals it owes (ABI 0.9).  Jobs are
submitted with :meth:`kohaku.Device.submit` / :meth:`kohaku.Device.run`.

Units (docs/spec/units.md and the unit specs): SX (saxpy), null, POOL
(firmware kernels, docs/spec/pool.md), mat (matmul cluster,
docs/spec/mat.md), vec (vector core, docs/spec/vec.md), cpu (rv_pe,
docs/spec/cpu.md).
"""

import ctypes
import struct

from . import _lib
from ._lib import KohakuInst as Inst, fn
from ._bufproto import readable, writable
from .errors import KohakuError, check

__all__ = [
    "Inst", "Data", "Program",
    "CU_NULL", "CU_SX", "CU_GP", "CU_MG", "CU_VC", "CU_RV", "CU_DX",
    "CU_SC", "SX_OP_SAXPY", "SX_N_MAX",
    "DATAPATH_RTL", "DATAPATH_FMA", "sx_element", "sx_datapath_name",
    "sx", "saxpy", "sx_decode", "null", "null_result",
    "pool", "pool_ping", "pool_copy", "pool_fill", "pool_crc32",
    "pool_vadd_i32", "pool_sum_i64", "pool_hist256", "pool_gemv_i8",
    "pool_axpy_f32", "pool_softmax_f32", "pool_copy_u", "pool_delay",
    "pool_trap", "pool_fault_describe", "POOL_PING_XOR",
    "mat", "mat_fill", "mat_gemm", "mat_drain", "mat_decode",
    "mat_shape_check", "mat_pack_a", "mat_pack_b", "mat_unpack_c",
    "mat_gemm_program", "mat_gemm_ref", "MAT_FILL_MAX", "MAT_FILL_SHIP",
    "MAT_PROGRAM_MAX",
    "vec_imem", "vec_imem_words", "vec_desc", "vec_desc_base",
    "vec_desc_dim", "vec_run", "vec_raw", "vec_word", "vec_vbar",
    "vec_vhalt", "vec_fault_describe",
    "cpu_kick", "cpu", "cpu_dram_addr", "cpu_data", "rv",
    "CPU_BUF_SPAD", "CPU_BUF_IMEM", "CPU_OP_KICK",
]


def _cu(a, b):
    """A cu_type from its two characters."""
    return (ord(a) << 8) | ord(b)


#: cu_type values (uapi/kohaku/kh_units.h and friends)
CU_NULL = 0x0000
CU_SX = _cu("S", "X")      # saxpy example unit
CU_GP = _cu("G", "P")      # POOL unit (firmware)
CU_MG = _cu("M", "G")      # matmul cluster (mat)
CU_VC = _cu("V", "C")      # vector core (vec)
CU_RV = _cu("R", "V")      # rv_pe control processor (cpu)
CU_DX = _cu("D", "X")      # DXA bulk copy
CU_SC = _cu("S", "C")      # scratch unit

SX_OP_SAXPY = 0x01
SX_N_MAX = 64
DATAPATH_RTL = 0           # saxpy_cu: integer datapath
DATAPATH_FMA = 1           # the model's binary32 fmaf variant
POOL_PING_XOR = 0x47500000
MAT_FILL_MAX = 255
MAT_FILL_SHIP = 128
MAT_PROGRAM_MAX = _lib.KOHAKU_MAT_PROGRAM_MAX
CPU_BUF_SPAD = 0
CPU_BUF_IMEM = 1
CPU_OP_KICK = 0x01


def _f32_bits(f):
    """The binary32 bit pattern of f."""
    return struct.unpack("<I", struct.pack("<f", f))[0]


def _build(name, *args, what=None):
    """Call builder ``name`` into a new Inst; EINVAL becomes KohakuError."""
    inst = Inst()
    r = fn(name)(ctypes.byref(inst), *args)
    if r is not None and r < 0:
        raise KohakuError(-r, "%s%s refused: %s" % (
            name, what if what is not None else repr(tuple(args)),
            _strerror(r)), name)
    return inst


def _strerror(r):
    """libkohaku's words for an errno."""
    return _lib.text(_lib.lib.kohaku_strerror(r))


# ---------------------------------------------------------------- programs


class Data:
    """Bytes a job writes into a CU_DATA buffer of its node before the
    program's instructions (``struct kohaku_data``; ABI 0.5).

    ``buf_id`` the unit's buffer, ``offset`` the first granule (32 bytes),
    ``data`` any buffer-protocol object whose size is a multiple of 32.
    A cpu unit's program image and arguments go this way (:func:`cpu_data`).
    """

    def __init__(self, buf_id, data, offset=0):
        self.buf_id = int(buf_id)
        self.offset = int(offset)
        self.data = data

    def __repr__(self):
        return "Data(buf_id=%d, offset=%d, %d bytes)" % (
            self.buf_id, self.offset, memoryview(self.data).nbytes)


class Program:
    """What one node runs in a job (``struct kohaku_program``).

    ``node`` is a :class:`kohaku.Node` (from :meth:`Device.nodes`) or a
    ``(mesh, x, y)`` tuple; ``insts`` an iterable of :class:`Inst`;
    ``txn`` the program id SIG_BATCH_COMPLETE echoes; ``data`` a list of
    :class:`Data`; ``peer_signals`` the SIG_DATA_RECEIVED the node owes the
    orchestrator beyond its instructions' completions (ABI 0.9).
    """

    def __init__(self, node, insts=(), txn=0, data=(), peer_signals=0):
        if hasattr(node, "mesh"):
            self.mesh, self.x, self.y = node.mesh, node.x, node.y
        else:
            self.mesh, self.x, self.y = (int(v) for v in node)
        self.insts = list(insts)
        for i in self.insts:
            if not isinstance(i, Inst):
                raise TypeError("Program: instructions must be kohaku.Inst, "
                                "got %r" % (i,))
        self.txn = int(txn)
        self.data = list(data)
        self.peer_signals = int(peer_signals)

    @property
    def node(self):
        """The target node as (mesh, x, y)."""
        return (self.mesh, self.x, self.y)

    def __repr__(self):
        return "Program(node=%r, %d insts, txn=%d, %d data, peer_signals=%d)" \
            % (self.node, len(self.insts), self.txn, len(self.data),
               self.peer_signals)

    def _to_c(self, keep):
        """A filled ``struct kohaku_program``; ``keep`` collects what must
        stay alive until the call returns."""
        p = _lib.Program_C()
        p.mesh, p.x, p.y, p.txn = self.mesh, self.x, self.y, self.txn
        n = len(self.insts)
        if n:
            arr = (Inst * n)(*self.insts)
            keep.append(arr)
            p.insts = ctypes.cast(arr, ctypes.POINTER(Inst))
        p.n_insts = n
        if self.data:
            darr = (_lib.Data_C * len(self.data))()
            for k, d in enumerate(self.data):
                addr, size, ka = readable(d.data)
                keep.append(ka)
                darr[k].buf_id = d.buf_id
                darr[k].offset = d.offset
                darr[k].data = addr
                darr[k].size = size
            keep.append(darr)
            p.data = ctypes.cast(darr, ctypes.POINTER(_lib.Data_C))
        p.n_data = len(self.data)
        p.peer_signals = self.peer_signals
        return p


def programs_to_c(programs, keep):
    """An array of ``struct kohaku_program`` for a list of Program."""
    if isinstance(programs, Program):
        programs = [programs]
    programs = list(programs)
    arr = (_lib.Program_C * max(1, len(programs)))()
    for k, p in enumerate(programs):
        if not isinstance(p, Program):
            raise TypeError("expected kohaku.Program, got %r" % (p,))
        arr[k] = p._to_c(keep)
    keep.append(arr)
    return arr, len(programs)


# ---------------------------------------------------------------- SX, null


def sx(opcode, n, a_bits, x_addr, y_addr):
    """SX unit, raw (``kohaku_inst_sx``): any opcode and n that fit their
    fields; ``a_bits`` the binary32 bit pattern of a."""
    return _build("kohaku_inst_sx", opcode, n, a_bits, x_addr, y_addr)


def saxpy(n, a, x_addr, y_addr):
    """SX saxpy, checked (``kohaku_inst_saxpy``): y[0:n] = a*x[0:n] +
    y[0:n]; n <= 64, addresses 32-byte aligned."""
    return _build("kohaku_inst_saxpy", n, float(a), x_addr, y_addr)


def sx_decode(inst):
    """An SX instruction's fields: dict opcode, n, a_bits, x_addr,
    y_addr."""
    op, n, a = ctypes.c_uint(), ctypes.c_uint32(), ctypes.c_uint32()
    x, y = ctypes.c_uint64(), ctypes.c_uint64()
    fn("kohaku_inst_sx_decode")(ctypes.byref(inst), ctypes.byref(op),
                                ctypes.byref(n), ctypes.byref(a),
                                ctypes.byref(x), ctypes.byref(y))
    return {"opcode": op.value, "n": n.value, "a_bits": a.value,
            "x_addr": x.value, "y_addr": y.value}


def sx_element(datapath, a, x, y):
    """One element's new y as an SX unit with that datapath writes it
    (``kohaku_sx_element``); a, x, y floats, the result a float."""
    r = fn("kohaku_sx_element")(datapath, _f32_bits(a), _f32_bits(x),
                                _f32_bits(y))
    return struct.unpack("<f", struct.pack("<I", r))[0]


def sx_datapath_name(datapath):
    """"integer datapath (saxpy_cu)" or "binary32 FMA (model variant)"."""
    return _lib.text(fn("kohaku_sx_datapath_name")(datapath))


def null(words):
    """null unit (``kohaku_inst_null``): eight 32-bit payload words."""
    words = list(words)
    if len(words) != 8:
        raise ValueError("null: eight 32-bit words")
    inst = Inst()
    fn("kohaku_inst_null")(ctypes.byref(inst), (ctypes.c_uint32 * 8)(*words))
    return inst


def null_result(inst):
    """The null unit's exec_result for inst: the XOR of its eight words."""
    return fn("kohaku_inst_null_result")(ctypes.byref(inst))


# -------------------------------------------------------------------- POOL


def pool(kernel, args):
    """POOL unit, raw (``kohaku_inst_pool``): any kernel id, payload words
    w0..w6."""
    args = list(args)
    if len(args) != 7:
        raise ValueError("pool: seven 32-bit argument words")
    inst = Inst()
    fn("kohaku_inst_pool")(ctypes.byref(inst), kernel,
                           (ctypes.c_uint32 * 7)(*args))
    return inst


def pool_ping(value):
    """PING: retires with value ^ POOL_PING_XOR."""
    return _build("kohaku_inst_pool_ping", value)


def pool_copy(src, dst, nbytes):
    """COPY: dst = src, nbytes a multiple of 32."""
    return _build("kohaku_inst_pool_copy", src, dst, nbytes)


def pool_fill(dst, pattern, nbytes):
    """FILL: dst = the 32-bit pattern repeated, nbytes a multiple of 32."""
    return _build("kohaku_inst_pool_fill", dst, pattern, nbytes)


def pool_crc32(src, result, nbytes):
    """CRC32 (zlib's) of nbytes at src; the u32 lands at result."""
    return _build("kohaku_inst_pool_crc32", src, result, nbytes)


def pool_vadd_i32(a, b, c, n):
    """VADD_I32: c[i] = a[i] + b[i], n int32 elements (a multiple of 8)."""
    return _build("kohaku_inst_pool_vadd_i32", a, b, c, n)


def pool_sum_i64(src, result, n):
    """SUM_I64: the int64 sum of n elements (a multiple of 4) at result."""
    return _build("kohaku_inst_pool_sum_i64", src, result, n)


def pool_hist256(src, result, nbytes):
    """HIST256: 256 u32 counts of the byte values of nbytes at src."""
    return _build("kohaku_inst_pool_hist256", src, result, nbytes)


def pool_gemv_i8(a, x, y, m, k):
    """GEMV_I8 (API 1.1): y (m int32) = A x, A in 64-row column-major
    panels; m a multiple of 64, k of 4, k <= 4096."""
    return _build("kohaku_inst_pool_gemv_i8", a, x, y, m, k)


def pool_axpy_f32(x, y, a, n):
    """AXPY_F32 (API 1.1): y = a x + y in binary32 (fmaf); n a multiple of
    16."""
    return _build("kohaku_inst_pool_axpy_f32", x, y, float(a), n)


def pool_softmax_f32(src, dst, length, rows):
    """SOFTMAX_F32 (API 1.1): rows of ``length`` floats (a multiple of 16,
    <= 1024)."""
    return _build("kohaku_inst_pool_softmax_f32", src, dst, length, rows)


def pool_copy_u(src, dst, nbytes):
    """COPY_U: dst = src, any byte addresses and count."""
    return _build("kohaku_inst_pool_copy_u", src, dst, nbytes)


def pool_delay(cycles):
    """DELAY: busy for that many cycles, then retires."""
    return _build("kohaku_inst_pool_delay", cycles)


def pool_trap(core, how):
    """TRAP: core (0..7) traps on purpose (how: 0 illegal, 1 misaligned,
    2 access, 3 ebreak, 4 ecall)."""
    return _build("kohaku_inst_pool_trap", core, how)


def pool_fault_describe(code):
    """A POOL unit's SIG_FAULT code in words."""
    buf = ctypes.create_string_buffer(256)
    return _lib.text(fn("kohaku_pool_fault_describe")(code, buf, 256))


# --------------------------------------------------------------------- mat

_MAT_FIELDS = [f[0] for f in _lib.MatFields_C._fields_]


def _mat_fields(fields):
    """A struct kohaku_mat_fields from keyword fields."""
    f = _lib.MatFields_C()
    for k, v in fields.items():
        if k not in _MAT_FIELDS:
            raise TypeError("mat: no field %r (fields: %s)"
                            % (k, ", ".join(_MAT_FIELDS)))
        setattr(f, k, v)
    return f


def _mat_build(name, op, fields):
    """Call a mat builder into a new Inst."""
    f = _mat_fields(fields)
    inst = Inst()
    if op is None:
        r = fn(name)(ctypes.byref(inst), ctypes.byref(f))
    else:
        r = fn(name)(ctypes.byref(inst), op, ctypes.byref(f))
    if r < 0:
        raise KohakuError(-r, "%s(%s) refused: %s" % (
            name, ", ".join("%s=%r" % kv for kv in sorted(fields.items())),
            _strerror(r)), name)
    return inst


def mat(op, **fields):
    """mat unit, raw (``kohaku_inst_mat``): any 4-bit opcode, every field
    of ``struct kohaku_mat_fields`` by name, only checked to fit."""
    return _mat_build("kohaku_inst_mat", op, fields)


def mat_fill(**fields):
    """mat FILL, checked (``kohaku_inst_mat_fill``): addr, n, sel, fbank,
    eoff, preq, npeer, peers."""
    return _mat_build("kohaku_inst_mat_fill", None, fields)


def mat_gemm(**fields):
    """mat GEMM, checked (``kohaku_inst_mat_gemm``): acc, gm, gn, nk,
    anchor, aoff, boff, abank, bbank, emit (and addr/destination with
    emit)."""
    return _mat_build("kohaku_inst_mat_gemm", None, fields)


def mat_drain(**fields):
    """mat DRAIN, checked (``kohaku_inst_mat_drain``): addr, n, fuse, and
    the node destination fields."""
    return _mat_build("kohaku_inst_mat_drain", None, fields)


def mat_decode(inst):
    """(opcode, fields dict) of a mat CU_INST."""
    f = _lib.MatFields_C()
    op = fn("kohaku_inst_mat_decode")(ctypes.byref(inst), ctypes.byref(f))
    return op, {k: getattr(f, k) for k in _MAT_FIELDS}


def mat_shape_check(m, n, k):
    """Raise KohakuError (EINVAL) unless one mat unit takes C (m x n) =
    A (m x k) . B (k x n) in one GEMM block."""
    r = fn("kohaku_mat_shape_check")(m, n, k)
    if r < 0:
        raise KohakuError(-r, "mat shape %dx%dx%d (m x n x k) refused: m, n "
                          "multiples of 4, k of 32, each operand in one L1 "
                          "bank, C in the tiles" % (m, n, k),
                          "kohaku_mat_shape_check")


def _u16_in(obj, count, what):
    """A readable uint16 source of count values: a buffer (numpy uint16,
    array('H'), bytes) or a sequence of ints."""
    try:
        memoryview(obj)
    except TypeError:
        import array
        obj = array.array("H", obj)
    addr, n, keep = readable(obj)
    if n != 2 * count:
        raise ValueError("%s: %d FP16 values (%d bytes) wanted, got %d bytes"
                         % (what, count, 2 * count, n))
    return addr, keep


def _u16_out(count, out):
    """(out, address, keepalive) of a writable uint16 target."""
    import array
    if out is None:
        out = array.array("H", bytes(2 * count))
    addr, n, keep = writable(out)
    if n != 2 * count:
        raise ValueError("out: %d bytes wanted, got %d" % (2 * count, n))
    return out, addr, keep


def _mat_call(name, args, what):
    """Call a mat helper; a negative return raises."""
    r = fn(name)(*args)
    if r < 0:
        raise KohakuError(-r, "%s(%s) refused: %s" % (name, what,
                                                      _strerror(r)), name)


def mat_pack_a(a, m, k, out=None):
    """A (m x k FP16 bit patterns, row-major) in the device layout
    (``kohaku_mat_pack_a``); returns ``out`` (default a new array('H'))."""
    src, keep = _u16_in(a, m * k, "mat_pack_a")
    out, dst, keep2 = _u16_out(m * k, out)
    _mat_call("kohaku_mat_pack_a", (src, m, k, dst), "m=%d, k=%d" % (m, k))
    return out


def mat_pack_b(b, k, n, out=None):
    """B (k x n FP16, row-major) in the device layout
    (``kohaku_mat_pack_b``)."""
    src, keep = _u16_in(b, k * n, "mat_pack_b")
    out, dst, keep2 = _u16_out(k * n, out)
    _mat_call("kohaku_mat_pack_b", (src, k, n, dst), "k=%d, n=%d" % (k, n))
    return out


def mat_unpack_c(tiles, m, n, out=None):
    """The drained C sub-tiles back to m x n row-major FP16
    (``kohaku_mat_unpack_c``)."""
    src, keep = _u16_in(tiles, m * n, "mat_unpack_c")
    out, dst, keep2 = _u16_out(m * n, out)
    _mat_call("kohaku_mat_unpack_c", (src, m, n, dst), "m=%d, n=%d" % (m, n))
    return out


def mat_gemm_ref(a, b, m, n, k, out=None):
    """The host reference of :func:`mat_gemm_program`, bit for bit what the
    unit drains (``kohaku_mat_gemm_ref``): C (m x n FP16 bit patterns) from
    A (m x k) and B (k x n), row-major."""
    pa, ka = _u16_in(a, m * k, "mat_gemm_ref a")
    pb, kb = _u16_in(b, k * n, "mat_gemm_ref b")
    out, dst, kc = _u16_out(m * n, out)
    _mat_call("kohaku_mat_gemm_ref", (pa, pb, m, n, k, dst),
              "m=%d, n=%d, k=%d" % (m, n, k))
    return out


def mat_gemm_program(a_addr, b_addr, c_addr, m, n, k, fill_max=0):
    """The instructions of one GEMM block on a mat unit
    (``kohaku_mat_gemm_program``): FILL the packed A at a_addr and B at
    b_addr, GEMM, DRAIN C as FP16 to c_addr.  Returns a list of Inst."""
    arr = (Inst * MAT_PROGRAM_MAX)()
    r = fn("kohaku_mat_gemm_program")(arr, MAT_PROGRAM_MAX, a_addr, b_addr,
                                      c_addr, m, n, k, fill_max)
    if r < 0:
        raise KohakuError(-r, "kohaku_mat_gemm_program(m=%d, n=%d, k=%d, "
                          "fill_max=%d) refused: %s" % (m, n, k, fill_max,
                                                        _strerror(r)),
                          "kohaku_mat_gemm_program")
    return [Inst(arr[i].words) for i in range(r)]


# --------------------------------------------------------------------- vec


def vec_imem(addr, word):
    """vec IMEM: kernel word at IMEM address addr (< 512)."""
    return _build("kohaku_inst_vec_imem", addr, word)


def vec_imem_words(at, words):
    """A list of IMEM instructions loading ``words`` from address ``at``."""
    words = list(words)
    arr = (Inst * max(1, len(words)))()
    w = (ctypes.c_uint32 * max(1, len(words)))(*words)
    r = fn("kohaku_inst_vec_imem_words")(arr, at, w, len(words))
    if r < 0:
        raise KohakuError(-r, "kohaku_inst_vec_imem_words(at=%d, %d words) "
                          "refused: %s" % (at, len(words), _strerror(r)),
                          "kohaku_inst_vec_imem_words")
    return [Inst(arr[i].words) for i in range(len(words))]


def vec_desc(ad, fld, value):
    """vec DESC: field fld of descriptor ad = value."""
    return _build("kohaku_inst_vec_desc", ad, fld, value)


def vec_desc_base(ad, base):
    """vec DESC of descriptor ad's 40-bit base."""
    return _build("kohaku_inst_vec_desc_base", ad, base)


def vec_desc_dim(ad, dim, stride, bound):
    """vec DESC of dimension dim (0..3): signed stride, bound (entries)."""
    return _build("kohaku_inst_vec_desc_dim", ad, dim, stride, bound)


def vec_run(pc):
    """vec RUN: start the kernel at pc."""
    return _build("kohaku_inst_vec_run", pc)


def vec_raw(opcode, addr):
    """vec: any CU opcode (0..15) with the address field."""
    return _build("kohaku_inst_vec_raw", opcode, addr)


_VEC_WORDS = {"vadd": 3, "vsub": 3, "vmul": 3, "vmax": 3, "vmin": 3,
              "vfma": 4, "vld": 4, "vst": 4, "vfill": 2, "vdrain": 2,
              "vsetvl": 1, "vsetmode": 1, "vloop": 2}


def vec_word(name, *args):
    """One vec kernel word by its builder's name (``kohaku_vec_NAME``):
    vadd/vsub/vmul/vmax/vmin (vd, va, vb), vfma (vd, va, vb, vc), vld/vst
    (vd, ad, off, dtype), vfill/vdrain (ad, l1), vsetvl (sreg), vsetmode
    (mode), vloop (sreg, body); "vseti" (sreg, value) returns two words.
    Returns the 32-bit word (a list of two for vseti)."""
    if name == "vseti":
        w = (ctypes.c_uint32 * 2)()
        r = fn("kohaku_vec_vseti")(w, *args)
        if r < 0:
            raise KohakuError(-r, "kohaku_vec_vseti%r refused" % (args,),
                              "kohaku_vec_vseti")
        return [w[0], w[1]]
    if name not in _VEC_WORDS:
        raise ValueError("vec_word: no builder %r" % name)
    if len(args) != _VEC_WORDS[name]:
        raise TypeError("vec_word(%r) takes %d operands" %
                        (name, _VEC_WORDS[name]))
    w = ctypes.c_uint32()
    r = fn("kohaku_vec_" + name)(ctypes.byref(w), *args)
    if r < 0:
        raise KohakuError(-r, "kohaku_vec_%s%r refused: %s"
                          % (name, args, _strerror(r)), "kohaku_vec_" + name)
    return w.value


def vec_vbar():
    """VBAR: wait for every fill."""
    return fn("kohaku_vec_vbar")()


def vec_vhalt():
    """VHALT: the kernel's end."""
    return fn("kohaku_vec_vhalt")()


def vec_fault_describe(code):
    """A vec RUN's SIG_FAULT code in words."""
    buf = ctypes.create_string_buffer(256)
    return _lib.text(fn("kohaku_vec_fault_describe")(code, buf, 256))


# --------------------------------------------------------------------- cpu


def cpu_kick(pc, arg=0):
    """cpu unit: run from byte address pc of the instruction window with
    arg (``kohaku_inst_cpu_kick``)."""
    return _build("kohaku_inst_cpu_kick", pc, arg)


def cpu(op, pc, arg):
    """cpu unit, raw: any op (0..255), any pc and arg."""
    return _build("kohaku_inst_cpu", op, pc, arg)


def cpu_dram_addr(mesh, dev_addr, size):
    """The address a cpu program uses for device memory at dev_addr
    (``kohaku_cpu_dram_addr``)."""
    out = ctypes.c_uint32()
    r = fn("kohaku_cpu_dram_addr")(mesh, dev_addr, size, ctypes.byref(out))
    check(r, "kohaku_cpu_dram_addr",
          message=None if r >= 0 else "kohaku_cpu_dram_addr(mesh=%d, "
          "0x%x, %d) refused: %s" % (mesh, dev_addr, size, _strerror(r)))
    return out.value


def cpu_data(buf_id, granule, words):
    """32-bit words into a cpu unit's window from a granule on, as a job's
    :class:`Data` (``kohaku_cpu_data``'s checks: buffer CPU_BUF_IMEM or
    CPU_BUF_SPAD, whole granules of 8 words, inside the window, not the
    driver's stub granule)."""
    import array
    w = array.array("I", words)
    d = _lib.Data_C()
    arr = (ctypes.c_uint32 * max(1, len(w)))(*w)
    r = fn("kohaku_cpu_data")(ctypes.byref(d), buf_id, granule, arr, len(w))
    if r < 0:
        raise KohakuError(-r, "kohaku_cpu_data(buf_id=%d, granule=%d, %d "
                          "words) refused: %s" % (buf_id, granule, len(w),
                                                  _strerror(r)),
                          "kohaku_cpu_data")
    return Data(d.buf_id, w.tobytes(), d.offset)


# RV32I encoders (kohaku-asm.h's kohaku_rv_NAME, which libkohaku.so does not
# export: they are C in libkohaku-asm.a, here Python).  Operand kinds, in
# assembly order: r register 0..31, i signed immediate or offset, u
# unsigned immediate (lui/auipc's upper 20 bits; a shift amount)
RV_ENCODERS = {
    "lui": "ru", "auipc": "ru", "jal": "ri", "jalr": "rri",
    "beq": "rri", "bne": "rri", "blt": "rri", "bge": "rri", "bltu": "rri",
    "bgeu": "rri",
    "lb": "rri", "lh": "rri", "lw": "rri", "lbu": "rri", "lhu": "rri",
    "sb": "rri", "sh": "rri", "sw": "rri",
    "addi": "rri", "slti": "rri", "sltiu": "rri", "xori": "rri",
    "ori": "rri", "andi": "rri", "slli": "rru", "srli": "rru",
    "srai": "rru",
    "add": "rrr", "sub": "rrr", "sll": "rrr", "slt": "rrr", "sltu": "rrr",
    "xor": "rrr", "srl": "rrr", "sra": "rrr", "or": "rrr", "and": "rrr",
    "fence": "rr", "ecall": "", "ebreak": "",
}
# name: (major opcode, funct3, funct7) as the unprivileged ISA's table
_RV_OPS = {
    "lui": (0x37, 0, 0), "auipc": (0x17, 0, 0), "jal": (0x6f, 0, 0),
    "jalr": (0x67, 0, 0),
    "beq": (0x63, 0, 0), "bne": (0x63, 1, 0), "blt": (0x63, 4, 0),
    "bge": (0x63, 5, 0), "bltu": (0x63, 6, 0), "bgeu": (0x63, 7, 0),
    "lb": (0x03, 0, 0), "lh": (0x03, 1, 0), "lw": (0x03, 2, 0),
    "lbu": (0x03, 4, 0), "lhu": (0x03, 5, 0),
    "sb": (0x23, 0, 0), "sh": (0x23, 1, 0), "sw": (0x23, 2, 0),
    "addi": (0x13, 0, 0), "slti": (0x13, 2, 0), "sltiu": (0x13, 3, 0),
    "xori": (0x13, 4, 0), "ori": (0x13, 6, 0), "andi": (0x13, 7, 0),
    "slli": (0x13, 1, 0), "srli": (0x13, 5, 0), "srai": (0x13, 5, 0x20),
    "add": (0x33, 0, 0), "sub": (0x33, 0, 0x20), "sll": (0x33, 1, 0),
    "slt": (0x33, 2, 0), "sltu": (0x33, 3, 0), "xor": (0x33, 4, 0),
    "srl": (0x33, 5, 0), "sra": (0x33, 5, 0x20), "or": (0x33, 6, 0),
    "and": (0x33, 7, 0),
}


def _rv_encode(name, ops):
    """The word, or None for an operand that does not fit (the C
    encoders' KOHAKU_RV_INVALID cases: never truncated)."""
    kinds = RV_ENCODERS[name]
    for k, v in zip(kinds, ops):
        if k == "r" and not 0 <= v <= 31:
            return None
    if name == "ecall":
        return 0x00000073
    if name == "ebreak":
        return 0x00100073
    if name == "fence":
        pred, succ = ops
        if not (0 <= pred <= 15 and 0 <= succ <= 15):
            return None
        return (pred << 24) | (succ << 20) | 0x0f
    op, f3, f7 = _RV_OPS[name]
    if op in (0x37, 0x17):                      # U
        rd, imm = ops
        if not 0 <= imm <= 0xfffff:
            return None
        return (imm << 12) | (rd << 7) | op
    if op == 0x6f:                              # J
        rd, off = ops
        if off % 4 or not -1048576 <= off <= 1048572:
            return None
        o = off & 0x1fffff
        return (((o >> 20) & 1) << 31 | ((o >> 1) & 0x3ff) << 21 |
                ((o >> 11) & 1) << 20 | ((o >> 12) & 0xff) << 12 |
                rd << 7 | op)
    if op == 0x63:                              # B
        rs1, rs2, off = ops
        if off % 4 or not -4096 <= off <= 4092:
            return None
        o = off & 0x1fff
        return (((o >> 12) & 1) << 31 | ((o >> 5) & 0x3f) << 25 |
                rs2 << 20 | rs1 << 15 | f3 << 12 | ((o >> 1) & 0xf) << 8 |
                ((o >> 11) & 1) << 7 | op)
    if op == 0x23:                              # S: rs2, rs1, imm
        rs2, rs1, imm = ops
        if not -2048 <= imm <= 2047:
            return None
        i = imm & 0xfff
        return ((i >> 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
                (i & 0x1f) << 7 | op)
    if op == 0x33:                              # R
        rd, rs1, rs2 = ops
        return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op
    rd, rs1, imm = ops                          # I (and the shifts)
    if kinds[2] == "u":
        if not 0 <= imm <= 31:
            return None
        return f7 << 25 | imm << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op
    if not -2048 <= imm <= 2047:
        return None
    return (imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op


def rv(name, *operands):
    """One RV32I instruction word (kohaku-asm.h's ``kohaku_rv_NAME``),
    operands in assembly order: ``rv("addi", 10, 0, 5)`` is addi a0,
    zero, 5; ``rv("sw", rs2, rs1, imm)``.  Raises KohakuError (EINVAL)
    for an operand that does not fit."""
    kinds = RV_ENCODERS.get(name)
    if kinds is None:
        raise ValueError("rv: no encoder %r" % name)
    if len(operands) != len(kinds):
        raise TypeError("rv(%r) takes %d operands" % (name, len(kinds)))
    w = _rv_encode(name, [int(o) for o in operands])
    if w is None:
        raise KohakuError(22, "rv %s %s: an operand does not fit" % (
            name, ", ".join(str(o) for o in operands)), "kohaku_rv_" + name)
    return w