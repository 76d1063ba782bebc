"""Three small models and a training loop that runs them on any device.

Shared by the examples (mlp_sgd.py, mlp_adam.py, cnn.py, transformer.py), the model tests
(packages/opplugin-runtime/tests/test_models.py) and bench/npu_train_step.py. Every model is
built on the CPU from a seed, so a deepcopy moved to `npu` starts from the same weights; the
data are synthetic tensors made on the CPU from a seed.

Dropout: the models contain dropout with p > 0. A run that is compared with the CPU puts the
dropout modules (only them) in eval mode, because the npu generator (Philox) and the CPU
generator (mt19937) draw different masks from the same seed; `train(..., dropout=True)` runs
them in training mode (the npu dropout kernels), which the tests check separately.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


def make_mlp(seed: int = 0) -> nn.Module:
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 64), nn.ReLU(),
                         nn.Linear(64, 5))


def make_cnn(seed: int = 0) -> nn.Module:
    torch.manual_seed(seed)
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.25), nn.Linear(16 * 4 * 4, 10),
    )


class SelfAttention(nn.Module):
    """Causal multi-head self-attention through F.scaled_dot_product_attention."""

    def __init__(self, dim: int, heads: int, dropout: float) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.drop(self.proj(y.transpose(1, 2).reshape(b, t, d)))


class Block(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float) -> None:
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, heads, dropout)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim), nn.Dropout(dropout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyTransformer(nn.Module):
    """A two-block decoder-only language model over a 50-token vocabulary."""

    def __init__(self, vocab: int = 50, dim: int = 32, heads: int = 4, blocks: int = 2, context: int = 16,
                 dropout: float = 0.1) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(context, dim) / math.sqrt(dim))
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.Sequential(*[Block(dim, heads, dropout) for _ in range(blocks)])
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.drop(self.tok(tokens) + self.pos[: tokens.shape[1]])
        return self.head(self.ln(self.blocks(x)))


def make_transformer(seed: int = 0) -> nn.Module:
    torch.manual_seed(seed)
    return TinyTransformer()


@dataclass
class Task:
    """A model, its synthetic data (on the CPU) and its loss."""

    name: str
    model: Callable[[int], nn.Module]
    data: Callable[[int, int], list[tuple[torch.Tensor, torch.Tensor]]]
    loss: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def mlp_data(steps: int, seed: int = 1) -> list[tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(20, 5, generator=g)
    batches = []
    for _ in range(steps):
        x = torch.randn(32, 20, generator=g)
        batches.append((x, (x @ w).argmax(dim=1)))
    return batches


def cnn_data(steps: int, seed: int = 1) -> list[tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(16, 3, 16, 16, generator=g), torch.randint(0, 10, (16,), generator=g)) for _ in range(steps)]


def transformer_data(steps: int, seed: int = 1) -> list[tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(seed)
    batches = []
    for _ in range(steps):
        # Sequences that count upwards modulo 50 from a random start: learnable next-token targets.
        start = torch.randint(0, 50, (8, 1), generator=g)
        seq = (start + torch.arange(17)) % 50
        batches.append((seq[:, :-1].contiguous(), seq[:, 1:].contiguous()))
    return batches


def lm_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))


TASKS = {
    "mlp": Task("mlp", make_mlp, mlp_data, F.cross_entropy),
    "cnn": Task("cnn", make_cnn, cnn_data, F.cross_entropy),
    "transformer": Task("transformer", make_transformer, transformer_data, lm_loss),
}

OPTIMIZERS: dict[str, Callable[[list[nn.Parameter]], torch.optim.Optimizer]] = {
    "sgd": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.9),
    "adam": lambda params: torch.optim.Adam(params, lr=1e-3),
}


def make_grad_scaler(device: str) -> torch.amp.GradScaler | None:
    """A GradScaler for `device` (torch.amp's; torch.npu.amp's on torch 2.1, which has it only for
    CUDA), or None where this torch has none (CPU on torch 2.1)."""
    if hasattr(torch.amp, "GradScaler"):
        return torch.amp.GradScaler(device)
    if device == "npu":
        return torch.npu.amp.GradScaler()
    return None


def train(model: nn.Module, optimizer: str, batches: list[tuple[torch.Tensor, torch.Tensor]],
          loss_fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor], device: str, dropout: bool = False,
          log: Callable[[int, float], None] | None = None, amp: torch.dtype | None = None) -> list[float]:
    """Trains `model` (moved to `device`) one step per batch; returns the loss of each step.
    `amp` (float16 or bfloat16): forward and loss under torch.autocast(device, amp), backward and
    step through a GradScaler (none on CPU with torch 2.1)."""
    model = model.to(device)
    model.train()
    if not dropout:
        for module in model.modules():
            if isinstance(module, nn.Dropout):
                module.eval()
    opt = OPTIMIZERS[optimizer](list(model.parameters()))
    scaler = make_grad_scaler(device) if amp is not None else None
    losses = []
    for step, (x, y) in enumerate(batches):
        x, y = x.to(device), y.to(device)
        opt.zero_grad()
        with torch.autocast(device, dtype=amp, enabled=amp is not None):
            loss = loss_fn(model(x), y)
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            opt.step()
        losses.append(loss.item())
        if log is not None:
            log(step, losses[-1])
    return losses


def same_start(task: Task, seed: int = 0) -> tuple[nn.Module, nn.Module]:
    """Two copies of the task's model with identical weights (for CPU and npu)."""
    model = task.model(seed)
    return model, copy.deepcopy(model)


def ledger_summary(ledger: dict[str, dict[str, int]]) -> str:
    """One line per path: how many ops and calls took it (the CPU fallback's ops by name)."""
    lines = []
    for path in ("op_api", "acl_op", "compat", "dvm", "cpu_fallback"):
        ops = {op: counts[path] for op, counts in ledger.items() if counts.get(path)}
        if not ops:
            continue
        line = f"  {path:<12} {len(ops):3d} ops, {sum(ops.values()):6d} calls"
        if path == "cpu_fallback":
            line += ": " + ", ".join(f"{op} x{n}" for op, n in sorted(ops.items()))
        lines.append(line)
    return "\n".join(lines) or "  (no npu op ran)"


def run_example(model: str, optimizer: str, steps: int = 20, amp: torch.dtype | None = None) -> None:
    """Trains `model` on npu, printing each step's loss next to the CPU's, then the path ledger.
    `amp`: both runs under autocast in that dtype with a GradScaler (see `train`)."""
    import opplugin_runtime  # noqa: F401  registers the npu device

    task = TASKS[model]
    if model == "cnn" and not any(torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{op}", "PrivateUse1")
                                  for op in ("convolution_overrideable", "convolution", "_convolution")):
        print("cnn: not run: this build has no npu kernel for aten::convolution_overrideable/convolution "
              "(and convolution cannot fall back to the CPU)")
        return
    cpu_model, npu_model = same_start(task)
    batches = task.data(steps)
    cpu = train(cpu_model, optimizer, batches, task.loss, "cpu", amp=amp)
    torch.npu.set_fallback_mode("silent")  # counted in the ledger below instead of warned
    torch.npu.reset_path_ledger()
    precision = f", autocast {str(amp).replace('torch.', '')} with a GradScaler" if amp is not None else ""
    print(f"{model} with {optimizer}, {steps} steps on {torch.npu.get_device_name(0)}{precision} (dropout in eval "
          "mode: the npu and CPU generators draw different masks)")
    train(npu_model, optimizer, batches, task.loss, "npu", amp=amp,
          log=lambda step, loss: print(f"step {step:2d}  loss npu {loss:.6f}  cpu {cpu[step]:.6f}  "
                                       f"diff {abs(loss - cpu[step]):.2e}"))
    print("path ledger:")
    print(ledger_summary(torch.npu.path_ledger()))
