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
import importlib.util
import os
import re
import shutil
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

# The bench runs upstream's generator the same way: one runner for both.
_spec = importlib.util.spec_from_file_location("opplugin_codegen_speed", REPO / "bench" / "opplugin_codegen_speed.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

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


@pytest.fixture(scope="module")
def yaml_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("upstream") / "yaml"
    root.mkdir()
    for name in ("op_plugin_functions.yaml", "deprecated.yaml"):
        shutil.copy(CONFIG / name, root / name)
    shutil.copy(REPO / "yaml" / "versions.yaml", root / "versions.yaml")
    backend = bench.backend_yaml()
    if backend is not None:  # derivatives of runtime-owned ops are checked against it
        shutil.copy(CONFIG / "derivatives.yaml", root / "derivatives.yaml")
        (root / "npu_native_functions.yaml").write_bytes(backend)
    return root


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
    bench.upstream_label(UPSTREAM, yaml_dir, _labels()[label], theirs, (yaml_dir / "derivatives.yaml").is_file())
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


def test_what_it_generates_from_upstreams_file_compiles(
    yaml_dir: Path, tmp_path: Path, label: str, compile_syntax_only
) -> None:
    """Every dispatch shard, struct kernel and Meta function generated from upstream's file for
    the label under test compiles against the runtime's headers (-fsyntax-only -Wall -Wextra,
    no diagnostic)."""
    from opplugin_codegen import load_model
    from opplugin_codegen.api import write_labels

    write_labels(load_model(yaml_dir), [label], tmp_path)
    out = tmp_path / label
    sources = [
        p
        for pattern in ("op_plugin/OpInterface_*.cpp", "op_plugin/StructKernelNpuOpApi_*.cpp",
                        "op_plugin/MetaFunctions_*.cpp", "test_only/MetaCheckFunctions_*.cpp")
        for p in sorted(out.glob(pattern))
    ]
    assert sources
    runtime = [REPO / "packages" / "opplugin-runtime" / "csrc", REPO / "packages" / "ascendc-kernels" / "include"]
    failed = compile_syntax_only(sources, [out, *runtime])
    assert not failed, "\n".join(failed)
