"""Collectives (HCCL, libhccl.so): communicators of ranks in separate processes (shared memory,
or TCP with ASCEND_SIM_HCCL_TRANSPORT=tcp) and of the devices of one process, every collective
against numpy for every data type and reduction, stream order, failures (a rank that exits,
ranks that disagree), and the functions left unsimulated, which say so."""

from __future__ import annotations

import ctypes
import functools
import json
import os
import re
import shutil
import subprocess
import time
import zlib
from pathlib import Path

import ascendc_kernels
import ascendc_kernels_testing as sim
import numpy as np
import pytest

HEADER = Path(ascendc_kernels.get_include()) / "hccl" / "hccl.h"
DECLARATION = re.compile(r"HCCL_FUNC_VISIBILITY\s+([\w\s*]+?)\s*\b(Hccl\w+)\s*\(([^)]*)\)\s*;")
REDUCTIONS = {"sum": sim.HCCL_REDUCE_SUM, "prod": sim.HCCL_REDUCE_PROD, "max": sim.HCCL_REDUCE_MAX,
              "min": sim.HCCL_REDUCE_MIN}
NUMPY_REDUCTIONS = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}
SIMULATED = {
    "HcclGetRootInfo", "HcclCommInitRootInfo", "HcclCommInitRootInfoConfig", "HcclCommInitAll", "HcclCommDestroy",
    "HcclCommInitClusterInfo", "HcclCommInitClusterInfoConfig",
    "HcclGetRankSize", "HcclGetRankId", "HcclGetCommName", "HcclGetCommAsyncError", "HcclGetErrorString",
    "HcclAllReduce", "HcclBroadcast", "HcclReduce", "HcclReduceScatter", "HcclAllGather", "HcclAlltoAll",
    "HcclAlltoAllV", "HcclBarrier", "HcclSend", "HcclRecv", "HcclBatchSendRecv", "HcclAllGatherV",
    "HcclReduceScatterV", "HcclScatter", "HcclAlltoAllVC", "HcclGroupStart", "HcclGroupEnd",
}


def declared_functions() -> dict[str, tuple[str, int]]:
    """Each function hccl/hccl.h declares: its return type and its number of parameters."""
    text = re.sub(r"//[^\n]*", "", HEADER.read_text())
    functions = {}
    for returns, name, params in DECLARATION.findall(text):
        params = params.strip()
        functions[name] = (" ".join(returns.split()), 0 if params in ("", "void") else params.count(",") + 1)
    return functions


def not_supported_message(name: str) -> str:
    return f"{name} is not supported by the simulator"


def segments_of(comm_name: str) -> list[str]:
    """The /dev/shm segments of the job a communicator name belongs to."""
    job = comm_name.removeprefix("hccl_sim_")
    return [p.name for p in Path("/dev/shm").glob(f"ascend_sim_hccl_{job}_*")]


# ---- the cases: every collective, data type and reduction, small and large (ring) sizes ----
def case_list(size: int) -> list[tuple]:
    """(collective, type, reduction, count) for a communicator of `size` ranks."""
    cases = []
    for type_name in sim.HCCL_TYPES:
        for op in REDUCTIONS:
            cases += [("allreduce", type_name, op, 7), ("reduce", type_name, op, 5),
                      ("reducescatter", type_name, op, 3), ("reducescatterv", type_name, op, 6)]
        cases += [(name, type_name, None, 6) for name in
                  ("allgather", "broadcast", "alltoall", "alltoallv", "alltoallvc", "sendrecv", "batchsendrecv",
                   "groupsendrecv", "allgatherv", "scatter")]
    cases += [("allreduce", "float32", "sum", 1), ("allreduce", "float32", "sum", 100_003),
              ("allreduce", "float16", "sum", 150_001), ("allreduce", "bfloat16", "max", 150_000),
              ("allreduce", "int8", "prod", 300_000), ("reduce", "float32", "sum", 100_000),
              ("reducescatter", "float32", "min", 40_000), ("allgather", "float32", None, 40_000),
              ("broadcast", "float32", None, 200_000), ("alltoall", "int64", None, 30_000),
              ("sendrecv", "float32", None, 300_000), ("barrier", "int8", None, 0),
              # In place, as torch's process groups call them: the result over the input.
              ("allreduce in place", "float32", "sum", 100_003), ("allreduce in place", "bfloat16", "min", 3),
              ("allgather in place", "float32", None, 40_000), ("allgather in place", "int32", None, 5)]
    return cases


def alltoallv_counts(size: int, count: int) -> np.ndarray:
    """counts[i, j]: what rank i sends rank j."""
    i, j = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    return (count // 3) * ((i + 2 * j) % 3 + 1)


def uneven_counts(size: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Rank p's count and displacement in the uneven (V) collectives: one unused element before each block."""
    counts = (count // 3) * (np.arange(size) % 3 + 1)
    return counts, np.cumsum(counts) - counts + np.arange(size)


def input_length(case: tuple, size: int, rank: int) -> int:
    name, _, _, count = case
    if name in ("reducescatter", "alltoall", "scatter"):
        return size * count
    if name == "reducescatterv":
        return int(uneven_counts(size, count)[0].sum()) + size
    if name == "allgatherv":
        return int(uneven_counts(size, count)[0][rank])
    if name in ("alltoallv", "alltoallvc"):
        return int(alltoallv_counts(size, count)[rank].sum())
    return count


def case_input(case: tuple, size: int, rank: int) -> np.ndarray:
    """Small integers (every reduction exact in every type), the same in every process."""
    name, type_name, op, count = case
    rng = np.random.default_rng(zlib.crc32(repr(case).encode()) + 7919 * rank)
    low = 0 if type_name.startswith("uint") or op == "prod" and type_name == "int8" else -3
    values = rng.integers(low, 4, input_length(case, size, rank)).astype(np.float64)
    return to_storage(values, type_name)


def to_storage(values: np.ndarray, type_name: str) -> np.ndarray:
    if type_name == "bfloat16":
        return sim.float_to_bf16_bits(values.astype(np.float32))
    return values.astype(sim.HCCL_TYPES[type_name][1])


def to_values(stored: np.ndarray, type_name: str) -> np.ndarray:
    if type_name == "bfloat16":
        return sim.bf16_bits_to_float(stored).astype(np.float64)
    return stored.astype(np.float64)


def expected(case: tuple, size: int, rank: int) -> np.ndarray | None:
    """What `rank` holds after the case (None: nothing to compare)."""
    name, type_name, op, count = case
    inputs = [to_values(case_input(case, size, r), type_name) for r in range(size)]
    name = name.removesuffix(" in place")
    if name in ("allreduce", "reduce", "reducescatter"):
        reduced = functools.reduce(NUMPY_REDUCTIONS[op], inputs)
        if name == "reduce":
            return to_storage(reduced, type_name) if rank == size - 1 else None
        if name == "reducescatter":
            reduced = reduced[rank * count:(rank + 1) * count]
        return to_storage(reduced, type_name)
    if name == "reducescatterv":
        counts, displs = uneven_counts(size, count)
        reduced = functools.reduce(NUMPY_REDUCTIONS[op], inputs)
        return to_storage(reduced[displs[rank]:displs[rank] + counts[rank]], type_name)
    if name == "allgatherv":
        counts, displs = uneven_counts(size, count)
        out = np.zeros(int(counts.sum()) + size)
        for p in range(size):
            out[displs[p]:displs[p] + counts[p]] = inputs[p]
        return to_storage(out, type_name)
    if name == "scatter":
        return to_storage(inputs[1 % size][rank * count:(rank + 1) * count], type_name)
    if name == "allgather":
        return to_storage(np.concatenate(inputs), type_name)
    if name == "broadcast":
        return to_storage(inputs[1 % size], type_name)
    if name == "alltoall":
        return to_storage(np.concatenate([x[rank * count:(rank + 1) * count] for x in inputs]), type_name)
    if name in ("alltoallv", "alltoallvc"):
        counts = alltoallv_counts(size, count)
        displs = np.cumsum(counts, axis=1) - counts
        return to_storage(np.concatenate([inputs[j][displs[j, rank]:displs[j, rank] + counts[j, rank]]
                                          for j in range(size)]), type_name)
    if name in ("sendrecv", "batchsendrecv", "groupsendrecv"):
        return to_storage(inputs[(rank - 1) % size], type_name)
    return None


def output_length(case: tuple, size: int) -> int:
    name, _, _, count = case
    if name.startswith("allgather "):
        return size * count
    if name == "allgather":
        return size * count
    if name == "alltoall":
        return size * count
    if name in ("alltoallv", "alltoallvc"):
        return 0  # sized per rank
    if name == "allgatherv":
        return int(uneven_counts(size, count)[0].sum()) + size
    return max(count, 1)


def on_device(values: np.ndarray, device: int) -> sim.DeviceArray:
    """The bytes of `values` in device memory."""
    return sim.DeviceArray.from_numpy(values.view(np.uint8), sim.ACL_UINT8, device=device)


def issue(rank: sim.Rank, case: tuple, keep: list) -> sim.DeviceArray | None:
    """Queues the case's call on the rank's stream; returns the buffer that holds its result."""
    hccl = sim.load_hccl()
    name, type_name, op, count = case
    code = sim.HCCL_TYPES[type_name][0]
    size, r, comm, stream = rank.size, rank.rank, rank.comm, rank.stream
    x = on_device(case_input(case, size, r), rank.device) if input_length(case, size, r) else None
    length = output_length(case, size)
    if name in ("alltoallv", "alltoallvc"):
        length = int(alltoallv_counts(size, count)[:, r].sum())
    if name == "reducescatterv":
        length = int(uneven_counts(size, count)[0][r])
    out = on_device(np.zeros(length, sim.HCCL_TYPES[type_name][1]), rank.device)
    keep += [x, out]
    xp = x.ptr if x is not None else None
    red = REDUCTIONS.get(op, 0)
    if name == "allreduce":
        rc = hccl.HcclAllReduce(xp, out.ptr, count, code, red, comm, stream)
    elif name == "allreduce in place":
        out.upload(case_input(case, size, r).view(np.uint8))
        rc = hccl.HcclAllReduce(out.ptr, out.ptr, count, code, red, comm, stream)
    elif name == "allgather in place":  # this rank's block of the output is the input
        start = np.zeros(length, sim.HCCL_TYPES[type_name][1])
        start[r * count:(r + 1) * count] = case_input(case, size, r)
        out.upload(start.view(np.uint8))
        rc = hccl.HcclAllGather(out.ptr + r * count * start.itemsize, out.ptr, count, code, comm, stream)
    elif name == "reduce":
        rc = hccl.HcclReduce(xp, out.ptr, count, code, red, size - 1, comm, stream)
    elif name == "reducescatter":
        rc = hccl.HcclReduceScatter(xp, out.ptr, count, code, red, comm, stream)
    elif name == "allgather":
        rc = hccl.HcclAllGather(xp, out.ptr, count, code, comm, stream)
    elif name in ("allgatherv", "reducescatterv"):
        counts, displs = (np.ascontiguousarray(a, dtype=np.uint64) for a in uneven_counts(size, count))
        keep += [counts, displs]
        if name == "allgatherv":
            rc = hccl.HcclAllGatherV(xp, int(counts[r]), out.ptr, counts.ctypes.data, displs.ctypes.data, code, comm,
                                     stream)
        else:
            rc = hccl.HcclReduceScatterV(xp, counts.ctypes.data, displs.ctypes.data, out.ptr, int(counts[r]), code,
                                         red, comm, stream)
    elif name == "scatter":
        rc = hccl.HcclScatter(xp, out.ptr, count, code, 1 % size, comm, stream)
    elif name == "broadcast":  # in place, in the output buffer
        out.upload(case_input(case, size, r).view(np.uint8))
        rc = hccl.HcclBroadcast(out.ptr, count, code, 1 % size, comm, stream)
    elif name == "alltoall":
        rc = hccl.HcclAlltoAll(xp, count, code, out.ptr, count, code, comm, stream)
    elif name == "alltoallv":
        counts = alltoallv_counts(size, count)
        arrays = [np.ascontiguousarray(a, dtype=np.uint64) for a in
                  (counts[r], np.cumsum(counts[r]) - counts[r], counts[:, r], np.cumsum(counts[:, r]) - counts[:, r])]
        keep += arrays
        rc = hccl.HcclAlltoAllV(xp, *[a.ctypes.data for a in arrays[:2]], code, out.ptr,
                                *[a.ctypes.data for a in arrays[2:]], code, comm, stream)
    elif name == "alltoallvc":
        matrix = np.ascontiguousarray(alltoallv_counts(size, count), dtype=np.uint64)
        keep.append(matrix)
        rc = hccl.HcclAlltoAllVC(xp, matrix.ctypes.data, code, out.ptr, code, comm, stream)
    elif name == "sendrecv":  # a ring pass; even ranks send first, odd ranks receive first
        nxt, prev = (r + 1) % size, (r - 1) % size
        calls = [lambda: hccl.HcclSend(xp, count, code, nxt, comm, stream),
                 lambda: hccl.HcclRecv(out.ptr, count, code, prev, comm, stream)]
        for call in (calls if r % 2 == 0 else calls[::-1]):
            sim.hccl_check(call(), name)
        rc = 0
    elif name == "groupsendrecv":  # every rank sends first: the group makes it one step
        sim.hccl_check(hccl.HcclGroupStart(), "HcclGroupStart")
        sim.hccl_check(hccl.HcclSend(xp, count, code, (r + 1) % size, comm, stream), "HcclSend")
        sim.hccl_check(hccl.HcclRecv(out.ptr, count, code, (r - 1) % size, comm, stream), "HcclRecv")
        rc = hccl.HcclGroupEnd()
    elif name == "batchsendrecv":
        items = (sim.HcclSendRecvItem * 2)((sim.HCCL_SEND, xp, count, code, (r + 1) % size),
                                            (sim.HCCL_RECV, out.ptr, count, code, (r - 1) % size))
        keep.append(items)
        rc = hccl.HcclBatchSendRecv(items, 2, comm, stream)
    else:
        rc = hccl.HcclBarrier(comm, stream)
    sim.hccl_check(rc, f"{case}")
    return out


def run_every_case(ranks: list[sim.Rank]) -> dict:
    """Queues every case on every rank given (all of them before any synchronisation), then
    returns each rank's results, its communicator's name and what it said about itself."""
    keep: list = []
    cases = case_list(ranks[0].size)
    outputs = {(r.rank, case): issue(r, case, keep) for case in cases for r in ranks}
    answers = {}
    for r in ranks:
        rc, message = r.synchronize()
        assert rc == 0, message
        size, rank = ctypes.c_uint32(), ctypes.c_uint32()
        sim.hccl_check(sim.load_hccl().HcclGetRankSize(r.comm, ctypes.byref(size)), "HcclGetRankSize")
        sim.hccl_check(sim.load_hccl().HcclGetRankId(r.comm, ctypes.byref(rank)), "HcclGetRankId")
        answers[r.rank] = {"name": r.name(), "size": size.value, "rank": rank.value, "async": r.async_error(),
                           "segments": segments_of(r.name())}
    results = {(rank, case): out.to_numpy().view(sim.HCCL_TYPES[case[1]][1])
               for (rank, case), out in outputs.items()}
    return {"results": results, "answers": answers}


def check_every_case(size: int, runs: list[dict]) -> None:
    results, answers = {}, {}
    for run in runs:
        results.update(run["results"])
        answers.update(run["answers"])
    assert sorted(answers) == list(range(size))
    assert len({a["name"] for a in answers.values()}) == 1  # one communicator
    for rank, a in answers.items():
        assert (a["size"], a["rank"], a["async"], a["segments"]) == (size, rank, 0, [])
    for case in case_list(size):
        for rank in range(size):
            want = expected(case, size, rank)
            if want is not None:
                got = results[(rank, case)]
                assert got.dtype == want.dtype and np.array_equal(got, want), (case, rank, got[:8], want[:8])
    assert segments_of(answers[0]["name"]) == []  # nothing of the job left behind


@pytest.mark.parametrize("peer_read", ["1", "0"], ids=["reading-peers", "rings-only"])
@pytest.mark.parametrize("size", [2, 3])
def test_every_collective_between_processes_through_shared_memory(size: int, peer_read: str):
    env = {"ASCEND_SIM_HCCL_PEER_READ": peer_read}
    check_every_case(size, sim.run_ranks(size, run_every_case, env=env, timeout=120))


def test_every_collective_between_processes_over_tcp():
    check_every_case(3, sim.run_ranks(3, run_every_case, env={"ASCEND_SIM_HCCL_TRANSPORT": "tcp"}, timeout=120))


@pytest.mark.parametrize("peer_read", ["1", "0"], ids=["reading-peers", "rings-only"])
@pytest.mark.parametrize("size", [2, 3])
def test_every_collective_between_the_devices_of_one_process(size: int, peer_read: str):
    env = {"ASCEND_SIM_HCCL_PEER_READ": peer_read}
    check_every_case(size, sim.run_ranks(size, run_every_case, env=env, form="devices", timeout=120))


def formed(ranks: list[sim.Rank]) -> str:
    return ranks[0].name()


@pytest.mark.parametrize(("form", "env", "says"), [
    ("root_info", {}, "rank 1 by shared memory; large collectives read the peers' buffers directly"),
    ("root_info", {"ASCEND_SIM_HCCL_PEER_READ": "0"}, "rank 1 by shared memory; all data moves through the links"),
    ("root_info", {"ASCEND_SIM_HCCL_TRANSPORT": "tcp"}, "rank 1 by tcp; all data moves through the links"),
    ("devices", {}, "rank 1 by memory; large collectives read the peers' buffers directly"),
], ids=["processes", "processes-rings-only", "tcp", "devices"])
def test_the_log_says_how_ranks_reach_each_other(capfd, form: str, env: dict, says: str):
    """CANN's application log at INFO (ASCEND_GLOBAL_LOG_LEVEL=1) has one line per rank on its links."""
    name = sim.run_ranks(2, formed, env={"ASCEND_GLOBAL_LOG_LEVEL": "1", **env}, form=form, timeout=60)[0]
    lines = [line for line in capfd.readouterr().err.splitlines() if name in line]
    assert any(f"rank 0 of 2 ({name}): {says}" in line for line in lines), lines


# ---- stream order ----
def fill(array: sim.DeviceArray, value: float, stream: int) -> None:
    sim.check(sim.run_aclnn("aclnnInplaceFillScalar", array.tensor(), sim.Scalar(value), stream=stream))


def collective_in_stream_order(ranks: list[sim.Rank]) -> dict:
    (r,) = ranks
    hccl = sim.load_hccl()
    x = sim.DeviceArray.from_numpy(np.zeros(1000, np.float32), device=r.device)
    y = sim.DeviceArray.from_numpy(np.zeros(1000, np.float32), device=r.device)
    ones = sim.DeviceArray.from_numpy(np.ones(1000, np.float32), device=r.device)
    if r.rank == 1:
        time.sleep(0.5)  # rank 0's collective waits for this rank's
    fill(x, 2.0 + r.rank, r.stream)  # a kernel before the collective: the collective sees its result
    start = time.monotonic()
    sim.hccl_check(hccl.HcclAllReduce(x.ptr, y.ptr, 1000, sim.HCCL_TYPES["float32"][0], sim.HCCL_REDUCE_SUM, r.comm,
                                      r.stream), "HcclAllReduce")
    returned_after = time.monotonic() - start
    pending = sim.stream_status(r.stream) == sim.ACL_STREAM_STATUS_NOT_READY
    before = y.peek().copy()
    # A kernel after it runs after it.
    sim.check(sim.run_aclnn("aclnnInplaceAdd", y.tensor(), ones.tensor(), sim.Scalar(1.0), stream=r.stream))
    rc, message = r.synchronize()
    return {"returned_after": returned_after, "pending": pending, "before": before, "rc": rc, "message": message,
            "after": y.to_numpy()}


def test_a_collective_runs_in_stream_order_and_returns_at_once():
    for rank, answer in enumerate(sim.run_ranks(2, collective_in_stream_order, timeout=60)):
        assert (answer["rc"], answer["message"]) == (0, "")
        assert (answer["after"] == 6.0).all()  # 2 + 3, then + 1
        if rank == 0:
            assert answer["returned_after"] < 0.25
            assert answer["pending"]
            assert (answer["before"] == 0.0).all()  # nothing moved when the call returned


# ---- failures ----
def one_rank_exits(ranks: list[sim.Rank], count: int = 64) -> dict | None:
    (r,) = ranks
    if r.rank == r.size - 1:
        os._exit(0)
    hccl = sim.load_hccl()
    x = sim.DeviceArray.from_numpy(np.ones(count, np.float32), device=r.device)
    start = time.monotonic()
    sim.hccl_check(hccl.HcclAllReduce(x.ptr, x.ptr, count, sim.HCCL_TYPES["float32"][0], sim.HCCL_REDUCE_SUM, r.comm,
                                      r.stream), "HcclAllReduce")
    rc, message = r.synchronize()
    failed_after = time.monotonic() - start
    # The communicator stays failed: the next call says so at once.
    again = hccl.HcclBarrier(r.comm, r.stream)
    return {"rc": rc, "message": message, "async": r.async_error(), "failed_after": failed_after, "again": again,
            "name": r.name()}


@pytest.mark.parametrize(("transport", "count"), [("shm", 64), ("tcp", 64), ("shm", 1 << 20)],
                         ids=["shm", "tcp", "shm-reading-peers"])
def test_a_rank_that_exits_fails_the_others_within_the_timeout(transport: str, count: int):
    env = {"HCCL_EXEC_TIMEOUT": "3", "ASCEND_SIM_HCCL_TRANSPORT": transport}
    answers = sim.run_ranks(3, one_rank_exits, count, env=env, timeout=60)
    assert answers[2] is None
    for rank, answer in enumerate(answers[:2]):
        assert answer["rc"] == sim.ACL_ERROR_RT_LINK_ERROR, answer
        assert answer["message"].startswith(f"HcclAllReduce on rank {rank} of hccl_sim_"), answer["message"]
        assert "rank 2" in answer["message"], answer["message"]
        assert answer["async"] in (sim.HCCL_E_REMOTE, sim.HCCL_E_TIMEOUT)
        assert answer["again"] == answer["async"]
        assert answer["failed_after"] < 3 + 2
        assert segments_of(answer["name"]) == []


def one_rank_stays_away(ranks: list[sim.Rank]) -> dict | None:
    (r,) = ranks
    if r.rank == 1:
        time.sleep(1.8)  # alive, but never calls the collective
        return None
    x = sim.DeviceArray.from_numpy(np.ones(64, np.float32), device=r.device)
    start = time.monotonic()
    sim.hccl_check(sim.load_hccl().HcclAllReduce(x.ptr, x.ptr, 64, sim.HCCL_TYPES["float32"][0], sim.HCCL_REDUCE_SUM,
                                                 r.comm, r.stream), "HcclAllReduce")
    rc, message = r.synchronize()
    return {"rc": rc, "message": message, "async": r.async_error(), "failed_after": time.monotonic() - start}


def test_a_rank_that_never_calls_fails_the_others_after_the_timeout():
    answer = sim.run_ranks(2, one_rank_stays_away, env={"HCCL_EXEC_TIMEOUT": "1"}, timeout=60)[0]
    assert answer["rc"] == sim.ACL_ERROR_RT_LINK_ERROR
    assert answer["async"] == sim.HCCL_E_TIMEOUT
    assert re.fullmatch(r"HcclAllReduce on rank 0 of hccl_sim_\w+ failed: timed out after 1 s \(HCCL_EXEC_TIMEOUT\) "
                        r"waiting for rank 1", answer["message"]), answer["message"]
    assert 1 <= answer["failed_after"] < 2


def one_rank_destroys_its_communicator(ranks: list[sim.Rank]) -> dict | None:
    (r,) = ranks
    if r.rank == 1:
        sim.hccl_check(sim.load_hccl().HcclCommDestroy(r.comm), "HcclCommDestroy")
        r.comm = None
        time.sleep(0.5)  # alive, its communicator gone
        return None
    sim.hccl_check(sim.load_hccl().HcclBarrier(r.comm, r.stream), "HcclBarrier")
    start = time.monotonic()
    rc, message = r.synchronize()
    return {"rc": rc, "message": message, "async": r.async_error(), "failed_after": time.monotonic() - start}


def test_a_rank_that_destroys_its_communicator_fails_the_others_at_once():
    answer = sim.run_ranks(2, one_rank_destroys_its_communicator, env={"HCCL_EXEC_TIMEOUT": "30"}, timeout=60)[0]
    assert answer["rc"] == sim.ACL_ERROR_RT_LINK_ERROR
    assert answer["async"] == sim.HCCL_E_REMOTE
    assert re.fullmatch(r"HcclBarrier on rank 0 of hccl_sim_\w+ failed: rank 1 destroyed its communicator",
                        answer["message"]), answer["message"]
    assert answer["failed_after"] < 0.5


def disagreeing(ranks: list[sim.Rank], what: str) -> dict:
    (r,) = ranks
    hccl = sim.load_hccl()
    odd = r.rank == 1
    x = sim.DeviceArray.from_numpy(np.ones(8, np.float32), device=r.device)
    count = 4 if what == "count" and odd else 8
    dtype = sim.HCCL_TYPES["int32" if what == "dtype" and odd else "float32"][0]
    if what == "call" and odd:
        rc = hccl.HcclBroadcast(x.ptr, count, dtype, 0, r.comm, r.stream)
    else:
        rc = hccl.HcclAllReduce(x.ptr, x.ptr, count, dtype, sim.HCCL_REDUCE_SUM, r.comm, r.stream)
    sim.hccl_check(rc, what)
    rc, message = r.synchronize()
    return {"rc": rc, "message": message, "async": r.async_error()}


@pytest.mark.parametrize("what, says", [
    ("count", ["count 8 on this rank (0), 4 on rank 1", "count 4 on this rank (1), 8 on rank 0"]),
    ("dtype", ["data type HCCL_DATA_TYPE_FP32 on this rank (0), HCCL_DATA_TYPE_INT32 on rank 1",
               "data type HCCL_DATA_TYPE_INT32 on this rank (1), HCCL_DATA_TYPE_FP32 on rank 0"]),
    ("call", ["rank 1 called HcclBroadcast at this step, this rank (0) HcclAllReduce",
              "rank 0 called HcclAllReduce at this step, this rank (1) HcclBroadcast"]),
])
def test_ranks_that_disagree_fail_naming_both_values(what: str, says: list[str]):
    answers = sim.run_ranks(2, disagreeing, what, env={"HCCL_EXEC_TIMEOUT": "10"}, timeout=60)
    for rank, answer in enumerate(answers):
        assert answer["rc"] == sim.ACL_ERROR_RT_LINK_ERROR
        assert answer["async"] == sim.HCCL_E_PARA
        call = "HcclBroadcast" if what == "call" and rank == 1 else "HcclAllReduce"
        assert answer["message"].startswith(f"{call} on rank {rank} of hccl_sim_"), answer["message"]
        assert answer["message"].endswith(says[rank]), answer["message"]


# ---- arguments, checked when the call is made ----
@pytest.fixture
def lone_comm(acl, hccl):
    """A communicator of one rank, device 0 of this process."""
    comms = (ctypes.c_void_p * 1)()
    sim.hccl_check(hccl.HcclCommInitAll(1, (ctypes.c_int32 * 1)(0), comms), "HcclCommInitAll")
    yield comms[0]
    sim.hccl_check(hccl.HcclCommDestroy(comms[0]), "HcclCommDestroy")


@pytest.fixture(scope="module")
def hccl(acl) -> ctypes.CDLL:
    return sim.load_hccl()


def test_a_lone_rank_reduces_to_its_own_values(hccl, lone_comm, stream):
    x = sim.DeviceArray.from_numpy(np.arange(8, dtype=np.float32))
    y = sim.DeviceArray.from_numpy(np.zeros(8, dtype=np.float32))
    sim.hccl_check(hccl.HcclAllReduce(x.ptr, y.ptr, 8, 4, sim.HCCL_REDUCE_MAX, lone_comm, stream), "HcclAllReduce")
    sim.check(sim.load().aclrtSynchronizeStream(stream))
    assert (y.to_numpy() == np.arange(8)).all()


@pytest.mark.parametrize("dtype, op, code, message", [
    (sim.HCCL_DATA_TYPE_FP8E4M3, sim.HCCL_REDUCE_SUM, sim.HCCL_E_NOT_SUPPORT,
     "HcclAllReduce: dataType HCCL_DATA_TYPE_FP8E4M3 cannot be reduced (op HCCL_REDUCE_SUM)"),
    (4, 7, sim.HCCL_E_PARA, "HcclAllReduce: op 7 is not an HcclReduceOp (HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, "
                            "HCCL_REDUCE_MAX, HCCL_REDUCE_MIN)"),
    (99, sim.HCCL_REDUCE_SUM, sim.HCCL_E_PARA, "HcclAllReduce: dataType 99 is not an HcclDataType"),
])
def test_a_reduction_it_cannot_do_is_refused_naming_the_argument(hccl, lone_comm, stream, dtype, op, code, message):
    x = sim.DeviceArray.from_numpy(np.zeros(8, dtype=np.float32))
    assert hccl.HcclAllReduce(x.ptr, x.ptr, 2, dtype, op, lone_comm, stream) == code
    assert sim.recent_error() == message


def test_an_fp8_broadcast_moves_bytes(hccl, lone_comm, stream):
    x = sim.DeviceArray.from_numpy(np.arange(8, dtype=np.uint8))
    sim.hccl_check(hccl.HcclBroadcast(x.ptr, 8, sim.HCCL_DATA_TYPE_FP8E4M3, 0, lone_comm, stream), "HcclBroadcast")
    sim.check(sim.load().aclrtSynchronizeStream(stream))
    assert (x.to_numpy() == np.arange(8)).all()


def test_a_root_outside_the_communicator_is_refused(hccl, lone_comm, stream):
    x = sim.DeviceArray.from_numpy(np.zeros(8, dtype=np.float32))
    assert hccl.HcclBroadcast(x.ptr, 8, 4, 1, lone_comm, stream) == sim.HCCL_E_PARA
    assert sim.recent_error() == "HcclBroadcast: root 1 is not a rank of the communicator (1 ranks)"


def test_a_group_ends_only_after_it_started(hccl):
    assert hccl.HcclGroupEnd() == sim.HCCL_E_PARA
    assert sim.recent_error() == "HcclGroupEnd: no HcclGroupStart before it"
    assert (hccl.HcclGroupStart(), hccl.HcclGroupStart(), hccl.HcclGroupEnd(), hccl.HcclGroupEnd()) == (0, 0, 0, 0)


def test_a_destroyed_communicator_is_not_a_communicator(hccl, acl):
    comms = (ctypes.c_void_p * 2)()
    sim.hccl_check(hccl.HcclCommInitAll(2, (ctypes.c_int32 * 2)(0, 1), comms), "HcclCommInitAll")
    for comm in comms:
        sim.hccl_check(hccl.HcclCommDestroy(comm), "HcclCommDestroy")
    size = ctypes.c_uint32()
    assert hccl.HcclGetRankSize(comms[0], ctypes.byref(size)) == sim.HCCL_E_PARA
    assert sim.recent_error() == f"HcclGetRankSize: comm {hex(comms[0])} is not a live communicator"


def test_init_all_refuses_a_device_twice(hccl):
    comms = (ctypes.c_void_p * 2)()
    assert hccl.HcclCommInitAll(2, (ctypes.c_int32 * 2)(1, 1), comms) == sim.HCCL_E_PARA
    assert sim.recent_error() == "HcclCommInitAll: devices[1] = 1 is not a device, or repeats one"


def test_a_rank_that_never_joins_times_out(hccl):
    # A segment a crashed job left (its process is gone): the next init removes it.
    gone = subprocess.Popen(["true"])
    gone.wait()
    stale = Path(f"/dev/shm/ascend_sim_hccl_00000000deadbeef_1_{gone.pid}")
    stale.write_bytes(b"")
    os.environ["HCCL_CONNECT_TIMEOUT"] = "1"
    try:
        info = ctypes.create_string_buffer(sim.HCCL_ROOT_INFO_BYTES)
        sim.hccl_check(hccl.HcclGetRootInfo(info), "HcclGetRootInfo")
        comm = ctypes.c_void_p()
        start = time.monotonic()
        assert hccl.HcclCommInitRootInfo(2, info, 0, ctypes.byref(comm)) == sim.HCCL_E_TIMEOUT
        assert time.monotonic() - start < 3
        assert re.fullmatch(r"HcclCommInitRootInfo: rank 0 of 2 \(job hccl_sim_\w+\): timed out waiting for the "
                            r"other ranks \(1 of 2 joined\)", sim.recent_error()), sim.recent_error()
        assert segments_of("hccl_sim_" + sim.recent_error().split("hccl_sim_")[1].split(")")[0]) == []
        assert not stale.exists()
    finally:
        del os.environ["HCCL_CONNECT_TIMEOUT"]
        stale.unlink(missing_ok=True)


def test_an_unknown_transport_is_refused(hccl, monkeypatch):
    monkeypatch.setenv("ASCEND_SIM_HCCL_TRANSPORT", "rdma")
    info = ctypes.create_string_buffer(sim.HCCL_ROOT_INFO_BYTES)
    sim.hccl_check(hccl.HcclGetRootInfo(info), "HcclGetRootInfo")
    comm = ctypes.c_void_p()
    assert hccl.HcclCommInitRootInfo(2, info, 0, ctypes.byref(comm)) == sim.HCCL_E_PARA
    assert sim.recent_error().endswith("ASCEND_SIM_HCCL_TRANSPORT=rdma is neither shm nor tcp"), sim.recent_error()


# ---- communicators from a rank table (HcclCommInitClusterInfo) ----
def rank_table(servers: dict[str, list[tuple[int, int]]], **extra) -> dict:
    """CANN's rank table (version 1.0): per server, its (device id, rank id) pairs, numbers as strings."""
    return {"status": "completed", "version": "1.0", "server_count": str(len(servers)), **extra,
            "server_list": [{"server_id": server, "device": [
                {"device_id": str(d), "device_ip": f"192.168.100.{10 + r}", "rank_id": str(r)} for d, r in devices]}
                for server, devices in servers.items()]}


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def all_reduce_of_ranks(ranks: list[sim.Rank], count: int) -> dict:
    (r,) = ranks
    x = sim.DeviceArray.from_numpy(np.full(count, r.rank + 1, np.float32), device=r.device)
    sim.hccl_check(sim.load_hccl().HcclAllReduce(x.ptr, x.ptr, count, sim.HCCL_TYPES["float32"][0],
                                                 sim.HCCL_REDUCE_SUM, r.comm, r.stream), "HcclAllReduce")
    rc, message = r.synchronize()
    return {"rc": rc, "message": message, "sum": x.to_numpy(), "name": r.name()}


@pytest.mark.parametrize("size", [2, 3])
def test_ranks_form_a_communicator_from_a_rank_table(tmp_path, size: int):
    """The table's ranks, numbers written as CANN's tools write them, on one server: every rank
    reaches rank 0 on HCCL_IF_BASE_PORT and the collectives run (a small and a large all-reduce)."""
    path = tmp_path / "rank_table.json"
    path.write_text(json.dumps(rank_table({"127.0.0.1": [(r % 2, r) for r in range(size)]}), indent=2))
    env = {"RANK_TABLE_FILE": str(path), "HCCL_IF_BASE_PORT": str(free_port())}
    for count in (5, 1 << 18):
        answers = sim.run_ranks(size, all_reduce_of_ranks, count, env=env, form="rank_table", timeout=60)
        for a in answers:
            assert (a["rc"], a["message"]) == (0, ""), a
            assert np.array_equal(a["sum"], np.full(count, size * (size + 1) / 2, np.float32))
        assert len({a["name"] for a in answers}) == 1


@pytest.mark.parametrize(("table", "says"), [
    ('{"status": "completed", "server_list": [\n  {"server_id": "127.0.0.1", "device": [\n'
     '    {"device_id": "0", "rank_id": "0"},\n    {"device_id": "1", "rank_id": "zero"}]}]}',
     r"rank_table.json:4: \"rank_id\" must be a whole number, not \"zero\""),
    ('{"server_list": [{"server_id": "127.0.0.1", "device": [{"device_id": "0", "rank_id": "0"},\n'
     '{"device_id": "1", "rank_id": "0"}]}]}', r"rank_table.json:2: rank 0 is given twice \(also on line 1\)"),
    ('{"server_list": [{"server_id": "127.0.0.1", "device": [{"device_id": "0", "rank_id": "1"}]}]}',
     r"rank_table.json:1: no device holds rank 0"),
    ('{"server_list": [{"server_id": "node-a", "device": [{"device_id": "0", "rank_id": "0"}]}]}',
     r"rank_table.json:1: server \"node-a\": \"node-a\" is not an IPv4 address"),
    ('{"status": "initializing", "server_list": []}', r"rank_table.json:1: \"status\" is \"initializing\""),
    ('{"server_list": [\n\n  {"server_id" "127.0.0.1"}]}', r"rank_table.json:3: expected ':' after \"server_id\""),
    ('{"server_list": [{"server_id": "127.0.0.1", "device": [{"device_id": "0", "rank_id": "0"}]}]}',
     r"rank 3 is not in the rank table .*rank_table.json \(ranks 0 to 0\)"),
], ids=["bad-number", "rank-twice", "rank-missing", "not-an-address", "incomplete", "bad-json", "rank-outside"])
def test_a_wrong_rank_table_is_refused_naming_the_file_and_line(hccl, tmp_path, table: str, says: str):
    path = tmp_path / "rank_table.json"
    path.write_text(table)
    comm = ctypes.c_void_p()
    assert hccl.HcclCommInitClusterInfo(str(path).encode(), 3, ctypes.byref(comm)) == sim.HCCL_E_PARA
    assert re.search("^HcclCommInitClusterInfo: .*" + says, sim.recent_error()), sim.recent_error()


def test_a_missing_rank_table_is_refused(hccl, tmp_path):
    comm = ctypes.c_void_p()
    missing = tmp_path / "none.json"
    assert hccl.HcclCommInitClusterInfo(str(missing).encode(), 0, ctypes.byref(comm)) == sim.HCCL_E_PARA
    assert sim.recent_error() == (f"HcclCommInitClusterInfo: cannot open the rank table {missing} "
                                  "(No such file or directory)")


def test_an_unknown_peer_read_setting_is_refused(hccl, monkeypatch):
    monkeypatch.setenv("ASCEND_SIM_HCCL_PEER_READ", "yes")
    info = ctypes.create_string_buffer(sim.HCCL_ROOT_INFO_BYTES)
    sim.hccl_check(hccl.HcclGetRootInfo(info), "HcclGetRootInfo")
    comm = ctypes.c_void_p()
    assert hccl.HcclCommInitRootInfo(2, info, 0, ctypes.byref(comm)) == sim.HCCL_E_PARA
    assert sim.recent_error().endswith("ASCEND_SIM_HCCL_PEER_READ=yes is neither 0 nor 1"), sim.recent_error()


# ---- the header and what is left unsimulated ----
def test_the_header_declares_hccls_functions():
    functions = declared_functions()
    assert len(functions) == 47, sorted(functions)
    assert functions["HcclAllReduce"] == ("HcclResult", 7)
    assert functions["HcclGroupStart"] == ("HcclResult", 0)


@pytest.mark.skipif(shutil.which("nm") is None, reason="reads the exports with nm")
def test_libhccl_exports_exactly_the_declared_functions():
    out = subprocess.run(["nm", "-D", "--defined-only", ascendc_kernels.library_path("hccl")],
                         capture_output=True, text=True, check=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if line.split()[-2:-1] == ["T"]}
    assert exported == set(declared_functions())


def test_hccl_leaves_the_last_acl_error_alone(acl, hccl):
    acl.aclrtGetLastError(0)  # takes what earlier calls left
    assert hccl.HcclCommSuspend(None) == sim.HCCL_E_NOT_SUPPORT
    assert acl.aclrtPeekAtLastError(0) == sim.ACL_SUCCESS  # HCCL's codes are not ACL's


def test_error_strings_name_the_code_and_keep_the_recent_error(hccl):
    hccl.HcclGetErrorString.restype = ctypes.c_char_p
    hccl.HcclGetErrorString.argtypes = [ctypes.c_int]
    assert hccl.HcclCommResume(None) == sim.HCCL_E_NOT_SUPPORT
    assert hccl.HcclGetErrorString(sim.HCCL_E_NOT_SUPPORT) == b"HCCL_E_NOT_SUPPORT"
    assert hccl.HcclGetErrorString(sim.HCCL_SUCCESS) == b"HCCL_SUCCESS"
    assert hccl.HcclGetErrorString(1000) == b"unknown HcclResult"
    assert sim.recent_error() == not_supported_message("HcclCommResume")


def test_no_communicator_configuration_field_is_understood(hccl):
    hccl.HcclGetCommConfigCapability.restype = ctypes.c_uint32
    assert hccl.HcclGetCommConfigCapability() == 0  # HCCL_COMM_CONFIG_BUFFER_SIZE, the first field
    assert sim.recent_error() == not_supported_message("HcclGetCommConfigCapability")


# Every parameter of HCCL's functions is an integer, a pointer or a union of one int32 (HcclConfigValue),
# each passed like an integer: zeros of pointer width are valid arguments for any of them.
NOT_SIMULATED = sorted(name for name, (returns, _) in declared_functions().items()
                       if returns == "HcclResult" and name not in SIMULATED)


def test_what_is_left_unsimulated():
    assert NOT_SIMULATED == sorted([
        "HcclCommActivateCommMemory", "HcclCommDeactivateCommMemory",
        "HcclCommDeregister", "HcclCommExchangeMem",
        "HcclCommInitRootInfoScalable", "HcclCommRegister", "HcclCommResume", "HcclCommSetMemoryRange",
        "HcclCommSuspend", "HcclCommUnsetMemoryRange", "HcclCommWorkingDevNicSet", "HcclCreateSubCommConfig",
        "HcclGetCommConfig", "HcclGetConfig", "HcclGetRootInfoScalable",
        "HcclSetCommConfig", "HcclSetConfig"])


@pytest.mark.parametrize("name", NOT_SIMULATED)
def test_every_function_left_says_it_is_not_supported(hccl, name: str):
    _, arity = declared_functions()[name]
    fn = getattr(ctypes.CDLL(ascendc_kernels.library_path("hccl")), name)
    fn.restype, fn.argtypes = ctypes.c_int, [ctypes.c_void_p] * arity
    assert fn(*[None] * arity) == sim.HCCL_E_NOT_SUPPORT
    assert sim.recent_error() == not_supported_message(name)
