"""Real models on `npu` against the same models on CPU.

The models, data and training loop are examples/npu_models.py (shared with the examples and
bench/npu_train_step.py). Each model starts from the same weights on both devices and trains
STEPS steps on the same batches; the losses must agree within the model's tolerance below.

Dropout: the compared runs put the dropout modules in eval mode (the npu Philox generator and
the CPU mt19937 generator draw different masks from one seed); test_dropout_trains_on_npu runs
them in training mode on npu and checks that the npu dropout kernel ran and the loss fell.

CPU fallback: test_no_cpu_fallback fails listing every operator a model still runs through the
CPU fallback.
"""

from __future__ import annotations

import npu_models  # examples/npu_models.py (the conftest puts examples/ on sys.path)
import pytest
import torch

STEPS = 20
# Relative tolerance of each step's loss (npu vs CPU). The MLP's float32 matmuls differ from
# the CPU's only in summation order; BatchNorm's batch statistics and the transformer's softmax
# and layer norm add rounding that 20 optimizer steps amplify.
TOLERANCE = {"mlp": 1e-4, "cnn": 1e-3, "transformer": 1e-3}
CASES = [("mlp", "sgd"), ("mlp", "adam"), ("cnn", "sgd"), ("transformer", "adam")]


def _has_conv() -> bool:
    return any(torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{op}", "PrivateUse1")
               for op in ("convolution_overrideable", "convolution", "_convolution"))


def _run(model: str, optimizer: str, dropout: bool = False) -> tuple[list[float], list[float], dict]:
    task = npu_models.TASKS[model]
    cpu_model, npu_model = npu_models.same_start(task)
    batches = task.data(STEPS)
    cpu = npu_models.train(cpu_model, optimizer, batches, task.loss, "cpu", dropout=dropout)
    torch.npu.reset_path_ledger()
    npu = npu_models.train(npu_model, optimizer, batches, task.loss, "npu", dropout=dropout)
    for p in npu_model.parameters():
        assert p.device.type == "npu" and (p.grad is None or p.grad.device.type == "npu")
    return cpu, npu, torch.npu.path_ledger()


@pytest.mark.parametrize(("model", "optimizer"), CASES, ids=[f"{m}-{o}" for m, o in CASES])
def test_losses_match_cpu(model: str, optimizer: str) -> None:
    cpu, npu, _ = _run(model, optimizer)
    assert len(npu) == STEPS
    torch.testing.assert_close(torch.tensor(npu, dtype=torch.float64), torch.tensor(cpu, dtype=torch.float64),
                               rtol=TOLERANCE[model], atol=0.0, msg=lambda m: f"{model}/{optimizer} losses: {m}")
    assert cpu[-1] < cpu[0], f"{model}/{optimizer} did not learn on CPU: {cpu[0]} -> {cpu[-1]}"


@pytest.mark.parametrize(("model", "optimizer"), CASES, ids=[f"{m}-{o}" for m, o in CASES])
def test_no_cpu_fallback(model: str, optimizer: str) -> None:
    if model == "cnn" and not _has_conv():
        pytest.fail("no npu kernel for aten::convolution_overrideable/convolution: the CNN cannot run on npu")
    _, _, ledger = _run(model, optimizer, dropout=True)
    fallbacks = sorted(f"{op} x{c['cpu_fallback']}" for op, c in ledger.items() if c["cpu_fallback"])
    assert not fallbacks, f"{model}/{optimizer} ran {len(fallbacks)} ops through the CPU fallback: {fallbacks}"


def test_dropout_trains_on_npu() -> None:
    """Dropout in training mode on npu: the npu dropout kernel runs, the loss falls, nothing is NaN."""
    task = npu_models.TASKS["mlp"]
    torch.npu.manual_seed(0)
    _, npu_model = npu_models.same_start(task)
    torch.npu.reset_path_ledger()
    losses = npu_models.train(npu_model, "adam", task.data(STEPS), task.loss, "npu", dropout=True)
    ledger = torch.npu.path_ledger()
    assert ledger["native_dropout"]["op_api"] == STEPS, ledger.get("native_dropout")
    assert ledger["native_dropout_backward"]["op_api"] == STEPS, ledger.get("native_dropout_backward")
    assert all(loss == loss for loss in losses), losses
    assert sum(losses[-5:]) < sum(losses[:5]), losses


def test_eval_dropout_is_identity_and_train_dropout_is_not() -> None:
    """The switch the compared runs rely on: eval-mode dropout passes values through on npu."""
    x = torch.randn(64, 64)
    drop = torch.nn.Dropout(0.5)
    drop.eval()
    assert torch.equal(drop(x.npu()).cpu(), x)
    drop.train()
    y = drop(x.npu()).cpu()
    zeros = (y == 0).float().mean().item()
    assert 0.35 < zeros < 0.65, zeros
    torch.testing.assert_close(y[y != 0], x[y != 0] * 2)
