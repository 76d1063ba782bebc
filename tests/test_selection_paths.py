"""Selections on both paths against CPU. nanmedian() of every element: the lower median of the numbers, NaN
when there is none (the A/B test's OpInfo samples hold no NaN); the acl_op path counts the numbers on the device
and selects through "TopKV2", which sorts NaN above every number. kthvalue and median along a dimension: CPU's
values, and indices that point at them (which of equal values' indices is the device's choice, as PyTorch
documents for median; the acl_op path takes TopKV2's order)."""

from __future__ import annotations

import opplugin_runtime  # noqa: F401
import pytest
import torch
from forced_path import on_path  # tests/conftest.py loads it

NAN = float("nan")
CASES = {
    "numbers_and_nans": torch.tensor([NAN, 3.0, 1.0, NAN, 2.0, 5.0]),
    "all_nan": torch.tensor([NAN, NAN, NAN]),
    "one_number": torch.tensor([NAN, -4.0, NAN]),
    "integers_with_ties": torch.tensor([4, 1, 3, 3, 2, 3]),
    "empty": torch.tensor([]),
    "matrix": torch.randn(7, 5, generator=torch.Generator().manual_seed(0)),
    "half": torch.tensor([1.0, NAN, 2.0, 0.5], dtype=torch.float16),
    "bfloat16_infinities": torch.tensor([float("inf"), -float("inf"), NAN, 0.0], dtype=torch.bfloat16),
}


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_nanmedian_of_every_element_equals_cpus(path: str, case: str) -> None:
    x = CASES[case]
    got = on_path(path, "nanmedian", lambda: x.npu().nanmedian())
    # a median is one of the elements: CPU's float32 one is exact for 16-bit inputs (older CPUs lack float16)
    expected = x.float().nanmedian().to(x.dtype) if x.dtype == torch.float16 else x.nanmedian()
    torch.testing.assert_close(got.cpu(), expected, rtol=0, atol=0, equal_nan=True)


SELECTIONS = {
    "kthvalue": lambda t, dim, keepdim: t.kthvalue(3, dim, keepdim),
    "median": lambda t, dim, keepdim: t.median(dim, keepdim),
}
OPERANDS = {
    "ties": torch.tensor([[3, 1, 3, 2, 3, 1], [5, 5, 5, 5, 5, 5], [0, -1, 4, 4, -1, 0]]),
    "nans": torch.tensor([[1.0, NAN, 2.0, NAN], [4.0, 3.0, 2.0, 1.0], [NAN, 0.5, 0.5, 7.0]]),
    "random_half": torch.randn(4, 5, generator=torch.Generator().manual_seed(2)).half(),
}


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("operand", sorted(OPERANDS))
@pytest.mark.parametrize("selection", sorted(SELECTIONS))
def test_selection_along_a_dimension_gives_cpus_values_and_indices_of_them(selection, operand, dim, keepdim, path):
    x = OPERANDS[operand]
    select = SELECTIONS[selection]
    # the selected values are elements: CPU's float32 selection is exact for float16 (older CPUs lack it)
    expected = select(x.float() if x.dtype == torch.float16 else x, dim, keepdim)
    overload = "kthvalue.values" if selection == "kthvalue" else "median.dim_values"
    values, indices = on_path(path, overload, lambda: select(x.npu(), dim, keepdim))
    torch.testing.assert_close(values.cpu(), expected.values.to(x.dtype), rtol=0, atol=0, equal_nan=True)
    assert indices.dtype == torch.int64 and indices.shape == expected.indices.shape
    where = indices.cpu() if keepdim else indices.cpu().unsqueeze(dim)
    picked = x.gather(dim, where)
    torch.testing.assert_close(picked if keepdim else picked.squeeze(dim), expected.values.to(x.dtype), rtol=0,
                               atol=0, equal_nan=True)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_kthvalue_out_of_range_is_refused_like_cpu(path):
    x = torch.randn(3, 4)
    with pytest.raises(RuntimeError, match="k out of range"):
        x.kthvalue(5, 1)
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        with pytest.raises(RuntimeError, match="k out of range"):
            x.npu().kthvalue(5, 1)
    finally:
        torch.npu.set_compile_mode(jit_compile=False)
