"""Reductions on npu (sum.dim_IntList / sum.IntList_out, mean.dim / mean.out, amax, amin,
+ out=): hand-written op_api kernels over aclnnReduceSum / aclnnMean / aclnnAmax /
aclnnAmin, compared with the same ops on CPU (values, dtype, shape), with the CPU
fallback forbidden (NPU_FALLBACK=error) unless a test says otherwise."""

from __future__ import annotations

import pytest
import torch


@pytest.fixture(autouse=True)
def _no_fallback():
    """Every op of these tests must run on npu: a CPU fallback raises. Seeded data."""
    torch.manual_seed(0)
    torch.npu.set_fallback_mode("error")


FLOAT_TOL = {torch.float32: {}, torch.float16: {"rtol": 2e-3, "atol": 2e-3},
             torch.bfloat16: {"rtol": 1.6e-2, "atol": 2e-2}, torch.float64: {}}
DIMS = [None, 0, -1, (0, 2), (-1, 1), ()]


def _data(dtype: torch.dtype, shape=(3, 5, 7)) -> torch.Tensor:
    g = torch.Generator().manual_seed(sum(shape))
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    if dtype.is_floating_point:
        return (torch.randn(shape, generator=g) * 4).to(dtype)
    return torch.randint(-50, 50, shape, generator=g).to(dtype) if dtype != torch.uint8 else \
        torch.randint(0, 200, shape, generator=g).to(dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int32,
                                   torch.int64, torch.bool, torch.uint8])
@pytest.mark.parametrize("dim", DIMS)
@pytest.mark.parametrize("keepdim", [False, True])
def test_sum_matches_cpu(dtype, dim, keepdim, assert_same, ledger):
    x = _data(dtype)
    tol = FLOAT_TOL.get(dtype, {})
    if dim is None:
        assert_same(x.npu().sum(), x.sum(), **tol)
    else:
        assert_same(x.npu().sum(dim, keepdim=keepdim), x.sum(dim, keepdim=keepdim), **tol)
    assert ledger()["sum.dim_IntList"]["op_api"] == 1


def test_sum_dtype_argument_non_contiguous_zero_dim_and_empty(assert_same):
    x = torch.randn(6, 4)
    assert_same(x.npu().half().sum(0, dtype=torch.float32), x.half().sum(0, dtype=torch.float32))
    i = torch.arange(24, dtype=torch.int32).reshape(4, 6)
    assert_same(i.npu().sum(1, dtype=torch.int32), i.sum(1, dtype=torch.int32))
    assert_same(i.npu().sum(1, dtype=torch.float32), i.sum(1, dtype=torch.float32))
    assert_same(x.npu().t().sum(1), x.t().sum(1))
    assert_same(x.npu()[:, ::2].sum(0), x[:, ::2].sum(0))
    s = torch.tensor(2.5)
    assert_same(s.npu().sum(), s.sum())
    assert_same(s.npu().sum(0, keepdim=True), s.sum(0, keepdim=True))
    e = torch.empty(0, 3)
    assert_same(e.npu().sum(0), e.sum(0))
    assert_same(e.npu().sum(1), e.sum(1))
    assert_same(e.npu().sum(), e.sum())
    assert_same(torch.empty(0, 3, dtype=torch.int64).npu().sum(), torch.empty(0, 3, dtype=torch.int64).sum())


def test_sum_out_and_errors(assert_same, ledger):
    x = torch.randn(4, 5)
    out = torch.empty(0, device="npu")
    result = torch.sum(x.npu(), 1, out=out)
    assert result.data_ptr() == out.data_ptr()
    assert_same(out, x.sum(1))
    out64 = torch.empty(5, device="npu", dtype=torch.float64)
    torch.sum(x.double().npu(), 0, keepdim=False, out=out64)
    assert_same(out64, x.double().sum(0))
    assert ledger()["sum.IntList_out"]["op_api"] == 2
    with pytest.raises(RuntimeError, match="appears multiple times in the list of dims"):
        x.npu().sum((1, -1))
    with pytest.raises(RuntimeError, match="appears multiple times in the list of dims"):
        x.sum((1, -1))
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.npu().sum(2)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
@pytest.mark.parametrize("dim", DIMS)
@pytest.mark.parametrize("keepdim", [False, True])
def test_mean_matches_cpu(dtype, dim, keepdim, assert_same, ledger):
    x = _data(dtype)
    tol = FLOAT_TOL[dtype]
    if dim is None:
        assert_same(x.npu().mean(), x.mean(), **tol)
    else:
        assert_same(x.npu().mean(dim, keepdim=keepdim), x.mean(dim, keepdim=keepdim), **tol)
    assert ledger()["mean.dim"]["op_api"] == 1


def test_mean_dtype_out_empty_and_integer_error(assert_same, ledger):
    x = torch.randn(5, 8)
    assert_same(x.npu().half().mean(1, dtype=torch.float32), x.half().mean(1, dtype=torch.float32))
    assert_same(x.npu().t().mean(0), x.t().mean(0))
    assert_same(torch.empty(3, 0).npu().mean(1), torch.empty(3, 0).mean(1), equal_nan=True)  # NaN, as CPU
    assert_same(torch.empty(0, 4).npu().mean(0), torch.empty(0, 4).mean(0), equal_nan=True)
    out = torch.empty(1, device="npu")
    torch.mean(x.npu(), (0, 1), keepdim=True, out=out)
    assert_same(out, x.mean((0, 1), keepdim=True))
    assert ledger()["mean.out"]["op_api"] == 1
    i = torch.arange(6)
    with pytest.raises(RuntimeError, match=r"mean\(\): could not infer output dtype. Input dtype must be either a "
                                           r"floating point or complex dtype. Got: Long"):
        i.npu().mean()
    with pytest.raises(RuntimeError, match=r"mean\(\): could not infer output dtype"):
        i.mean()


@pytest.mark.parametrize("op", ["amax", "amin"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int32,
                                   torch.int64, torch.bool, torch.uint8])
@pytest.mark.parametrize("dim", [(), 0, -1, (0, 2)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_amax_amin_match_cpu(op, dtype, dim, keepdim, assert_same, ledger):
    x = _data(dtype)
    assert_same(getattr(x.npu(), op)(dim, keepdim=keepdim), getattr(x, op)(dim, keepdim=keepdim))
    assert ledger()[op]["op_api"] == 1


@pytest.mark.parametrize("op", ["amax", "amin"])
def test_amax_amin_nan_out_and_errors(op, assert_same, ledger):
    x = torch.randn(4, 9)
    x[2, 3] = float("nan")
    assert_same(getattr(x.npu(), op)(1), getattr(x, op)(1), equal_nan=True)
    assert_same(getattr(x.npu().t(), op)(0), getattr(x.t(), op)(0), equal_nan=True)
    out = torch.empty(9, device="npu")
    getattr(torch, op)(x.npu(), 0, out=out)
    assert_same(out, getattr(x, op)(0), equal_nan=True)
    assert ledger()[op + ".out"]["op_api"] == 1
    e = torch.empty(3, 0)
    with pytest.raises(IndexError, match=op + r"\(\): Expected reduction dim 1 to have non-zero size"):
        getattr(e.npu(), op)(1)
    with pytest.raises(IndexError, match=r"Expected reduction dim 1 to have non-zero size"):
        getattr(e, op)(1)
    assert_same(getattr(e.npu(), op)(0), getattr(e, op)(0))
    with pytest.raises(RuntimeError, match=op + ": expected out dtype Float but got Double"):
        getattr(torch, op)(x.npu(), 0, out=torch.empty(9, device="npu", dtype=torch.float64))
    with pytest.raises(RuntimeError, match="complex self"):
        getattr(torch.zeros(3, dtype=torch.complex64).npu(), op)(0)


def test_sum_backward_through_autograd(assert_same):
    x = torch.randn(3, 4, dtype=torch.float32)
    xn = x.npu().requires_grad_()
    xc = x.clone().requires_grad_()
    xn.sum(1).sum().backward()
    xc.sum(1).sum().backward()
    assert_same(xn.grad, xc.grad)


def test_mean_and_amax_backward_with_elementwise_ops(assert_same):
    """mean's and amax's backward formulas use elementwise ops (div, eq, mul) owned by the
    elementwise family; until those are on npu they may fall back, so this test allows it."""
    torch.npu.set_fallback_mode("silent")
    x = torch.randn(3, 5)
    for op in (lambda t: t.mean(1), lambda t: t.amax(1), lambda t: t.amin(0)):
        xn = x.npu().requires_grad_()
        xc = x.clone().requires_grad_()
        op(xn).sum().backward()
        op(xc).sum().backward()
        assert_same(xn.grad, xc.grad)
