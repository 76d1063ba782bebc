"""Random numbers on npu: the per-device Philox generator (seed, offset) and the random
ops that run on the device through op_api (uniform_, normal_, bernoulli_, native_dropout).

Values cannot equal CPU's (a different generator): distributions are compared with CPU's,
and the deterministic parts (dropout's scaling given the mask, its backward) exactly."""

from __future__ import annotations

import threading

import pytest
import torch
import torch.nn.functional as F

FLOAT_DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.float64]
N = 200_000


def no_fallback(ledger_snapshot: dict, *ops: str, path: str = "op_api") -> None:
    """No op in the ledger fell back to the CPU, and `ops` are among them, run on `path`."""
    for op, paths in ledger_snapshot.items():
        assert paths["cpu_fallback"] == 0, (op, paths)
    for op in ops:
        assert ledger_snapshot[op][path] >= 1, (op, ledger_snapshot)


def offset_of(state: torch.Tensor) -> int:
    return int.from_bytes(bytes(state[8:].tolist()), "little")


# ---- determinism ----

@pytest.mark.parametrize("make", [
    lambda: torch.rand(1000, device="npu"),
    lambda: torch.randn(1000, device="npu"),
    lambda: torch.rand_like(torch.zeros(10, 100, device="npu")),
    lambda: torch.empty(1000, device="npu").normal_(2.0, 3.0),
    lambda: torch.empty(1000, device="npu").uniform_(-1.0, 5.0),
    lambda: torch.empty(1000, device="npu").bernoulli_(0.3),
    lambda: torch.bernoulli(torch.full((1000,), 0.6, device="npu")),
    lambda: F.dropout(torch.ones(1000, device="npu"), 0.5, training=True),
], ids=["rand", "randn", "rand_like", "normal_", "uniform_", "bernoulli_float", "bernoulli", "dropout"])
def test_same_seed_same_values_and_successive_draws_differ(ledger, make):
    torch.npu.manual_seed(1234)
    first, second = make().cpu(), make().cpu()
    torch.npu.manual_seed(1234)
    assert torch.equal(make().cpu(), first)
    torch.npu.manual_seed(4321)
    other = make().cpu()
    # two-valued ops (bernoulli, dropout) agree on about half the elements by chance
    assert (first == second).float().mean() < 0.75
    assert (first == other).float().mean() < 0.75
    no_fallback(ledger())


def test_rng_state_is_seed_and_offset_and_replays():
    torch.npu.manual_seed(0x0102030405)
    state = torch.npu.get_rng_state()
    assert state.dtype == torch.uint8 and state.shape == (16,)
    assert int.from_bytes(bytes(state[:8].tolist()), "little") == 0x0102030405
    assert offset_of(state) == 0
    torch.rand(10, device="npu")
    torch.randn(10, device="npu")
    assert offset_of(torch.npu.get_rng_state()) == 2  # one offset per launch
    saved = torch.npu.get_rng_state()
    a = torch.randn(50, device="npu").cpu()
    torch.npu.set_rng_state(saved)
    assert torch.equal(torch.randn(50, device="npu").cpu(), a)
    assert torch.npu.initial_seed() == 0x0102030405
    with pytest.raises(RuntimeError, match="16 bytes"):
        torch.npu.set_rng_state(torch.zeros(5, dtype=torch.uint8))


def test_manual_seed_all_seed_and_torch_manual_seed_reach_every_device():
    torch.manual_seed(99)
    a0 = torch.rand(100, device="npu:0").cpu()
    a1 = torch.rand(100, device="npu:1").cpu()
    torch.npu.manual_seed_all(99)
    assert torch.equal(torch.rand(100, device="npu:0").cpu(), a0)
    assert torch.equal(torch.rand(100, device="npu:1").cpu(), a1)
    # same seed and offset give the same values on either device (counter-based)
    assert torch.equal(a0, a1)
    torch.npu.seed()
    assert torch.npu.initial_seed() != 99


def test_devices_have_independent_generators():
    torch.npu.manual_seed_all(5)
    state1 = torch.npu.get_rng_state(1)
    for _ in range(3):
        torch.rand(10, device="npu:0")
    assert torch.equal(torch.npu.get_rng_state(1), state1)  # npu:1 untouched
    with torch.npu.device(1):
        torch.npu.manual_seed(77)
    assert torch.npu.default_generator(1).initial_seed() == 77
    assert torch.npu.default_generator(0).initial_seed() == 5
    x1 = torch.rand(100, device="npu:1").cpu()
    torch.npu.set_rng_state(torch.npu.get_rng_state(0), "npu:1")
    torch.npu.manual_seed(77)  # the current device, npu:0
    assert torch.equal(torch.rand(100, device="npu:0").cpu(), x1)


def test_generator_argument():
    g = torch.Generator(device="npu")
    g.manual_seed(2024)
    default_state = torch.npu.get_rng_state()
    a = torch.randn(64, device="npu", generator=g).cpu()
    b = torch.empty(64, device="npu").uniform_(generator=g).cpu()
    assert torch.equal(torch.npu.get_rng_state(), default_state)  # the default generator is not used
    assert offset_of(g.get_state()) == 2
    g.manual_seed(2024)
    assert torch.equal(torch.randn(64, device="npu", generator=g).cpu(), a)
    assert torch.equal(torch.empty(64, device="npu").uniform_(generator=g).cpu(), b)
    g1 = torch.Generator(device="npu:1").manual_seed(2024)
    assert torch.equal(torch.randn(64, device="npu:1", generator=g1).cpu(), a)
    with pytest.raises(RuntimeError, match="expected a generator for device type npu"):
        torch.empty(4, device="npu").normal_(generator=torch.Generator().manual_seed(1))


def test_generator_is_thread_safe():
    gen = torch.Generator(device="npu").manual_seed(3)
    results: list[torch.Tensor] = []
    lock = threading.Lock()

    def draw() -> None:
        for _ in range(25):
            x = torch.rand(8, device="npu", generator=gen).cpu()
            with lock:
                results.append(x)

    threads = [threading.Thread(target=draw) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert offset_of(gen.get_state()) == 100  # every launch reserved its own offset
    assert len({tuple(r.tolist()) for r in results}) == 100


# ---- distributions against CPU ----

@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_uniform_matches_cpu_distribution(ledger, dtype):
    torch.manual_seed(11)
    npu = torch.empty(N, device="npu", dtype=dtype).uniform_(-2.0, 3.0).cpu().double()
    cpu = torch.empty(N, dtype=dtype).uniform_(-2.0, 3.0).double()
    assert npu.min() >= -2.0 and npu.max() < 3.0
    sigma = 5 / 12 ** 0.5
    assert abs(npu.mean() - cpu.mean()) < 7 * sigma / N ** 0.5
    assert abs(npu.std() - cpu.std()) < 0.01 * sigma
    hist_npu = torch.histc(npu, bins=10, min=-2.0, max=3.0)
    hist_cpu = torch.histc(cpu, bins=10, min=-2.0, max=3.0)
    assert (hist_npu - hist_cpu).abs().max() < 7 * (N / 10) ** 0.5
    no_fallback(ledger(), "uniform_")


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_normal_matches_cpu_distribution(ledger, dtype):
    torch.manual_seed(12)
    npu = torch.randn(N, device="npu", dtype=dtype).cpu().double() * 2 + 1
    cpu = torch.randn(N, dtype=dtype).double() * 2 + 1
    assert abs(npu.mean() - cpu.mean()) < 7 * 2 / N ** 0.5
    assert abs(npu.std() - cpu.std()) < 0.02
    tail_npu = ((npu - 1).abs() > 4).double().mean()
    tail_cpu = ((cpu - 1).abs() > 4).double().mean()
    assert abs(tail_npu - tail_cpu) < 0.004
    moved = torch.empty(N, device="npu", dtype=dtype).normal_(-3.0, 0.5).cpu().double()
    assert abs(moved.mean() + 3.0) < 0.01 and abs(moved.std() - 0.5) < 0.01
    no_fallback(ledger(), "normal_")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64, torch.int64, torch.bool])
def test_bernoulli_frequencies_match_cpu(ledger, dtype):
    torch.manual_seed(13)
    npu = torch.empty(N, device="npu", dtype=dtype).bernoulli_(0.3).cpu()
    cpu_dtype = torch.float32 if dtype == torch.float16 else dtype  # torch 2.1's CPU has no Half bernoulli_
    cpu = torch.empty(N, dtype=cpu_dtype).bernoulli_(0.3)
    assert set(npu.unique().double().tolist()) == {0.0, 1.0}
    bound = 7 * (0.21 / N) ** 0.5
    assert abs(npu.double().mean() - cpu.double().mean()) < bound
    assert not torch.empty(100, device="npu", dtype=dtype).bernoulli_(0.0).cpu().any()
    assert torch.empty(100, device="npu", dtype=dtype).bernoulli_(1.0).cpu().all()
    no_fallback(ledger(), "bernoulli_.float")


def test_bernoulli_with_tensor_probabilities(ledger):
    p = torch.tensor([0.0, 0.25, 0.5, 0.9, 1.0])
    rows = 40_000
    npu = torch.bernoulli(p.npu().expand(rows, 5)).cpu()
    cpu = torch.bernoulli(p.expand(rows, 5))
    assert npu.dtype == cpu.dtype == torch.float32
    torch.testing.assert_close(npu.mean(0), cpu.mean(0), atol=7 * (0.25 / rows) ** 0.5, rtol=0)
    target = torch.empty(rows, 5, device="npu", dtype=torch.float16).bernoulli_(p.npu())  # broadcast p
    torch.testing.assert_close(target.cpu().float().mean(0), p, atol=7 * (0.25 / rows) ** 0.5, rtol=0)
    no_fallback(ledger(), "bernoulli_.Tensor")


def test_random_ops_write_strided_views():
    base = torch.zeros(64, 32, device="npu")
    base.t().uniform_(5.0, 6.0)
    base[:, ::2].normal_(100.0, 1.0)
    values = base.cpu()
    assert (values[:, 1::2] >= 5).all() and (values[:, 1::2] < 6).all()
    assert (values[:, ::2] > 80).all()


@pytest.mark.parametrize("call", [
    lambda t: t.uniform_(3.0, 2.0),
    lambda t: t.normal_(0.0, -1.0),
    lambda t: t.bernoulli_(1.5),
], ids=["uniform_", "normal_", "bernoulli_"])
def test_argument_errors_match_cpu(call):
    with pytest.raises(RuntimeError) as cpu_error:
        call(torch.empty(4))
    with pytest.raises(RuntimeError) as npu_error:
        call(torch.empty(4, device="npu"))
    assert str(cpu_error.value).split("\n")[0] in str(npu_error.value)


# ---- dropout ----

@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("p", [0.2, 0.5, 0.9])
def test_native_dropout_scales_by_its_mask_like_cpu(ledger, dtype, p):
    x_cpu = torch.randn(300, 200).to(dtype)
    out, mask = torch.native_dropout(x_cpu.npu(), p, True)
    assert mask.dtype == torch.bool and mask.shape == x_cpu.shape and mask.device.type == "npu"
    # CPU's own formula (native_dropout_cpu: input.mul(mask).mul_(scale)) with the npu mask
    expected = x_cpu.mul(mask.cpu()).mul_(1 / (1 - p))
    assert out.dtype == dtype
    assert torch.equal(out.cpu(), expected)
    keep = mask.cpu().double().mean()
    assert abs(keep - (1 - p)) < 7 * (p * (1 - p) / x_cpu.numel()) ** 0.5
    no_fallback(ledger(), "native_dropout")


def test_dropout_edge_probabilities_and_eval_mode(ledger):
    x = torch.randn(1000).npu()
    out, mask = torch.native_dropout(x, 1.0, True)
    assert not mask.cpu().any() and not out.cpu().any()
    out, mask = torch.native_dropout(x, 0.0, True)
    assert mask.cpu().all() and torch.equal(out.cpu(), x.cpu())
    out, mask = torch.native_dropout(x, 0.5, False)
    assert mask.cpu().all() and torch.equal(out.cpu(), x.cpu())
    torch.npu.reset_path_ledger()
    assert F.dropout(x, 0.5, training=False) is x  # eval: identity, no kernel at all
    assert ledger() == {}


def test_dropout_backward_matches_the_cpu_formula(ledger):
    x_cpu = torch.randn(50, 40)
    x = x_cpu.npu().requires_grad_(True)
    out, mask = torch.native_dropout(x, 0.3, True)
    grad = torch.randn(50, 40)
    out.backward(grad.npu())
    expected = torch.ops.aten.native_dropout_backward(grad, mask.cpu(), 1 / 0.7)
    assert torch.equal(x.grad.cpu(), expected)
    direct = torch.ops.aten.native_dropout_backward(grad.npu(), mask, 2.5)
    assert torch.equal(direct.cpu(), torch.ops.aten.native_dropout_backward(grad, mask.cpu(), 2.5))
    # a non-bool mask is accepted as on CPU (grad * mask * scale)
    float_mask = torch.rand(50, 40)
    assert torch.equal(torch.ops.aten.native_dropout_backward(grad.npu(), float_mask.npu(), 2.5).cpu(),
                       torch.ops.aten.native_dropout_backward(grad, float_mask, 2.5))
    no_fallback(ledger(), "native_dropout", "native_dropout_backward")


def test_nn_dropout_module_trains_and_evaluates(ledger):
    model = torch.nn.Sequential(torch.nn.Dropout(0.25)).npu()
    x = torch.randn(100, 100).npu().requires_grad_(True)
    model.train()
    y = model(x)
    kept = y.cpu() != 0
    assert abs(kept.double().mean() - 0.75) < 0.03
    assert torch.equal(y.cpu()[kept], x.detach().cpu()[kept] * (1 / 0.75))
    y.backward(torch.ones(100, 100).npu())
    assert torch.equal(x.grad.cpu(), kept.float() * (1 / 0.75))
    model.eval()
    assert torch.equal(model(x).detach().cpu(), x.detach().cpu())
    no_fallback(ledger(), "native_dropout", "native_dropout_backward")


# ---- further distributions: exponential_, cauchy_, log_normal_, geometric_, random_ ----

def _two_sample_close(npu: torch.Tensor, cpu: torch.Tensor, quantiles=(0.1, 0.25, 0.5, 0.75, 0.9)) -> None:
    """The quantiles of two samples of one distribution agree (a few standard errors)."""
    q = torch.tensor(quantiles, dtype=torch.float64)
    a, b = torch.quantile(npu[:100_000], q), torch.quantile(cpu[:100_000], q)
    spread = (torch.quantile(cpu[:100_000], torch.tensor([0.9], dtype=torch.float64))
              - torch.quantile(cpu[:100_000], torch.tensor([0.1], dtype=torch.float64))).abs()
    assert ((a - b).abs() < 0.03 * spread + 1e-3).all(), (a, b)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("name,call", [
    ("exponential_", lambda t: t.exponential_(1.5)),
    ("cauchy_", lambda t: t.cauchy_(0.5, 2.0)),
    ("log_normal_", lambda t: t.log_normal_(0.3, 0.4)),
    ("geometric_", lambda t: t.geometric_(0.3)),
])
def test_continuous_distributions_match_cpu(ledger, dtype, name, call):
    torch.manual_seed(21)
    npu = call(torch.empty(N, device="npu", dtype=dtype)).cpu().double()
    cpu_dtype = torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype
    cpu = call(torch.empty(N, dtype=cpu_dtype)).to(dtype).double()
    if name != "cauchy_":  # Cauchy's tails overflow float16 as on CPU
        assert torch.isfinite(npu).all()
    if name == "geometric_":  # discrete: quantiles sit on integers, compare the moments
        assert npu.min() >= 1 and torch.equal(npu, npu.round())
        assert abs(npu.mean() - cpu.mean()) < 7 * (0.7 / 0.09 / N) ** 0.5
        assert abs(npu.var() / cpu.var() - 1) < 0.05
    else:
        _two_sample_close(npu, cpu)
    if name in ("exponential_", "log_normal_"):
        assert npu.min() >= 0
    no_fallback(ledger(), name)


@pytest.mark.parametrize("dtype,low,high", [(torch.int64, -3, 7), (torch.uint8, 0, 256), (torch.int16, -100, 100),
                                            (torch.float32, 0, 17), (torch.bfloat16, -8, 8), (torch.bool, 0, 2)])
@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_randint_covers_its_range_uniformly(ledger, dtype, low, high, path):
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    npu = torch.randint(low, high, (N,), device="npu", dtype=dtype).cpu()
    assert npu.dtype == dtype
    values = npu.to(torch.int64)
    assert values.min() == low and values.max() == high - 1
    counts = torch.bincount(values - low, minlength=high - low).double()
    expected = N / (high - low)
    assert (counts - expected).abs().max() < 7 * expected ** 0.5
    no_fallback(ledger(), "random_.from", path=path)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("low,high", [(2 ** 60, 2 ** 60 + 3), (-2 ** 62, 2 ** 62 + 5), (-2 ** 63, None)],
                         ids=["far_from_zero", "wider_than_2_62", "all_of_int64"])
def test_random_int64_ranges_stay_inside_and_reach_both_ends(ledger, path, low, high):
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    values = torch.empty(N, device="npu", dtype=torch.int64).random_(low, high).cpu()
    last = (high if high is not None else 2 ** 63) - 1
    assert values.min() >= low and values.max() <= last
    if last - low < 16:  # a narrow range: every value, evenly
        counts = torch.bincount(values - low, minlength=last - low + 1).double()
        assert (counts - N / counts.numel()).abs().max() < 7 * (N / counts.numel()) ** 0.5
    else:  # a wide one: spread over it (both tenths reached)
        assert values.min() < low + (last - low) // 10 and values.max() > last - (last - low) // 10
    no_fallback(ledger(), "random_.from", path=path)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_random_from_int64_lowest_draws_every_int64_for_any_dtype(ledger, path):
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    cpu = torch.empty(N, dtype=torch.float32).random_(-2 ** 63, None)
    npu = torch.empty(N, device="npu", dtype=torch.float32).random_(-2 ** 63, None).cpu()
    for values in (cpu, npu):  # CPU's: the full 64-bit range, then cast
        assert values.min() < -2 ** 62 and values.max() > 2 ** 62
    no_fallback(ledger(), "random_.from", path=path)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_random_without_bounds_uses_the_dtypes_range(ledger, path):
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    u8 = torch.empty(N, device="npu", dtype=torch.uint8).random_().cpu().to(torch.int64)
    assert u8.min() == 0 and u8.max() == 255
    half = torch.empty(N, device="npu", dtype=torch.float16).random_().cpu().double()
    assert half.min() >= 0 and half.max() <= 2 ** 11 and torch.equal(half, half.round())
    to = torch.empty(N, device="npu", dtype=torch.int32).random_(5).cpu()
    assert set(to.unique().tolist()) == {0, 1, 2, 3, 4}
    no_fallback(ledger(), "random_", "random_.to", path=path)


@pytest.mark.parametrize("call", [
    lambda t: t.exponential_(-1.0),
    lambda t: t.cauchy_(0.0, 0.0),
    lambda t: t.log_normal_(0.0, -2.0),
    lambda t: t.geometric_(1.5),
    lambda t: t.random_(5, 5),
    lambda t: t.to(torch.uint8).random_(300, None),
], ids=["exponential_", "cauchy_", "log_normal_", "geometric_", "random_", "random_from_out_of_bounds"])
@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_distribution_argument_errors_match_cpu(call, path):
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    with pytest.raises(RuntimeError) as cpu_error:
        call(torch.empty(4))
    with pytest.raises(RuntimeError) as npu_error:
        call(torch.empty(4, device="npu"))
    assert str(cpu_error.value).split("\n")[0] in str(npu_error.value)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_normal_with_tensor_moments_matches_cpu(ledger, path):
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    torch.manual_seed(31)
    mean = torch.linspace(-3, 3, 7).repeat(20_000, 1)
    std = torch.linspace(0.5, 2, 7)
    npu = torch.normal(mean.npu(), std.npu()).cpu().double()
    cpu = torch.normal(mean, std).double()
    assert npu.shape == cpu.shape == (20_000, 7)
    torch.testing.assert_close(npu.mean(0), cpu.mean(0), atol=7 * 2 / 20_000 ** 0.5, rtol=0)
    torch.testing.assert_close(npu.std(0), std.double(), atol=0.05, rtol=0)
    scalar_std = torch.normal(mean.npu(), 0.25).cpu().double()
    torch.testing.assert_close(scalar_std.std(0), torch.full((7,), 0.25, dtype=torch.float64), atol=0.01, rtol=0)
    scalar_mean = torch.normal(2.0, std.npu().repeat(20_000, 1)).cpu().double()
    torch.testing.assert_close(scalar_mean.mean(0), torch.full((7,), 2.0, dtype=torch.float64), atol=0.05, rtol=0)
    ran = ledger()
    assert not any(paths["cpu_fallback"] for paths in ran.values()), ran
    for op in ("normal.Tensor_Tensor", "normal.Tensor_float", "normal.float_Tensor"):
        assert ran[op][path] >= 1, (op, ran[op])


@pytest.mark.parametrize("replacement", [True, False])
def test_multinomial_frequencies_match_the_weights(ledger, replacement):
    weights = torch.tensor([[0.0, 1.0, 3.0, 6.0], [5.0, 0.0, 0.0, 5.0]])
    draws = torch.multinomial(weights.npu(), 1, replacement=replacement)
    assert draws.shape == (2, 1) and draws.dtype == torch.int64
    many = torch.multinomial(weights.npu().repeat(10_000, 1), 2 if not replacement else 5,
                             replacement=replacement).cpu()
    first = many[0::2, 0]
    freq = torch.bincount(first, minlength=4).double() / first.numel()
    torch.testing.assert_close(freq, torch.tensor([0.0, 0.1, 0.3, 0.6], dtype=torch.float64), atol=0.02, rtol=0)
    if not replacement:  # two distinct categories per row
        assert (many[:, 0] != many[:, 1]).all()
        assert set(many[1::2].reshape(-1).tolist()) == {0, 3}
    no_fallback(ledger(), "multinomial")


def test_randperm_is_a_permutation_and_reproducible(ledger):
    torch.npu.manual_seed(5)
    p = torch.randperm(1000, device="npu")
    assert p.dtype == torch.int64
    assert torch.equal(p.cpu().sort().values, torch.arange(1000))
    torch.npu.manual_seed(5)
    assert torch.equal(torch.randperm(1000, device="npu").cpu(), p.cpu())
    assert not torch.equal(torch.randperm(1000, device="npu").cpu(), p.cpu())
    as_float = torch.randperm(50, device="npu", dtype=torch.float32).cpu()
    assert torch.equal(as_float.sort().values, torch.arange(50, dtype=torch.float32))
    no_fallback(ledger(), "randperm.generator_out")
