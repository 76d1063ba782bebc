"""The support matrix: operator x version label x implementation path.

``support_matrix.json`` holds every fact; ``support_matrix.md`` shows the same as a table
with one column per label and a short code per path, so users can see what exists where.
Both are deterministic (sorted by operator, labels in registry order).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from . import templating
from .model import CODE_SECTIONS, Model, OpEntry

SUPPORT_MATRIX_MD = "support_matrix.md"
SUPPORT_MATRIX_JSON = "support_matrix.json"

#: Paths in display order, with their one-letter code in the Markdown table.
PATH_CODES = (
    ("acl_op", "A", "acl_op: device-side ACL-op kernel (acl_op::)"),
    ("op_api", "O", "op_api: hand-written aclnn kernel (op_api::)"),
    ("gen_opapi", "G", "gen_opapi: aclnn kernel generated from the YAML (op_api::)"),
    ("dvm", "D", "dvm: lazy-fusion kernel tried first on the op_api path (lazy_fusion::)"),
    ("sparse", "S", "sparse: op_plugin::<name>_sparse forwarder (sparse::)"),
)


@dataclass(frozen=True)
class MatrixRow:
    name: str  # name.overload
    section: str
    sources: tuple[str, ...]  # yaml file:line of every entry of this name
    paths: tuple[tuple[str, ...], ...]  # per label, the live paths in PATH_CODES order


def _paths(e: OpEntry, label: str) -> list[str]:
    out = []
    if e.has("acl_op", label):
        out.append("acl_op")
    if e.has("op_api", label):
        out.append("gen_opapi" if e.gen_opapi is not None else "op_api")
    if e.has("dvm", label):
        out.append("dvm")
    if e.has("sparse", label):
        out.append("sparse")
    return out


def matrix_rows(model: Model) -> list[MatrixRow]:
    """One row per operator (entries with disjoint ranges for one name share a row)."""
    labels = model.registry.labels
    by_name: dict[str, list[OpEntry]] = defaultdict(list)
    for e in model.entries:
        if e.section in CODE_SECTIONS:
            by_name[e.name].append(e)
    rows = []
    for name in sorted(by_name):
        group = by_name[name]
        per_label = []
        for label in labels:
            live: list[str] = []
            for e in group:
                live += _paths(e, label)
            order = [p for p, _, _ in PATH_CODES]
            per_label.append(tuple(sorted(set(live), key=order.index)))
        rows.append(
            MatrixRow(name, group[0].section, tuple(str(e.loc) for e in group), tuple(per_label))
        )
    return rows


#: Keys of a test run's record (noxfile.py's test_record) that the matrix shows.
RUN_KEYS = (
    "torch",
    "date",
    "commit",
    "passed",
    "skipped",
    "xfailed",
    "failed",
    "errors",
    "selection",
)


def proven_state(run: dict[str, Any] | None) -> str:
    """``proven`` (the run passed with nothing failed), ``failing`` or ``declared`` (never run)."""
    if run is None:
        return "declared"
    return (
        "proven"
        if run.get("passed", 0) > 0 and not run.get("failed") and not run.get("errors")
        else "failing"
    )


def proven_by_label(
    model: Model, runs: list[dict[str, Any]]
) -> list[tuple[str, str, dict[str, Any] | None]]:
    """Per label of the registry: its state and its last run (None when never run)."""
    by_label = {run["label"]: {k: run.get(k, "") for k in RUN_KEYS} for run in runs}
    return [
        (label, proven_state(by_label.get(label)), by_label.get(label))
        for label in model.registry.labels
    ]


def render_matrix_json(model: Model, rows: list[MatrixRow], runs: list[dict[str, Any]]) -> str:
    labels = model.registry.labels
    doc = {
        "generator": "opplugin-codegen",
        "yaml": model.op_file,
        "labels": list(labels),
        "proven": {
            label: {"state": state, **(run or {})}
            for label, state, run in proven_by_label(model, runs)
        },
        "paths": [p for p, _, _ in PATH_CODES],
        "operators": [
            {
                "name": row.name,
                "section": row.section,
                "yaml": list(row.sources),
                "labels": {label: list(paths) for label, paths in zip(labels, row.paths)},
            }
            for row in rows
        ],
    }
    return json.dumps(doc, indent=1, sort_keys=False) + "\n"


def _cell(paths: tuple[str, ...]) -> str:
    codes = {p: c for p, c, _ in PATH_CODES}
    return "".join(codes[p] for p in paths) or "·"


def render_matrix_md(
    model: Model, rows: list[MatrixRow], runs: list[dict[str, Any]], proven_source: str
) -> str:
    """The Markdown table (templates/support_matrix.md.j2): per label the count of operators
    and of each path, per operator the paths' codes in each label."""
    labels = model.registry.labels
    per_label = []
    for i, label in enumerate(labels):
        counts = {p: 0 for p, _, _ in PATH_CODES}
        total = 0
        for row in rows:
            if row.paths[i]:
                total += 1
            for p in row.paths[i]:
                counts[p] += 1
        per_label.append((label, model.registry.torch_pin(label), total, list(counts.values())))
    return templating.render(
        "support_matrix.md.j2",
        source=model.op_file,
        path_codes=PATH_CODES,
        labels=labels,
        per_label=per_label,
        per_operator=[(row.name, row.section, [_cell(p) for p in row.paths]) for row in rows],
        proven=proven_by_label(model, runs),
        proven_source=proven_source,
    )


def render_matrix(
    model: Model,
    runs: list[dict[str, Any]] | None = None,
    proven_source: str = "docs/proven-labels.json",
) -> dict[str, str]:
    """Both files; ``runs`` are the labels' last test runs (noxfile.py's test records)."""
    rows = matrix_rows(model)
    runs = runs or []
    return {
        SUPPORT_MATRIX_MD: render_matrix_md(model, rows, runs, proven_source),
        SUPPORT_MATRIX_JSON: render_matrix_json(model, rows, runs),
    }
