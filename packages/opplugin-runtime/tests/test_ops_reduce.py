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


def with_extra_device_memory(run):
    """(run()'s result, the device memory it took beyond what was allocated before), synchronised."""
    torch.npu.synchronize()
    torch.npu.reset_peak_memory_stats()
    before = torch.npu.memory_allocated()
    result = run()
    torch.npu.synchronize()
    return result, torch.npu.max_memory_allocated() - before


# Integer and bool reductions read their input as it is (no converted copy): the extra
# device memory is the output's, whatever the input's size.
@pytest.mark.parametrize("dtype,op", [(torch.int8, "sum"), (torch.bool, "sum"), (torch.int32, "sum"),
                                      (torch.int32, "amax"), (torch.int16, "amin"), (torch.bool, "all"),
                                      (torch.float32, "all"), (torch.uint8, "amax")])
def test_integer_and_bool_reductions_use_only_output_memory(dtype, op):
    n = 1 << 24
    x = (torch.arange(n) % 7 - 3).to(dtype)
    x_npu = x.npu()
    reduce = {"sum": torch.sum, "amax": torch.amax, "amin": torch.amin, "all": torch.all}[op]
    result, extra = with_extra_device_memory(lambda: reduce(x_npu))
    assert extra <= 1 << 20, f"{op} of {n} {dtype} took {extra} bytes of extra device memory"
    expected = reduce(x)
    assert result.dtype == expected.dtype and torch.equal(result.cpu(), expected)


def all_over(t, dims):
    """torch.all over several dims (a tuple of dims is accepted from torch 2.2 on)."""
    release = tuple(int(part) for part in torch.__version__.split("+")[0].split(".")[:2])
    if len(dims) == 1 or release >= (2, 2):
        return torch.all(t, dims if len(dims) > 1 else dims[0])
    for dim in sorted(dims, reverse=True):
        t = torch.all(t, dim)
    return t


# The same when the reduced dimensions are not innermost or self is not dense: the kernel
# reads the strided view in place instead of a dense copy of it.
STRIDED_REDUCTIONS = {
    "leading dim": (lambda x: x.view(2048, 2048), (0,)),
    "middle dim": (lambda x: x.view(64, 256, 256), (1,)),
    "outer and inner dims": (lambda x: x.view(64, 256, 256), (0, 2)),
    "all of a transpose": (lambda x: x.view(2048, 2048).t(), None),
    "rows of a column slice": (lambda x: x.view(2048, 2048)[:, ::2], (1,)),
}


@pytest.mark.parametrize("layout", list(STRIDED_REDUCTIONS))
@pytest.mark.parametrize("dtype,op", [(torch.int32, "sum"), (torch.bool, "all"), (torch.int8, "amax"),
                                      (torch.int16, "amin"), (torch.float64, "mean")])
def test_strided_integer_reductions_use_only_output_memory(layout, dtype, op):
    shape_of, dims = STRIDED_REDUCTIONS[layout]
    flat = (torch.arange(1 << 22) % 7 - 3).to(dtype)
    x, x_npu = shape_of(flat), shape_of(flat.npu())
    functions = {"sum": torch.sum, "amax": torch.amax, "amin": torch.amin, "all": torch.all, "mean": torch.mean}

    def reduce(t):
        if dims is None:
            return functions[op](t)
        return all_over(t, dims) if op == "all" else functions[op](t, dims)

    result, extra = with_extra_device_memory(lambda: reduce(x_npu))
    assert extra <= 1 << 20, f"{op} over {layout} took {extra} bytes of extra device memory"
    expected = reduce(x)
    assert result.dtype == expected.dtype and result.shape == expected.shape
    torch.testing.assert_close(result.cpu(), expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize("dtype", [torch.int64, torch.uint8, torch.bool, torch.float64])
def test_strided_integer_reductions_match_cpu_for_odd_shapes(dtype):
    """Sizes that are not powers of two, size-1 dims, permuted and sliced views, several reduced
    dimensions: the kernel's walk over the reduced indices carries across each of them."""
    base = torch.randint(-50, 50, (3, 5, 7, 2, 11)).to(dtype)
    views = {
        "permuted": lambda t: t.permute(4, 1, 3, 0, 2),
        "sliced": lambda t: t[:, 1::2, :, :, ::3],
        "size-1 dims": lambda t: t[:, :1, :, 1:, :],
    }
    for name, view in views.items():
        cpu, npu = view(base), view(base.npu())
        for dims in [(0,), (1, 3), (0, 2, 4), (4,), (0, 1, 2, 3, 4)]:
            for op in ("sum", "amax", "amin", "all"):
                if op == "all":
                    # CPU's all of `!= 0`, in all's result dtype: torch 2.2's CPU all of uint8
                    # answers wrongly on some of these layouts, dense ones too.
                    expected = all_over(cpu != 0, dims).to(torch.uint8 if dtype == torch.uint8 else torch.bool)
                    actual = all_over(npu, dims)
                else:
                    expected, actual = getattr(torch, op)(cpu, dims), getattr(torch, op)(npu, dims)
                assert actual.dtype == expected.dtype, (name, dims, op)
                assert torch.equal(actual.cpu(), expected), (name, dims, op)


@pytest.mark.parametrize("dtype", [torch.int8, torch.bool, torch.float16])
def test_all_treats_nan_and_negative_zero_as_cpu_does(dtype):
    rows = torch.tensor([[1, 2, 3], [1, 0, 3], [0, 0, 0]]).to(dtype)
    if dtype.is_floating_point:
        rows = torch.tensor([[float("nan"), 1.0, -1.0], [-0.0, 1.0, 1.0], [float("inf"), 2.0, 0.5]], dtype=dtype)
    for dim in (None, 0, 1):
        expected = torch.all(rows) if dim is None else torch.all(rows, dim)
        actual = torch.all(rows.npu()) if dim is None else torch.all(rows.npu(), dim)
        assert torch.equal(actual.cpu(), expected), (dim, actual, expected)


@pytest.mark.slow
def test_sum_of_two_to_the_31_int8_elements():
    """2 GiB of int8 summed on a 16 GiB device (a converted int64 copy would need 16 GiB more)."""
    n = 1 << 31
    x = torch.ones(n, dtype=torch.int8, device="npu")
    x[::3] = -1
    ones = n - (n + 2) // 3
    assert x.sum().item() == ones - (n + 2) // 3


def _has_dims_overloads() -> bool:
    return any(s.overload_name == "dims" for s in torch._C._jit_get_schemas_for_operator("aten::all"))


@pytest.mark.skipif(not _has_dims_overloads(), reason="all.dims / any.dims appear in torch 2.2")
@pytest.mark.parametrize("dim", [(0, 2), (-1, 1), (1,), (), None], ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
def test_all_over_several_dims_runs_on_npu(dim, keepdim, assert_same, ledger):
    x = torch.rand(3, 4, 5) > 0.1
    args = (dim,) if dim is not None else ()
    assert_same(torch.all(x.npu(), *args, keepdim=keepdim), torch.all(x, *args, keepdim=keepdim))
    out = torch.empty(0, dtype=torch.bool, device="npu")
    torch.all(x.npu(), dim, keepdim=keepdim, out=out)
    assert_same(out, torch.all(x, dim, keepdim=keepdim))
    counts = ledger()
    assert counts["all.dims"]["op_api"] == 1 and counts["all.dims_out"]["op_api"] == 1
    with pytest.raises(RuntimeError, match="appears multiple times"):
        torch.all(x.npu(), (0, 0))


@pytest.mark.skipif(not _has_dims_overloads(), reason="all.dims / any.dims appear in torch 2.2")
def test_any_over_several_dims_falls_back_to_the_cpu_without_crashing():
    """any has no npu kernel: the CPU fallback computes it (torch 2.2's composite default of
    any.dims would call itself until the stack overflows)."""
    x = torch.rand(3, 4, 5) > 0.9
    torch.npu.set_fallback_mode("silent")
    result = torch.any(x.npu(), (0, 2))
    assert result.device.type == "npu" and torch.equal(result.cpu(), torch.any(x, (0, 2)))
