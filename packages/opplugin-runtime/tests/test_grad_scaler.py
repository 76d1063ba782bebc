"""Gradient scaling on npu: the two ATen ops GradScaler runs (torch._amp_foreach_non_finite_check_and_unscale_
and torch._amp_update_scale_, npu kernels on the op_api path) against the CPU's and against their definition;
torch.npu.amp.GradScaler and torch.amp.GradScaler("npu") skipping a step on inf/NaN and backing off, growing
after growth_interval good steps, static scaling; and the MLP of examples/npu_models.py trained under autocast
with a GradScaler on npu against the same loop under CPU autocast.
"""

from __future__ import annotations

import math
import warnings

import npu_models  # examples/npu_models.py (the conftest puts examples/ on sys.path)
import pytest
import torch

HAS_AMP_GRAD_SCALER = hasattr(torch.amp, "GradScaler")
NO_AMP_GRAD_SCALER = "torch.amp.GradScaler (device-generic, torch >= 2.3) is absent in this torch"
CPU_HAS_AMP_OPS = torch._C._dispatch_has_kernel_for_dispatch_key("aten::_amp_update_scale_", "CPU")


@pytest.fixture
def no_fallback():
    torch.npu.set_fallback_mode("error")
    yield
    torch.npu.set_fallback_mode("silent")


def _reference_unscale(grads: list[torch.Tensor], found_inf: torch.Tensor, inv_scale: torch.Tensor) -> None:
    """The op's definition (CUDA's): every gradient times inv_scale in its own dtype; found_inf = 1 on inf/NaN."""
    for g in grads:
        if not torch.isfinite(g).all():
            found_inf.fill_(1.0)
        g.copy_((g.double() * inv_scale.double()).to(torch.float32).to(g.dtype) if g.dtype != torch.float64
                else g * inv_scale.double())


def _grads(seed: int) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    return [
        torch.randn(300, generator=g) * 1000,
        torch.randn(7, 9, generator=g).to(torch.float16),
        torch.randn(33, generator=g).to(torch.bfloat16),
        torch.randn(5, 3, generator=g).double(),
        torch.randn(6, 4, generator=g).t(),  # not contiguous
        torch.empty(0),
    ]


@pytest.mark.parametrize("poison", [None, math.inf, -math.inf, math.nan], ids=["finite", "inf", "-inf", "nan"])
def test_non_finite_check_and_unscale_matches_cpu(no_fallback, ledger, poison):
    cpu = _grads(0)
    if poison is not None:
        cpu[2][17] = poison  # a bfloat16 gradient, in the middle of the list
    npu = [g.npu() for g in cpu]
    npu[4] = cpu[4].t().contiguous().npu().t()  # keep the transposed layout on the device
    found_inf, inv_scale = torch.zeros(()).npu(), torch.full((), 1 / 1024).npu()
    torch._amp_foreach_non_finite_check_and_unscale_(npu, found_inf, inv_scale)
    expected_found = torch.zeros(())
    _reference_unscale(cpu, expected_found, torch.full((), 1 / 1024))
    assert found_inf.item() == expected_found.item() == (0.0 if poison is None else 1.0)
    for got, want in zip(npu, cpu):
        assert got.dtype == want.dtype and got.device.type == "npu"
        torch.testing.assert_close(got.cpu(), want, rtol=0, atol=0, equal_nan=True)
    assert not npu[4].is_contiguous()
    assert ledger()["_amp_foreach_non_finite_check_and_unscale_"]["op_api"] == 1


@pytest.mark.skipif(not CPU_HAS_AMP_OPS, reason="this torch has no CPU kernels of the _amp ops to compare with")
def test_non_finite_check_and_unscale_agrees_with_the_cpu_kernel(no_fallback):
    cpu = _grads(1)[:4]
    cpu[0][3] = math.inf
    npu = [g.npu() for g in cpu]
    found_npu, found_cpu = torch.zeros(()).npu(), torch.zeros(())
    torch._amp_foreach_non_finite_check_and_unscale_(npu, found_npu, torch.full((), 0.25).npu())
    torch._amp_foreach_non_finite_check_and_unscale_(cpu, found_cpu, torch.full((), 0.25))
    assert found_npu.item() == found_cpu.item() == 1.0
    for got, want in zip(npu, cpu):
        torch.testing.assert_close(got.cpu(), want, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=str)
@pytest.mark.parametrize("where", [0, 777_777, 2_000_000 - 1], ids=["first", "middle", "last"])
def test_non_finite_check_finds_one_inf_anywhere_in_a_large_gradient(no_fallback, dtype, where):
    """A gradient large enough to be split over the simulated cores and into many unified-buffer tiles."""
    grad = torch.randn(2_000_000, generator=torch.Generator().manual_seed(where)).to(dtype)
    grad[where] = -math.inf
    npu = grad.npu()
    found_inf = torch.zeros(()).npu()
    torch._amp_foreach_non_finite_check_and_unscale_([npu], found_inf, torch.full((), 0.5).npu())
    assert found_inf.item() == 1.0
    torch.testing.assert_close(npu.cpu(), grad * 0.5, rtol=0, atol=0)
    clean = torch.zeros(()).npu()
    torch._amp_foreach_non_finite_check_and_unscale_([npu[where + 1:] if where + 1 < npu.numel() else npu[:where]],
                                                     clean, torch.full((), 1.0).npu())
    assert clean.item() == 0.0


def test_found_inf_is_only_ever_set(no_fallback):
    grads = [torch.ones(4).npu()]
    found_inf = torch.ones(()).npu()  # an earlier group of this step found an inf
    torch._amp_foreach_non_finite_check_and_unscale_(grads, found_inf, torch.full((), 0.5).npu())
    assert found_inf.item() == 1.0
    assert torch.equal(grads[0].cpu(), torch.full((4,), 0.5))
    torch._amp_foreach_non_finite_check_and_unscale_([], found_inf, torch.full((), 0.5).npu())


def test_non_finite_check_rejects_bad_arguments(no_fallback):
    inv, found = torch.ones(()).npu(), torch.zeros(()).npu()
    op = torch._amp_foreach_non_finite_check_and_unscale_
    with pytest.raises(RuntimeError, match=r"check_and_unscale_: scaled_grads\[1\] has dtype Int"):
        op([torch.ones(2).npu(), torch.ones(2, dtype=torch.int32).npu()], found, inv)
    with pytest.raises(RuntimeError, match="inv_scale must be a 1-element tensor"):
        op([torch.ones(2).npu()], found, torch.ones(2).npu())
    with pytest.raises(RuntimeError, match="found_inf must be a float tensor"):
        op([torch.ones(2).npu()], torch.zeros((), dtype=torch.float16).npu(), inv)


def _reference_update(scale: float, tracker: int, found_inf: float, growth: float, backoff: float,
                      interval: int) -> tuple[float, int]:
    if found_inf:
        return float(torch.tensor(scale * backoff, dtype=torch.float32)), 0
    if tracker + 1 == interval:
        grown = float(torch.tensor(scale * growth, dtype=torch.float32))
        return (grown if math.isfinite(grown) else scale), 0
    return scale, tracker + 1


def test_update_scale_matches_its_definition_and_cpu(no_fallback, ledger):
    steps = [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    scale, tracker = torch.full((), 1024.0).npu(), torch.zeros((), dtype=torch.int32).npu()
    cpu_scale, cpu_tracker = torch.full((), 1024.0), torch.zeros((), dtype=torch.int32)
    want = (1024.0, 0)
    for found in steps:
        returned = torch._amp_update_scale_(scale, tracker, torch.full((), found).npu(), 2.0, 0.5, 3)
        assert returned.data_ptr() == scale.data_ptr()
        want = _reference_update(*want, found, 2.0, 0.5, 3)
        assert (scale.item(), tracker.item()) == want
        if CPU_HAS_AMP_OPS:
            torch._amp_update_scale_(cpu_scale, cpu_tracker, torch.full((), found), 2.0, 0.5, 3)
            assert (cpu_scale.item(), cpu_tracker.item()) == want
    assert ledger()["_amp_update_scale_"]["op_api"] == len(steps)


def test_update_scale_keeps_a_scale_whose_growth_overflows(no_fallback):
    big = torch.finfo(torch.float32).max / 1.5
    scale, tracker = torch.full((), big).npu(), torch.zeros((), dtype=torch.int32).npu()
    torch._amp_update_scale_(scale, tracker, torch.zeros(()).npu(), 2.0, 0.5, 1)
    assert scale.item() == torch.tensor(big).item() and tracker.item() == 0


def test_update_scale_rejects_bad_arguments(no_fallback):
    scale, found = torch.ones(()).npu(), torch.zeros(()).npu()
    with pytest.raises(RuntimeError, match="_amp_update_scale_: growth_tracker must be an int tensor"):
        torch._amp_update_scale_(scale, torch.zeros(()).npu(), found, 2.0, 0.5, 3)
    with pytest.raises(RuntimeError, match="_amp_update_scale_: current_scale must be a 1-element tensor"):
        torch._amp_update_scale_(torch.ones(2).npu(), torch.zeros((), dtype=torch.int32).npu(), found, 2.0, 0.5, 3)


def _scalers() -> list:
    made = [pytest.param(lambda **kw: torch.npu.amp.GradScaler(**kw), id="torch.npu.amp.GradScaler")]
    made.append(pytest.param(lambda **kw: torch.amp.GradScaler("npu", **kw), id="torch.amp.GradScaler-npu",
                             marks=pytest.mark.skipif(not HAS_AMP_GRAD_SCALER, reason=NO_AMP_GRAD_SCALER)))
    return made


def _one_step(scaler, model: torch.nn.Linear, opt: torch.optim.Optimizer, poison: float | None = None) -> None:
    opt.zero_grad()
    with torch.autocast("npu", dtype=torch.float16):
        loss = model(torch.ones(2, 4).npu()).float().sum()
    scaler.scale(loss).backward()
    if poison is not None:
        model.weight.grad[0, 0] = poison
    scaler.step(opt)
    scaler.update()


@pytest.mark.parametrize("make", _scalers())
@pytest.mark.parametrize("poison", [math.inf, math.nan], ids=["inf", "nan"])
def test_scaler_skips_a_non_finite_step_and_backs_off(no_fallback, make, poison):
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 3).npu()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = make(init_scale=2.0**10, growth_interval=2)
    before = [p.detach().cpu().clone() for p in model.parameters()]
    _one_step(scaler, model, opt, poison=poison)
    for p, b in zip(model.parameters(), before):
        assert torch.equal(p.detach().cpu(), b)  # the step was skipped
    assert scaler.get_scale() == 2.0**9
    assert scaler._get_growth_tracker() == 0
    assert scaler._scale.device.type == "npu" and scaler._growth_tracker.device.type == "npu"
    _one_step(scaler, model, opt)
    assert not all(torch.equal(p.detach().cpu(), b) for p, b in zip(model.parameters(), before))
    assert scaler.get_scale() == 2.0**9 and scaler._get_growth_tracker() == 1
    _one_step(scaler, model, opt)
    assert scaler.get_scale() == 2.0**10 and scaler._get_growth_tracker() == 0  # grown after 2 good steps


@pytest.mark.parametrize("make", _scalers())
def test_scaler_step_applies_unscaled_gradients(no_fallback, make):
    torch.manual_seed(0)
    cpu_model = torch.nn.Linear(4, 3)
    npu_model = torch.nn.Linear(4, 3).npu()
    npu_model.load_state_dict(cpu_model.state_dict())
    scaler = make(init_scale=2.0**12)
    npu_opt = torch.optim.SGD(npu_model.parameters(), lr=0.1)
    cpu_opt = torch.optim.SGD(cpu_model.parameters(), lr=0.1)
    x = torch.randn(5, 4)
    npu_opt.zero_grad()
    scaler.scale(npu_model(x.npu()).pow(2).sum()).backward()
    scaler.unscale_(npu_opt)  # unscaled in place, as torch.cuda's
    cpu_model(x).pow(2).sum().backward()
    for p, q in zip(npu_model.parameters(), cpu_model.parameters()):
        torch.testing.assert_close(p.grad.cpu(), q.grad, rtol=1e-5, atol=1e-5)
    scaler.step(npu_opt)
    scaler.update()
    cpu_opt.step()
    for p, q in zip(npu_model.parameters(), cpu_model.parameters()):
        torch.testing.assert_close(p.detach().cpu(), q.detach(), rtol=1e-5, atol=1e-5)


def test_static_scaler_never_skips_nor_moves_the_scale(no_fallback):
    model = torch.nn.Linear(4, 3).npu()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.npu.amp.GradScaler(init_scale=128.0, growth_interval=1, dynamic=False)
    before = model.weight.detach().cpu().clone()
    _one_step(scaler, model, opt)
    _one_step(scaler, model, opt)
    assert scaler.get_scale() == 128.0
    assert not torch.equal(model.weight.detach().cpu(), before)
    state = scaler.state_dict()
    assert state["dynamic"] is False and state["scale"] == 128.0
    other = torch.npu.amp.GradScaler()
    other.load_state_dict(state)
    assert other._dynamic is False and other._init_scale == 128.0


def test_scaler_new_scale_and_refusals(no_fallback):
    scaler = torch.npu.amp.GradScaler(init_scale=8.0)
    with pytest.raises(ValueError, match="npu device"):
        scaler.scale(torch.ones(2))
    scaled = scaler.scale([torch.ones(2).npu(), (torch.ones(1).npu(),)])
    assert scaled[0].cpu().tolist() == [8.0, 8.0] and scaled[1][0].cpu().tolist() == [8.0]
    scaler.update(new_scale=4.0)
    assert scaler.get_scale() == 4.0
    scaler.update(new_scale=torch.full((), 2.0).npu())
    assert scaler.get_scale() == 2.0
    with pytest.raises(TypeError, match="npu float tensor"):
        scaler.update(new_scale=torch.full((), 2.0))
    with pytest.raises(ValueError, match=r"growth factor must be > 1\.0"):
        torch.npu.amp.GradScaler(growth_factor=1.0)
    with pytest.raises(ValueError, match=r"backoff factor must be < 1\.0"):
        torch.npu.amp.GradScaler(backoff_factor=1.0)
    disabled = torch.npu.amp.GradScaler(enabled=False)
    assert disabled.scale(torch.ones(1)).tolist() == [1.0]


STEPS = 20
# Per-step loss of the MLP (20 SGD steps) under npu autocast vs CPU autocast in the same dtype, relative. Both
# round the matmuls' inputs and outputs to the dtype and differ in summation order and in where CPU's autocast
# lists differ from torch_npu's; measured: at most 7e-5 (float16) and 6e-4 (bfloat16). The tolerance is 3x that.
# Where CPU autocast does not take the dtype (float16 on torch 2.1) the reference is the CPU's float32 loop:
# measured 8e-5 from the npu's float16 loop, tolerance 3e-4.
AMP_TOLERANCE = {torch.float16: 2e-4, torch.bfloat16: 2e-3}
FLOAT32_REFERENCE_TOLERANCE = {torch.float16: 3e-4}


def _cpu_autocast_supports(dtype: torch.dtype) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch 2.1 warns before it raises
        try:
            with torch.autocast("cpu", dtype=dtype):
                pass
        except RuntimeError:
            return False
    return True


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_mlp_trains_under_autocast_and_grad_scaler_like_cpu(dtype):
    cpu_amp = _cpu_autocast_supports(dtype)
    if not cpu_amp and dtype not in FLOAT32_REFERENCE_TOLERANCE:
        pytest.fail(f"no CPU reference for {dtype}")
    task = npu_models.TASKS["mlp"]
    cpu_model, npu_model = npu_models.same_start(task)
    batches = task.data(STEPS)
    cpu = npu_models.train(cpu_model, "sgd", batches, task.loss, "cpu", amp=dtype if cpu_amp else None)
    torch.npu.set_fallback_mode("error")
    try:
        torch.npu.reset_path_ledger()
        npu = npu_models.train(npu_model, "sgd", batches, task.loss, "npu", amp=dtype)
        ledger = torch.npu.path_ledger()
    finally:
        torch.npu.set_fallback_mode("silent")
    assert ledger["_amp_foreach_non_finite_check_and_unscale_"]["op_api"] == STEPS
    assert ledger["_amp_update_scale_"]["op_api"] == STEPS
    assert ledger["mm"]["op_api"] + ledger.get("addmm", {}).get("op_api", 0) >= STEPS
    torch.testing.assert_close(torch.tensor(npu, dtype=torch.float64), torch.tensor(cpu, dtype=torch.float64),
                               rtol=AMP_TOLERANCE[dtype] if cpu_amp else FLOAT32_REFERENCE_TOLERANCE[dtype], atol=0.0)
    assert npu[-1] < npu[0], npu
    with torch.autocast("npu", dtype=dtype):
        assert npu_model(batches[0][0].npu()).dtype == dtype  # the loop's forward ran in the lower precision
    for p in npu_model.parameters():
        assert p.dtype == torch.float32 and p.grad.dtype == torch.float32
