"""Upstream's torch_npu (the torch-npu 2.13.0 wheel of the package index, downloaded at test time,
never committed) on the simulator's libraries alone, with no stub library and no LD_PRELOAD:
every CANN function its libraries link is exported and every CANN library it names exists; the
dynamic loader resolves it; and, in the CANN-style install ``ascendc_kernels.toolkit`` makes,
``import torch_npu`` initialises the simulated devices and runs operators whose results equal
CPU's, while an operator the simulator lacks fails naming what is missing."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from upstream_wheel import WHEEL_VERSION, extract_torch_npu, upstream_environment  # tests/conftest.py loads it

pytestmark = pytest.mark.skipif(
    not importlib.metadata.version("torch").startswith(WHEEL_VERSION) or shutil.which("nm") is None,
    reason=f"upstream's torch_npu {WHEEL_VERSION} links torch {WHEEL_VERSION} (and the symbol check needs nm)",
)

# The CANN functions a client resolves from the toolkit's libraries.
CANN_SYMBOL = re.compile(r"^(?:acl\w+|Hccl\w+|hccl\w+|rt[A-Z]\w*|Msprof\w+)$")
# Upstream's libraries and what of them the loader must resolve.
BINARIES = ("torch_npu/lib/libtorch_npu.so", "torch_npu/lib/libtensorpipe.so", "torch_npu/lib/libnpu_profiler.so")


@pytest.fixture(scope="module")
def upstream_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return extract_torch_npu(tmp_path_factory.mktemp("torch-npu"))


@pytest.fixture(scope="module")
def simulator_lib() -> Path:
    import ascendc_kernels

    return Path(ascendc_kernels.__file__).parent / "lib"


def dynamic_symbols(library: Path, defined: bool) -> set[str]:
    flag = "--defined-only" if defined else "--undefined-only"
    out = subprocess.run(["nm", "-D", flag, str(library)], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.split()}


def needed_libraries(library: Path) -> set[str]:
    out = subprocess.run(["readelf", "-d", str(library)], capture_output=True, text=True, check=True).stdout
    return set(re.findall(r"\(NEEDED\)\s+Shared library: \[(\S+)\]", out))


def test_every_cann_function_the_binary_links_is_exported(upstream_package: Path, simulator_lib: Path) -> None:
    needed: set[str] = set()
    binaries = [upstream_package / b for b in BINARIES] + sorted((upstream_package / "torch_npu").glob("_C.*.so"))
    for binary in binaries:
        needed |= {s for s in dynamic_symbols(binary, defined=False) if CANN_SYMBOL.match(s)}
    exported: set[str] = set()
    for library in simulator_lib.glob("*.so"):
        exported |= dynamic_symbols(library, defined=True)
    missing = sorted(needed - exported)
    print(f"\nupstream's torch_npu links {len(needed)} CANN functions; the simulator exports "
          f"{len(needed) - len(missing)} of them")
    assert not missing, f"CANN functions upstream's torch_npu links that the simulator does not export: {missing}"


def test_every_cann_library_the_binary_names_exists(upstream_package: Path, simulator_lib: Path) -> None:
    upstream_own = {p.name for p in (upstream_package / "torch_npu" / "lib").glob("*.so")}
    needed: set[str] = set()
    for binary in BINARIES:
        needed |= needed_libraries(upstream_package / binary)
    cann = {n for n in needed if not n.startswith(("libc.", "libm.", "libstdc++", "libgcc", "libtorch", "libc10",
                                                   "ld-linux", "libpthread", "libdl.", "librt.", "libgomp"))}
    cann -= upstream_own
    missing = sorted(n for n in cann if not (simulator_lib / n).is_file())
    assert cann, "no CANN library found among the binary's NEEDED entries"
    assert not missing, f"CANN libraries upstream's torch_npu needs that the simulator does not ship: {missing}"


LOAD_PROGRAM = """
import ctypes, os, sys
import torch  # libtorch and libc10, which upstream's libraries link
for path in sys.argv[1:]:
    ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_GLOBAL)
print("loaded", len(sys.argv) - 1)
"""


def test_the_loader_resolves_upstreams_libraries_against_the_simulator(upstream_package: Path,
                                                                       simulator_lib: Path) -> None:
    """RTLD_NOW binds every function at load: an unexported one fails the load, naming it."""
    env = {key: value for key, value in os.environ.items() if key != "LD_PRELOAD"}
    env["LD_LIBRARY_PATH"] = str(simulator_lib)
    env["TORCH_DEVICE_BACKEND_AUTOLOAD"] = "0"  # upstream's torch_npu is not installed; ours stays out
    # libtorch_npu.so brings in its own libtensorpipe and libnpu_profiler (which uses libtorch_npu's symbols).
    libraries = [str(upstream_package / "torch_npu" / "lib" / "libtorch_npu.so")]
    libraries += [str(p) for p in sorted((upstream_package / "torch_npu").glob("_C.*.so"))]
    result = subprocess.run([sys.executable, "-c", LOAD_PROGRAM, *libraries], capture_output=True, text=True,
                            env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == f"loaded {len(libraries)}"


def run_upstream(program: str, package: Path, *args: str, env: dict[str, str] | None = None
                 ) -> subprocess.CompletedProcess:
    """Runs ``program`` with upstream's torch_npu first on the path, in the simulator's CANN-style
    install; our runtime is neither imported nor autoloaded."""
    variables = upstream_environment(package, **(env or {}))
    return subprocess.run([sys.executable, "-c", program, str(package), *args], capture_output=True, text=True,
                          env=variables, timeout=600)


# Operators upstream's torch_npu runs on the simulator (through aclnn, or acl_op where upstream
# chooses it), each a function of two float32 (4, 5) tensors.
OPERATORS = {
    "add": "a + b", "sub": "a - b", "add_scalar": "a.add(2.5, alpha=2)", "sub_scalar": "a - 2.5",
    "mul": "a * b", "div": "a / b", "neg": "-a", "abs": "a.abs()", "exp": "a.exp()",
    "log": "a.abs().log()", "sqrt": "a.abs().sqrt()", "pow": "a.abs().pow(2)", "relu": "a.relu()",
    "sigmoid": "a.sigmoid()", "tanh": "a.tanh()", "gelu": "torch.nn.functional.gelu(a)",
    "silu": "torch.nn.functional.silu(a)", "maximum": "torch.maximum(a, b)", "gt": "a > b",
    "where": "torch.where(a > 0, a, b)", "cast": "a.half().float()", "cat": "torch.cat([a, b])",
    "transpose": "a.t().contiguous()", "fill": "torch.zeros_like(a).fill_(3.0)",
    "index_select": "a.index_select(0, torch.tensor([0, 2], device=a.device))", "sum": "a.sum()",
    "sum_dim": "a.sum(1)", "mean": "a.mean()", "amax": "a.amax(1)", "softmax": "a.softmax(-1)",
    "layer_norm": "torch.nn.functional.layer_norm(a, (5,))", "mm": "a @ b.t()",
    "bmm": "torch.bmm(a.unsqueeze(0), b.t().unsqueeze(0))", "linear": "torch.nn.functional.linear(a, b)",
}

RUN_PROGRAM = """
import json, sys
import torch, torch_npu
assert torch_npu.__file__.startswith(sys.argv[1]), torch_npu.__file__
operators = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
torch.manual_seed(0)
a_cpu, b_cpu = torch.randn(4, 5), torch.randn(4, 5)
a, b = a_cpu.npu(), b_cpu.npu()
report = {"devices": torch.npu.device_count(), "name": torch.npu.get_device_name(0), "ops": {}}
for name, expression in operators.items():
    npu = eval(expression, {"torch": torch, "a": a, "b": b}).cpu()
    cpu = eval(expression, {"torch": torch, "a": a_cpu, "b": b_cpu})
    close = npu.dtype == cpu.dtype and npu.shape == cpu.shape and torch.allclose(npu.double(), cpu.double(),
                                                                                 rtol=1e-5, atol=1e-5)
    report["ops"][name] = "equal" if close else f"differs: npu {npu.tolist()} cpu {cpu.tolist()}"
print("REPORT " + json.dumps(report))
"""


def report_of(result: subprocess.CompletedProcess) -> dict:
    lines = [line for line in result.stdout.splitlines() if line.startswith("REPORT ")]
    output = f"exit {result.returncode}\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
    assert result.returncode == 0 and lines, output
    return json.loads(lines[-1].removeprefix("REPORT "))


def test_real_torch_npu_imports_and_initialises_in_the_simulators_install(upstream_package: Path) -> None:
    result = run_upstream(RUN_PROGRAM, upstream_package)
    report = report_of(result)
    assert report["devices"] == 2 and report["name"] == "Ascend910B1"
    assert "ASCEND_HOME_PATH environment variable is not set" not in result.stdout  # the install was found


def test_real_torch_npu_runs_operators_with_cpus_results(upstream_package: Path) -> None:
    report = report_of(run_upstream(RUN_PROGRAM, upstream_package, json.dumps(OPERATORS)))
    differing = {name: outcome for name, outcome in report["ops"].items() if outcome != "equal"}
    print(f"\nupstream's torch_npu ran {len(report['ops'])} operators on the simulator, "
          f"{len(report['ops']) - len(differing)} equal to CPU")
    assert sorted(report["ops"]) == sorted(OPERATORS)
    assert not differing


@pytest.mark.parametrize(("expression", "missing"), [
    ("a.sin()", "op type 'Sin' is not registered"),  # no aclnnSin: upstream falls back to acl_op Sin
    ("a.clamp(-0.5, 0.5)", "op type 'ClipByValueV2' is not registered"),
])
def test_an_operator_the_simulator_lacks_fails_naming_it(upstream_package: Path, expression: str,
                                                         missing: str) -> None:
    program = RUN_PROGRAM.split("report = ")[0] + f"y = ({expression}).cpu()\n"
    result = run_upstream(program, upstream_package)
    assert result.returncode != 0
    assert missing in result.stdout + result.stderr


EXPANDABLE_PROGRAM = """
import sys
import torch, torch_npu
assert torch_npu.__file__.startswith(sys.argv[1]), torch_npu.__file__
torch.manual_seed(0)
a, b = torch.randn(1000, 1000), torch.randn(1000, 1000)
print("same", torch.allclose((a.npu() @ b.npu() + a.npu()).cpu(), a @ b + a, rtol=1e-4, atol=1e-4))
big = torch.full((300 << 18,), 2.0, device="npu")  # 300 MiB: segments grow by mapping more memory
print("tail", big[-3:].cpu().tolist())
print("expandable", all(s["is_expandable"] for s in torch.npu.memory_snapshot()))
free_before = torch.npu.mem_get_info()[0]
del big
torch.npu.empty_cache()  # unmaps and frees the physical memory of the emptied segments
print("freed", (torch.npu.mem_get_info()[0] - free_before) >> 20)
"""


def test_real_torch_npu_expandable_segments_run_on_the_simulators_virtual_memory(upstream_package: Path) -> None:
    result = run_upstream(EXPANDABLE_PROGRAM, upstream_package,
                          env={"PYTORCH_NPU_ALLOC_CONF": "expandable_segments:True"})
    assert result.returncode == 0, result.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
    assert lines["same"] == "True" and lines["tail"] == "[2.0, 2.0, 2.0]" and lines["expandable"] == "True"
    assert int(lines["freed"]) >= 300


PROFILER_PROGRAM = """
import json, sys, pathlib
import torch, torch_npu
assert torch_npu.__file__.startswith(sys.argv[1]), torch_npu.__file__
out = pathlib.Path(sys.argv[2])
a = torch.randn(4, 4).npu()
activities = [torch_npu.profiler.ProfilerActivity.CPU, torch_npu.profiler.ProfilerActivity.NPU]
with torch_npu.profiler.profile(activities=activities,
                                on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(str(out))):
    b = torch.mm(a + a, a)
    torch.npu.synchronize()
(result,) = out.glob("*_ascend_pt/simulator_profile_*.json")
print("kernels", json.dumps(sorted({k["origin"] for k in json.loads(result.read_text())["kernels"]})))
(trace,) = out.glob("*_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")
print("framework", json.dumps(sorted({e["name"] for e in json.loads(trace.read_text()) if e.get("cat") == "cpu_op"})))
"""


def test_real_torch_npus_profiler_runs_a_session_on_the_simulator(upstream_package: Path, tmp_path: Path) -> None:
    """torch_npu's profiler starts a CANN session (aclprof*, through libmsprofiler, asking
    libascend_hal for the device's counter): the session's result holds the kernels upstream's
    operators ran, and torch_npu's own framework trace is written beside it."""
    result = run_upstream(PROFILER_PROGRAM, upstream_package, str(tmp_path), env={"TASK_QUEUE_ENABLE": "0"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Call start failed" not in result.stderr, result.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
    assert {"aclnnAdd", "aclnnMm"} <= set(json.loads(lines["kernels"]))
    assert {"aten::add", "aten::mm"} <= set(json.loads(lines["framework"]))
