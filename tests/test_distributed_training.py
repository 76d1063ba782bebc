"""Training across processes as a user runs it: `torchrun --nproc-per-node 2` starts two ranks on
npu:0 and npu:1 with the hccl backend, and examples/distributed_train.py trains the example models
with DistributedDataParallel and with FSDP2's fully_shard; rank 0 checks every weight against one
process training on the whole batch on the CPU (the script's exit status). The same jobs also run
as `torchrun --nnodes 2` on two simulated hosts: two network namespaces made by the test, joined
by a veth pair, each with its own host name (so HCCL links the ranks over TCP, as between hosts)."""

from __future__ import annotations

import os
import re
import shutil
import socket
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


def why_no_fsdp2() -> str | None:
    """Why FSDP2 cannot shard over npu with this torch, or None."""
    try:
        from torch.distributed.fsdp import fully_shard  # noqa: F401  (public from torch 2.6)
    except ImportError:
        return (f"torch {torch.__version__} has no device-generic FSDP2: fully_shard is missing, or (2.4, 2.5) "
                "makes its streams with torch.cuda.Stream")
    return None


@pytest.mark.parametrize("model, wrap", [("mlp", "ddp"), ("transformer", "ddp"), ("mlp", "fsdp"),
                                         ("transformer", "fsdp")])
def test_two_ranks_train_like_one_process(model, wrap):
    if wrap == "fsdp" and why_no_fsdp2():
        pytest.skip(why_no_fsdp2())
    r = torchrun("--model", model, "--wrap", wrap, "--steps", "6")
    assert r.returncode == 0, f"{r.stdout[-3000:]}\n{r.stderr[-5000:]}"
    steps = re.findall(r"step +\d+ +loss npu ([\d.]+) +cpu \(one process\) ([\d.]+)", r.stdout)
    assert len(steps) == 6, r.stdout
    for npu, cpu in steps:
        assert abs(float(npu) - float(cpu)) <= 1e-4 * max(1.0, float(cpu)), r.stdout
    assert "within" in r.stdout, r.stdout


@pytest.fixture
def two_hosts():
    """Two network namespaces joined by a veth pair (10.<a>.<b>.1 and .2), removed afterwards."""
    if os.geteuid() != 0 or shutil.which("ip") is None or shutil.which("unshare") is None:
        pytest.skip("network namespaces need root, iproute2's ip and util-linux's unshare")
    tag = f"npusim{os.getpid() % 100000}"
    subnet = f"10.{100 + os.getpid() % 100}.{os.getpid() % 250}"
    hosts = [(f"{tag}a", f"{subnet}.1", f"{tag}x"), (f"{tag}b", f"{subnet}.2", f"{tag}y")]

    def ip(*args: str) -> None:
        subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=30)

    try:
        for ns, _, _ in hosts:
            ip("netns", "add", ns)
        ip("link", "add", hosts[0][2], "type", "veth", "peer", "name", hosts[1][2])
        for ns, addr, dev in hosts:
            ip("link", "set", dev, "netns", ns)
            ip("-n", ns, "addr", "add", f"{addr}/24", "dev", dev)
            ip("-n", ns, "link", "set", dev, "up")
            ip("-n", ns, "link", "set", "lo", "up")
        yield [(ns, addr) for ns, addr, _ in hosts]
    finally:
        for ns, _, _ in hosts:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)


@pytest.mark.parametrize("model, wrap", [("mlp", "ddp"), ("transformer", "fsdp")])
def test_two_hosts_train_like_one_process(two_hosts, model, wrap):
    if wrap == "fsdp" and why_no_fsdp2():
        pytest.skip(why_no_fsdp2())
    (_, master), _ = two_hosts
    with socket.socket() as s:  # a port number free here is as good as any inside the fresh namespaces
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    procs = []
    for node, (ns, addr) in enumerate(two_hosts):
        # Each host: its own host name (unshare --uts), HCCL's interface address, one rank on npu:0.
        job = (f"hostname {ns} && exec {sys.executable} -m torch.distributed.run --nnodes 2 --node-rank {node} "
               f"--nproc-per-node 1 --master-addr {master} --master-port {port} {SCRIPT} --model {model} "
               f"--wrap {wrap} --steps 4")
        env = {**os.environ, "HCCL_IF_IP": addr, "OMP_NUM_THREADS": "1"}
        procs.append(subprocess.Popen(["ip", "netns", "exec", ns, "unshare", "--uts", "sh", "-c", job], env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                      start_new_session=True))
    results = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=JOB_TIMEOUT)
            results.append((proc.returncode, out, err))
    except subprocess.TimeoutExpired:
        pytest.fail(f"the two-host job did not end within {JOB_TIMEOUT} s")
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.communicate()
    for node, (rc, out, err) in enumerate(results):
        assert rc == 0, f"host {node}:\n{out[-3000:]}\n{err[-5000:]}"
    out = results[0][1]
    steps = re.findall(r"step +\d+ +loss npu ([\d.]+) +cpu \(one process\) ([\d.]+)", out)
    assert len(steps) == 4, out
    assert "within" in out, out
