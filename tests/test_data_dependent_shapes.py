"""The operators whose output sizes depend on the data (nonzero, masked_select, unique) on both paths:
each run once on op_api (jit_compile=False) and once on acl_op (jit_compile=True) equals CPU's, over
dtypes, empty and 0-d inputs, broadcast masks, out= tensors of any starting size and every flag of
unique, and took the path the run forced. The acl_op path learns the sizes from the output
descriptors aclopCompileAndExecuteV2 updates; op_api from aclGetViewShape."""

from __future__ import annotations

import opplugin_runtime  # noqa: F401
import pytest
import torch
from forced_path import on_path  # tests/conftest.py loads it


def sample(shape: tuple[int, ...], dtype: torch.dtype, seed: int = 0) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    values = torch.randint(-2, 3, shape, generator=generator)
    values = values * (torch.rand(shape, generator=generator) > 0.4)
    return values.to(dtype)


PATHS = ["op_api", "acl_op"]
DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.int64, torch.bool]
SHAPES = [(5, 7), (2, 3, 4), (0, 3), ()]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_nonzero(path: str, dtype: torch.dtype, shape: tuple[int, ...]) -> None:
    x = sample(shape, dtype)
    if dtype.is_floating_point and x.numel():
        x.view(-1)[0] = float("nan")
    result = on_path(path, "nonzero", lambda: torch.nonzero(x.npu()))
    torch.testing.assert_close(result.cpu(), torch.nonzero(x))
    out = torch.full((1, 1), 99, dtype=torch.long).npu()
    on_path(path, "nonzero.out", lambda: torch.nonzero(x.npu(), out=out))
    torch.testing.assert_close(out.cpu(), torch.nonzero(x))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,mask_shape", [((4, 6), (4, 6)), ((4, 6), (6,)), ((1, 6), (3, 1)), ((0, 2), (2,))])
def test_masked_select(path: str, dtype: torch.dtype, shape: tuple[int, ...], mask_shape: tuple[int, ...]) -> None:
    x = sample(shape, dtype, seed=1)
    mask = torch.rand(mask_shape, generator=torch.Generator().manual_seed(2)) > 0.5
    result = on_path(path, "masked_select", lambda: torch.masked_select(x.npu(), mask.npu()))
    torch.testing.assert_close(result.cpu(), torch.masked_select(x, mask))
    out = torch.empty(0, dtype=dtype).npu()
    on_path(path, "masked_select.out", lambda: torch.masked_select(x.npu(), mask.npu(), out=out))
    torch.testing.assert_close(out.cpu(), torch.masked_select(x, mask))


def _cpu_unique_counts_nans() -> bool:
    """Whether CPU's unique counts each NaN once (torch 2.1's gives NaNs a count of 0 and the inverse of
    another value, which no device kernel should copy)."""
    counts = torch.unique(torch.tensor([float("nan"), float("nan"), 1.0]), return_counts=True)[1]
    return int(counts.sum()) == 3


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("return_inverse", [False, True])
@pytest.mark.parametrize("return_counts", [False, True])
def test_unique(path: str, dtype: torch.dtype, return_inverse: bool, return_counts: bool) -> None:
    x = sample((6, 5), dtype, seed=3)
    if dtype.is_floating_point and _cpu_unique_counts_nans():
        x[0, :2] = float("nan")  # NaNs are distinct values, as on CPU
    expected = torch.unique(x, sorted=True, return_inverse=return_inverse, return_counts=return_counts)
    result = on_path(path, "_unique2", lambda: torch.unique(x.npu(), sorted=True, return_inverse=return_inverse,
                                                             return_counts=return_counts))
    expected = expected if isinstance(expected, tuple) else (expected,)
    result = result if isinstance(result, tuple) else (result,)
    assert len(result) == len(expected)
    for got, want in zip(result, expected):
        torch.testing.assert_close(got.cpu(), want, equal_nan=True)


@pytest.mark.parametrize("path", PATHS)
def test_unique_of_an_empty_tensor(path: str) -> None:
    x = torch.empty(0, 3)
    result = on_path(path, "_unique2", lambda: torch.unique(x.npu(), return_inverse=True, return_counts=True))
    for got, want in zip(result, torch.unique(x, return_inverse=True, return_counts=True)):
        torch.testing.assert_close(got.cpu(), want)


@pytest.mark.parametrize("path", PATHS)
def test_masked_select_checks_the_mask_on_each_path(path: str) -> None:
    x = torch.ones(2, 3).npu()
    with pytest.raises(RuntimeError, match="masked_select: expected BoolTensor for mask"):
        on_path(path, "masked_select", lambda: torch.masked_select(x, torch.ones(2, 3, dtype=torch.int32).npu()))
