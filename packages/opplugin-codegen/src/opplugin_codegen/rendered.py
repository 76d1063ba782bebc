"""Rendered labels and the rendered-label cache: writing a tree that an earlier run rendered
from the same inputs needs neither the model nor the generators, so this module (and what
the command line imports before it knows it needs more) stays light."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__, model_cache
from .writer import WriteReport, write_tree
from .yaml_files import input_key

if TYPE_CHECKING:
    from .model import Model

OWNER = "opplugin-codegen"
DEFAULT_SHARDS = 4


def write_files(
    out_dir: Path | str,
    label: str,
    files: dict[str, str],
    op_file: str,
    shards: int,
    shared: dict[str, Path] | None = None,
) -> WriteReport:
    """Write one label's rendered ``files`` into ``out_dir``."""
    info = {"version": __version__, "shards": shards, "yaml": op_file}
    return write_tree(
        Path(out_dir), files, owner=OWNER, owner_info=info, top_info={"label": label}, shared=shared
    )


# The rendered-label cache (model_cache): "labels" holds the registry's labels, its default
# and the display name of the op file; "<label>-<shards>" one label's files; the file store
# of the key the generated files themselves (linked, not copied, from the first tree written).
_LABELS = "labels"


@dataclass(frozen=True)
class Rendered:
    """Rendered labels (label -> files), and the cache key of the inputs they came from
    (None: not cached)."""

    key: str | None
    op_file: str
    labels: dict[str, dict[str, str]]
    shards: int

    def write(
        self, *, out_dir: Path | str | None = None, out_root: Path | str | None = None
    ) -> list[WriteReport]:
        """One label into ``out_dir``, or each into ``out_root/<label>``. Files equal across
        labels, or kept in the cache's file store, become hard links of one file."""
        shared = model_cache.file_store(self.key) if self.key is not None else {}
        known = set(shared)
        if out_dir is not None:
            (label,) = self.labels
            dirs = {label: Path(out_dir)}
        else:
            assert out_root is not None
            dirs = {label: Path(out_root) / label for label in self.labels}
        reports = [
            write_files(dirs[label], label, files, self.op_file, self.shards, shared)
            for label, files in self.labels.items()
        ]
        if self.key is not None:
            model_cache.keep_files(self.key, {d: p for d, p in shared.items() if d not in known})
        return reports

    def remember(self, model: Model) -> None:
        """Keep the labels (rendered from ``model``) for :func:`cached_render`."""
        if self.key is None:
            return
        for label, files in self.labels.items():
            model_cache.store_rendered(self.key, f"{label}-{self.shards}", files)
        index = {"labels": list(model.registry.labels), "default": model.registry.default}
        model_cache.store_rendered(self.key, _LABELS, {**index, "op_file": model.op_file})


def cached_render(
    yaml_dir: Path | str, labels: Sequence[str] | None, shards: int = DEFAULT_SHARDS
) -> Rendered | None:
    """``labels`` (None: the default label; ``["*"]``: every label) as an earlier run rendered
    them from the same inputs, or None (not all cached, the cache off, or a label the registry
    does not have: the caller loads the model, which reports what is wrong)."""
    key = input_key(yaml_dir)
    index = model_cache.load_rendered(key, _LABELS) if key is not None else None
    if key is None or not isinstance(index, dict):
        return None
    known = index.get("labels")
    if labels is None:
        labels = [index.get("default")]
    elif list(labels) == ["*"]:
        labels = known
    if not isinstance(known, list) or not labels or any(label not in known for label in labels):
        return None
    rendered: dict[str, dict[str, str]] = {}
    for label in labels:
        files = model_cache.load_rendered(key, f"{label}-{shards}")
        if not isinstance(files, dict):
            return None
        rendered[label] = files
    op_file = index.get("op_file")
    return Rendered(key, op_file, rendered, shards) if isinstance(op_file, str) else None
