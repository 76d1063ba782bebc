"""torch.npu covers the torch.cuda surface scripts use.

Every public name of the installed torch's ``torch.cuda`` (its ``__all__``), plus the few
private or unlisted names people call (``OutOfMemoryError``, ``memory._record_memory_history``
...), is either in ``torch.npu`` or in MISSING with the reason it is not. The table has to stay
true both ways: a name missing without a reason fails, and so does a listed name that
``torch.npu`` has after all. Names of another torch release than the installed one are
ignored (torch 2.1's ``torch.cuda`` has fewer).
"""

from __future__ import annotations

import importlib

import opplugin_runtime  # noqa: F401
import pytest
import torch

_GRAPHS = "npu graphs (stream capture) are not simulated"
_LEGACY_STORAGE = "legacy typed storage class (deprecated TypedStorage); npu tensors use untyped storages"
_CUDA_RUNTIME = "CUDA runtime API: the npu device is driven through CANN's aclrt* instead"
_NVML = "an NVML/AMD-SMI sensor reading the simulated device does not have"

# torch.cuda name -> why torch.npu does not have it.
MISSING: dict[str, str] = {
    # torch.cuda.__all__ of some releases (2.5 ...) lists the per-thread record of the active CUDA
    # MemPool; scripts use MemPool and use_mem_pool, which torch.npu has.
    "MemPoolContext": "an internal of CUDA's MemPool that some releases export; torch.npu.MemPool and "
                      "torch.npu.use_mem_pool are the API scripts use",
    # CUDA-only concepts and libraries
    "CUDAGraph": _GRAPHS,
    "graph": _GRAPHS,
    "graphs": _GRAPHS,
    "graph_pool_handle": _GRAPHS,
    "make_graphed_callables": _GRAPHS,
    "export_dot": _GRAPHS,  # torch >= 2.14: hooks and annotations of captured graphs
    "export_graph_data": _GRAPHS,
    "graph_annotations": _GRAPHS,
    "CUDAPluggableAllocator": "a CUDA allocator plug-in (cudaMalloc-shaped .so); npu memory always comes from the "
    "runtime's caching allocator",
    "change_current_allocator": "swaps in a CUDAPluggableAllocator; npu memory always comes from the runtime's "
    "caching allocator",
    "caching_allocator_enable": "the npu caching allocator cannot be switched off",
    "caching_allocator_disabled": "the npu caching allocator cannot be switched off",
    "CudaError": _CUDA_RUNTIME,
    "DeferredCudaCallError": _CUDA_RUNTIME,
    "check_error": _CUDA_RUNTIME,
    "cudaStatus": _CUDA_RUNTIME,
    "cudart": _CUDA_RUNTIME,
    "current_blas_handle": "cuBLAS handle: npu matmuls go through aclnn, which has no handle",
    "current_solver_handle": "cuSOLVER handle: CUDA's linear algebra library",
    "has_magma": "MAGMA is a CUDA/ROCm linear algebra library",
    "get_arch_list": "CUDA compute architectures (sm_XX) of the torch build",
    "get_gencode_flags": "nvcc -gencode flags of the torch build",
    "jiterator": "CUDA's runtime-compiled elementwise kernels (NVRTC)",
    "nvtx": "NVIDIA Tools Extension ranges; npu ops show in torch.profiler through NPURecordFunctionGuard",
    "nccl": "NVIDIA's collectives library",
    "profiler": "cudaProfilerStart/Stop (CUDA profiler control); use torch.profiler",
    "sparse": "the legacy torch.cuda.sparse tensor types",
    "tunable": "TunableOp: CUDA/ROCm GEMM kernel selection",
    "gds": "GPUDirect Storage (cuFile)",
    "GreenContext": "CUDA green contexts (SM partitions)",
    "green_contexts": "CUDA green contexts (SM partitions)",
    "ExternalStream": "npu streams come from the runtime's pool; an aclrtStream made elsewhere cannot be wrapped",
    "get_stream_from_external": "npu streams come from the runtime's pool; an aclrtStream made elsewhere cannot "
    "be wrapped",
    "get_sync_debug_mode": "synchronizing npu calls are not instrumented for a debug mode",
    "set_sync_debug_mode": "synchronizing npu calls are not instrumented for a debug mode",
    "ipc_collect": "npu tensors are not shared between processes (the simulator has no IPC memory handles), so "
    "there is nothing to collect",
    "list_gpu_processes": _NVML,
    "memory_usage": _NVML + " (memory bandwidth busy time)",
    "temperature": _NVML,
    "power_draw": _NVML,
    "clock_rate": _NVML,
    # legacy typed storages
    **{
        name: _LEGACY_STORAGE
        for name in (
            "BFloat16Storage",
            "BoolStorage",
            "ByteStorage",
            "CharStorage",
            "ComplexDoubleStorage",
            "ComplexFloatStorage",
            "DoubleStorage",
            "FloatStorage",
            "HalfStorage",
            "IntStorage",
            "LongStorage",
            "ShortStorage",
        )
    },
}

# Names outside torch.cuda.__all__ that scripts use: (module of torch.cuda, name).
EXTRA_NAMES = [
    ("", "OutOfMemoryError"),
    ("memory", "_record_memory_history"),
    ("memory", "_snapshot"),
    ("memory", "_dump_snapshot"),
    ("memory", "MemPool"),
    ("memory", "use_mem_pool"),
]


def _cuda_names() -> list[tuple[str, str]]:
    names = [("", name) for name in torch.cuda.__all__]
    for module, name in EXTRA_NAMES:
        owner = importlib.import_module(f"torch.cuda.{module}") if module else torch.cuda
        if hasattr(owner, name):
            names.append((module, name))
    return sorted(set(names))


def _npu_has(module: str, name: str) -> bool:
    owner = getattr(torch.npu, module) if module else torch.npu
    return name in dir(owner)


def _label(module: str, name: str) -> str:
    return f"{module}.{name}" if module else name


def test_every_torch_cuda_name_is_in_torch_npu_or_has_a_reason():
    missing = [_label(m, n) for m, n in _cuda_names() if not _npu_has(m, n) and _label(m, n) not in MISSING]
    assert not missing, f"torch.cuda names torch.npu lacks, with no reason in MISSING: {missing}"


def test_no_name_in_missing_is_present():
    present = [name for name in MISSING if _npu_has(*name.rpartition(".")[::2])]
    assert not present, f"torch.npu has these names now: remove them from MISSING: {present}"


def test_every_reason_is_a_sentence():
    assert all(len(reason) > 15 for reason in MISSING.values())


def test_missing_lists_only_torch_cuda_names_of_some_release():
    # Names of newer releases than the installed torch are allowed; anything else is a typo.
    known_elsewhere = {
        "caching_allocator_enable", "caching_allocator_disabled", "current_solver_handle", "get_stream_from_external",
        "GreenContext", "green_contexts", "gds", "tunable", "clock_rate", "power_draw",
        "temperature", "memory_usage", "list_gpu_processes", "graphs",
        "export_dot", "export_graph_data", "graph_annotations",  # torch 2.14
        "MemPoolContext",  # torch 2.5
    }  # fmt: skip
    cuda = {_label(m, n) for m, n in _cuda_names()} | set(dir(torch.cuda))
    unknown = sorted(set(MISSING) - cuda - known_elsewhere)
    assert not unknown, f"not torch.cuda names: {unknown}"


@pytest.mark.parametrize("module, name", _cuda_names(), ids=lambda v: v or "torch.npu")
def test_present_names_have_the_same_kind(module, name):
    if not _npu_has(module, name):
        pytest.skip("in MISSING")
    cuda = getattr(importlib.import_module(f"torch.cuda.{module}") if module else torch.cuda, name)
    npu = getattr(getattr(torch.npu, module) if module else torch.npu, name)
    if isinstance(cuda, type):
        assert isinstance(npu, type), name
    elif callable(cuda):
        assert callable(npu), name
