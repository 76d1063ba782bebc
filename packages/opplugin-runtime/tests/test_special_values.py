"""NaN, infinities and signed zeros through the npu kernels, each against CPU (or, where CPU's
answer depends on its own code path, against the answer of CPU's scalar path).

The sweep over every declared floating op is tests/test_opinfo.py's special-values test; these
are the cases that sweep found, written out so that each kernel rule has its own test.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

NAN, INF = float("nan"), float("inf")
VALUES = torch.tensor([NAN, INF, -INF, -0.0, 0.0, 1e-30, -1e-30, 3e38, -3e38, 1.0, -1.5, 0.5])


def same_bits(npu: torch.Tensor, cpu: torch.Tensor) -> None:
    """Equal values, NaN where CPU has NaN, and zeros of CPU's sign."""
    npu = npu.cpu()
    torch.testing.assert_close(npu, cpu, equal_nan=True, rtol=1e-5, atol=0)
    zeros = cpu == 0
    assert torch.equal(torch.signbit(npu[zeros]), torch.signbit(cpu[zeros])), (npu.tolist(), cpu.tolist())


def test_tanh_keeps_the_sign_of_zero_and_tiny_values_exact() -> None:
    same_bits(torch.tanh(VALUES.npu()), torch.tanh(VALUES))
    tiny = torch.tensor([1e-10, -1e-10, 2e-4, -2e-4])
    torch.testing.assert_close(torch.tanh(tiny.npu()).cpu(), torch.tanh(tiny), rtol=1e-6, atol=0)


@pytest.mark.parametrize("bound", [NAN, INF, -INF, -0.0, 0.0, 1.0])
def test_clamp_min_with_a_special_bound(bound: float) -> None:
    same_bits(torch.clamp_min(VALUES.npu(), bound), torch.clamp_min(VALUES, bound))


@pytest.mark.parametrize("exponent", [-1.5, 2.5, 0.5, -0.5, 3.0, -2.0, INF, -INF, NAN, 1e30, 0.0])
def test_pow_scalar_follows_std_pow(exponent: float) -> None:
    """pow(-inf, -1.5) is 0, pow(-2, inf) inf, pow(1, nan) 1, pow(-8, 1e30) inf (an even exponent) ..."""
    same_bits(torch.pow(VALUES.npu(), exponent), torch.pow(VALUES, exponent))


def test_maximum_minimum_propagate_nan_from_either_side() -> None:
    a = torch.tensor([NAN, 1.0, INF, -INF, -0.0])
    b = torch.tensor([1.0, NAN, -INF, INF, 0.0])
    for fn in (torch.maximum, torch.minimum):
        result = fn(a.npu(), b.npu()).cpu()
        assert result[:2].isnan().all()
        assert torch.equal(result[2:4], fn(a, b)[2:4])
    # two zeros: the first operand (CPU's scalar rule; IEEE leaves it open, CPU's vector lanes take the second)
    assert torch.signbit(torch.maximum(a.npu(), b.npu()).cpu()[4])
    assert not torch.signbit(torch.minimum(b.npu(), a.npu()).cpu()[4])


def test_gelu_of_infinity_is_the_limit() -> None:
    """CPU's vector path gives NaN for gelu(+inf); its scalar path (one element) and the npu give inf."""
    x = torch.tensor([INF, -INF, NAN, -0.0, 3e38])
    npu = F.gelu(x.npu()).cpu()
    scalar_path = torch.stack([F.gelu(v.reshape(1))[0] for v in x])
    same_bits(npu, scalar_path)


def test_layer_norm_of_a_row_whose_variance_overflows_is_nan() -> None:
    """A row with 3e38 has a variance past float32's range: its results are NaN, as CPU's mostly
    are (CPU's running moments give NaN or 0 by where the value sits), never silent zeros."""
    x = torch.ones(3, 8)
    x[0, 0] = 3e38
    x[1, 3] = -3e38
    cpu = F.layer_norm(x, (8,))
    npu = F.layer_norm(x.npu(), (8,)).cpu()
    assert cpu[0].isnan().all()
    assert npu[:2].isnan().all()
    torch.testing.assert_close(npu[2], cpu[2])


@pytest.mark.parametrize("eps", [NAN, -1.0])
def test_norms_take_any_eps_as_cpu(eps: float) -> None:
    # Rows with variance far from -eps (near it, 1 / sqrt(var + eps) turns rounding into any value),
    # and a constant row, whose var + eps is negative for eps = -1: NaN.
    torch.manual_seed(0)
    x = torch.randn(4, 3, 5) * 4
    x[0, 0] = 2.0
    same_bits(F.layer_norm(x.npu(), (5,), eps=eps), F.layer_norm(x, (5,), eps=eps))
    # the aten op itself (F.batch_norm refuses eps <= 0 in Python, on every device)
    npu = torch.native_batch_norm(x.npu(), None, None, None, None, True, 0.1, eps)
    cpu = torch.native_batch_norm(x, None, None, None, None, True, 0.1, eps)
    for n, c in zip(npu, cpu):
        same_bits(n, c)


@pytest.mark.parametrize("alpha,beta", [(INF, 1.0), (INF, INF), (1e-40, 1.0), (2.0, INF), (NAN, 1.0)])
def test_addmm_with_non_finite_or_tiny_alpha_is_alpha_times_product_plus_beta_self(alpha: float, beta: float) -> None:
    """The kernel folds beta / alpha into its accumulator; where that quotient is not finite the
    runtime adds beta * self in a second step, so the result is alpha * (a @ b) + beta * self."""
    torch.manual_seed(0)
    s, a, b = torch.randn(3, 4), torch.randn(3, 5), torch.randn(5, 4)
    expected = (alpha * (a.double() @ b.double()) + beta * s.double()).float()
    same_bits(torch.addmm(s.npu(), a.npu(), b.npu(), alpha=alpha, beta=beta), expected)
    expected3 = (alpha * (a.double() @ b.double()) + beta * s.double()).float().expand(2, 3, 4)
    same_bits(torch.baddbmm(s.npu(), a.expand(2, 3, 5).npu(), b.expand(2, 5, 4).npu(), alpha=alpha, beta=beta),
              expected3)


def test_bernoulli_with_a_nan_probability_faults_at_the_next_synchronisation() -> None:
    p = torch.tensor([0.5, NAN, 0.5], device="npu")
    torch.bernoulli(p)
    with pytest.raises(RuntimeError, match="probability nan of element 1 is outside"):
        torch.npu.synchronize()
    torch.npu.synchronize()  # reported once; the device is usable again
    assert torch.equal((torch.ones(2, device="npu") * 2).cpu(), torch.full((2,), 2.0))
