"""Writing a set of generated files: staged, write-if-changed, with a manifest.

All content is rendered in memory before this runs, then staged in a temporary
directory next to the target (same filesystem).  Each changed file is moved in with
an atomic ``os.replace``; unchanged files are not touched (their mtime stays, so
builds stay incremental); files from an earlier run that are no longer produced
(for example shards beyond a smaller ``--shards``) are removed; ``manifest.json``
is replaced last, so it only ever describes a complete set.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Pattern

__all__ = ["MANIFEST", "WriteReport", "update_label_manifest", "write_output_set"]

MANIFEST = "manifest.json"


@dataclass
class WriteReport:
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _old_manifest_files(path: Path) -> list[str]:
    try:
        files = json.loads(path.read_text(encoding="utf-8")).get("files", {})
    except (OSError, ValueError, AttributeError):
        return []
    return sorted(name for name in files if isinstance(name, str) and ".." not in name.split("/"))


def write_output_set(
    target_dir: Path,
    files: Mapping[str, str],
    manifest_extra: Mapping[str, object],
    owned_pattern: Pattern[str] = re.compile(r"aten/RegisterNPU_\d+\.cpp"),
    manifest_name: str = MANIFEST,
) -> WriteReport:
    """Make ``target_dir`` hold exactly ``files`` (paths relative to it; plus files we do
    not own).  ``manifest_name`` (relative too) records them.

    ``owned_pattern`` names files (relative paths) that only this generator creates, so
    a stale one can be deleted even if the previous manifest is gone.
    """
    report = WriteReport()
    target_dir.mkdir(parents=True, exist_ok=True)
    encoded: dict[str, bytes] = {name: text.encode("utf-8") for name, text in sorted(files.items())}
    manifest = dict(manifest_extra)
    manifest["files"] = {name: _sha256(data) for name, data in encoded.items()}
    encoded_manifest = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")

    stale = set(_old_manifest_files(target_dir / manifest_name))
    stale.update(
        p.relative_to(target_dir).as_posix()
        for p in target_dir.rglob("*")
        if p.is_file() and owned_pattern.fullmatch(p.relative_to(target_dir).as_posix())
    )
    stale.difference_update(encoded)
    stale.discard(manifest_name)

    with tempfile.TemporaryDirectory(prefix=".torchnpugen-", dir=str(target_dir.parent)) as tmp:
        staged: dict[str, Path] = {}
        for index, (name, data) in enumerate([*list(encoded.items()), (manifest_name, encoded_manifest)]):
            path = Path(tmp) / f"{index}"
            path.write_bytes(data)
            staged[name] = path
        for name, data in encoded.items():
            _replace_if_changed(staged[name], target_dir / name, data, name, report)
        for name in sorted(stale):
            (target_dir / name).unlink(missing_ok=True)
            report.removed.append(name)
        _replace_if_changed(staged[manifest_name], target_dir / manifest_name, encoded_manifest, manifest_name, report)
    return report


def _replace_if_changed(staged: Path, dest: Path, data: bytes, name: str, report: WriteReport) -> None:
    try:
        if dest.read_bytes() == data:
            report.unchanged.append(name)
            return
    except FileNotFoundError:
        dest.parent.mkdir(parents=True, exist_ok=True)
    os.replace(staged, dest)
    report.written.append(name)


def update_label_manifest(
    label_dir: Path, *, owner: str, label: str, owner_info: Mapping[str, object], files: Mapping[str, str]
) -> bool:
    """Record ``files`` (label-relative path -> sha256) as ``owner``'s section of
    ``<label_dir>/manifest.json`` (contracts.md section 1).

    The label manifest is shared by the generators of a label: each owns one entry
    under ``"generators"`` and leaves the others as they are.  Returns whether the
    file changed.
    """
    path = label_dir / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    if not isinstance(manifest, dict):
        manifest = {}
    generators = manifest.get("generators")
    generators = dict(generators) if isinstance(generators, dict) else {}
    generators[owner] = {**owner_info, "files": dict(sorted(files.items()))}
    manifest["generators"] = dict(sorted(generators.items()))
    manifest["label"] = label
    data = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    label_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".torchnpugen-manifest-", dir=str(label_dir))
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True
