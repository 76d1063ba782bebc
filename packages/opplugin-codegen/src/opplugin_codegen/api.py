"""The Python API: load once, render a label in memory, write it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .errors import CodegenError, Diagnostic
from .gen_derivatives import DERIVATIVES_YAML, render_derivatives
from .gen_interface import (
    ACL_OPS_INTERFACE_H,
    OP_API_INTERFACE_H,
    OP_INTERFACE_H,
    render_acl_ops_interface_h,
    render_dispatch_shards,
    render_op_api_interface_h,
    render_op_interface_h,
)
from .gen_struct_kernels import render_struct_shards
from .loader import load_model
from .model import Model
from .projection import project, render_projection
from .writer import WriteReport, write_tree

OWNER = "opplugin-codegen"
PROJECTION_YAML = "op_plugin/config/op_plugin_functions.yaml"
DEFAULT_SHARDS = 4


def check(yaml_dir: Path | str) -> Model:
    """Load and validate the YAML of ``yaml_dir`` for every label; raise CodegenError."""
    return load_model(yaml_dir)


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
        OP_INTERFACE_H: render_op_interface_h(view),
        OP_API_INTERFACE_H: render_op_api_interface_h(view),
        ACL_OPS_INTERFACE_H: render_acl_ops_interface_h(view),
    }
    files.update(render_dispatch_shards(view, shards))
    files.update(render_struct_shards(view, shards))
    return dict(sorted(files.items()))


def write_label(
    model: Model, label: str, out_dir: Path | str, shards: int = DEFAULT_SHARDS
) -> WriteReport:
    files = render_label(model, label, shards)
    info = {"version": __version__, "shards": shards, "yaml": model.op_file}
    return write_tree(Path(out_dir), files, owner=OWNER, owner_info=info, top_info={"label": label})


def generate(
    label: str, yaml_dir: Path | str, out_dir: Path | str, shards: int = DEFAULT_SHARDS
) -> WriteReport:
    """Validate ``yaml_dir`` and write everything of ``label`` into ``out_dir``
    (``build/generated/<label>``). Raises CodegenError on invalid input, before writing."""
    model = load_model(yaml_dir)
    _require_label(model, label)
    return write_label(model, label, out_dir, shards)


def write_labels(
    model: Model, labels: Sequence[str], out_root: Path | str, shards: int = DEFAULT_SHARDS
) -> list[WriteReport]:
    """Write ``labels`` into ``out_root/<label>``. All labels are rendered before the
    first file is written."""
    for label in labels:
        _require_label(model, label)
    rendered = {label: render_label(model, label, shards) for label in labels}
    info = {"version": __version__, "shards": shards, "yaml": model.op_file}
    return [
        write_tree(
            Path(out_root) / label, files, owner=OWNER, owner_info=info, top_info={"label": label}
        )
        for label, files in rendered.items()
    ]


def generate_all(
    yaml_dir: Path | str,
    out_root: Path | str,
    shards: int = DEFAULT_SHARDS,
    labels: Sequence[str] | None = None,
) -> list[WriteReport]:
    """Every label (or ``labels``) into ``out_root/<label>``, loading the YAML once."""
    model = load_model(yaml_dir)
    chosen = list(labels) if labels is not None else list(model.registry.labels)
    return write_labels(model, chosen, out_root, shards)
