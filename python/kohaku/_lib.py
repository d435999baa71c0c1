# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Finding and loading libkohaku.so.0, and its C declarations for ctypes.

The library is looked for, in order:

1. ``$KOHAKU_LIBRARY``: a path to a ``libkohaku.so.0`` (the tests point it
   at the build tree's);
2. a build tree next to the package: ``../build/libkohaku.so.0`` relative
   to the ``python/`` directory that holds ``kohaku/`` (a checkout after
   ``make userspace``);
3. ``libkohaku.so.0`` through the dynamic loader (``ld.so``: its cache,
   ``LD_LIBRARY_PATH``, the default directories), as an installed library
   is found;
4. the ``LIBDIR`` that ``make install`` recorded in ``kohaku/_config.py``
   (``/usr/local/lib`` is in ``ld.so``'s cache only once ``ldconfig`` ran).

Nothing is compiled: every function the package calls is declared here
with its ``argtypes`` and ``restype``, and every structure it passes is
mirrored by a :class:`ctypes.Structure` whose size is checked against the
C layout (``SIZES``; ``tests/python/test_layout.py`` compiles the headers
and compares every field's offset as well).
"""

import ctypes
import os

__all__ = ["lib", "path", "have", "KohakuInst"]

# ---------------------------------------------------------------- loading

LIBNAME = "libkohaku.so.0"


def _candidates():
    """(path, how) pairs to try, in order."""
    env = os.environ.get("KOHAKU_LIBRARY")
    if env:
        yield env, "$KOHAKU_LIBRARY"
        return
    pkg = os.path.dirname(os.path.abspath(__file__))
    pydir = os.path.dirname(pkg)
    if os.path.basename(pydir) == "python":
        cand = os.path.join(os.path.dirname(pydir), "build", LIBNAME)
        if os.path.exists(cand):
            yield cand, "the build tree"
    yield LIBNAME, "ld.so"
    try:
        from . import _config  # written by make install
        libdir = getattr(_config, "LIBDIR", None)
    except ImportError:
        libdir = None
    if libdir:
        yield os.path.join(libdir, LIBNAME), "make install's LIBDIR"


def _load():
    """The first candidate that loads: (CDLL, path)."""
    tried = []
    for cand, how in _candidates():
        try:
            return ctypes.CDLL(cand, use_errno=True), cand
        except OSError as e:
            tried.append("%s (%s): %s" % (cand, how, e))
    raise ImportError(
        "kohaku: cannot load libkohaku.so.0; tried " + "; ".join(tried) +
        ". Build it (make userspace), install it (make install), or set "
        "KOHAKU_LIBRARY to its path.")


lib, path = _load()


def have(name):
    """Whether the loaded library defines the C function ``name``."""
    return hasattr(lib, name)


# ------------------------------------------------------------- constants

KOHAKU_ERRMSG_MAX = 1024
KOHAKU_MAX_MESHES = 4
KOHAKU_MAT_PROGRAM_MAX = 514

c_u8 = ctypes.c_uint8
c_u16 = ctypes.c_uint16
c_u32 = ctypes.c_uint32
c_u64 = ctypes.c_uint64
c_i32 = ctypes.c_int32
c_uint = ctypes.c_uint
c_int = ctypes.c_int
c_size_t = ctypes.c_size_t
c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
P = ctypes.POINTER

# ------------------------------------------------------------- structures


class _S(ctypes.Structure):
    """A C structure mirror; ``_c_name_`` is its C spelling."""

    _c_name_ = None

    def __repr__(self):
        fs = ", ".join("%s=%r" % (f[0], getattr(self, f[0]))
                       for f in self._fields_ if not f[0].startswith("_"))
        return "%s(%s)" % (type(self).__name__, fs)


class MeshInfo_C(_S):
    _c_name_ = "struct drm_kohaku_mesh_info"
    _fields_ = [("flags", c_u32), ("n_nodes", c_u16), ("grid_lo", c_u8),
                ("grid_hi", c_u8), ("pos_width", c_u8), ("agent_x", c_u8),
                ("agent_y", c_u8), ("cu_version", c_u8),
                ("flit_width", c_u16), ("min_inst_depth", c_u16),
                ("caps_reg", c_u64), ("mem_size", c_u64),
                ("mem_free", c_u64), ("reserved", c_u64 * 2)]


class GetInfo_C(_S):
    _c_name_ = "struct drm_kohaku_get_info"
    _fields_ = [("flags", c_u32), ("abi_version", c_u32), ("caps", c_u64),
                ("n_meshes", c_u32), ("n_nodes", c_u32),
                ("name", ctypes.c_char * 32),
                ("mesh", MeshInfo_C * KOHAKU_MAX_MESHES),
                ("reserved", c_u64 * 4)]


class Node_C(_S):
    _c_name_ = "struct drm_kohaku_node"
    _fields_ = [("mesh", c_u8), ("x", c_u8), ("y", c_u8),
                ("n_buffers", c_u8), ("cu_type", c_u16),
                ("cu_version", c_u8), ("flags", c_u8),
                ("inst_depth", c_u16), ("inst_space", c_u16),
                ("retired", c_u32), ("busy_cycles", c_u32), ("busy", c_u32),
                ("caps_reg", c_u64), ("dbg", c_u64), ("fw_state", c_u8),
                ("fw_pad", c_u8 * 3), ("fw_version", c_u32),
                ("fw_api", c_u32), ("fw_reserved", c_u32),
                ("fw_boot_ns", c_u64), ("fw_trap", c_u64)]


class KohakuInst(_S):
    """One instruction: the 256-bit payload as four 64-bit words, w[0]
    holding bits 63..0."""

    _c_name_ = "struct kohaku_inst"
    _fields_ = [("w", c_u64 * 4)]

    def __init__(self, *words):
        super().__init__()
        if len(words) == 1 and not isinstance(words[0], int):
            words = tuple(words[0])
        if words:
            if len(words) != 4:
                raise ValueError("an instruction is four 64-bit words")
            for i, v in enumerate(words):
                self.w[i] = v

    @property
    def words(self):
        """The four 64-bit words, w[0] first (payload bits 63..0)."""
        return tuple(self.w)

    def to_int(self):
        """The 256-bit payload as one integer."""
        return sum(int(v) << (64 * i) for i, v in enumerate(self.w))

    def bits(self, hi, lo):
        """Payload bits [hi:lo] as an integer."""
        return (self.to_int() >> lo) & ((1 << (hi - lo + 1)) - 1)

    def __eq__(self, other):
        if isinstance(other, KohakuInst):
            return self.words == other.words
        return NotImplemented

    def __hash__(self):
        return hash(self.words)

    def __repr__(self):
        return "Inst(%s)" % ", ".join("0x%016x" % v for v in self.w)


class BoInfo_C(_S):
    _c_name_ = "struct kohaku_bo_info"
    _fields_ = [("handle", c_u32), ("mesh", c_u32), ("size", c_u64),
                ("dev_addr", c_u64)]


class Data_C(_S):
    _c_name_ = "struct kohaku_data"
    _fields_ = [("buf_id", c_u8), ("offset", c_u32), ("data", c_void_p),
                ("size", c_u32)]


class Program_C(_S):
    _c_name_ = "struct kohaku_program"
    _fields_ = [("mesh", c_u8), ("x", c_u8), ("y", c_u8), ("txn", c_u8),
                ("n_insts", c_u32), ("insts", P(KohakuInst)),
                ("data", P(Data_C)), ("n_data", c_uint),
                ("peer_signals", c_u32)]


class JobStatus_C(_S):
    _c_name_ = "struct kohaku_job_status"
    _fields_ = [("status", c_u32), ("fault_code", c_u32),
                ("fault_mesh", c_u8), ("fault_x", c_u8), ("fault_y", c_u8),
                ("fault_flags", c_u8), ("n_faults", c_u32),
                ("device_ns", c_u64), ("reason", c_u32)]


class JobBo_C(_S):
    _c_name_ = "struct kohaku_job_bo"
    _fields_ = [("handle", c_u32), ("access", c_u32)]


class SubmitArgs_C(_S):
    _c_name_ = "struct kohaku_submit_args"
    _fields_ = [("programs", P(Program_C)), ("n_programs", c_uint),
                ("timeout_ms", c_u32), ("in_syncobjs", P(c_u32)),
                ("n_in_syncobjs", c_uint), ("out_syncobj", c_u32),
                ("bos", P(JobBo_C)), ("n_bos", c_uint), ("flags", c_u32)]


class FwLoad_C(_S):
    _c_name_ = "struct drm_kohaku_fw_load"
    _fields_ = [("image_ptr", c_u64), ("image_size", c_u32),
                ("flags", c_u32), ("timeout_ms", c_u32), ("n_units", c_u32),
                ("reason", c_u32), ("detail", c_u32), ("fw_version", c_u32),
                ("fw_api", c_u32), ("fail_mesh", c_u8), ("fail_x", c_u8),
                ("fail_y", c_u8), ("pad", c_u8), ("loaded_by", c_u32),
                ("boot_ns", c_u64), ("fail_trap", c_u64),
                ("reserved", c_u64 * 2)]


class FwInfo_C(_S):
    _c_name_ = "struct kohaku_fw_info"
    _fields_ = [("units", c_u32), ("running", c_u32), ("fw_version", c_u32),
                ("fw_api", c_u32), ("driver_api", c_u32),
                ("status", ctypes.c_char * 512)]


class MatFields_C(_S):
    _c_name_ = "struct kohaku_mat_fields"
    _fields_ = [("addr", c_u64), ("n", c_u32), ("peers", c_u32)] + [
        (n, c_u8) for n in (
            "sel", "fbank", "eoff", "preq", "npeer", "acc", "gm", "gn", "nk",
            "anchor", "aoff", "boff", "abank", "bbank", "emit", "fuse",
            "dnode", "dst_x", "dst_y", "dbuf", "dflags", "dack_y", "dack_x",
            "dmesh", "dfin")]


class DeviceEntry_C(_S):
    _c_name_ = "struct kohaku_device_entry"
    _fields_ = [("backend", c_int), ("index", c_int), ("status", c_int),
                ("path", ctypes.c_char * 64), ("driver", ctypes.c_char * 32),
                ("name", ctypes.c_char * 32), ("n_meshes", c_uint),
                ("n_nodes", c_uint), ("message", ctypes.c_char * 256)]


class ArtifactInfo_C(_S):
    _c_name_ = "struct kohaku_artifact_info"
    _fields_ = [("machine", c_char_p), ("n_flits", c_u32),
                ("n_steps", c_u32), ("n_rounds", c_u32), ("n_kicks", c_u32)]


class ArtifactRun_C(_S):
    _c_name_ = "struct kohaku_artifact_run"
    _fields_ = [("mesh", c_uint), ("arenas", P(c_u32)),
                ("n_arenas", c_uint), ("timeout_ms", c_u32),
                ("flags", c_u32)]


class ArtifactResult_C(_S):
    _c_name_ = "struct kohaku_artifact_result"
    _fields_ = [("rounds", c_u32), ("failed_round", c_u32),
                ("device_ns", c_u64), ("status", JobStatus_C)]


for _s in (MeshInfo_C, GetInfo_C, Node_C, BoInfo_C, Data_C, Program_C,
           JobStatus_C, JobBo_C, SubmitArgs_C, FwLoad_C, FwInfo_C,
           MatFields_C, DeviceEntry_C, ArtifactInfo_C, ArtifactRun_C,
           ArtifactResult_C):
    _s.__doc__ = "ctypes mirror of %s (libruntime/kohaku.h, uapi)." % \
        _s._c_name_

# every mirror, for the layout test
STRUCTS = [MeshInfo_C, GetInfo_C, Node_C, KohakuInst, BoInfo_C, Data_C,
           Program_C, JobStatus_C, JobBo_C, SubmitArgs_C, FwLoad_C, FwInfo_C,
           MatFields_C, DeviceEntry_C, ArtifactInfo_C, ArtifactRun_C,
           ArtifactResult_C]

# sizeof() of each on x86-64 Linux (gcc), checked at import: a mirror
# that drifts from these fails loudly here rather than corrupting memory
SIZES = {
    "struct drm_kohaku_mesh_info": 56,
    "struct drm_kohaku_get_info": 312,
    "struct drm_kohaku_node": 72,
    "struct kohaku_inst": 32,
    "struct kohaku_bo_info": 24,
    "struct kohaku_data": 24,
    "struct kohaku_program": 32,
    "struct kohaku_job_status": 32,
    "struct kohaku_job_bo": 8,
    "struct kohaku_submit_args": 48,
    "struct drm_kohaku_fw_load": 80,
    "struct kohaku_fw_info": 532,
    "struct kohaku_mat_fields": 48,
    "struct kohaku_device_entry": 404,
    "struct kohaku_artifact_info": 24,
    "struct kohaku_artifact_run": 32,
    "struct kohaku_artifact_result": 48,
}

if ctypes.sizeof(ctypes.c_void_p) == 8:
    for _s in STRUCTS:
        if ctypes.sizeof(_s) != SIZES[_s._c_name_]:
            raise ImportError("kohaku: %s mirrors %s in %d bytes, C has %d"
                              % (_s.__name__, _s._c_name_,
                                 ctypes.sizeof(_s), SIZES[_s._c_name_]))

# ------------------------------------------------------------- functions

_dev = c_void_p      # kohaku_device *
_inst = P(KohakuInst)
_u32p = P(c_u32)
_u64p = P(c_u64)
_uintp = P(c_uint)
_u16p = P(c_u16)

# name: (restype, [argtypes])
_FUNCS = {
    # open, close, errors
    "kohaku_version": (c_char_p, []),
    "kohaku_backend_name": (c_char_p, [c_int]),
    "kohaku_backend_parse": (c_int, [c_char_p, P(c_int)]),
    "kohaku_open": (c_int, [c_int, c_char_p, P(_dev), c_char_p, c_size_t]),
    "kohaku_reopen": (c_int, [_dev, P(_dev)]),
    "kohaku_close": (None, [_dev]),
    "kohaku_last_error": (c_char_p, [_dev]),
    "kohaku_strerror": (c_char_p, [c_int]),
    "kohaku_job_status_name": (c_char_p, [c_uint]),
    "kohaku_device_backend": (c_int, [_dev]),
    "kohaku_device_path": (c_char_p, [_dev]),
    "kohaku_device_fd": (c_int, [_dev]),
    "kohaku_list_devices": (c_int, [c_int, P(P(DeviceEntry_C)), _uintp,
                                    c_size_t, c_char_p, c_size_t]),
    "kohaku_free_device_list": (None, [P(DeviceEntry_C)]),
    "kohaku_sim_builtin_names": (P(c_char_p), []),
    "kohaku_sim_builtin_desc": (c_char_p, [c_char_p]),
    # info and nodes
    "kohaku_get_info": (c_int, [_dev, P(GetInfo_C), c_size_t]),
    "kohaku_nodes_alloc": (c_int, [_dev, c_uint, P(P(Node_C)), c_size_t,
                                    _uintp]),
    "kohaku_cu_type_name": (c_char_p, [c_u16, c_char_p, c_size_t]),
    # memory
    "kohaku_bo_create": (c_int, [_dev, c_uint, c_u64, _u32p, _u64p]),
    "kohaku_bo_create_at": (c_int, [_dev, c_uint, c_u64, c_u64, _u32p]),
    "kohaku_bo_free": (c_int, [_dev, c_u32]),
    "kohaku_bo_info": (c_int, [_dev, c_u32, P(BoInfo_C), c_size_t]),
    "kohaku_bo_write": (c_int, [_dev, c_u32, c_u64, c_void_p, c_u64]),
    "kohaku_bo_read": (c_int, [_dev, c_u32, c_u64, c_void_p, c_u64]),
    # SX and null
    "kohaku_inst_sx": (c_int, [_inst, c_uint, c_u32, c_u32, c_u64, c_u64]),
    "kohaku_inst_saxpy": (c_int, [_inst, c_u32, ctypes.c_float, c_u64,
                                  c_u64]),
    "kohaku_sx_datapath_of": (c_int, [P(Node_C)]),
    "kohaku_sx_datapath_name": (c_char_p, [c_int]),
    "kohaku_sx_element": (c_u32, [c_int, c_u32, c_u32, c_u32]),
    "kohaku_inst_sx_decode": (None, [_inst, _uintp, _u32p, _u32p, _u64p,
                                     _u64p]),
    "kohaku_inst_null": (None, [_inst, P(c_u32 * 8)]),
    "kohaku_inst_null_result": (c_u32, [_inst]),
    # POOL
    "kohaku_inst_pool": (None, [_inst, c_uint, P(c_u32 * 7)]),
    "kohaku_inst_pool_ping": (c_int, [_inst, c_u32]),
    "kohaku_inst_pool_copy": (c_int, [_inst, c_u64, c_u64, c_u32]),
    "kohaku_inst_pool_fill": (c_int, [_inst, c_u64, c_u32, c_u32]),
    "kohaku_inst_pool_crc32": (c_int, [_inst, c_u64, c_u64, c_u32]),
    "kohaku_inst_pool_vadd_i32": (c_int, [_inst, c_u64, c_u64, c_u64,
                                          c_u32]),
    "kohaku_inst_pool_sum_i64": (c_int, [_inst, c_u64, c_u64, c_u32]),
    "kohaku_inst_pool_hist256": (c_int, [_inst, c_u64, c_u64, c_u32]),
    "kohaku_inst_pool_gemv_i8": (c_int, [_inst, c_u64, c_u64, c_u64, c_u32,
                                         c_u32]),
    "kohaku_inst_pool_axpy_f32": (c_int, [_inst, c_u64, c_u64,
                                          ctypes.c_float, c_u32]),
    "kohaku_inst_pool_softmax_f32": (c_int, [_inst, c_u64, c_u64, c_u32,
                                             c_u32]),
    "kohaku_inst_pool_copy_u": (c_int, [_inst, c_u64, c_u64, c_u32]),
    "kohaku_inst_pool_delay": (c_int, [_inst, c_u32]),
    "kohaku_inst_pool_trap": (c_int, [_inst, c_uint, c_uint]),
    "kohaku_pool_fault_describe": (c_char_p, [c_u32, c_char_p, c_size_t]),
    # mat
    "kohaku_inst_mat": (c_int, [_inst, c_uint, P(MatFields_C)]),
    "kohaku_inst_mat_fill": (c_int, [_inst, P(MatFields_C)]),
    "kohaku_inst_mat_gemm": (c_int, [_inst, P(MatFields_C)]),
    "kohaku_inst_mat_drain": (c_int, [_inst, P(MatFields_C)]),
    "kohaku_inst_mat_decode": (c_uint, [_inst, P(MatFields_C)]),
    "kohaku_mat_shape_check": (c_int, [c_uint, c_uint, c_uint]),
    "kohaku_mat_pack_a": (c_int, [c_void_p, c_uint, c_uint, c_void_p]),
    "kohaku_mat_pack_b": (c_int, [c_void_p, c_uint, c_uint, c_void_p]),
    "kohaku_mat_unpack_c": (c_int, [c_void_p, c_uint, c_uint, c_void_p]),
    "kohaku_mat_gemm_program": (c_int, [_inst, c_uint, c_u64, c_u64, c_u64,
                                        c_uint, c_uint, c_uint, c_uint]),
    "kohaku_mat_gemm_ref": (c_int, [c_void_p, c_void_p, c_uint, c_uint,
                                    c_uint, c_void_p]),
    # vec
    "kohaku_inst_vec_imem": (c_int, [_inst, c_uint, c_u32]),
    "kohaku_inst_vec_desc": (c_int, [_inst, c_uint, c_uint, c_u64]),
    "kohaku_inst_vec_desc_base": (c_int, [_inst, c_uint, c_u64]),
    "kohaku_inst_vec_desc_dim": (c_int, [_inst, c_uint, c_uint, c_i32,
                                         c_u32]),
    "kohaku_inst_vec_imem_words": (c_int, [_inst, c_uint, _u32p, c_uint]),
    "kohaku_inst_vec_run": (c_int, [_inst, c_uint]),
    "kohaku_inst_vec_raw": (c_int, [_inst, c_uint, c_uint]),
    "kohaku_vec_vadd": (c_int, [_u32p, c_uint, c_uint, c_uint]),
    "kohaku_vec_vsub": (c_int, [_u32p, c_uint, c_uint, c_uint]),
    "kohaku_vec_vmul": (c_int, [_u32p, c_uint, c_uint, c_uint]),
    "kohaku_vec_vmax": (c_int, [_u32p, c_uint, c_uint, c_uint]),
    "kohaku_vec_vmin": (c_int, [_u32p, c_uint, c_uint, c_uint]),
    "kohaku_vec_vfma": (c_int, [_u32p, c_uint, c_uint, c_uint, c_uint]),
    "kohaku_vec_vld": (c_int, [_u32p, c_uint, c_uint, c_i32, c_uint]),
    "kohaku_vec_vst": (c_int, [_u32p, c_uint, c_uint, c_i32, c_uint]),
    "kohaku_vec_vfill": (c_int, [_u32p, c_uint, c_uint]),
    "kohaku_vec_vdrain": (c_int, [_u32p, c_uint, c_uint]),
    "kohaku_vec_vsetvl": (c_int, [_u32p, c_uint]),
    "kohaku_vec_vsetmode": (c_int, [_u32p, c_uint]),
    "kohaku_vec_vseti": (c_int, [_u32p, c_uint, c_u32]),
    "kohaku_vec_vloop": (c_int, [_u32p, c_uint, c_uint]),
    "kohaku_vec_vbar": (c_u32, []),
    "kohaku_vec_vhalt": (c_u32, []),
    "kohaku_vec_fault_describe": (c_char_p, [c_u32, c_char_p, c_size_t]),
    # cpu
    "kohaku_inst_cpu_kick": (c_int, [_inst, c_u32, c_u32]),
    "kohaku_inst_cpu": (c_int, [_inst, c_uint, c_u32, c_u32]),
    "kohaku_cpu_dram_addr": (c_int, [c_uint, c_u64, c_u64, _u32p]),
    "kohaku_cpu_data": (c_int, [P(Data_C), c_uint, c_uint, _u32p, c_uint]),
    # firmware
    "kohaku_fw_load": (c_int, [_dev, c_void_p, c_size_t, c_uint,
                               P(FwLoad_C), c_size_t]),
    "kohaku_fw_load_file": (c_int, [_dev, c_char_p, c_uint, P(FwLoad_C),
                                    c_size_t]),
    "kohaku_fw_info": (c_int, [_dev, P(FwInfo_C), c_size_t]),
    "kohaku_fw_reason": (c_char_p, [c_uint]),
    "kohaku_fw_state_name": (c_char_p, [c_uint]),
    # jobs and fences
    "kohaku_submit": (c_int, [_dev, P(Program_C), c_uint, c_u32, _u64p]),
    "kohaku_submit_ex": (c_int, [_dev, P(SubmitArgs_C), _u64p]),
    "kohaku_wait": (c_int, [_dev, c_u64, c_u32, P(JobStatus_C), c_size_t]),
    "kohaku_run": (c_int, [_dev, P(Program_C), c_uint, c_u32,
                           P(JobStatus_C), c_size_t]),
    "kohaku_job_describe": (c_char_p, [P(JobStatus_C), c_size_t, c_char_p,
                                       c_size_t]),
    "kohaku_syncobj_create": (c_int, [_dev, _u32p]),
    "kohaku_syncobj_destroy": (c_int, [_dev, c_u32]),
    "kohaku_syncobj_wait": (c_int, [_dev, _u32p, c_uint, c_uint, c_u32,
                                    _uintp]),
    "kohaku_syncobj_fd": (c_int, [_dev, c_u32, P(c_int)]),
    # artifacts
    "kohaku_artifact_parse": (c_int, [c_char_p, c_size_t, P(c_void_p),
                                      c_char_p, c_size_t]),
    "kohaku_artifact_load": (c_int, [c_char_p, P(c_void_p), c_char_p,
                                     c_size_t]),
    "kohaku_artifact_free": (None, [c_void_p]),
    "kohaku_artifact_info": (None, [c_void_p, P(ArtifactInfo_C), c_size_t]),
    "kohaku_artifact_check": (c_int, [_dev, c_void_p, c_uint]),
    "kohaku_artifact_run": (c_int, [_dev, c_void_p, P(ArtifactRun_C),
                                    P(ArtifactResult_C), c_size_t]),
    # meshes
    "kohaku_mesh_lease": (c_int, [_dev, c_uint, c_int]),
    "kohaku_clocks_file_run": (c_int, [_dev, c_uint, c_uint]),
    "kohaku_clk_profile_name": (c_char_p, [c_uint]),
    # the model's knobs
    "kohaku_sim_command": (c_int, [_dev, c_char_p]),
    "kohaku_sim_read": (c_int, [_dev, c_char_p, P(c_void_p)]),
    "kohaku_sim_check": (c_int, [_dev]),
}

for _name, (_res, _args) in _FUNCS.items():
    _f = getattr(lib, _name, None)
    if _f is None:
        continue    # an older library: the wrapper says so when called
    _f.restype = _res
    _f.argtypes = _args


def fn(name):
    """The C function ``name``, declared; a clear error if this library
    lacks it (an older libkohaku)."""
    f = getattr(lib, name, None)
    if f is None or name not in _FUNCS:
        from .errors import KohakuError
        import errno
        raise KohakuError(errno.ENOSYS, "%s is not in %s (an older "
                          "libkohaku?)" % (name, path), function=name)
    return f


def text(b):
    """A C string (bytes or None) as str."""
    if b is None:
        return ""
    return b.decode("utf-8", "replace")
