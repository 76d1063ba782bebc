"""torch_npu's public Python surface beyond the device module: formats with upstream's numbers,
``torch.npu.config.allow_internal_format``, ``use_compatible_impl``, the legacy tensor types,
``torch_npu._C._empty_strided_npu``, ``get_storage_size``, the SoC and toolkit versions
(``get_soc_version``, ``torch_npu.utils.get_cann_version``, ``_is_gte_cann_version``) and the device
properties."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
import warnings

import pytest
import torch

import torch_npu

# torch 2.1 and 2.2's Tensor.type parses no PrivateUse1 type names (it knows CPU and CUDA only).
TYPE_NAMES_OF_CPU_AND_CUDA_ONLY = tuple(int(v) for v in torch.__version__.split(".")[:2]) <= (2, 2)

Format = torch_npu.Format

# CANN's aclFormat numbers (upstream's torch_npu.Format).
UPSTREAM_FORMATS = {
    "UNDEFINED": -1, "NCHW": 0, "NHWC": 1, "ND": 2, "NC1HWC0": 3, "FRACTAL_Z": 4, "NC1HWC0_C04": 12, "HWCN": 16,
    "NDHWC": 27, "FRACTAL_NZ": 29, "NCDHW": 30, "NDC1HWC0": 32, "FRACTAL_Z_3D": 33, "NC": 35, "NCL": 47,
    "FRACTAL_NZ_C0_16": 50, "FRACTAL_NZ_C0_32": 51, "FRACTAL_NZ_C0_2": 52, "FRACTAL_NZ_C0_4": 53,
    "FRACTAL_NZ_C0_8": 54,
}


def test_format_has_upstreams_numbers() -> None:
    assert {f.name: int(f) for f in Format} == UPSTREAM_FORMATS
    assert str(Format.FRACTAL_NZ) == "FRACTAL_NZ"
    assert torch_npu.Format is torch.npu.Format


def test_get_npu_format_gives_a_format() -> None:
    x = torch_npu.npu_format_cast(torch.randn(4, 16).npu(), Format.FRACTAL_NZ)
    assert torch_npu.get_npu_format(x) is Format.FRACTAL_NZ
    assert torch_npu.get_npu_format(torch.ones(3, device="npu")) is Format.ND


@pytest.mark.parametrize("fmt", [f for f in Format if f.name in ("NHWC", "NC1HWC0_C04", "HWCN", "NDHWC")])
def test_formats_the_device_cannot_hold_are_named(fmt: Format) -> None:
    with pytest.raises(RuntimeError, match=rf"acl_format={int(fmt)} is {fmt.name}, a CANN format the npu device"):
        torch_npu.npu_format_cast(torch.ones(2, 16, 4, 4).npu(), fmt)


@pytest.fixture
def forbid_internal_format():
    torch.npu.config.allow_internal_format = False
    yield
    torch.npu.config.allow_internal_format = True


def test_allow_internal_format_false_keeps_base_formats(forbid_internal_format) -> None:
    assert torch.npu.config.allow_internal_format is False
    image = torch.randn(2, 16, 3, 3)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        hd = torch_npu.npu_format_cast(image.npu(), Format.NC1HWC0)
        nz = torch_npu.npu_format_cast(torch.randn(5, 7).npu(), Format.FRACTAL_NZ)
    assert torch_npu.get_npu_format(hd) is Format.NCHW
    assert torch_npu.get_npu_format(nz) is Format.ND
    torch.testing.assert_close(hd.cpu(), image)


def test_allow_internal_format_true_gives_internal_formats() -> None:
    assert torch.npu.config.allow_internal_format is True
    hd = torch_npu.npu_format_cast(torch.randn(2, 16, 3, 3).npu(), Format.NC1HWC0)
    assert torch_npu.get_npu_format(hd) is Format.NC1HWC0


def test_config_refuses_what_it_does_not_know() -> None:
    with pytest.raises(AttributeError, match=r"torch\.npu\.config has no switch 'allow_internal_formats'"):
        torch.npu.config.allow_internal_formats = False
    with pytest.raises(TypeError, match="allow_internal_format must be a bool"):
        torch.npu.config.allow_internal_format = 1


def test_use_compatible_impl_is_kept() -> None:
    assert torch_npu.npu.use_compatible_impl is torch.npu.use_compatible_impl
    try:
        torch_npu.npu.use_compatible_impl(True)
        assert torch.npu.are_compatible_impl_enabled()
        x = torch.randn(64)
        torch.testing.assert_close(torch.sigmoid(x.npu()).cpu(), torch.sigmoid(x))
    finally:
        torch_npu.npu.use_compatible_impl(False)
    assert not torch.npu.are_compatible_impl_enabled()
    with pytest.raises(TypeError):
        torch_npu.npu.use_compatible_impl("yes")


@pytest.mark.parametrize(
    ("name", "dtype"),
    [("FloatTensor", torch.float32), ("HalfTensor", torch.float16), ("DoubleTensor", torch.float64),
     ("BFloat16Tensor", torch.bfloat16), ("IntTensor", torch.int32), ("LongTensor", torch.int64),
     ("ByteTensor", torch.uint8), ("CharTensor", torch.int8), ("ShortTensor", torch.int16),
     ("BoolTensor", torch.bool)],
)
def test_legacy_tensor_types(name: str, dtype: torch.dtype) -> None:
    kind = getattr(torch.npu, name)
    empty = kind(2, 3)
    assert empty.shape == (2, 3) and empty.dtype == dtype and empty.device.type == "npu"
    values = kind([1, 0, 1])
    assert torch.equal(values.cpu(), torch.tensor([1, 0, 1], dtype=dtype))
    assert isinstance(values, kind) and isinstance(values, torch.Tensor)
    assert not isinstance(values.cpu(), kind)
    other = torch.float32 if dtype != torch.float32 else torch.float64
    assert not isinstance(torch.ones(1, dtype=other, device="npu"), kind)
    assert torch.equal(kind(torch.tensor([3, 4])).cpu(), torch.tensor([3, 4], dtype=dtype))
    assert values.type() == f"torch.npu.{name}" and repr(kind) == f"<class 'torch.npu.{name}'>"
    host = torch.tensor([3.0, 0.0, 1.0])
    if TYPE_NAMES_OF_CPU_AND_CUDA_ONLY:
        with pytest.raises(ValueError, match=f"invalid type: 'torch.npu.{name}'"):
            host.type(kind)
        return
    for target in (kind, f"torch.npu.{name}"):
        converted = host.type(target)
        assert (converted.device, converted.dtype) == (torch.device("npu", torch.npu.current_device()), dtype)
        assert torch.equal(converted.cpu(), host.to(dtype))
    assert host.npu().type(torch.FloatTensor).device.type == "cpu"


@pytest.mark.parametrize(
    ("size", "stride", "dtype"),
    [((2, 3), (3, 1), torch.float32), ((4, 4), (8, 1), torch.float16), ((0, 3, 0), (0, 0, 0), torch.int32),
     ((3, 4), (0, 1), torch.bool)],
)
def test_empty_strided_npu(size, stride, dtype) -> None:
    fast = torch_npu._C._empty_strided_npu(size, stride, dtype)
    normal = torch.empty_strided(size, stride, dtype=dtype, device="npu")
    assert (fast.shape, fast.stride(), fast.dtype, fast.device) == (normal.shape, normal.stride(), dtype, normal.device)
    assert fast.untyped_storage().nbytes() == normal.untyped_storage().nbytes()


def test_get_storage_size_counts_internal_padding() -> None:
    assert torch_npu.get_storage_size(torch.ones(3, 5, device="npu")) == 15
    nz = torch_npu.npu_format_cast(torch.randn(3, 5).npu(), Format.FRACTAL_NZ)
    assert torch_npu.get_storage_size(nz) == 16 * 16  # [ceil(5/16), ceil(3/16), 16, 16]
    hd = torch_npu.npu_format_cast(torch.randn(2, 20, 3, 3).npu(), Format.NC1HWC0)
    assert torch_npu.get_storage_size(hd) == 2 * math.ceil(20 / 16) * 3 * 3 * 16
    no_cpu_kernel = "Could not run 'npu::get_storage_size' with arguments from the 'CPU'"
    with pytest.raises(NotImplementedError, match=no_cpu_kernel):
        torch_npu.get_storage_size(torch.ones(2))


def _in_fresh_interpreter(code: str, **env: str) -> str:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                            timeout=120, env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_get_soc_version_is_the_simulated_socs() -> None:
    assert torch.npu.get_device_name(0) == "Ascend910B1"
    assert torch.npu.get_soc_version() == torch_npu.npu.utils.get_soc_version() == 220  # torch_npu's Ascend910B1
    assert isinstance(torch.npu.get_soc_version(), int)


def test_device_properties_are_the_simulators() -> None:
    out = _in_fresh_interpreter("""
        import torch, torch_npu
        p = torch.npu.get_device_properties(1)
        print(p.name, p.total_memory, p.cube_core_num, p.vector_core_num, p.multi_processor_count, p.L2_cache_size,
              p.major, p.minor)
        print(repr(p))
    """, ASCEND_SIM_AICORE_NUM="3", ASCEND_SIM_MEMORY_MB="512")
    fields, text = out.splitlines()
    assert fields.split() == ["Ascend910B1", str(512 << 20), "3", "3", "3", "None", "None", "None"]
    assert text == ("_NPUDeviceProperties(name='Ascend910B1', total_memory=512MB, cube_core_num=3, "
                    "vector_core_num=3, L2_cache_size=None)")


def test_cann_version_is_what_the_toolkit_reports() -> None:
    assert torch_npu.utils.get_cann_version() == torch.npu.utils.get_cann_version(module="CANN") == "8.5.0"
    assert torch_npu.npu.utils._is_gte_cann_version("8.5.0")
    assert not torch_npu.npu.utils._is_gte_cann_version("8.5.1")
    assert not torch_npu.npu.utils._is_gte_cann_version("9.0.0.beta2")
    assert torch_npu._C._get_cann_version("CANN") == "8.5.0"
    # The simulator is one package: the others, old and new names, are unknown to it.
    assert torch_npu.utils.get_cann_version(module="RUNTIME") == torch_npu.utils.get_cann_version("opbase") == ""
    assert not torch_npu.npu.utils._is_gte_cann_version("8.1.RC1", module="HCCL")
    with pytest.raises(RuntimeError, match="_is_gte_cann_version: module 'DRIVER' is not supported"):
        torch_npu.npu.utils._is_gte_cann_version("8.1.RC1", module="DRIVER")
    with pytest.raises(RuntimeError, match=r"_is_gte_cann_version: version '8\.0\.RC3' is older than 8\.1\.RC1"):
        torch_npu.npu.utils._is_gte_cann_version("8.0.RC3")
    with pytest.raises(TypeError, match="module must be a str"):
        torch_npu.utils.get_cann_version(module=0)


def test_cann_version_follows_the_simulated_toolkit() -> None:
    out = _in_fresh_interpreter("""
        import torch_npu
        from torch_npu.npu.utils import _is_gte_cann_version
        print(torch_npu.utils.get_cann_version(), *(int(_is_gte_cann_version(v)) for v in
              ("8.1.RC1", "8.3.RC1", "8.3.RC2", "8.3.0", "8.5.0")))
    """, NPU_SIM_CANN_VERSION="8.3.RC1")
    assert out.split() == ["8.3.RC1", "1", "1", "0", "0", "0"]


def test_torch_npu_npu_submodules_are_torch_npus() -> None:
    import torch_npu.npu.utils

    assert torch_npu.npu.utils is torch.npu.utils
    assert sys.modules["torch_npu.npu.device"] is sys.modules["opplugin_runtime.npu.device"]
