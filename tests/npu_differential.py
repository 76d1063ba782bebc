"""Runs OpInfo samples on npu in this process and records, per operator, how each sample went.

The differential test (test_differential_torch_npu.py) starts it twice on the same simulated
device: once with our runtime and once with upstream's torch_npu, each in its own process, with
the same OpInfos, seeds and samples. For every sample it records whether the op ran, whether its
result equals CPU's, and the result itself, so that the two runtimes can be compared with each
other as well as with CPU:

    python tests/npu_differential.py OUT_DIR OPINFO_ID [OPINFO_ID ...]

writes ``OUT_DIR/<index>.pt`` per OpInfo (``{"id", "samples": [{"status", "detail", "result"}], "origins"}``,
the simulator APIs that launched its kernels)
and prints ``START <index>`` before each, so that a parent can tell which operator a crashed
process was running and resume after it.
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


def samples_of(opinfo: Any) -> list[Any]:
    torch.manual_seed(SEED)
    samples = []
    for sample in opinfo.sample_inputs("cpu", DTYPE, requires_grad=False):
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


def run_sample(opinfo: Any, sample: Any, random: bool) -> dict[str, Any]:
    """The sample on npu next to CPU. A random op (a meta_only entry of opinfo_skips.yaml) is compared in
    device, dtype and shape only, and its values are not kept."""
    npu_input, npu_args, npu_kwargs = npu_opinfo.sample_to(sample, "npu")
    cpu_result = opinfo.op(sample.input, *sample.args, **dict(sample.kwargs))
    try:
        npu_result = opinfo.op(npu_input, *npu_args, **npu_kwargs)
        torch.npu.synchronize()
    except Exception as error:  # noqa: BLE001  every way an op fails is recorded, not raised
        return {"status": "error", "detail": f"{type(error).__name__}: {reason(error)}"[:300], "result": None}
    try:
        npu_opinfo.assert_same(npu_result, cpu_result, values=not random)
    except AssertionError as error:
        return {"status": "differs", "detail": str(error).splitlines()[0][:300], "result": to_cpu(npu_result)}
    if random:
        return {"status": "random", "detail": "random values: device, dtype and shape compared", "result": None}
    return {"status": "equal", "detail": "", "result": to_cpu(npu_result)}


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

    out = Path(argv[0])
    wanted = argv[1:]
    by_id = {npu_opinfo.opinfo_id(o): o for o in op_db}
    skips = npu_opinfo.load_skips()
    recorder = KernelOrigins()
    for index, opinfo_id in enumerate(wanted):
        print(f"START {index}", flush=True)
        opinfo = by_id[opinfo_id]
        entry = npu_opinfo.find_skip(skips, opinfo, DTYPE, "forward")
        random = entry is not None and entry.kind == "meta_only"
        try:
            records = [run_sample(opinfo, s, random) for s in samples_of(opinfo)]
        except Exception as error:  # noqa: BLE001  a sample CPU cannot run either: nothing to compare
            records = [{"status": "no_samples", "detail": f"{type(error).__name__}: {error}"[:300], "result": None}]
        torch.npu.synchronize()
        torch.save({"id": opinfo_id, "samples": records, "origins": recorder.take()}, out / f"{index}.pt")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
