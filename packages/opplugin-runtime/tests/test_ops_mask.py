"""The ops of causal / masked attention on npu: tril (+ out=, tril_), isneginf (+ out=)
and all (all.dim / all.out / all / all.all_out), compared with the same ops on CPU
(values, dtype, shape), with the CPU fallback forbidden (NPU_FALLBACK=error); and
F.scaled_dot_product_attention with is_causal / attn_mask, forward and backward."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

ALL_DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int8, torch.uint8, torch.int16,
              torch.int32, torch.int64, torch.bool]


@pytest.fixture(autouse=True)
def _no_fallback():
    """Every op of these tests must run on npu: a CPU fallback raises."""
    torch.npu.set_fallback_mode("error")


def _data(dtype: torch.dtype, shape, seed: int = 0) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed + sum(shape))
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    if dtype.is_floating_point:
        return (torch.randn(shape, generator=g) * 4).to(dtype)
    low = 0 if dtype == torch.uint8 else -50
    x = torch.randint(low, 100, shape, generator=g).to(dtype)
    return torch.where(x == 0, torch.ones_like(x), x)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (5, 7), (7, 5), (2, 3, 6, 11), (0, 4), (3, 0, 2), (3, 600)])
def test_tril_matches_cpu(dtype, shape, assert_same, ledger):
    x = _data(dtype, shape)
    for diagonal in (0, 1, -1, 4, -9):
        assert_same(x.npu().tril(diagonal), x.tril(diagonal))
    assert ledger()["tril.out"]["op_api"] == 5


def test_tril_out_inplace_and_non_contiguous(assert_same):
    x = _data(torch.float32, (4, 6, 9))
    out = torch.empty(0).npu()
    torch.tril(x.npu(), 2, out=out)
    assert_same(out, x.tril(2))
    t = x.transpose(-1, -2)  # non-contiguous input
    assert_same(t.npu().tril(-1), t.tril(-1))
    assert_same(x.npu()[:, ::2, 1:].tril(), x[:, ::2, 1:].tril())
    y = x.clone().npu()
    y.tril_(1)
    assert_same(y, x.clone().tril_(1))
    yt, ct = x.clone().npu().transpose(0, 2), x.clone().transpose(0, 2)  # in place through a strided view
    yt.tril_()
    assert_same(yt, ct.tril_())
    mask = torch.ones(5, 5, dtype=torch.bool)
    assert_same(torch.tril(mask.npu()), torch.tril(mask))


def test_tril_backward_matches_cpu(assert_same):
    x = torch.randn(3, 5, 4, requires_grad=True)
    xn = x.detach().npu().requires_grad_()
    g = torch.randn(3, 5, 4)
    x.tril(1).backward(g)
    xn.tril(1).backward(g.npu())
    assert_same(xn.grad, x.grad)


def test_tril_errors_name_the_op():
    with pytest.raises(RuntimeError, match="tril: input tensor must have at least 2 dimensions"):
        torch.tril(torch.ones(3).npu())


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_isneginf_matches_cpu(dtype, assert_same, ledger):
    x = _data(dtype, (4, 33))
    if dtype.is_floating_point:
        x[0, ::2] = float("-inf")
        x[1, ::3] = float("inf")
        x[2, ::5] = float("nan")
    assert_same(torch.isneginf(x.npu()), torch.isneginf(x))
    assert_same(x.npu().t().isneginf(), x.t().isneginf())
    e = torch.empty(0, 3, dtype=dtype)
    assert_same(torch.isneginf(e.npu()), torch.isneginf(e))
    out = torch.empty(0, dtype=torch.bool).npu()
    torch.isneginf(x.npu(), out=out)
    assert_same(out, torch.isneginf(x))
    assert ledger()["isneginf.out"]["op_api"] == 4


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("dim", [None, 0, -1, 1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_all_matches_cpu(dtype, dim, keepdim, assert_same):
    x = _data(dtype, (3, 5, 7))
    x[1, 2] = 0  # some rows false, some true
    x[2] = 1
    if dtype.is_floating_point:
        x[0, :, 3] = float("nan")
    if dim is None:
        assert_same(x.npu().all(), x.all())
        assert_same(x.npu().transpose(0, 2).all(), x.transpose(0, 2).all())
    else:
        assert_same(x.npu().all(dim, keepdim=keepdim), x.all(dim, keepdim=keepdim))
        assert_same(x.npu().transpose(0, 2).all(dim, keepdim=keepdim), x.transpose(0, 2).all(dim, keepdim=keepdim))


def test_all_out_empty_zero_dim_and_errors(assert_same, ledger):
    x = _data(torch.float32, (4, 6))
    x[2, 3] = 0
    out = torch.empty(0, dtype=torch.bool).npu()
    torch.all(x.npu(), 1, out=out)
    assert_same(out, torch.all(x, 1))
    full = torch.empty(0, dtype=torch.bool).npu()
    torch.all(x.npu(), out=full)
    assert_same(full, torch.all(x))
    e = torch.empty(0, 5)
    assert_same(e.npu().all(), e.all())
    assert_same(e.npu().all(0), e.all(0))
    assert_same(e.npu().all(1), e.all(1))
    s = torch.tensor(0.0)
    assert_same(s.npu().all(), s.all())
    assert_same(s.npu().all(0), s.all(0))
    assert_same(s.npu().all(-1, keepdim=True), s.all(-1, keepdim=True))
    counts = ledger()
    assert counts["all.out"]["op_api"] == 1 and counts["all.all_out"]["op_api"] == 1
    assert counts["all.dim"]["op_api"] == 4 and counts["all"]["op_api"] == 2
    with pytest.raises(RuntimeError, match="all: out must be bool"):
        torch.all(x.npu(), 1, out=torch.empty(4).npu())
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.npu().all(2)


@pytest.mark.parametrize("mask", ["causal", "bool", "float"])
def test_sdpa_with_masks_matches_cpu(mask, assert_same, ledger):
    g = torch.Generator().manual_seed(7)
    q, k, v = (torch.randn(2, 3, 6, 8, generator=g) for _ in range(3))
    kwargs = {}
    if mask == "causal":
        kwargs["is_causal"] = True
    elif mask == "bool":
        kwargs["attn_mask"] = torch.rand(6, 6, generator=g) > 0.3
    else:
        kwargs["attn_mask"] = torch.randn(2, 1, 6, 6, generator=g)
    cpu = [t.clone().requires_grad_() for t in (q, k, v)]
    npu = [t.npu().requires_grad_() for t in (q, k, v)]
    npu_kwargs = {key: (val.npu() if isinstance(val, torch.Tensor) else val) for key, val in kwargs.items()}
    want = F.scaled_dot_product_attention(*cpu, **kwargs)
    got = F.scaled_dot_product_attention(*npu, **npu_kwargs)
    assert_same(got, want, rtol=1e-5, atol=1e-5)
    grad = torch.randn(want.shape, generator=g)
    want.backward(grad)
    got.backward(grad.npu())
    for a, b in zip(npu, cpu):
        assert_same(a.grad, b.grad, rtol=1e-5, atol=1e-5)
    counts = ledger()
    assert all(paths["cpu_fallback"] == 0 for paths in counts.values()), counts
    if mask == "causal":
        assert counts["tril.out"]["op_api"] >= 1
