"""Training across processes as a user runs it: `torchrun --nproc-per-node 2` starts two ranks on
npu:0 and npu:1 with the hccl backend, and examples/distributed_train.py trains the example models
with DistributedDataParallel and with FSDP2's fully_shard; rank 0 checks every weight against one
process training on the whole batch on the CPU (the script's exit status)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

REPO = Path(__file__).resolve().parent.parent

SCRIPT = REPO / "examples" / "distributed_train.py"
JOB_TIMEOUT = 300  # seconds, the whole torchrun job


def torchrun(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ASCEND_SIM_DEVICE_COUNT": "2", "OMP_NUM_THREADS": "1"}
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2", str(SCRIPT),
               *args]
    # A new session, so that a job past its time is killed with every rank it started.
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=JOB_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        pytest.fail(f"torchrun {' '.join(args)} did not end within {JOB_TIMEOUT} s")
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


def has_fully_shard() -> bool:
    try:
        from torch.distributed.fsdp import fully_shard  # noqa: F401
    except ImportError:
        try:
            from torch.distributed._composable.fsdp import fully_shard  # noqa: F401
        except ImportError:
            return False
    return True


@pytest.mark.parametrize("model, wrap", [("mlp", "ddp"), ("transformer", "ddp"), ("mlp", "fsdp"),
                                         ("transformer", "fsdp")])
def test_two_ranks_train_like_one_process(model, wrap):
    if wrap == "fsdp" and not has_fully_shard():
        pytest.skip(f"torch {torch.__version__} has no FSDP2 (fully_shard)")
    r = torchrun("--model", model, "--wrap", wrap, "--steps", "6")
    assert r.returncode == 0, f"{r.stdout[-3000:]}\n{r.stderr[-5000:]}"
    steps = re.findall(r"step +\d+ +loss npu ([\d.]+) +cpu \(one process\) ([\d.]+)", r.stdout)
    assert len(steps) == 6, r.stdout
    for npu, cpu in steps:
        assert abs(float(npu) - float(cpu)) <= 1e-4 * max(1.0, float(cpu)), r.stdout
    assert "within" in r.stdout, r.stdout
