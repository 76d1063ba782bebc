"""put_, index_fill_, index_copy and masked_scatter_ on both paths where the OpInfo samples do not reach:
run once on op_api (jit_compile=False) and once on acl_op (jit_compile=True), each equals CPU's and took the
path the run forced: NaN and -0.0 in the tensor index_fill_ updates, negative indices, bool put_ with
accumulate, strided selves, and CPU's IndexError for an index outside."""

from __future__ import annotations

from typing import Callable

import opplugin_runtime  # noqa: F401
import pytest
import torch
from forced_path import on_path  # tests/conftest.py loads it

PATHS = ["op_api", "acl_op"]


@pytest.mark.parametrize("path", PATHS)
def test_index_fill_keeps_nan_and_negative_zero_outside_the_filled_slices(path: str) -> None:
    x = torch.tensor([[1.0, float("nan"), -0.0], [float("inf"), 5.0, float("nan")]])
    index = torch.tensor([-1, 0])
    expected = x.clone().index_fill_(1, index, 2.5)
    got = on_path(path, "index_fill_.int_Scalar", lambda: x.npu().index_fill_(1, index.npu(), 2.5)).cpu()
    torch.testing.assert_close(got, expected, equal_nan=True)
    value = torch.tensor(-4.0)
    got = on_path(path, "index_fill_.int_Tensor", lambda: x.npu().index_fill_(0, index.npu(), value.npu())).cpu()
    torch.testing.assert_close(got, x.clone().index_fill_(0, index, value), equal_nan=True)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool])
def test_put_on_a_strided_self(path: str, accumulate: bool, dtype: torch.dtype) -> None:
    base = torch.arange(24).reshape(4, 6).to(dtype)
    index = torch.tensor([0, -1, 5, 5])
    source = torch.tensor([1, 0, 3, 4]).to(dtype)
    expected = base.t().clone().put_(index, source, accumulate=accumulate)
    npu_base = base.npu()
    self = npu_base.t()  # strided: the result must reach the base's storage
    on_path(path, "put_", lambda: self.put_(index.npu(), source.npu(), accumulate=accumulate))
    torch.testing.assert_close(self.cpu(), expected)


@pytest.mark.parametrize("path", PATHS)
def test_index_copy_and_masked_scatter(path: str) -> None:
    x = torch.randn(5, 3, generator=torch.Generator().manual_seed(0))
    index = torch.tensor([4, 0])
    source = torch.randn(2, 3, generator=torch.Generator().manual_seed(1))
    got = on_path(path, "index_copy", lambda: torch.index_copy(x.npu(), 0, index.npu(), source.npu()))
    torch.testing.assert_close(got.cpu(), torch.index_copy(x, 0, index, source))
    mask = x > 0
    got = on_path(path, "masked_scatter_", lambda: x.npu().masked_scatter_(mask.npu(), source.npu().repeat(3, 1)))
    torch.testing.assert_close(got.cpu(), x.clone().masked_scatter_(mask, source.repeat(3, 1)))


def test_index_copy_on_acl_op_raises_cpus_index_error() -> None:
    x = torch.zeros(4, 3)
    with pytest.raises(IndexError, match=r"index_copy_\(\): index -1 is out of bounds for dimension 0 with size 4"):
        on_path("acl_op", "index_copy", lambda: torch.index_copy(x.npu(), 0, torch.tensor([-1]).npu(),
                                                                 torch.ones(1, 3).npu()))
    with pytest.raises(IndexError, match="index 7 is out of bounds for dimension 0 with size 4"):
        on_path("acl_op", "index_fill_.int_Scalar", lambda: x.npu().index_fill_(0, torch.tensor([7]).npu(), 1.0))


def index_cases() -> list[tuple[str, Callable[[torch.device], tuple]]]:
    """Index lists over a (4, 5, 6) tensor: (name, device -> index tuple)."""
    def long(values, device):
        return torch.tensor(values, device=device)

    return [
        ("one", lambda d: (long([3, 0, -1, 3], d),)),
        ("adjacent", lambda d: (slice(None), long([[0, 4], [2, 2]], d), long([5, -6], d))),
        ("apart", lambda d: (long([1, 2], d), slice(None), long([[0], [5]], d))),
        ("mask", lambda d: (torch.arange(20, device=d).reshape(4, 5) % 3 == 0,)),
        ("int32", lambda d: (slice(None), slice(None), torch.tensor([4, 1], dtype=torch.int32, device=d))),
        ("empty", lambda d: (long([], d).long(),)),
    ]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.bool])
@pytest.mark.parametrize("case", index_cases(), ids=lambda c: c[0])
def test_index_and_index_put(path: str, dtype: torch.dtype, case) -> None:
    name, make = case
    x = torch.randn(4, 5, 6, generator=torch.Generator().manual_seed(0)).mul(4).to(dtype)
    cpu_index, npu_index = make(torch.device("cpu")), make(torch.device("npu"))
    expected = x[cpu_index]
    got = on_path(path, "index.Tensor", lambda: x.npu()[npu_index])
    torch.testing.assert_close(got.cpu(), expected)
    values = torch.ones(expected.shape[-1:], dtype=dtype)  # broadcast along the result
    cpu_put, npu_put = ([None if isinstance(i, slice) else i for i in index] for index in (cpu_index, npu_index))
    for accumulate in (False, True):
        want = torch.ops.aten.index_put_(x.clone(), cpu_put, values, accumulate)
        npu_x = x.npu()
        on_path(path, "_index_put_impl_",
                lambda x=npu_x, a=accumulate: torch.ops.aten.index_put_(x, npu_put, values.npu(), a))
        torch.testing.assert_close(npu_x.cpu(), want)


@pytest.mark.parametrize("path", PATHS)
def test_index_put_accumulates_repeated_indices_into_a_strided_self(path: str) -> None:
    base = torch.zeros(6, 4)
    index = torch.tensor([1, 1, 3, 1])
    values = torch.arange(16.0).reshape(4, 4)
    want = torch.ops.aten.index_put_(base.t().clone(), [None, index], values.t(), True)
    npu_base = base.npu()
    self = npu_base.t()
    on_path(path, "_index_put_impl_",
            lambda: torch.ops.aten.index_put_(self, [None, index.npu()], values.t().npu(), True))
    torch.testing.assert_close(self.cpu(), want)


def test_index_on_acl_op_fails_for_an_index_outside() -> None:
    x = torch.zeros(4, 3).npu()
    with pytest.raises(RuntimeError, match="out of bounds"):
        on_path("acl_op", "index.Tensor", lambda: x[torch.tensor([4]).npu()].cpu())
