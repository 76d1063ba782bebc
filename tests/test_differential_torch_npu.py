"""Our runtime against upstream's torch_npu on the same simulated device, with the same OpInfo samples.

Both run ``tests/npu_differential.py`` in a process of their own: ours as the label's environment
has it, upstream's from the torch-npu 2.13.0 wheel (downloaded at test time, never committed) in
the simulator's CANN-style install (``ascendc_kernels.toolkit``), with ``TASK_QUEUE_ENABLE=0`` so
that an operator it cannot run fails at its call instead of poisoning the ops queued after it. The
OpInfos are those of the operators our runtime declares and registers for the label (the OpInfo
suite's selection), float32, the first samples of each.

For every operator (forward, in place, backward) the test prints which runtime ran it, whether the
two agree with each other and whether they equal CPU, and how much of the simulator each reached;
it fails on a check both runtimes ran whose results disagree, naming each, unless upstream's own
design explains it (UPSTREAM_DEVIATIONS, each with the reason; an entry that no longer disagrees
fails too). Where both agree with each other but not with CPU, the simulator computed it so for
both: the OpInfo suite holds our runtime to CPU. Marker ``differential``: run by
``.ci/run`` and ``nox -s real-torch-npu -- v2.13``; ``nox -s test -- v2.13 --differential`` adds
it to the test session.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import npu_opinfo  # loaded by tests/conftest.py
import pytest
import torch
from torch.utils._pytree import tree_flatten
from upstream_wheel import WHEEL_VERSION, extract_torch_npu, upstream_environment  # tests/conftest.py loads it

pytestmark = [
    pytest.mark.differential,
    pytest.mark.skipif(not importlib.metadata.version("torch").startswith(WHEEL_VERSION),
                       reason=f"upstream's torch_npu {WHEEL_VERSION} runs on torch {WHEEL_VERSION} only"),
]

WORKER = Path(__file__).resolve().with_name("npu_differential.py")
# Operators whose result upstream's torch_npu makes differ from CPU's by its own design, each with the
# reason read in upstream's sources; they are listed, not failed. An entry that no longer differs fails.
UPSTREAM_DEVIATIONS = {
    "nn.functional.gelu": "op-plugin's gelu_out calls aclnnGelu (the erf form) whatever `approximate` says, "
                          "unless torch_npu.npu.use_compatible_impl(True) or on an aclnn-only SoC",
    "nn.functional.gelu (backward)": "op-plugin's gelu_backward calls aclnnGeluBackward (the erf form) whatever "
                                     "`approximate` says, unless use_compatible_impl(True) or an aclnn-only SoC",
    "nn.functional.max_pool3d": "op-plugin's max_pool3d_with_indices returns the indices as int32 "
                                "(aclnnMaxPool3dWithArgmax's output), CPU as int64",
    "nn.functional.adaptive_max_pool3d": "op-plugin's adaptive_max_pool3d returns the indices as int32, CPU as int64",
}
# A worker that crashed is started again after the operator it was running, at most this often.
MAX_RESTARTS = 20


def run_worker(ids: list[str], out: Path, env: dict[str, str]) -> dict[int, str]:
    """Runs the worker over ``ids``, restarting it after a crash; returns the crashes by index."""
    out.mkdir(parents=True, exist_ok=True)
    crashes: dict[int, str] = {}
    start = 0
    while start < len(ids):
        result = subprocess.run([sys.executable, str(WORKER), str(out), str(start), *ids[start:]],
                                capture_output=True, text=True, env=env, timeout=3600)
        if result.returncode == 0:
            break
        started = [int(line.split()[1]) for line in result.stdout.splitlines() if line.startswith("START ")]
        at = started[-1] if started else start
        crashes[at] = f"the process died (exit {result.returncode}): {result.stderr.strip()[-300:]}"
        if not started or len(crashes) > MAX_RESTARTS:
            raise AssertionError(f"the worker keeps dying ({len(crashes)} times); last:\n{result.stderr[-3000:]}")
        start = at + 1
    return crashes


def load(out: Path, ids: list[str], crashes: dict[int, str]) -> tuple[dict[str, list[dict]], set[str]]:
    """Each OpInfo's sample records, and the simulator APIs the runtime's kernels were launched by."""
    records, origins = {}, set()
    for index, opinfo_id in enumerate(ids):
        if index in crashes:
            records[opinfo_id] = [{"status": "crash", "detail": crashes[index], "result": None}]
            continue
        saved = torch.load(out / f"{index}.pt", weights_only=False)
        for check, samples in saved["checks"].items():
            records[opinfo_id if check == "forward" else f"{opinfo_id} ({check})"] = samples
        origins |= set(saved["origins"])
    return records, origins


def results_agree(ours: object, upstream: object) -> str:
    """'' when the two runtimes' results are the same within the OpInfo suite's tolerance, else why not."""
    ours_leaves, ours_spec = tree_flatten(ours)
    upstream_leaves, upstream_spec = tree_flatten(upstream)
    if ours_spec != upstream_spec:
        return f"result structure {ours_spec} != {upstream_spec}"
    for i, (a, b) in enumerate(zip(ours_leaves, upstream_leaves)):
        if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
            if a != b and not (a != a and b != b):
                return f"result {i}: {a!r} != {b!r}"
            continue
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"result {i}: {a.dtype} {tuple(a.shape)} != {b.dtype} {tuple(b.shape)}"
        rtol, atol = npu_opinfo.TOLERANCES.get(a.dtype, (0.0, 0.0))
        if not torch.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True) if a.is_floating_point() else \
                not torch.equal(a, b):
            return f"result {i}: values differ (largest difference {(a.double() - b.double()).abs().max().item()})"
    return ""


@pytest.fixture(scope="module")
def comparison(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[dict]]]:
    from torch.testing._internal.common_methods_invocations import op_db

    selected, _ = npu_opinfo.select(op_db, npu_opinfo.live_ops())
    ids = sorted({npu_opinfo.opinfo_id(o) for o in selected})
    root = tmp_path_factory.mktemp("differential")
    package = extract_torch_npu(root / "upstream")
    # Ours on the device only: an op that would go to the CPU fallback fails instead.
    ours_env = {**{k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}, "NPU_FALLBACK": "error"}
    with ThreadPoolExecutor(2) as pool:
        ours = pool.submit(run_worker, ids, root / "ours", ours_env)
        upstream = pool.submit(run_worker, ids, root / "upstream-out",
                               upstream_environment(package, TASK_QUEUE_ENABLE="0"))
        ours_crashes, upstream_crashes = ours.result(), upstream.result()
    ours_records, ours_origins = load(root / "ours", ids, ours_crashes)
    upstream_records, upstream_origins = load(root / "upstream-out", ids, upstream_crashes)
    return {"ours": ours_records, "upstream": upstream_records,
            "origins": {"ours": ours_origins, "upstream": upstream_origins}}


def declared_aclnn() -> set[str]:
    """The aclnn entry points libopapi exports (without their GetWorkspaceSize halves)."""
    from ascendc_kernels import library_path

    out = subprocess.run(["nm", "-D", "--defined-only", library_path("opapi")], capture_output=True, text=True,
                         check=True).stdout
    names = {line.split()[-1] for line in out.splitlines() if line.split()}
    return {n for n in names if n.startswith("aclnn") and not n.endswith("GetWorkspaceSize")}


def classify(ours: list[dict], upstream: list[dict]) -> tuple[str, str]:
    """(category, reason) of one operator: both ran it and agree, disagree, or who could not run it."""
    ran = {"equal", "differs", "random", "cpu_refuses"}
    unmade = [s for s in ours + upstream if s["status"] == "no_samples"]
    if not ours or unmade:
        return "not compared", unmade[0]["detail"] if unmade else "no samples"
    ours_ran = all(o["status"] in ran for o in ours)
    upstream_ran = all(u["status"] in ran for u in upstream)
    if not ours_ran or not upstream_ran:
        who = "neither" if not ours_ran and not upstream_ran else "only ours" if ours_ran else "only upstream"
        failed = next(s for pair in zip(ours, upstream) for s in pair if s["status"] not in ran)
        return f"run by {who}", failed["detail"]
    considered = [(o, u) for o, u in zip(ours, upstream)
                  if not {"random", "cpu_refuses"} & {o["status"], u["status"]}]
    unlike_cpu = ""
    for i, (o, u) in enumerate(considered):
        why = results_agree(o["result"], u["result"])
        if why:
            return "disagree", (f"sample {i}: ours and upstream's differ: {why} (ours {o['status']} CPU's result, "
                                f"upstream's {u['status']}: {(o['detail'] or u['detail'])[:120]})")
        if not unlike_cpu and "differs" in (o["status"], u["status"]):
            unlike_cpu = f"sample {i}: {o['detail'] or u['detail']}"
    if unlike_cpu:
        return "both differ from CPU alike", unlike_cpu
    return "agree", ""


def test_our_runtime_and_upstreams_agree_on_every_operator_both_run(comparison: dict) -> None:
    table: dict[str, list[tuple[str, str]]] = {}
    for opinfo_id in sorted(comparison["ours"]):
        category, reason = classify(comparison["ours"][opinfo_id], comparison["upstream"].get(opinfo_id, []))
        table.setdefault(category, []).append((opinfo_id, reason))
    disagreeing = dict(table.get("disagree", []))
    both = sum(len(table.get(c, [])) for c in ("agree", "disagree", "both differ from CPU alike"))
    print(f"\nOpInfo checks compared (forward, in-place, backward): {len(comparison['ours'])}; "
          f"run by both runtimes: {both}; agreeing: {len(table.get('agree', []))}; "
          f"disagreeing: {len(disagreeing)} ({len(set(disagreeing) & set(UPSTREAM_DEVIATIONS))} by upstream's design); "
          f"agreeing with each other, not with CPU: {len(table.get('both differ from CPU alike', []))}")
    for category in ("disagree", "both differ from CPU alike", "run by only ours", "run by only upstream",
                     "run by neither", "not compared"):
        for opinfo_id, reason in table.get(category, []):
            known = " [upstream's design]" if category == "disagree" and opinfo_id in UPSTREAM_DEVIATIONS else ""
            print(f"  {category:26} {opinfo_id:32} {reason[:150]}{known}")
    simulator_aclnn = declared_aclnn()
    for runtime, origins in comparison["origins"].items():
        reached = {o for o in origins if o in simulator_aclnn}
        acl_ops = sorted(o.split("(", 1)[1].rstrip(")") for o in origins if o.startswith("aclopCompileAndExecute("))
        print(f"  {runtime}: reached {len(reached)} of the simulator's {len(simulator_aclnn)} aclnn entry points; "
              f"acl op types: {', '.join(acl_ops) or 'none'}")
    assert both > 0, "no operator ran on both runtimes"
    problems = [f"{opinfo_id}: {reason}" for opinfo_id, reason in disagreeing.items()
                if opinfo_id not in UPSTREAM_DEVIATIONS]
    problems += [f"{opinfo_id}: listed in UPSTREAM_DEVIATIONS but the runtimes no longer disagree"
                 for opinfo_id in UPSTREAM_DEVIATIONS if opinfo_id not in disagreeing]
    assert not problems, "checks on which the runtimes disagree:\n  " + "\n  ".join(problems)
