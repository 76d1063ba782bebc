"""How fast opplugin-codegen turns an upstream-sized YAML into the generated tree.

Measures, each as the median of several runs in fresh processes (so imports and the YAML
parse are counted, as a build would see them):

* one label:        ``python -m opplugin_codegen generate --label v2.13 ...``
* all 15 labels:    ``python -m opplugin_codegen generate --all-labels ...`` (one process)
* --check:          validation only
* a no-op rerun of one label (every file unchanged)

all with the cache off (OPPLUGIN_CODEGEN_CACHE=off: every run parses and checks the YAML and
renders every file, as a first build does), and one label again with the cache filled (every
later build of unchanged YAML, into the same or a fresh directory: the rendered label comes
from the cache and its files are hard links of the ones written first),

and prints each against its target (one label 0.5 s, all labels 3 s on a 2-core machine)
and against upstream op-plugin's measured 3.0-4.8 s per version (about 50 s for all 15;
shared/reference/opplugin.md section 5). Ratios below 1.0 beat the target.

    python bench/make_synthetic_yaml.py --out build/bench/yaml
    python bench/opplugin_codegen_speed.py --yaml-dir build/bench/yaml

With ``--upstream DIR`` (a checkout of Ascend/op-plugin, e.g. from the ``fetch`` tool, or
OPPLUGIN_UPSTREAM=DIR), upstream's own generator runs side by side in the same run, as its
gencode.sh runs it (gen_op_plugin_functions, gen_derivatives, gen_op_backend and
gen_struct_opapi, one process each, per version), on the same input: upstream's real
op_plugin_functions.yaml, derivatives.yaml and deprecated.yaml from DIR (with torch_npu's
npu_native_functions.yaml from the torch-npu wheel of the v2.13 wheelhouse, which our
derivatives check reads; without it both sides run without derivatives.yaml). The ratios
printed then are ours against upstream's, measured here.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "packages" / "opplugin-codegen" / "src"

TARGET_ONE = 0.5
TARGET_ALL = 3.0
UPSTREAM_ONE = (3.0, 4.8)  # seconds per version, four Python steps
UPSTREAM_ALL = 50.0


# Both generators run from source trees; with PYTHONDONTWRITEBYTECODE (set on these machines)
# every process would compile every module again, which no installed generator does. Both
# sides get one bytecode cache, filled by a warm-up run that is not measured.
@functools.cache
def _pycache() -> Path:
    path = Path(tempfile.mkdtemp(prefix="opplugin-bench-pycache-"))
    atexit.register(shutil.rmtree, path, True)  # removed however the run ends
    return path


def _environ(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return dict(env, PYTHONPYCACHEPREFIX=str(_pycache()), **extra)


def run(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "opplugin_codegen", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - start


def median_of(n: int, make_args: callable, env: dict[str, str]) -> tuple[float, list[float]]:  # type: ignore[valid-type]
    times = [run(make_args(i), env) for i in range(n)]
    return statistics.median(times), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--yaml-dir", type=Path, default=ROOT / "build" / "bench" / "yaml")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--label", default="v2.13")
    parser.add_argument("--upstream", type=Path, default=os.environ.get("OPPLUGIN_UPSTREAM") or None,
                        help="a checkout of Ascend/op-plugin: run its generator side by side")  # fmt: skip
    args = parser.parse_args()
    if not (args.yaml_dir / "op_plugin_functions.yaml").is_file():
        subprocess.run([sys.executable, str(ROOT / "bench" / "make_synthetic_yaml.py"), "--out",
                        str(args.yaml_dir)], check=True)  # fmt: skip
    # cold (no model cache), as a first build sees it; `warm` below with the cache filled
    env = _environ(OPPLUGIN_CODEGEN_CACHE="off", PYTHONPATH=os.pathsep.join(filter(None, [str(SRC),
               os.environ.get("PYTHONPATH")])))  # fmt: skip
    y = str(args.yaml_dir)
    work = Path(tempfile.mkdtemp(prefix="opplugin-bench-"))
    try:
        fresh = lambda i: ["generate", "--label", args.label, "--yaml-dir", y,  # noqa: E731
                           "--out", str(work / f"one{i}"), "-q"]  # fmt: skip
        run(["check", "--yaml-dir", y], env)  # warm-up: fills the bytecode cache
        one, one_all = median_of(args.runs, fresh, env)
        warm_env = dict(env, OPPLUGIN_CODEGEN_CACHE=str(work / "cache"))
        run(fresh(args.runs), warm_env)
        one_warm, _ = median_of(args.runs, lambda i: fresh(args.runs + 1 + i), warm_env)
        every = lambda i: ["generate", "--all-labels", "--yaml-dir", y,  # noqa: E731
                           "--out-root", str(work / f"all{i}"), "-q"]  # fmt: skip
        all_, all_all = median_of(max(3, args.runs // 2), every, env)
        check, _ = median_of(args.runs, lambda i: ["check", "--yaml-dir", y], env)
        rerun, _ = median_of(args.runs, lambda i: ["generate", "--label", args.label,
                             "--yaml-dir", y, "--out", str(work / "one0"), "-q"], env)  # fmt: skip
        files = sum(1 for p in (work / "one0").rglob("*") if p.is_file())
        size = sum(p.stat().st_size for p in (work / "one0").rglob("*") if p.is_file())
    finally:
        shutil.rmtree(work, ignore_errors=True)

    lo, hi = UPSTREAM_ONE
    print(f"input: {args.yaml_dir} ({(args.yaml_dir / 'op_plugin_functions.yaml').stat().st_size // 1024} KB)")
    print(f"one label ({args.label}): {files} files, {size / 1e6:.2f} MB; "
          f"{args.runs} runs in fresh processes, median shown")  # fmt: skip
    print(f"  one label      {one:6.3f} s   target {TARGET_ONE} s  ratio {one / TARGET_ONE:5.2f}"
          f"   vs upstream {lo}-{hi} s: {lo / one:4.1f}-{hi / one:4.1f}x faster"
          f"   (runs: {', '.join(f'{t:.3f}' for t in one_all)})")  # fmt: skip
    print(f"  all 15 labels  {all_:6.3f} s   target {TARGET_ALL} s  ratio {all_ / TARGET_ALL:5.2f}"
          f"   vs upstream ~{UPSTREAM_ALL:.0f} s: {UPSTREAM_ALL / all_:4.1f}x faster"
          f"   (runs: {', '.join(f'{t:.3f}' for t in all_all)})")  # fmt: skip
    print(f"  one label, cache filled {one_warm:6.3f} s   vs upstream {lo}-{hi} s: "
          f"{lo / one_warm:4.1f}-{hi / one_warm:4.1f}x faster")  # fmt: skip
    print(f"  --check        {check:6.3f} s")
    print(f"  unchanged rerun of one label {rerun:6.3f} s (no file rewritten)")
    if args.upstream is not None:
        side_by_side(Path(args.upstream), args.runs)
    else:
        print("  (upstream's generator side by side: pass --upstream DIR, a checkout of Ascend/op-plugin)")


UPSTREAM_STEPS = (
    ("torchnpugen.gen_op_plugin_functions", "--version={v}", "--output_dir={out}/config/",
     "--source_yaml={yaml}/op_plugin_functions.yaml"),
    ("torchnpugen.gen_derivatives", "--version={v}", "--output_dir={out}/config/",
     "--source_yaml={yaml}/derivatives.yaml"),
    ("torchnpugen.gen_op_backend", "--version={v}", "--output_dir={out}/",
     "--source_yaml={out}/config/op_plugin_functions.yaml", "--deprecate_yaml={yaml}/deprecated.yaml",
     "--impl_path={out}/aten"),
    ("torchnpugen.struct.gen_struct_opapi", "--output_dir={out}/ops/opapi/",
     "--native_yaml={out}/config/op_plugin_functions.yaml", "--struct_yaml={yaml}/op_plugin_functions.yaml"),
)  # fmt: skip


def upstream_label(upstream: Path, yaml_dir: Path, version: str, out: Path, derivatives: bool) -> float:
    """Upstream's four steps for one version, as gencode.sh runs them (cwd: the checkout, whose
    templates it reads by relative path); the seconds they took. A failing step raises with
    its stderr. tests/test_upstream_op_plugin.py runs upstream's generator through this too."""
    for sub in ("config", "aten", "ops/opapi"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    env = _environ(PYTHONPATH=str(upstream), PYTORCH_VERSION=version)
    start = time.perf_counter()
    for module, *template in UPSTREAM_STEPS:
        if module.endswith("gen_derivatives") and not derivatives:
            continue
        argv = [t.format(v=version, out=out, yaml=yaml_dir) for t in template]
        result = subprocess.run([sys.executable, "-m", module, *argv], cwd=upstream, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)  # fmt: skip
        if result.returncode != 0:
            raise RuntimeError(f"upstream's {module} failed: {result.stderr[-2000:]}")
    return time.perf_counter() - start


def backend_yaml() -> bytes | None:
    """torch_npu's npu_native_functions.yaml from the torch-npu wheel of the v2.13 wheelhouse."""
    import zipfile

    house = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "npu-sim" / "wheelhouse" / "v2.13"
    for wheel in sorted(house.glob("torch_npu-2.13.0-*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            return archive.read("torch_npu/csrc/aten/npu_native_functions.yaml")
    return None


def side_by_side(upstream: Path, runs: int) -> None:
    config = upstream / "op_plugin" / "config"
    if not (config / "op_plugin_functions.yaml").is_file() or not (upstream / "torchnpugen").is_dir():
        sys.exit(f"{upstream}: not a checkout of Ascend/op-plugin (op_plugin/config, torchnpugen/)")
    sys.path.insert(0, str(SRC))
    from opplugin_codegen.errors import Diagnostics
    from opplugin_codegen.versions import load_registry

    work = Path(tempfile.mkdtemp(prefix="opplugin-vs-upstream-"))
    try:
        yaml_dir = work / "yaml"
        yaml_dir.mkdir()
        for name in ("op_plugin_functions.yaml", "deprecated.yaml"):
            shutil.copy(config / name, yaml_dir / name)
        shutil.copy(ROOT / "yaml" / "versions.yaml", yaml_dir / "versions.yaml")
        backend = backend_yaml()
        derivatives = backend is not None
        if derivatives:
            shutil.copy(config / "derivatives.yaml", yaml_dir / "derivatives.yaml")
            (yaml_dir / "npu_native_functions.yaml").write_bytes(backend)
        registry = load_registry(yaml_dir / "versions.yaml", "versions.yaml", Diagnostics())
        assert registry is not None
        versions = {label: ".".join(pin.split(".")[:2]) + ".0" for label, pin in zip(registry.labels, registry.torch)}
        base = _environ(PYTHONPATH=os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")])))
        # cold: nothing cached (what a first build sees); warm: the cache holds this YAML's
        # model and rendered labels (every later build with unchanged YAML), filled by one run
        cold = dict(base, OPPLUGIN_CODEGEN_CACHE="off")
        warm = dict(base, OPPLUGIN_CODEGEN_CACHE=str(work / "cache"))
        y = str(yaml_dir)
        label = "v2.13"
        one = lambda i: ["generate", "--label", label, "--yaml-dir", y,  # noqa: E731
                         "--out", str(work / f"ours{i}"), "-q"]  # fmt: skip
        run(["check", "--yaml-dir", y], cold)  # warm-ups: fill the bytecode cache of both sides
        upstream_label(upstream, yaml_dir, versions[label], work / "theirs-warm-up", derivatives)
        ours_one, _ = median_of(runs, one, cold)
        run(one(runs), warm)
        ours_one_warm, _ = median_of(runs, lambda i: one(runs + 1 + i), warm)
        theirs_one = statistics.median(
            upstream_label(upstream, yaml_dir, versions[label], work / f"theirs{i}", derivatives) for i in range(runs)
        )
        every = lambda i: ["generate", "--all-labels", "--yaml-dir", y,  # noqa: E731
                           "--out-root", str(work / f"ours_all{i}"), "-q"]  # fmt: skip
        ours_all, _ = median_of(max(1, runs // 2), every, cold)
        run(every(runs), warm)
        ours_all_warm, _ = median_of(max(1, runs // 2), lambda i: every(runs + 1 + i), warm)
        start = time.perf_counter()
        for lab, version in versions.items():
            upstream_label(upstream, yaml_dir, version, work / "theirs_all" / lab, derivatives)
        theirs_all = time.perf_counter() - start
    finally:
        shutil.rmtree(work, ignore_errors=True)
    size = (config / "op_plugin_functions.yaml").stat().st_size // 1024
    missing = " (no derivatives: no torch-npu wheel in the wheelhouse)"
    print(f"input: upstream's op_plugin_functions.yaml ({size} KB), deprecated.yaml"
          f"{', derivatives.yaml' if derivatives else missing}")  # fmt: skip
    print(f"generator: ours (opplugin-codegen) vs upstream's ({upstream}), both measured in this run")
    print("  (ours cold: nothing cached; warm: the cache holds this YAML's model and rendered labels,"
          " as in every rebuild, into the same or a fresh directory)")  # fmt: skip
    for what, theirs, ours_cold, ours_warm, target in (
        (f"one label ({label})", theirs_one, ours_one, ours_one_warm, 10),
        (f"all {len(versions)} labels", theirs_all, ours_all, ours_all_warm, 50),
    ):
        print(f"  {what:18} upstream {theirs:6.3f} s   ours cold {ours_cold:6.3f} s ({theirs / ours_cold:5.1f}x)   "
              f"warm {ours_warm:6.3f} s ({theirs / ours_warm:5.1f}x faster; target >= {target}x)")  # fmt: skip


if __name__ == "__main__":
    main()
