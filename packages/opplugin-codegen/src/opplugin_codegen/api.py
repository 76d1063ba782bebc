"""The Python API: load once, render a label in memory, write it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from .errors import CodegenError, Diagnostic
from .gen_derivatives import DERIVATIVES_YAML, render_derivatives
from .gen_interface import render_dispatch_shards, render_headers
from .gen_matrix import render_matrix
from .gen_meta import render_meta_shards
from .gen_struct_kernels import render_struct_shards
from .gen_version import VERSION_H, render_version_h
from .loader import load_model
from .model import Model
from .projection import project, render_projection
from .rendered import DEFAULT_SHARDS, OWNER, Rendered, cached_render, write_files
from .writer import WriteReport, write_tree
from .yaml_files import input_key

PROJECTION_YAML = "op_plugin/config/op_plugin_functions.yaml"


def check(yaml_dir: Path | str) -> Model:
    """Load and validate the YAML of ``yaml_dir`` for every label; raise CodegenError."""
    return load_model(yaml_dir)


def versions_display(model: Model) -> str:
    """How yaml/versions.yaml is named in generated comments (next to op_plugin_functions.yaml)."""
    folder = model.op_file.rsplit("/", 1)[0] if "/" in model.op_file else ""
    return f"{folder}/versions.yaml" if folder else "versions.yaml"


def _require_label(model: Model, label: str) -> None:
    if label not in model.registry:
        raise CodegenError([Diagnostic(None, None, model.registry.unknown_label_message(label))])


def render_label(model: Model, label: str, shards: int = DEFAULT_SHARDS) -> dict[str, str]:
    """Every file of ``label`` (relative path -> text), without touching the disk."""
    if shards < 1:
        raise ValueError("shards must be at least 1")
    _require_label(model, label)
    view = project(model, label)
    files = {
        PROJECTION_YAML: render_projection(view),
        DERIVATIVES_YAML: render_derivatives(view),
        **render_headers(view),
        **render_dispatch_shards(view, shards),
        **render_struct_shards(view, shards),
        **render_meta_shards(view, shards),
        VERSION_H: render_version_h(model.registry, label, versions_display(model)),
    }
    return dict(sorted(files.items()))


def write_label(
    model: Model, label: str, out_dir: Path | str, shards: int = DEFAULT_SHARDS
) -> WriteReport:
    return write_files(out_dir, label, render_label(model, label, shards), model.op_file, shards)


def write_labels(
    model: Model, labels: Sequence[str], out_root: Path | str, shards: int = DEFAULT_SHARDS
) -> list[WriteReport]:
    """Write ``labels`` into ``out_root/<label>``. All labels are rendered before the
    first file is written."""
    for label in labels:
        _require_label(model, label)
    rendered = {label: render_label(model, label, shards) for label in labels}
    return Rendered(None, model.op_file, rendered, shards).write(out_root=out_root)


def render_labels(
    yaml_dir: Path | str, model: Model, labels: Sequence[str], shards: int = DEFAULT_SHARDS
) -> Rendered:
    """Render ``labels`` of ``model`` (loaded from ``yaml_dir``) and keep them in the cache."""
    for label in labels:
        _require_label(model, label)
    rendered = {label: render_label(model, label, shards) for label in labels}
    result = Rendered(input_key(yaml_dir), model.op_file, rendered, shards)
    result.remember(model)
    return result


def generate(
    label: str, yaml_dir: Path | str, out_dir: Path | str, shards: int = DEFAULT_SHARDS
) -> WriteReport:
    """Validate ``yaml_dir`` and write everything of ``label`` into ``out_dir``
    (``build/generated/<label>``). Raises CodegenError on invalid input, before writing."""
    rendered = cached_render(yaml_dir, [label], shards)
    if rendered is None:
        rendered = render_labels(yaml_dir, load_model(yaml_dir), [label], shards)
    return rendered.write(out_dir=out_dir)[0]


def generate_all(
    yaml_dir: Path | str,
    out_root: Path | str,
    shards: int = DEFAULT_SHARDS,
    labels: Sequence[str] | None = None,
) -> list[WriteReport]:
    """Every label (or ``labels``) into ``out_root/<label>``, loading the YAML once."""
    rendered = cached_render(yaml_dir, ["*"] if labels is None else labels, shards)
    if rendered is None:
        model = load_model(yaml_dir)
        chosen = list(labels) if labels is not None else list(model.registry.labels)
        rendered = render_labels(yaml_dir, model, chosen, shards)
    return rendered.write(out_root=out_root)


def write_matrix(
    model: Model, out_dir: Path | str, proven: Path | str | None = None
) -> WriteReport:
    """``support_matrix.md`` and ``support_matrix.json`` into ``out_dir`` (write-if-changed,
    no manifest: the directory may be a documentation folder); ``proven`` is a JSON list of the
    labels' last test runs (docs/proven-labels.json), shown per label."""
    runs = (
        json.loads(Path(proven).read_text()) if proven is not None and Path(proven).exists() else []
    )
    source = str(proven) if proven is not None else "docs/proven-labels.json"
    return write_tree(
        Path(out_dir),
        render_matrix(model, runs, source),
        owner=OWNER,
        owner_info={},
        with_manifest=False,
    )


def generate_matrix(yaml_dir: Path | str, out_dir: Path | str) -> WriteReport:
    """Validate ``yaml_dir`` and write the support matrix of every label into ``out_dir``."""
    return write_matrix(load_model(yaml_dir), out_dir)
