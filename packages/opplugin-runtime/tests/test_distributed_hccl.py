"""torch.distributed's hccl backend on npu: ranks as separate processes on this host, as torchrun
starts them (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT), each on its own npu device. Every
collective is checked against gloo on the CPU (distributed/hccl_worker.py), with every dtype and
reduction, on 2 and 3 ranks; every job is bounded in time and leaves no process behind."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

import opplugin_runtime  # noqa: F401

WORKER = Path(__file__).resolve().parent / "distributed" / "hccl_worker.py"
JOB_TIMEOUT = 240  # seconds for a whole job


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_job(scenario: str, world: int, extra_env: dict[str, str] | None = None) -> list[subprocess.CompletedProcess]:
    """Runs `world` ranks of the worker; returns each rank's result. A job that outlives
    JOB_TIMEOUT is killed whole and fails the test."""
    port = free_port()
    procs = []
    for rank in range(world):
        env = {**os.environ, "RANK": str(rank), "WORLD_SIZE": str(world), "LOCAL_RANK": str(rank),
               "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port),
               "ASCEND_SIM_DEVICE_COUNT": str(max(world, 2)), **(extra_env or {})}
        procs.append(subprocess.Popen([sys.executable, str(WORKER), scenario], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
    results = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=JOB_TIMEOUT)
            results.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    except subprocess.TimeoutExpired:
        pytest.fail(f"{scenario} on {world} ranks did not end within {JOB_TIMEOUT} s")
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return results


def test_hccl_is_registered_for_npu():
    import torch.distributed as dist

    assert dist.is_hccl_available()
    assert dist.Backend.HCCL == "hccl"
    assert dist.Backend.default_device_backend_map.get("npu") == "hccl"
    from opplugin_runtime import _C

    assert issubclass(_C._distributed_c10d.ProcessGroupHCCL, torch._C._distributed_c10d.Backend)


@pytest.mark.parametrize("world", [2, 3])
def test_every_collective_matches_gloo(world):
    results = run_job("collectives", world)
    for rank, r in enumerate(results):
        assert r.returncode == 0, f"rank {rank} failed:\n{r.stderr[-4000:]}"
        assert "collectives ok" in r.stdout


def test_init_without_a_backend_uses_hccl_for_npu_tensors():
    import torch.distributed as dist

    if torch.torch_version.TorchVersion(torch.__version__) < (2, 2) and dist.is_nccl_available() \
            and not torch.cuda.is_available():
        pytest.skip("torch 2.1's init_process_group() without a backend also starts NCCL for cuda, "
                    "which a CUDA build of torch refuses on a machine without a GPU")
    for rank, r in enumerate(run_job("default_backend", 2)):
        assert r.returncode == 0, f"rank {rank} failed:\n{r.stderr[-4000:]}"
        assert "default backend ok" in r.stdout, r.stdout


def test_groups_made_with_new_group():
    for rank, r in enumerate(run_job("subgroups", 3)):
        assert r.returncode == 0, f"rank {rank} failed:\n{r.stderr[-4000:]}"
        assert "subgroups ok" in r.stdout


def write_rank_table(path: Path, world: int) -> Path:
    """CANN's rank table (version 1.0) of `world` devices on this host."""
    devices = [{"device_id": str(r), "device_ip": f"192.168.100.{10 + r}", "rank_id": str(r)} for r in range(world)]
    path.write_text(json.dumps({"status": "completed", "version": "1.0", "server_count": "1",
                                "server_list": [{"server_id": "127.0.0.1", "device": devices}]}))
    return path


@pytest.mark.parametrize("world", [2, 3])
def test_the_default_group_forms_from_rank_table_file(tmp_path, world):
    """With RANK_TABLE_FILE, as in torch_npu, the default group's communicator comes from the rank
    table (HcclCommInitClusterInfo, which logs at INFO); groups made later from a root info."""
    env = {"RANK_TABLE_FILE": str(write_rank_table(tmp_path / "rank_table.json", world)),
           "HCCL_IF_BASE_PORT": str(free_port()), "ASCEND_GLOBAL_LOG_LEVEL": "1"}
    for rank, r in enumerate(run_job("from_rank_table", world, env)):
        assert r.returncode == 0, f"rank {rank} failed:\n{r.stderr[-4000:]}"
        assert "rank table ok" in r.stdout
        joined = [line for line in r.stderr.splitlines() if "HcclCommInitClusterInfo" in line]
        assert len(joined) == 1 and f"rank {rank} of {world} (hccl_sim_" in joined[0], r.stderr[-4000:]
        assert ("HcclCommInitRootInfo" in r.stderr) == (rank < 2)  # the later group's, of ranks 0 and 1


def test_a_rank_table_that_does_not_serve_falls_back_to_the_root_info(tmp_path):
    """A table of another size: every rank warns, naming the file and why, and the group forms from
    the root info in the store."""
    table = write_rank_table(tmp_path / "rank_table.json", 3)
    env = {"RANK_TABLE_FILE": str(table), "HCCL_IF_BASE_PORT": str(free_port()), "HCCL_CONNECT_TIMEOUT": "2"}
    for rank, r in enumerate(run_job("from_rank_table", 2, env)):
        assert r.returncode == 0, f"rank {rank} failed:\n{r.stderr[-4000:]}"
        assert "rank table ok" in r.stdout
        assert f"the communicator was not made from RANK_TABLE_FILE={table}" in r.stderr, r.stderr[-4000:]


def test_torchrun_ends_a_job_whose_rank_failed_and_leaves_no_process():
    """A rank that raises ends the whole torchrun job with a failure naming it, within the
    timeout, and no rank of it keeps running."""
    start = time.monotonic()
    env = {**os.environ, "ASCEND_SIM_DEVICE_COUNT": "2", "HCCL_EXEC_TIMEOUT": "20"}
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
               str(WORKER), "dies_mid_job"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=JOB_TIMEOUT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
            proc.communicate()
    assert proc.returncode != 0, out
    assert "fails on purpose" in err, err[-4000:]
    assert "the job went on" not in out
    assert time.monotonic() - start < 120
    # Every process of the job's session is gone (read from /proc: pgrep under the sanitizers'
    # LD_PRELOAD can deadlock).
    deadline = time.monotonic() + 30
    while (left := session_members(proc.pid)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, f"still running in the job's session: {left}"


def session_members(session: int) -> list[int]:
    """The pids whose session id is `session` (field 6 of /proc/<pid>/stat)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[3]) == session and fields[0] != "Z":
            members.append(int(entry))
    return members


def test_collectives_follow_the_current_stream():
    for rank, r in enumerate(run_job("stream_order", 2)):
        assert r.returncode == 0, f"rank {rank} failed:\n{r.stderr[-4000:]}"
        assert "stream order ok" in r.stdout


def test_ddp_measures_its_iterations_on_npu():
    """The Reducer finds a timer for npu modules (as for CUDA ones): no warning that time stats are
    collected for CPU and CUDA only, and the logged forward/backward/communication times are set."""
    for rank, r in enumerate(run_job("ddp_timing", 2)):
        assert r.returncode == 0, f"rank {rank} failed:\n{r.stderr[-4000:]}"
        assert "only collected for CPU and CUDA" not in r.stderr, r.stderr[-4000:]
        times = dict(item.split("=") for item in r.stdout.split("ddp times", 1)[1].split())
        assert all(int(value) > 0 for value in times.values()), times


def test_a_rank_that_dies_fails_the_others_within_the_timeout():
    start = time.monotonic()
    results = run_job("peer_dies", 2, {"HCCL_EXEC_TIMEOUT": "5"})
    assert results[1].returncode == 0, results[1].stderr[-3000:]
    r = results[0]
    assert r.returncode == 3, f"rank 0 should have failed:\n{r.stdout}\n{r.stderr[-3000:]}"
    assert re.search(r"all_?reduce", r.stdout, re.IGNORECASE), r.stdout
    assert "rank 1" in r.stdout, r.stdout
    assert time.monotonic() - start < 60


def test_mismatched_counts_are_reported_on_every_rank():
    results = run_job("mismatch", 2, {"HCCL_EXEC_TIMEOUT": "10"})
    for rank, r in enumerate(results):
        assert r.returncode == 3, f"rank {rank} should have failed:\n{r.stdout}\n{r.stderr[-3000:]}"
        assert "8" in r.stdout and "16" in r.stdout, r.stdout
