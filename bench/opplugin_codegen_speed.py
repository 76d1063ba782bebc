"""How fast opplugin-codegen turns an upstream-sized YAML into the generated tree.

Measures, each as the median of several runs in fresh processes (so imports and the YAML
parse are counted, as a build would see them):

* one label:        ``python -m opplugin_codegen generate --label v2.13 ...``
* all 15 labels:    ``python -m opplugin_codegen generate --all-labels ...`` (one process)
* --check:          validation only
* a no-op rerun of one label (every file unchanged)

and prints each against its target (one label 0.5 s, all labels 3 s on a 2-core machine)
and against upstream op-plugin's measured 3.0-4.8 s per version (about 50 s for all 15;
shared/reference/opplugin.md section 5). Ratios below 1.0 beat the target.

    python bench/make_synthetic_yaml.py --out build/bench/yaml
    python bench/opplugin_codegen_speed.py --yaml-dir build/bench/yaml
"""

from __future__ import annotations

import argparse
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
    args = parser.parse_args()
    if not (args.yaml_dir / "op_plugin_functions.yaml").is_file():
        subprocess.run([sys.executable, str(ROOT / "bench" / "make_synthetic_yaml.py"), "--out",
                        str(args.yaml_dir)], check=True)  # fmt: skip
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(SRC),
               os.environ.get("PYTHONPATH")])))  # fmt: skip
    y = str(args.yaml_dir)
    work = Path(tempfile.mkdtemp(prefix="opplugin-bench-"))
    try:
        fresh = lambda i: ["generate", "--label", args.label, "--yaml-dir", y,  # noqa: E731
                           "--out", str(work / f"one{i}"), "-q"]  # fmt: skip
        one, one_all = median_of(args.runs, fresh, env)
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
    print(f"  --check        {check:6.3f} s")
    print(f"  unchanged rerun of one label {rerun:6.3f} s (no file rewritten)")


if __name__ == "__main__":
    main()
