"""How fast torchnpugen generates the npu registration for an upstream-sized op set,
next to stock torchgen's gen_backend_stubs on the same aten ops, in one process.

Input: an upstream-sized op-plugin YAML (bench/make_synthetic_yaml.py: ~1,050 official
aten ops with real schemas, ~420 custom ops, symint/quant/autograd markers, 84
derivatives), projected for v2.13 by opplugin-codegen, plus the project's
npu_native_functions.yaml. Synthetic custom ops that take a Generator (or are
dropout/rnn-like) get the nondeterministic_seeded tag torchgen requires.

Measured in this one process, after one shared parse of native_functions.yaml (torchgen's
parse_native_yaml is cached by path, and both generators use the packaged file):

* torchnpugen: generate() for v2.13 into a fresh directory (every artifact: shards,
  structured kernels, custom ops, functionalization, autograd, C shim, custom_ops.py)
* stock: torchgen.gen_backend_stubs.run() on a PrivateUse1 backend YAML listing the same
  aten operators (stock has no custom ops, structured external kernels or wrappers beyond
  the device guard)

Each is the median of --repeat runs; the ratio torchnpugen / stock is printed against
the target (generation <= 2 s, ratio <= 1.5). Nothing is asserted.

    build/venvs/v2.13/bin/python bench/torchnpugen_speed.py [--work build/bench/torchnpugen]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "packages" / "torchnpugen" / "src"), str(ROOT / "packages" / "opplugin-codegen" / "src")]

TARGET_SECONDS = 2.0
TARGET_RATIO = 1.5
_SEEDED = ("Generator", "dropout", "rrelu", "bernoulli", "multinomial", "normal", "rand", "lstm", "gru", "rnn")


def prepare(work: Path) -> tuple[Path, Path]:
    """(yaml dir, label out dir holding the projection) for the synthetic op set."""
    yaml_dir = work / "yaml"
    out = work / "v2.13"
    if not (out / "op_plugin" / "config" / "op_plugin_functions.yaml").is_file():
        subprocess.run(
            [sys.executable, str(ROOT / "bench" / "make_synthetic_yaml.py"), "--out", str(yaml_dir)], check=True
        )
        shutil.copy(ROOT / "yaml" / "npu_native_functions.yaml", yaml_dir / "npu_native_functions.yaml")
        from opplugin_codegen import generate as opplugin_generate

        opplugin_generate("v2.13", yaml_dir, out, shards=4)
        projection = out / "op_plugin" / "config" / "op_plugin_functions.yaml"
        lines, section = [], None
        for line in projection.read_text().splitlines(keepends=True):
            if re.match(r"^[a-z]+:", line):
                section = line.split(":")[0]
            lines.append(line)
            if section == "custom" and line.startswith("  - func:") and any(k in line for k in _SEEDED):
                lines.append('    tags: "nondeterministic_seeded"\n')
        projection.write_text("".join(lines))
    return yaml_dir, out


def stock_backend_yaml(path: Path, aten_ops: list[str]) -> None:
    body = "".join(f"  - {name}\n" for name in aten_ops)
    path.write_text(
        "backend: PrivateUse1\ncpp_namespace: at_npu::native\nclass_name: NPUNativeFunctions\n"
        f"device_guard: true\nsupported:\n{body}"
    )


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "bench" / "torchnpugen")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    yaml_dir, label_out = prepare(args.work)

    start = time.perf_counter()
    from torchgen.gen import parse_native_yaml
    from torchgen.gen_backend_stubs import run as stock_run
    from torchnpugen.compat import packaged_yaml_paths
    from torchnpugen.gen import generate

    native_yaml, tags_yaml = packaged_yaml_paths()
    parse_native_yaml(str(native_yaml), str(tags_yaml))  # once, shared by both generators
    parse_seconds = time.perf_counter() - start

    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)

        def run_torchnpugen():
            target = scratch / f"npu-{time.perf_counter_ns()}"
            shutil.copytree(label_out / "op_plugin", target / "op_plugin")
            return generate(label="v2.13", yaml_dir=yaml_dir, out_dir=target, shards=4)

        result = run_torchnpugen()  # warm-up (imports), also gives the op counts
        aten = [op for op in result.ops if op.namespace == "aten"]
        custom = [op for op in result.ops if op.namespace != "aten"]
        ours = median_time(run_torchnpugen, args.repeat)

        backend_yaml = scratch / "stock_backend.yaml"
        # Stock asserts on op families with a ()-returning member (its implicit out/in-place
        # wrappers expect one out argument, e.g. _foreach_*); those are left out of its list.
        natives = parse_native_yaml(str(native_yaml), str(tags_yaml)).native_functions
        void = {str(f.func.name.name.base) for f in natives if not f.func.returns}
        stock_ops = [op.schema_name for op in aten if str(op.f.func.name.name.base) not in void]
        stock_backend_yaml(backend_yaml, stock_ops)

        from torchgen.model import DispatchKey

        parsed = parse_native_yaml(str(native_yaml), str(tags_yaml))

        def run_stock():
            # stock adds its backend to the cached parse; drop it so the run can repeat
            parsed.backend_indices.pop(DispatchKey.PrivateUse1, None)
            stock_run(str(backend_yaml), str(scratch / f"stock-{time.perf_counter_ns()}"), dry_run=False)

        run_stock()
        stock = median_time(run_stock, args.repeat)

    ratio = ours / stock
    print(
        f"op set: {len(result.ops)} ops ({len(aten)} aten, {len(custom)} custom npu::), "
        f"{sum(1 for op in aten if op.structured)} in structured groups"
    )
    print(f"parse native_functions.yaml once (shared): {parse_seconds:.2f} s (includes importing torchgen)")
    print(
        f"torchnpugen generate (all artifacts):      {ours:.3f} s   target <= {TARGET_SECONDS:.1f} s "
        f"({ours / TARGET_SECONDS:.2f} of target)"
    )
    print(f"stock gen_backend_stubs ({len(stock_ops)} aten ops):  {stock:.3f} s")
    print(f"ratio torchnpugen / stock:                  {ratio:.2f}    target <= {TARGET_RATIO:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
