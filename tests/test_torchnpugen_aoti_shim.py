"""The AOTInductor C shim generated for the declared operators is compiled into the
runtime and callable through its C ABI (AtenTensorHandle in, AOTITorchError out)."""

from __future__ import annotations

import ctypes
from pathlib import Path

import opplugin_runtime
import pytest
import torch

AOTI_SUCCESS = 0
# The shim exists where the label's torchgen can generate it: not on torch 2.1
# and 2.2, whose torchgen has no gen_aoti_c_shim (torchnpugen.compat, difference "no-aoti-c-shim").
pytestmark = pytest.mark.skipif(
    not (Path(opplugin_runtime.__file__).parent / "include" / "npu" / "inductor" / "c_shim_npu.h").is_file(),
    reason="this label's torchgen generates no AOTInductor C shim (torch 2.1 and 2.2)",
)


# Handles for tensors made in Python (as AOTInductor's Python wrapper makes them) need
# torch._C._aoti's helpers, which appear in torch 2.4; on 2.3 the shim is compiled and shipped,
# and the calls below have no way in from Python.
needs_handles = pytest.mark.skipif(
    not hasattr(getattr(torch._C, "_aoti", None), "unsafe_alloc_void_ptr_from_tensor"),
    reason="torch._C._aoti has no unsafe_alloc_void_ptr_from_tensor before torch 2.4",
)


def _shim() -> ctypes.CDLL:
    return ctypes.CDLL(opplugin_runtime._C.__file__)


_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_KEEP = []  # the handles' capsules, alive for the test


def _handle(t: torch.Tensor) -> ctypes.c_void_p:
    """A new AtenTensorHandle for `t` (what AOTInductor's generated code passes)."""
    capsule = torch._C._aoti.unsafe_alloc_void_ptr_from_tensor(t)
    _KEEP.append(capsule)
    return ctypes.c_void_p(_get_pointer(capsule, None))


def _steal(handle: ctypes.c_void_p) -> torch.Tensor:
    return torch._C._aoti.alloc_tensor_by_stealing_from_void_ptr(_new_capsule(handle.value, None, None))


def test_header_is_shipped_and_lists_the_custom_ops(generated_dir: Path) -> None:
    header = (generated_dir / "npu" / "inductor" / "c_shim_npu.h").read_text()
    assert "aoti_torch_npu_npu_add_relu(AtenTensorHandle self, AtenTensorHandle other, double alpha" in header
    shipped = Path(opplugin_runtime.__file__).parent / "include" / "npu" / "inductor" / "c_shim_npu.h"
    assert shipped.read_text() == header


@needs_handles
def test_custom_op_through_the_c_shim() -> None:
    lib = _shim()
    fn = lib.aoti_torch_npu_npu_add_relu
    fn.restype = ctypes.c_int32
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_double, ctypes.POINTER(ctypes.c_void_p)]
    x, y = torch.randn(3, 4).npu(), torch.randn(4).npu()
    result = ctypes.c_void_p()
    assert fn(_handle(x), _handle(y), 2.0, ctypes.byref(result)) == AOTI_SUCCESS
    out = _steal(result)
    torch.testing.assert_close(out.cpu(), torch.relu(x.cpu() + 2 * y.cpu()))


@needs_handles
def test_structured_out_variant_through_the_c_shim() -> None:
    fn = _shim().aoti_torch_npu_clamp_min_out
    fn.restype = ctypes.c_int32
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_double]
    x = torch.randn(7).npu()
    out = torch.empty(0, device="npu")
    assert fn(_handle(out), _handle(x), 0.25) == AOTI_SUCCESS
    torch.testing.assert_close(out.cpu(), x.cpu().clamp_min(0.25))


@needs_handles
def test_errors_become_error_codes() -> None:
    fn = _shim().aoti_torch_npu_npu_add_relu_
    fn.restype = ctypes.c_int32
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_double]
    assert fn(_handle(torch.randn(4).npu()), _handle(torch.randn(3, 4).npu()), 1.0) != AOTI_SUCCESS
