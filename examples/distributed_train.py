"""Data-parallel training on `npu` with the hccl backend, as a torch_npu user runs it:

    torchrun --nproc-per-node 2 examples/distributed_train.py --model mlp --wrap ddp
    torchrun --nproc-per-node 2 examples/distributed_train.py --model transformer --wrap fsdp
    (or: nox -s distributed -- v2.13)

Each rank trains on its slice of every batch of examples/npu_models.py on `npu:<LOCAL_RANK>`; the
model is wrapped in DistributedDataParallel (`ddp`) or sharded with FSDP2's fully_shard (`fsdp`).
Gradients averaged over the ranks make each step the step of one process on the whole batch, so rank
0 also trains the same model on the CPU alone and prints both losses per step and, at the end, the
largest difference of any weight (exit status 1 beyond the tolerance). Dropout is in eval mode, as in
the other examples (the npu and CPU generators draw different masks).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import torch
import torch.distributed as dist
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from npu_models import OPTIMIZERS, TASKS, same_start  # noqa: E402

TOLERANCE = {"mlp": 1e-4, "transformer": 2e-4, "cnn": 2e-4}


def eval_dropout(model: nn.Module) -> nn.Module:
    model.train()
    for module in model.modules():
        if isinstance(module, nn.Dropout):
            module.eval()
    return model


def wrap(model: nn.Module, how: str, device: torch.device) -> nn.Module:
    if how == "ddp":
        from torch.nn.parallel import DistributedDataParallel

        return DistributedDataParallel(model, device_ids=[device.index])
    if torch.torch_version.TorchVersion(torch.__version__) < (2, 6):
        raise SystemExit(f"--wrap fsdp needs torch 2.6 or later: torch {torch.__version__}'s fully_shard makes "
                         "its streams with torch.cuda.Stream")
    from torch.distributed.fsdp import fully_shard

    for module in model.modules():
        if module is not model and isinstance(module, (nn.Linear, nn.Sequential)) and any(
                p.requires_grad for p in module.parameters(recurse=False)):
            fully_shard(module)
    fully_shard(model)
    return model


def full_weights(model: nn.Module) -> dict[str, torch.Tensor]:
    """Every weight on the CPU, whole (FSDP2's sharded parameters gathered)."""
    out = {}
    for name, p in model.named_parameters():
        data = p.data
        if hasattr(data, "full_tensor"):
            data = data.full_tensor()
        out[name.replace("module.", "")] = data.detach().cpu()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(TASKS), default="mlp")
    parser.add_argument("--wrap", choices=("ddp", "fsdp"), default="ddp")
    parser.add_argument("--optimizer", choices=sorted(OPTIMIZERS), default="sgd")
    parser.add_argument("--steps", type=int, default=10)
    opts = parser.parse_args()

    import opplugin_runtime  # noqa: F401  (torch.npu and the hccl backend; torch_npu users import torch_npu)

    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    device = torch.device("npu", local_rank % torch.npu.device_count())
    torch.npu.set_device(device)
    dist.init_process_group("hccl")
    rank, world = dist.get_rank(), dist.get_world_size()

    task = TASKS[opts.model]
    cpu_model, npu_model = same_start(task)
    batches = task.data(opts.steps)
    for x, _ in batches:
        if x.shape[0] % world:
            raise SystemExit(f"a batch of {x.shape[0]} does not split over {world} ranks")
    model = wrap(eval_dropout(npu_model.to(device)), opts.wrap, device)
    opt = OPTIMIZERS[opts.optimizer](list(model.parameters()))
    if rank == 0:
        cpu_model = eval_dropout(cpu_model)
        cpu_opt = OPTIMIZERS[opts.optimizer](list(cpu_model.parameters()))
        print(f"{opts.model} with {opts.wrap} ({opts.optimizer}) on {world} ranks, hccl on "
              f"{torch.npu.get_device_name(device)}")
    for step, (x, y) in enumerate(batches):
        part = x.shape[0] // world
        xs, ys = x[rank * part:(rank + 1) * part].to(device), y[rank * part:(rank + 1) * part].to(device)
        opt.zero_grad()
        loss = task.loss(model(xs), ys)
        loss.backward()
        opt.step()
        mean_loss = loss.detach().clone()
        dist.all_reduce(mean_loss, op=dist.ReduceOp.AVG)
        if rank == 0:
            cpu_opt.zero_grad()
            cpu_loss = task.loss(cpu_model(x), y)
            cpu_loss.backward()
            cpu_opt.step()
            print(f"step {step:2d}  loss npu {mean_loss.item():.6f}  cpu (one process) {cpu_loss.item():.6f}")
    weights = full_weights(model)
    status = 0
    if rank == 0:
        diff = max((weights[n] - p.detach()).abs().max().item() for n, p in cpu_model.named_parameters())
        ok = diff <= TOLERANCE[opts.model]
        print(f"largest weight difference from one process on the CPU: {diff:.3e} "
              f"({'within' if ok else 'BEYOND'} {TOLERANCE[opts.model]:.0e})")
        status = 0 if ok else 1
    dist.destroy_process_group()
    return status


if __name__ == "__main__":
    sys.exit(main())
