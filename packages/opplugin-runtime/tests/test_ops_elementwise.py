"""Elementwise operators on npu (the generic elementwise Ascend C kernel through
aclnn): every result compared with the same op on CPU (values, dtype, shape),
with broadcasting, type promotion, non-contiguous and 0-size inputs, out= and
in-place variants, autograd backward, dtype errors, and the path ledger (no CPU
fallback: NPU_FALLBACK=error)."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

FLOAT_DTYPES = [torch.float32, torch.float16, torch.bfloat16]


@pytest.fixture(autouse=True)
def _no_fallback():
    """Every op here must run on npu: a CPU fallback raises."""
    torch.npu.set_fallback_mode("error")
    yield


def tol(dtype: torch.dtype) -> dict:
    return {
        torch.float32: {"rtol": 2e-6, "atol": 2e-6},
        torch.float16: {"rtol": 2e-3, "atol": 2e-3},
        torch.bfloat16: {"rtol": 1.6e-2, "atol": 1.6e-2},
        torch.float64: {"rtol": 1e-6, "atol": 1e-6},
    }.get(dtype, {})


def rand(shape, dtype=torch.float32, low=-3.0, high=3.0, seed=0) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        return (torch.rand(shape, generator=g) * (high - low) + low).to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    return torch.randint(int(low) * 10, int(high) * 10 + 1, shape, generator=g).to(dtype)


UNARY = {
    "neg": (torch.neg, -3, 3),
    "exp": (torch.exp, -5, 5),
    "log": (torch.log, 0.01, 10),
    "sqrt": (torch.sqrt, 0, 10),
    "rsqrt": (torch.rsqrt, 0.01, 10),
    "reciprocal": (torch.reciprocal, 0.5, 10),
    "tanh": (torch.tanh, -4, 4),
    "sigmoid": (torch.sigmoid, -8, 8),
    "relu": (torch.relu, -3, 3),
    "gelu": (F.gelu, -4, 4),
    "gelu_tanh": (lambda t: F.gelu(t, approximate="tanh"), -4, 4),
    "silu": (F.silu, -6, 6),
    "pow2": (lambda t: t**2, -3, 3),
    "pow_frac": (lambda t: torch.pow(t, 2.5), 0, 3),
}


@pytest.mark.parametrize("name", list(UNARY))
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("shape", [(0,), (1,), (7, 13), (2, 3, 1031)])
def test_unary_matches_cpu(name, dtype, shape, assert_same):
    op, low, high = UNARY[name]
    x = rand(shape, dtype, low, high, seed=len(shape))
    assert_same(op(x.npu()), op(x), **tol(dtype))


@pytest.mark.parametrize("name", ["neg", "exp", "sqrt", "sigmoid", "relu", "pow2"])
def test_unary_integer_inputs(name, assert_same):
    op = UNARY[name][0]
    x = torch.arange(0, 40, dtype=torch.int32).reshape(5, 8)
    assert_same(op(x.npu()), op(x), rtol=1e-6, atol=1e-6)  # int -> float32 for the floating ops


@pytest.mark.parametrize("name", ["exp", "sqrt", "tanh", "neg", "relu", "gelu", "sigmoid"])
def test_unary_inplace_out_and_noncontiguous(name, assert_same):
    base = rand((6, 10), low=0.1, high=3.0, seed=3)
    x = base.t()[1:, ::2]  # transposed window: non-contiguous
    op = UNARY[name][0]
    assert_same(op(x.npu()), op(x))
    if name == "gelu":
        return
    fn = getattr(torch, name)
    inplace = getattr(torch.Tensor, name + "_")
    y_npu, y_cpu = x.npu().clone(), x.clone()
    assert inplace(y_npu) is y_npu
    inplace(y_cpu)
    assert_same(y_npu, y_cpu)
    if name != "relu":
        out_npu, out_cpu = torch.empty(0).npu(), torch.empty(0)
        fn(x.npu(), out=out_npu)
        fn(x, out=out_cpu)
        assert_same(out_npu, out_cpu)
    if name in ("exp", "sqrt", "tanh", "sigmoid"):  # unary float ops take an out of another floating dtype
        out_npu = torch.empty(x.shape, dtype=torch.float64).npu()
        out_cpu = torch.empty(x.shape, dtype=torch.float64)
        assert_same(fn(x.npu(), out=out_npu), fn(x, out=out_cpu))


BINARY = {
    "sub": lambda a, b: a - b,
    "sub_alpha": lambda a, b: torch.sub(a, b, alpha=2),
    "div": lambda a, b: a / b,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
    "clamp_min": torch.clamp_min,
    "eq": torch.eq,
    "ne": torch.ne,
    "lt": torch.lt,
    "le": torch.le,
    "gt": torch.gt,
    "ge": torch.ge,
}


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize("shapes", [((4, 5), (4, 5)), ((4, 1), (3, 1, 5)), ((0, 3), (1, 3)), ((2, 3), ())])
def test_binary_broadcasting(name, shapes, assert_same):
    op = BINARY[name]
    a = rand(shapes[0], seed=1).round()
    b = rand(shapes[1], low=0.5, high=3, seed=2).round()  # equal values occur
    assert_same(op(a.npu(), b.npu()), op(a, b))


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize(
    "dtypes",
    [(torch.int32, torch.int64), (torch.int64, torch.float32), (torch.float16, torch.float32),
     (torch.bfloat16, torch.bfloat16), (torch.float32, torch.float64)],
)
def test_binary_type_promotion(name, dtypes, assert_same):
    op = BINARY[name]
    a = rand((3, 17), dtypes[0], seed=4)
    b = rand((3, 17), dtypes[1], low=1, high=3, seed=5)
    expected = op(a, b)
    assert_same(op(a.npu(), b.npu()), expected, **tol(expected.dtype))


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_python_scalars_and_cpu_scalar_tensors(name, assert_same):
    op = BINARY[name]
    a = rand((5, 6), seed=6).round()
    i = torch.arange(-6, 6, dtype=torch.int64)
    if name == "clamp_min":  # not a TensorIterator op at the wrapper: min must be on npu (as on CUDA)
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            op(a.npu(), torch.tensor(2.0))
        return
    assert_same(op(a.npu(), torch.tensor(2.0)), op(a, torch.tensor(2.0)))
    assert_same(op(i.npu(), torch.tensor(2.5, dtype=torch.float64)), op(i, torch.tensor(2.5, dtype=torch.float64)))
    if name in ("maximum", "minimum"):  # no Scalar overloads
        return
    assert_same(op(a.npu(), 2), op(a, 2))
    assert_same(op(a.npu(), 1.5), op(a, 1.5))
    assert_same(op(i.npu(), 2.5), op(i, 2.5))
    assert_same(op(2, a.npu()) if name.startswith("sub") else op(a.npu(), -1), op(2, a) if name.startswith("sub")
                else op(a, -1))


def test_binary_out_inplace_and_noncontiguous(assert_same):
    a = rand((8, 6), seed=7)
    b = rand((6,), low=1, high=2, seed=8)
    at = a.t()  # non-contiguous
    for op in ("sub", "div", "maximum", "minimum"):
        fn = getattr(torch, op)
        assert_same(fn(at.npu(), b[:1].npu()), fn(at, b[:1]))
        out_npu, out_cpu = torch.empty(1).npu(), torch.empty(1)
        fn(a.npu(), b.npu(), out=out_npu)
        fn(a, b, out=out_cpu)
        assert_same(out_npu, out_cpu)
    for op in ("sub_", "div_"):
        x_npu, x_cpu = a.npu().clone(), a.clone()
        getattr(x_npu, op)(b.npu())
        getattr(x_cpu, op)(b)
        assert_same(x_npu, x_cpu)
    x_npu, x_cpu = a.npu().clone(), a.clone()
    x_npu.pow_(3)
    x_cpu.pow_(3)
    assert_same(x_npu, x_cpu, rtol=4e-6, atol=1e-5)


def test_compare_out_dtype_and_inplace(assert_same):
    a = rand((4, 5), seed=9).round()
    b = rand((4, 5), seed=10).round()
    out_npu = torch.empty(4, 5, dtype=torch.float32).npu()
    out_cpu = torch.empty(4, 5, dtype=torch.float32)
    assert_same(torch.eq(a.npu(), b.npu(), out=out_npu), torch.eq(a, b, out=out_cpu))
    assert_same(torch.gt(a.npu(), 0.5, out=out_npu), torch.gt(a, 0.5, out=out_cpu))
    nan = torch.tensor([float("nan"), 1.0])
    assert_same(nan.npu() != nan.npu(), nan != nan)
    assert_same(nan.npu() == 1.0, nan == 1.0)


def _every_finite(dtype: torch.dtype) -> torch.Tensor:
    """Every finite value of a 16-bit floating dtype."""
    bits = torch.arange(-32768, 32768, dtype=torch.int32).to(torch.int16).view(dtype)
    return bits[bits.isfinite()]


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_compare_with_a_python_float_rounds_it_to_the_tensor_dtype_first(dtype, op):
    """torch compares a float16 tensor with half(0.1), not with 0.1: the scalar takes the common
    dtype first. Every value of the dtype, against scalars that are not representable in it."""
    x = _every_finite(dtype)
    x_npu = x.npu()
    for scalar in (0.1, 1 / 3, -2.7182818, 1e-7, 65519.0, 3.0e38):
        want = getattr(x, op)(scalar)
        got = getattr(x_npu, op)(scalar).cpu()
        assert torch.equal(got, want), f"{op}({dtype}, {scalar}): {(got != want).sum().item()} of {x.numel()} differ"


@pytest.mark.parametrize("jit_compile", [False, True], ids=["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_mul_and_div_by_a_python_float_keep_it_unrounded(dtype, jit_compile):
    """Unlike a compare, mul and div by a Python float compute in float32 with the float as it is (CPU's
    opmath), then round once: x * (1 / 0.3) in float16 differed from CPU in a quarter of the elements when
    the number was rounded to float16 first. Every value of the dtype; functional, out= and in-place forms,
    the number on either side of mul, and a 0-dim CPU tensor as the number."""
    x = _every_finite(dtype)
    torch.npu.set_compile_mode(jit_compile=jit_compile)
    try:
        for scalar in (1 / 0.3, 0.1, -2.7182818):
            forms = [("mul", lambda t, s: t * s), ("rmul", lambda t, s: s * t), ("div", lambda t, s: t / s),
                     ("mul_", lambda t, s: t.clone().mul_(s)), ("div_", lambda t, s: t.clone().div_(s)),
                     ("div out", lambda t, s: torch.div(t, s, out=torch.empty_like(t))),
                     ("mul 0-dim", lambda t, s: torch.mul(t, torch.tensor(s)))]
            for name, op in forms:
                if name == "mul_" and not _has_npu_kernel("aten::mul.out"):  # mul_ runs mul.out, v2.5 on
                    continue
                want, got = op(x, scalar), op(x.npu(), scalar).cpu()
                assert torch.equal(got, want), f"{name}({dtype}, {scalar}): {(got != want).sum().item()} differ"
    finally:
        torch.npu.set_compile_mode(jit_compile=False)


@pytest.mark.parametrize("jit_compile", [False, True], ids=["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_add_with_alpha_and_lerp_round_once_as_cpu(dtype, jit_compile):
    """CPU's vectorized add/sub with alpha and lerp are fused multiply-adds (x + alpha y rounded once; lerp's
    self + w (end - self) and end + (w - 1) (end - self)), and add/sub take alpha in the tensor's dtype (a
    float16 alpha) before computing in float32: two roundings differed from CPU in a third of the float32
    elements. 4096 elements: CPU's vector loop covers them all (its scalar tail rounds differently)."""
    g = torch.Generator().manual_seed(5)
    a, b, w = (torch.randn(4096, generator=g).to(dtype) for _ in range(3))
    torch.npu.set_compile_mode(jit_compile=jit_compile)
    try:
        for name, op in [("add", lambda x, y: torch.add(x, y, alpha=1 / 0.3)),
                         ("sub", lambda x, y: torch.sub(x, y, alpha=0.1)),
                         ("add_", lambda x, y: x.clone().add_(y, alpha=-2.7182818)),
                         ("lerp small", lambda x, y: torch.lerp(x, y, 0.3)),
                         ("lerp large", lambda x, y: torch.lerp(x, y, 0.7))]:
            want, got = op(a, b), op(a.npu(), b.npu()).cpu()
            assert torch.equal(got, want), f"{name}: {(got != want).sum().item()} of {a.numel()} differ"
        want, got = torch.lerp(a, b, w), torch.lerp(a.npu(), b.npu(), w.npu()).cpu()
        assert torch.equal(got, want), f"lerp with a weight tensor: {(got != want).sum().item()} differ"
    finally:
        torch.npu.set_compile_mode(jit_compile=False)


@pytest.mark.parametrize("jit_compile", [False, True], ids=["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_pow_by_a_python_float_takes_it_in_the_dtype(dtype, jit_compile):
    """ATen's 16-bit pow by a number rounds the exponent to the tensor's dtype first (x ** (1 / 0.3) is
    x ** half(3.332)): with the float exponent over half of the float16 values differed from CPU. Every
    positive value of the dtype, and x ** 2, which CPU's bfloat16 kernel computes as x * x."""
    x = _every_finite(dtype).abs()
    torch.npu.set_compile_mode(jit_compile=jit_compile)
    try:
        for exponent in (1 / 0.3, 0.1, -1.7, 2.0):
            want, got = x ** exponent, (x.npu() ** exponent).cpu()
            assert torch.equal(got, want), f"x ** {exponent}: {(got != want).sum().item()} of {x.numel()} differ"
    finally:
        torch.npu.set_compile_mode(jit_compile=False)


def _has_npu_kernel(op: str) -> bool:
    return torch._C._dispatch_has_kernel_for_dispatch_key(op, "PrivateUse1")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_addcmul_rounds_once(dtype):
    """addcmul computes fma(value * t1, t2, self) in float32 and rounds the result once to the dtype, as
    torch 2.13's CPU kernel does (its float16 result equals its float32 one rounded); computing
    (value * t1) * t2 + self rounds twice and is an ulp off for some elements (in float16: 6 of 516
    of _foreach_addcmul's OpInfo samples). The _foreach_ forms follow where the label declares them."""
    g = torch.Generator().manual_seed(0)
    a, b, c = (torch.randn(100_000, generator=g).to(dtype) for _ in range(3))
    foreach = _has_npu_kernel("aten::_foreach_addcmul.Scalar") and _has_npu_kernel("aten::_foreach_addcdiv.Scalar")
    for value in (0.1, -0.37, 3.0):
        want = torch.addcmul(a.float(), b.float(), c.float(), value=value).to(dtype)  # CPU float32: fused
        got = torch.addcmul(a.npu(), b.npu(), c.npu(), value=value).cpu()
        assert torch.equal(got, want), f"value {value}: {(got != want).sum().item()} elements differ"
        if foreach:
            got = torch._foreach_addcmul([a.npu()], [b.npu()], [c.npu()], value=value)[0].cpu()
            assert torch.equal(got, want), f"_foreach_addcmul value {value}: {(got != want).sum().item()} differ"
            want = torch.addcdiv(a.float(), b.float(), c.float(), value=value).to(dtype)
            got = torch._foreach_addcdiv([a.npu()], [b.npu()], [c.npu()], value=value)[0].cpu()
            assert torch.equal(got, want), f"_foreach_addcdiv value {value}: {(got != want).sum().item()} differ"
    zeros = torch.tensor([-0.0, -0.0, 0.0], dtype=dtype)  # -0 + (-0 * 1) stays -0
    factors = torch.tensor([-0.0, 1.0, -0.0], dtype=dtype)
    assert torch.equal(torch.addcmul(zeros.npu(), factors.npu(), zeros.npu().abs()).cpu().signbit(),
                       torch.addcmul(zeros, factors, zeros.abs()).signbit())


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.float16])
def test_logical_not(dtype, assert_same):
    x = rand((3, 7), dtype, seed=11)
    if dtype != torch.bool:
        x = x.round()
    assert_same(torch.logical_not(x.npu()), torch.logical_not(x))
    y_npu, y_cpu = x.npu().clone(), x.clone()
    y_npu.logical_not_()
    y_cpu.logical_not_()
    assert_same(y_npu, y_cpu)


def test_maximum_minimum_nan_and_integers(assert_same):
    a = torch.tensor([float("nan"), 1.0, 2.0, float("nan")])
    b = torch.tensor([0.0, float("nan"), 1.0, float("nan")])
    assert_same(torch.maximum(a.npu(), b.npu()), torch.maximum(a, b), equal_nan=True)
    assert_same(torch.minimum(a.npu(), b.npu()), torch.minimum(a, b), equal_nan=True)
    i = torch.randint(-100, 100, (257,), dtype=torch.int32)
    j = torch.randint(-100, 100, (257,), dtype=torch.int32)
    assert_same(torch.maximum(i.npu(), j.npu()), torch.maximum(i, j))
    assert_same(torch.minimum(i.npu(), j.npu()), torch.minimum(i, j))
    bb = torch.tensor([True, False, True])
    assert_same(torch.maximum(bb.npu(), bb.logical_not().npu()), torch.maximum(bb, bb.logical_not()))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.int64, torch.bool])
def test_where(dtype, assert_same):
    cond = rand((5, 1, 37), torch.bool, seed=12)
    a = rand((1, 3, 37), dtype, seed=13)
    b = rand((5, 3, 1), dtype, seed=14)
    assert_same(torch.where(cond.npu(), a.npu(), b.npu()), torch.where(cond, a, b))
    out_npu = torch.empty(0, dtype=dtype).npu()
    out_cpu = torch.empty(0, dtype=dtype)
    assert_same(torch.where(cond.npu(), a.npu(), b.npu(), out=out_npu), torch.where(cond, a, b, out=out_cpu))


def test_where_scalars_and_promotion(assert_same):
    x = rand((4, 6), seed=15)
    c = x > 0
    assert_same(torch.where(c.npu(), x.npu(), 0.0), torch.where(c, x, 0.0))
    assert_same(torch.where(c.npu(), 1.0, x.npu()), torch.where(c, 1.0, x))
    i = torch.arange(24).reshape(4, 6)
    assert_same(torch.where(c.npu(), i.npu(), x.npu()), torch.where(c, i, x))
    assert_same(torch.where(c.npu(), x.half().npu(), x.npu()), torch.where(c, x.half(), x))
    with pytest.raises(RuntimeError, match="bool"):
        torch.where(i.npu(), x.npu(), x.npu())


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int32, torch.bool])
def test_masked_fill(dtype, assert_same):
    x = rand((4, 33), dtype, seed=16)
    mask = rand((33,), torch.bool, seed=17)
    value = True if dtype == torch.bool else 3
    assert_same(x.npu().masked_fill(mask.npu(), value), x.masked_fill(mask, value))
    y_npu, y_cpu = x.npu().clone(), x.clone()
    y_npu.masked_fill_(mask.npu(), torch.tensor(value))  # 0-dim CPU value
    y_cpu.masked_fill_(mask, torch.tensor(value))
    assert_same(y_npu, y_cpu)
    v = torch.tensor(value, dtype=dtype)
    y_npu, y_cpu = x.npu().clone(), x.clone()
    y_npu.masked_fill_(mask.npu(), v.npu())  # 0-dim npu value, read on the device
    y_cpu.masked_fill_(mask, v)
    assert_same(y_npu, y_cpu)
    xt_npu, xt_cpu = x.t().npu(), x.t()  # non-contiguous self (a view of an npu copy)
    xt_npu = x.npu().t()
    xt_npu.masked_fill_(mask[:, None].npu(), value)
    xt_cpu.masked_fill_(mask[:, None], value)
    assert_same(xt_npu, xt_cpu)


def test_masked_fill_errors_name_the_op():
    x = torch.zeros(3, 4).npu()
    with pytest.raises(RuntimeError, match="masked_fill_ only supports boolean masks"):
        x.masked_fill_(torch.ones(3, 4, dtype=torch.int64).npu(), 1.0)
    with pytest.raises(RuntimeError, match="masked_fill_ only supports a 0-dimensional value tensor"):
        x.masked_fill_(torch.ones(3, 4, dtype=torch.bool).npu(), torch.ones(2).npu())
    with pytest.raises(RuntimeError, match="must match the size of tensor"):
        x.masked_fill_(torch.ones(5, dtype=torch.bool).npu(), 1.0)


def cpu_addcdiv(s, t1, t2, value):
    """torch.addcdiv on CPU; torch 2.1's CPU kernel lacks float16 ("addcdiv_cpu_out" not
    implemented for 'Half'), so there the CPU op runs in float32 and rounds to float16."""
    if s.dtype == torch.float16 and torch.__version__.startswith("2.1."):
        return torch.addcdiv(s.float(), t1.float(), t2.float(), value=value).half()
    return torch.addcdiv(s, t1, t2, value=value)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_addcmul_addcdiv_lerp(dtype, assert_same):
    s = rand((3, 1, 41), dtype, seed=18)
    t1 = rand((3, 5, 41), dtype, seed=19)
    t2 = rand((41,), dtype, low=0.5, high=2, seed=20)
    w = rand((3, 5, 41), dtype, low=0, high=1, seed=21)
    t = tol(dtype)
    assert_same(torch.addcmul(s.npu(), t1.npu(), t2.npu(), value=0.5), torch.addcmul(s, t1, t2, value=0.5), **t)
    assert_same(torch.addcdiv(s.npu(), t1.npu(), t2.npu(), value=-2), cpu_addcdiv(s, t1, t2, value=-2), **t)
    full = s.expand(3, 5, 41).contiguous()
    for weight in (0.1, 0.9):
        assert_same(torch.lerp(full.npu(), t1.npu(), weight), torch.lerp(full, t1, weight), **t)
    assert_same(torch.lerp(full.npu(), t1.npu(), w.npu()), torch.lerp(full, t1, w), **t)
    for op in ("addcmul_", "addcdiv_"):
        y_npu, y_cpu = full.npu().clone(), full.clone()
        getattr(y_npu, op)(t1.npu(), t2.npu(), value=0.25)
        if op == "addcdiv_":
            y_cpu = cpu_addcdiv(y_cpu, t1, t2, value=0.25)
        else:
            getattr(y_cpu, op)(t1, t2, value=0.25)
        assert_same(y_npu, y_cpu, **t)
    y_npu, y_cpu = full.npu().clone(), full.clone()
    y_npu.lerp_(t1.npu(), 0.3)
    y_cpu.lerp_(t1, 0.3)
    assert_same(y_npu, y_cpu, **t)
    i = torch.arange(12).reshape(3, 4)
    assert_same(torch.addcmul(i.npu(), i.npu(), i.npu(), value=2), torch.addcmul(i, i, i, value=2))


ACTIVATIONS = {
    "relu": torch.relu,
    "gelu": F.gelu,
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "silu": F.silu,
    "exp": torch.exp,
    "div": lambda t: t / (t * t + 1),
    "sub_where": lambda t: torch.where(t > 0, t - 1, t * 2),
    "pow": lambda t: t**3,
}


@pytest.mark.parametrize("name", list(ACTIVATIONS))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_backward_matches_cpu(name, dtype, assert_same, ledger):
    op = ACTIVATIONS[name]
    x = rand((6, 37), dtype, seed=22)
    x[0, :3] = 0  # relu's threshold
    grad = rand((6, 37), dtype, seed=23)
    a = x.clone().requires_grad_()
    b = x.npu().requires_grad_()
    op(a).backward(grad)
    op(b).backward(grad.npu())
    assert_same(b.grad, a.grad, **tol(dtype))
    counts = ledger()
    backward_ops = {"relu": "threshold_backward.grad_input", "gelu": "gelu_backward.grad_input",
                    "gelu_tanh": "gelu_backward.grad_input", "sigmoid": "sigmoid_backward.grad_input",
                    "tanh": "tanh_backward.grad_input", "silu": "silu_backward.grad_input"}
    if name in backward_ops:
        assert counts[backward_ops[name]]["op_api"] >= 1
    assert all(paths["cpu_fallback"] == 0 for paths in counts.values())


def test_backward_ops_directly(assert_same):
    g = rand((5, 9), seed=24)
    x = rand((5, 9), seed=25)
    y = torch.sigmoid(x)
    assert_same(torch.ops.aten.sigmoid_backward(g.npu(), y.npu()), torch.ops.aten.sigmoid_backward(g, y))
    assert_same(torch.ops.aten.tanh_backward(g.npu(), y.npu()), torch.ops.aten.tanh_backward(g, y))
    assert_same(torch.ops.aten.silu_backward(g.npu(), x.npu()), torch.ops.aten.silu_backward(g, x))
    assert_same(torch.ops.aten.threshold_backward(g.npu(), x.npu(), 0.5),
                torch.ops.aten.threshold_backward(g, x, 0.5))
    for approximate in ("none", "tanh"):
        assert_same(torch.ops.aten.gelu_backward(g.npu(), x.npu(), approximate=approximate),
                    torch.ops.aten.gelu_backward(g, x, approximate=approximate))


def test_paths_are_op_api(expect_paths):
    x = rand((3, 4), seed=26).npu()
    ops = ("sub.out", "div.out", "exp.out", "eq.Scalar_out", "where.self", "masked_fill_.Scalar", "relu", "gelu.out",
           "addcmul.out")
    expected = dict.fromkeys(ops, "op_api")
    with expect_paths(expected):
        _ = (x - 1) / 2
        x.exp()
        _ = x == 0
        torch.where(x > 0, x, x)
        x.clone().masked_fill_(x > 0, 0)
        torch.relu(x)
        F.gelu(x)
        torch.addcmul(x, x, x)
    assert torch.npu.path_ledger()["sub.out"]["op_api"] == 1


def test_dtype_errors_name_the_op():
    b = torch.tensor([True, False]).npu()
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors"):
        _ = b - b
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor"):
        _ = -b
    i = torch.arange(4).npu()
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed"):
        _ = i**-1
    with pytest.raises(RuntimeError, match="aclnnInplaceRelu"):
        b.relu_()
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.exp(i, out=torch.empty(4, dtype=torch.int64).npu())
