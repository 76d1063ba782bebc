"""Runs expressions on ``npu`` and on CPU in one process and says, for each, whether the results are
the same and which simulator entry points the npu run reached (the kernel recorder's launching
APIs: ``aclnnXxx``, ``aclopCompileAndExecute(Type)``).

Run by tests/test_real_torch_npu.py with upstream's torch_npu importable, the simulator's toolkit
on the library path and ``TASK_QUEUE_ENABLE=0`` (an op that fails does not poison the next):
``python npu_entry_points.py EXPRESSIONS.json`` with ``{key: expression}``; prints one JSON object
``{key: {"status": "same" | "differs" | "error", "detail", "origins"}}``.

An expression sees tensors made on its device from one seed (``a``, ``b`` float32 (4, 5) normal;
``c`` (4, 5) uniform in [0, 1); ``x4`` (2, 3, 4, 4) and ``w`` (4, 3, 3, 3) for convolution and
pooling; ``idx`` int64 (4, 2) in [0, 5); ``rows`` int64 [0, 2]; ``target`` int64 (4,) in [0, 5)),
``dev``, ``torch``, ``F``, ``torch_npu``, ``grad(f, *tensors)``: the gradients of
``(f(*tensors) ** 2).sum() / 2`` with respect to the tensors, and ``vjp(f, x, g)``: the gradient of
``f(x)`` with respect to ``x`` times ``g`` (no square: its backward runs only f's)."""

from __future__ import annotations

import ctypes
import json
import sys
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812 (the name expressions use)
import torch_npu  # noqa: F401 (upstream's, for expressions that call it)


class KernelRecord(ctypes.Structure):
    """aclsimKernelRecord of ascendc_sim/prof.h."""

    _fields_ = [("name", ctypes.c_char * 64), ("origin", ctypes.c_char * 64), ("deviceId", ctypes.c_int32),
                ("blockDim", ctypes.c_uint32), ("stream", ctypes.c_uint64), ("threadId", ctypes.c_uint64),
                ("correlationId", ctypes.c_uint64), ("startNs", ctypes.c_int64), ("endNs", ctypes.c_int64)]


class Recorder:
    """The launching APIs of the kernels run since the last ``take``."""

    def __init__(self) -> None:
        self.lib = ctypes.CDLL("libascendcl.so")  # the copy torch_npu loaded already
        self.lib.aclsimProfTakeRecords.argtypes = [ctypes.POINTER(KernelRecord), ctypes.c_size_t]
        self.lib.aclsimProfTakeRecords.restype = ctypes.c_size_t
        self.buffer = (KernelRecord * 256)()
        self.lib.aclsimProfStart()

    def take(self) -> list[str]:
        torch.npu.synchronize()
        origins: set[str] = set()
        while True:
            n = self.lib.aclsimProfTakeRecords(self.buffer, len(self.buffer))
            origins |= {self.buffer[i].origin.decode() for i in range(n)}
            if n < len(self.buffer):
                return sorted(o for o in origins if o)


def grad(f: Any, *tensors: torch.Tensor) -> tuple[torch.Tensor, ...]:
    leaves = [t.detach().clone().requires_grad_(True) for t in tensors]
    out = f(*leaves)
    (out.float() ** 2).sum().div(2).backward()
    return tuple(leaf.grad for leaf in leaves)


def vjp(f: Any, x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().clone().requires_grad_(True)
    return torch.autograd.grad(f(leaf), leaf, g)[0]


def names(dev: str) -> dict[str, Any]:
    torch.manual_seed(0)
    made = {"a": torch.randn(4, 5), "b": torch.randn(4, 5), "c": torch.rand(4, 5), "x4": torch.randn(2, 3, 4, 4),
            "w": torch.randn(4, 3, 3, 3), "idx": torch.randint(0, 5, (4, 2)), "rows": torch.tensor([0, 2]),
            "target": torch.randint(0, 5, (4,))}
    return {**{k: v.to(dev) for k, v in made.items()}, "dev": dev, "torch": torch, "F": F, "torch_npu": torch_npu,
            "grad": grad, "vjp": vjp}


def differs(npu: Any, cpu: Any) -> str:
    """Empty when the results are the same (floats to 1e-4), else what differs."""
    if isinstance(cpu, (tuple, list)):
        if not isinstance(npu, (tuple, list)) or len(npu) != len(cpu):
            return f"{type(npu).__name__} of {len(npu) if hasattr(npu, '__len__') else '?'} vs {len(cpu)}"
        return next((f"[{i}] {d}" for i, (n, c) in enumerate(zip(npu, cpu)) if (d := differs(n, c))), "")
    if not isinstance(cpu, torch.Tensor):
        return "" if npu == cpu else f"{npu!r} vs {cpu!r}"
    npu = npu.cpu()
    if npu.shape != cpu.shape or npu.dtype != cpu.dtype:
        return f"shape/dtype {tuple(npu.shape)} {npu.dtype} vs {tuple(cpu.shape)} {cpu.dtype}"
    if cpu.dtype.is_floating_point or cpu.dtype.is_complex:
        same = torch.allclose(npu, cpu, rtol=1e-4, atol=1e-4, equal_nan=True)
        return "" if same else f"max abs difference {(npu - cpu).abs().nan_to_num().max().item():.3g}"
    return "" if torch.equal(npu, cpu) else "values differ"


def main() -> None:
    expressions: dict[str, str] = json.loads(Path(sys.argv[1]).read_text())
    if "--jit-compile" in sys.argv[2:]:
        torch_npu.npu.set_compile_mode(jit_compile=True)  # upstream's acl_op paths where an op has both
    recorder = Recorder()
    results: dict[str, dict[str, Any]] = {}
    for key, expression in expressions.items():
        try:
            cpu = eval(expression, names("cpu"))  # noqa: S307 (the test's own table)
            recorder.take()
            npu = eval(expression, names("npu"))  # noqa: S307
            origins = recorder.take()
            detail = differs(npu, cpu)
            results[key] = {"status": "differs" if detail else "same", "detail": detail, "origins": origins}
        except Exception as error:  # noqa: BLE001 (each expression reports its own failure)
            origins = recorder.take()
            results[key] = {"status": "error", "detail": str(error).splitlines()[0][:300], "origins": origins}
    print(json.dumps(results))


if __name__ == "__main__":
    main()
