"""Run by tests/test_sim_gpu.py in a process of its own: the GPU kernels compiled to PTX for an H100/H200 (sm_90).

The CUDA simulator runs the kernels as Python, so it cannot see what only the CUDA compiler sees: a NumPy function
the CUDA target lacks, an integer expression typed as a float (``uint64 op int64`` is float64 in Numba), a float
``a * b + c`` contracted into a fused multiply-add (which would round differently from the CPU).  This compiles
every kernel as a GPU would, without a GPU: numba-cuda's libNVVM and libdevice from a CUDA toolkit on disk, the
compute capability given instead of asked of a device.  It prints one JSON document: per kernel, the float64
instructions of its PTX.  Exit status 3: no toolkit here (the test skips).
"""

from __future__ import annotations

import glob
import json
import os
import re
import sys


def toolkit() -> tuple[str, str] | None:
    """(the root, libdevice) of a CUDA toolkit on disk with libNVVM, or None."""
    roots = [os.environ.get("CUDA_HOME", ""), *sorted(glob.glob("/usr/local/cuda*"), reverse=True)]
    for root in filter(None, roots):
        nvvm = sorted(glob.glob(f"{root}/lib*/libnvvm.so*") + glob.glob(f"{root}/nvvm/lib*/libnvvm.so*"))
        dev = sorted(glob.glob(f"{root}/nvvm/libdevice/libdevice*.bc"))
        if nvvm and dev:
            return root, dev[0]
    return None


def main() -> int:
    found = toolkit()
    if found is None or os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return 3
    root, libdevice = found
    os.environ.setdefault("CUDA_HOME", root)  # where numba-cuda looks for libNVVM
    try:
        from numba import cuda
        from numba import types as t
        from numba.cuda import dispatcher
        from numba.cuda.cudadrv import nvrtc, nvvm
    except ImportError:
        return 3

    class Device:  # what compiling a device function asks of the current device
        compute_capability = (9, 0)

    # no driver and no NVRTC here: the compute capability and libdevice are given
    nvrtc.get_supported_ccs = lambda: ((9, 0),)
    dispatcher.get_current_device = lambda: Device()
    nvvm.get_libdevice = lambda: libdevice
    nvvm.open_libdevice = lambda: open(libdevice, "rb").read()  # noqa: SIM115

    from baccara.sim import _punto_cuda as C

    def A(dt, nd: int = 1):
        return t.Array(dt, nd, "C")

    i64, u8, f64, b1 = t.int64, t.uint8, t.float64, t.boolean
    # a rule program (bets on the cards themselves): ftype .. botherwise, as rule_program gives them
    prog = (A(i64), A(i64), A(i64), A(i64), A(b1), A(i64), A(b1, 2), A(i64), A(i64), A(i64), A(i64))
    general = (i64, i64, i64, A(u8), i64, i64, i64, A(b1), A(b1, 2), A(i64, 2), A(t.int8), A(f64), A(f64),
               A(f64), f64, A(i64), A(i64), A(i64, 2), A(b1), b1, b1, i64, A(i64), A(i64, 2), *prog, A(i64),
               A(i64), A(i64), A(i64, 2), A(i64))
    kernels = {
        "values": (C.values_kernel(416, 3, 13, 22, False),
                   (i64, i64, i64, A(u8), i64, A(t.int16), A(i64), A(i64, 2), A(b1), A(i64), A(i64), A(i64),
                    A(i64, 2), A(i64))),
        "general": (C.general_kernel(104, 40, 19, 30, True), general),
        "general_cards": (C.general_kernel(104, 40, 19, 30, False, 3), general),
        # the perfect counter: the CPU's perfect_shoe (the deal, the exact engine) compiled as device functions
        "perfect": (C.perfect_kernel(10, 20, False, 2),
                    (i64, i64, i64, A(u8), i64, i64, A(b1), A(b1, 2), A(i64, 2), A(i64), A(i64, 2), A(i64),
                     A(i64, 2), b1, b1, A(i64), A(u8, 2), A(i64, 2), A(i64, 2), A(i64, 3), A(i64, 3), A(i64, 2),
                     A(i64, 2), A(i64, 3), A(i64, 4), A(i64, 4), A(f64, 2), A(f64), A(i64), A(i64), A(i64),
                     A(i64, 2), A(i64), A(i64))),
        # the count analysis's: each coup's expectation kept, as a float, for the CPU to sum
        "perfect_ev": (C.perfect_ev_kernel(7),
                       (i64, i64, i64, A(u8), i64, i64, A(b1), A(b1, 2), A(i64, 2), A(i64), A(i64, 2), A(i64),
                        A(i64, 2), b1, b1, A(i64), A(u8, 2), A(i64, 2), A(i64, 2), A(i64, 3), A(i64, 3), A(i64, 2),
                        A(i64, 2), A(i64, 3), A(i64, 4), A(i64, 4), A(f64), b1, A(i64, 2), A(f64, 3), A(i64))),
        "histogram": (C.histogram_kernel(416, 160),
                      (i64, i64, i64, A(u8), i64, A(b1), A(b1, 2), A(i64), A(f64), f64, b1, f64, f64, i64, A(i64),
                       *prog, A(i64), A(i64))),
    }
    out = {}
    for name, (kernel, sig) in kernels.items():
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
        out[name] = sorted(set(re.findall(r"\b[a-z]+(?:\.[a-z0-9]+)*\.f64\b", ptx)))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
