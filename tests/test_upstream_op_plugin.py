"""Side by side with upstream's own generator, on upstream's own files: for every label, what
opplugin-codegen makes of upstream's op_plugin_functions.yaml, derivatives.yaml and
deprecated.yaml (unmodified) equals what upstream's generator (torchnpugen of Ascend/op-plugin)
makes of them: the same projection entries with the same paths, the same op_plugin:: dispatch
functions, the same struct kernels and the same derivatives.

Needs a checkout of Ascend/op-plugin (``OPPLUGIN_UPSTREAM=/path/to/op-plugin``; its generator
runs with this interpreter, as bench/opplugin_codegen_speed.py runs it) and, for the derivatives'
cross-check, the torch-npu 2.13.0 wheel of the v2.13 wheelhouse (its npu_native_functions.yaml);
skipped otherwise. ``OPPLUGIN_UPSTREAM_LABELS=v2.1,v2.13`` narrows the labels (default: all)."""

from __future__ import annotations

import collections
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import yaml

REPO = Path(__file__).resolve().parents[1]
UPSTREAM = Path(os.environ.get("OPPLUGIN_UPSTREAM", "/nonexistent"))
CONFIG = UPSTREAM / "op_plugin" / "config"

pytestmark = pytest.mark.skipif(
    not (CONFIG / "op_plugin_functions.yaml").is_file() or not (UPSTREAM / "torchnpugen").is_dir(),
    reason="needs OPPLUGIN_UPSTREAM, a checkout of Ascend/op-plugin",
)

# Upstream's four steps per version, as its gencode.sh runs them.
STEPS = (
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

_DEFINITION = re.compile(
    r"^(?!\s)(?!namespace|using|#|//|TORCH|static|template)[^\n;]*?\b(\w+)\(([^;{]*?)\)\s*\{", re.M | re.S
)


def _labels() -> dict[str, str]:
    """label -> the torch version upstream's generator is told (major.minor.0)."""
    registry = yaml.safe_load((REPO / "yaml" / "versions.yaml").read_text())
    pins = {label: entry["torch"] for label, entry in registry["versions"].items()}
    wanted = os.environ.get("OPPLUGIN_UPSTREAM_LABELS")
    if wanted:
        pins = {label: pins[label] for label in wanted.split(",")}
    return {label: ".".join(pin.split(".")[:2]) + ".0" for label, pin in pins.items()}


def _backend_yaml() -> bytes | None:
    house = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "npu-sim" / "wheelhouse" / "v2.13"
    for wheel in sorted(house.glob("torch_npu-2.13.0-*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            return archive.read("torch_npu/csrc/aten/npu_native_functions.yaml")
    return None


@pytest.fixture(scope="module")
def yaml_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("upstream") / "yaml"
    root.mkdir()
    for name in ("op_plugin_functions.yaml", "deprecated.yaml"):
        shutil.copy(CONFIG / name, root / name)
    shutil.copy(REPO / "yaml" / "versions.yaml", root / "versions.yaml")
    backend = _backend_yaml()
    if backend is not None:  # derivatives of runtime-owned ops are checked against it
        shutil.copy(CONFIG / "derivatives.yaml", root / "derivatives.yaml")
        (root / "npu_native_functions.yaml").write_bytes(backend)
    return root


def _theirs(yaml_dir: Path, version: str, out: Path) -> None:
    for sub in ("config", "aten", "ops/opapi"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(UPSTREAM), PYTORCH_VERSION=version)
    for module, *template in STEPS:
        if module.endswith("gen_derivatives") and not (yaml_dir / "derivatives.yaml").is_file():
            continue
        argv = [t.format(v=version, out=out, yaml=yaml_dir) for t in template]
        result = subprocess.run([sys.executable, "-m", module, *argv], cwd=UPSTREAM, env=env, capture_output=True,
                                text=True, timeout=600)  # fmt: skip
        assert result.returncode == 0, f"upstream's {module}: {result.stderr[-2000:]}"


def _projection(path: Path) -> collections.Counter:
    data = yaml.safe_load(path.read_text()) or {}
    return collections.Counter(
        (section, entry["func"], entry.get("impl_ns", ""))
        for section, entries in data.items()
        if isinstance(entries, list)
        for entry in entries
    )


def _definitions(files: list[Path]) -> collections.Counter:
    found: collections.Counter = collections.Counter()
    for path in files:
        found.update(m.group(1) for m in _DEFINITION.finditer(path.read_text()))
    return found


def _derivatives(path: Path) -> list[str]:
    return sorted(e["name"] for e in yaml.safe_load(path.read_text()) or [])


@pytest.mark.parametrize("label", sorted(_labels(), key=lambda s: tuple(int(p) for p in s[1:].split("."))))
def test_ours_equals_upstreams_generator(label: str, yaml_dir: Path, tmp_path: Path) -> None:
    from opplugin_codegen import load_model
    from opplugin_codegen.api import write_labels

    theirs = tmp_path / "theirs"
    _theirs(yaml_dir, _labels()[label], theirs)
    model = load_model(yaml_dir)
    write_labels(model, [label], tmp_path / "ours")
    ours = tmp_path / "ours" / label / "op_plugin"

    assert _projection(ours / "config" / "op_plugin_functions.yaml") == _projection(
        theirs / "config" / "op_plugin_functions.yaml"
    )
    dispatch = _definitions(sorted(ours.glob("OpInterface_*.cpp")))
    assert dispatch == _definitions(sorted(theirs.glob("OpInterface_*.cpp")))
    assert len(dispatch) > 0
    # upstream defines each struct kernel twice (declaration form and body); the names agree
    struct = _definitions(sorted(ours.glob("StructKernelNpuOpApi_*.cpp")))
    assert set(struct) == set(_definitions(sorted((theirs / "ops" / "opapi").glob("*.cpp"))))
    if (yaml_dir / "derivatives.yaml").is_file():
        assert _derivatives(ours / "config" / "derivatives.yaml") == _derivatives(
            theirs / "config" / "derivatives.yaml"
        )


def _installed_label() -> str:
    import importlib.metadata

    m = re.match(r"(\d+)\.(\d+)", importlib.metadata.version("torch"))
    assert m is not None
    return os.environ.get("NPU_TEST_LABEL") or f"v{m.group(1)}.{m.group(2)}"


def test_what_it_generates_from_upstreams_file_compiles(yaml_dir: Path, tmp_path: Path) -> None:
    """Every dispatch shard, struct kernel and Meta function generated from upstream's file for
    the label of this interpreter's torch compiles against the runtime's headers
    (-fsyntax-only -Wall -Wextra, no diagnostic)."""
    from concurrent.futures import ThreadPoolExecutor

    from opplugin_codegen import load_model
    from opplugin_codegen.api import write_labels
    from torchnpugen.compat import cxx_std_flag, torch_include_dirs

    label = _installed_label()
    write_labels(load_model(yaml_dir), [label], tmp_path)
    out = tmp_path / label
    command = [os.environ.get("CXX", "g++"), cxx_std_flag(), "-fsyntax-only", "-Wall", "-Wextra"]
    for include in torch_include_dirs():
        command += ["-isystem", str(include)]
    command += ["-I", str(out), "-I", str(REPO / "packages" / "opplugin-runtime" / "csrc")]
    command += ["-I", str(REPO / "packages" / "ascendc-kernels" / "include")]
    sources = [
        p
        for pattern in ("OpInterface_*.cpp", "StructKernelNpuOpApi_*.cpp", "MetaFunctions_*.cpp")
        for p in sorted((out / "op_plugin").glob(pattern))
    ]
    assert sources

    def compile_one(source: Path) -> tuple[Path, subprocess.CompletedProcess]:
        return source, subprocess.run([*command, str(source)], capture_output=True, text=True, timeout=900)

    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        results = list(pool.map(compile_one, sources))
    failed = [f"--- {s.name}\n{r.stderr[-4000:]}" for s, r in results if r.returncode != 0 or r.stderr]
    assert not failed, "\n".join(failed)
