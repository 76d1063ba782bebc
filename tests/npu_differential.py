"""Runs OpInfo samples on npu in this process and records, per operator, how each sample went.

The differential test (test_differential_torch_npu.py) starts it twice on the same simulated
device: once with our runtime and once with upstream's torch_npu, each in its own process, with
the same OpInfos, seeds and samples. For every sample it records whether the op ran (forward, in place and
backward), whether its result equals CPU's, and the result itself, so that the two runtimes can be compared with each
other as well as with CPU:

    python tests/npu_differential.py OUT_DIR FIRST_INDEX OPINFO_ID [OPINFO_ID ...]

writes ``OUT_DIR/<index>.pt`` per OpInfo (numbered from FIRST_INDEX): ``{"id", "checks", "origins"}``,
where ``checks`` maps "forward", "in-place" (the in-place variant) and "backward" (the inputs'
gradients) to one record per sample, ``{"status", "detail", "result"}``, and ``origins`` names the
simulator APIs that launched its kernels; and prints ``START <index>`` before each, so that a parent
can tell which operator a crashed process was running and resume after it.
"""

from __future__ import annotations

import ctypes
import re
import sys
from pathlib import Path
from typing import Any

import torch
from torch.utils._pytree import tree_map

sys.path.insert(0, str(Path(__file__).resolve().parent))
import npu_opinfo  # noqa: E402  (this file runs as a script, outside pytest's conftest)

SAMPLES_PER_OP = 3
DTYPE = torch.float32
SEED = 1234


def samples_of(opinfo: Any, requires_grad: bool = False) -> list[Any]:
    torch.manual_seed(SEED)
    samples = []
    for sample in opinfo.sample_inputs("cpu", DTYPE, requires_grad=requires_grad):
        samples.append(sample)
        if len(samples) == SAMPLES_PER_OP:
            break
    return samples


def to_cpu(result: Any) -> Any:
    return tree_map(lambda x: x.detach().cpu() if isinstance(x, torch.Tensor) else x, result)


# Lines of an error that say what is missing (the simulator's messages), preferred to the first line.
TELLING = re.compile(r"not registered|not supported|not implemented|not found in|aclnn[A-Z]\w*")


def reason(error: Exception) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    telling = [line for line in lines if TELLING.search(line)]
    return (telling or lines or [""])[0]


def forward(opinfo: Any, parts: tuple[Any, tuple[Any, ...], dict[str, Any]]) -> Any:
    inp, args, kwargs = parts
    return opinfo.op(inp, *args, **kwargs)


def in_place(opinfo: Any, parts: tuple[Any, tuple[Any, ...], dict[str, Any]]) -> Any:
    """The in-place variant on a copy of the input; the result is what it wrote."""
    inp, args, kwargs = parts
    target = inp.clone()
    opinfo.inplace_variant(target, *args, **kwargs)
    return target


def backward(opinfo: Any, parts: tuple[Any, tuple[Any, ...], dict[str, Any]]) -> Any:
    """The gradients of the inputs that require grad, for incoming gradients of ones."""
    outputs = npu_opinfo.differentiable_outputs(forward(opinfo, parts))
    inputs = npu_opinfo.grad_inputs(parts)
    if not outputs or not inputs:
        return []
    grads = torch.autograd.grad(outputs, inputs, [torch.ones_like(o) for o in outputs], allow_unused=True)
    return [g.detach() if g is not None else None for g in grads]


CHECKS = {"forward": forward, "in-place": in_place, "backward": backward}


def run_check(check: str, opinfo: Any, sample: Any, random: bool) -> dict[str, Any]:
    """One check of one sample on npu next to CPU. A random op (a meta_only entry of opinfo_skips.yaml) is
    compared in device, dtype and shape only, and its values are not kept."""
    fn = CHECKS[check]
    try:
        npu_parts = npu_opinfo.sample_to(sample, "npu")
    except TypeError as error:  # a sample npu tensors cannot hold (sparse layouts): nothing to compare
        return {"status": "no_samples", "detail": f"{type(error).__name__}: {error}"[:300], "result": None}
    try:
        cpu_result = fn(opinfo, npu_opinfo.sample_parts(sample))
    except Exception as error:  # noqa: BLE001  CPU refuses the sample too: nothing to compare
        return {"status": "cpu_refuses", "detail": f"{type(error).__name__}: {reason(error)}"[:300], "result": None}
    try:
        npu_result = fn(opinfo, npu_parts)
        torch.npu.synchronize()
    except Exception as error:  # noqa: BLE001  every way an op fails is recorded, not raised
        return {"status": "error", "detail": f"{type(error).__name__}: {reason(error)}"[:300], "result": None}
    if check == "forward":
        cpu_result = npu_opinfo.reference_result(opinfo, npu_opinfo.sample_parts(sample), cpu_result)
    try:
        npu_opinfo.assert_same(npu_result, cpu_result, values=not random)
    except AssertionError as error:
        return {"status": "differs", "detail": str(error).splitlines()[0][:300], "result": to_cpu(npu_result)}
    if random:
        return {"status": "random", "detail": "random values: device, dtype and shape compared", "result": None}
    return {"status": "equal", "detail": "", "result": to_cpu(npu_result)}


def checks_of(opinfo: Any) -> dict[str, list[Any]]:
    """The checks an OpInfo takes part in, with their samples."""
    checks = {"forward": samples_of(opinfo)}
    if opinfo.inplace_variant is not None:
        checks["in-place"] = checks["forward"]
    if opinfo.supports_autograd:
        checks["backward"] = samples_of(opinfo, requires_grad=True)
    return checks


class KernelRecord(ctypes.Structure):
    """aclsimKernelRecord of ascendc_sim/prof.h."""
    _fields_ = [("name", ctypes.c_char * 64), ("origin", ctypes.c_char * 64), ("deviceId", ctypes.c_int32),
                ("blockDim", ctypes.c_uint32), ("stream", ctypes.c_uint64), ("threadId", ctypes.c_uint64),
                ("correlationId", ctypes.c_uint64), ("startNs", ctypes.c_int64), ("endNs", ctypes.c_int64)]


class KernelOrigins:
    """Which simulator APIs (aclnnXxx, aclopCompileAndExecute(Type)) launched kernels, read from the
    simulator's kernel recorder: what of the simulator a runtime reached."""

    def __init__(self) -> None:
        self.lib = ctypes.CDLL("libascendcl.so")  # the copy this process loaded already
        self.lib.aclsimProfTakeRecords.argtypes = [ctypes.POINTER(KernelRecord), ctypes.c_size_t]
        self.lib.aclsimProfTakeRecords.restype = ctypes.c_size_t
        self.buffer = (KernelRecord * 256)()
        self.lib.aclsimProfStart()

    def take(self) -> list[str]:
        origins = set()
        while True:
            n = self.lib.aclsimProfTakeRecords(self.buffer, len(self.buffer))
            origins |= {self.buffer[i].origin.decode() for i in range(n)}
            if n < len(self.buffer):
                return sorted(o for o in origins if o)


def main(argv: list[str]) -> int:
    import torch_npu  # noqa: F401  whichever runtime the environment puts first: ours or upstream's
    from torch.testing._internal.common_methods_invocations import op_db

    out, first, wanted = Path(argv[0]), int(argv[1]), argv[2:]
    by_id = {npu_opinfo.opinfo_id(o): o for o in op_db}
    skips = npu_opinfo.load_skips()
    recorder = KernelOrigins()
    for index, opinfo_id in enumerate(wanted, start=first):
        print(f"START {index}", flush=True)
        opinfo = by_id[opinfo_id]
        try:
            checks, results = checks_of(opinfo), {}
        except Exception as error:  # noqa: BLE001  CPU cannot make the samples: nothing to compare
            checks = {}
            results = {"forward": [{"status": "no_samples", "detail": f"{type(error).__name__}: {error}"[:300],
                                    "result": None}]}
        for check, samples in checks.items():
            entry = npu_opinfo.find_skip(skips, opinfo, DTYPE, "backward" if check == "backward" else "forward")
            random = entry is not None and entry.kind == "meta_only"
            results[check] = [run_check(check, opinfo, s, random) for s in samples]
        torch.npu.synchronize()
        torch.save({"id": opinfo_id, "checks": results, "origins": recorder.take()}, out / f"{index}.pt")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
