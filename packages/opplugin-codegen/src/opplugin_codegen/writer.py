"""Writing a generated tree: all or nothing, write-if-changed, stale files removed.

The caller renders every file in memory first (so an invalid input never reaches this
module). Files are written into a temporary directory inside the output directory, and
only then are the changed ones moved into place with ``os.replace``; unchanged files keep
their mtime, so incremental C++ builds stay incremental. Files that an earlier run of
this generator listed in ``manifest.json`` and that are no longer produced are removed.

``manifest.json`` is shared by the generators of a label: each owns one section under
``"generators"`` and leaves the others untouched.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class WriteReport:
    out_dir: Path
    written: tuple[str, ...]
    unchanged: tuple[str, ...]
    removed: tuple[str, ...]

    def summary(self) -> str:
        return (
            f"{len(self.written)} written, {len(self.unchanged)} unchanged, "
            f"{len(self.removed)} removed"
        )


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _safe_relpath(rel: str) -> PurePosixPath:
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts or not p.parts:
        raise ValueError(f"generated path must stay inside the output directory: {rel!r}")
    return p


def _read_manifest(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _previous_files(manifest: Mapping[str, Any], owner: str) -> list[str]:
    section = manifest.get("generators", {})
    section = section.get(owner, {}) if isinstance(section, dict) else {}
    files = section.get("files", {}) if isinstance(section, dict) else {}
    return sorted(files) if isinstance(files, dict) else []


def _same_content(path: Path, data: bytes) -> bool:
    try:
        if path.stat().st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


def _link(source: Path | None, target: Path) -> bool:
    """Hard-link ``target`` to ``source``; False (write it instead) where that is not possible."""
    if source is None:
        return False
    try:
        target.hardlink_to(source)
    except OSError:  # another file system, no hard links, the source gone: write the bytes
        return False
    return True


def write_tree(
    out_dir: Path,
    files: Mapping[str, str | bytes],
    *,
    owner: str,
    owner_info: Mapping[str, Any],
    top_info: Mapping[str, Any] | None = None,
    with_manifest: bool = True,
    shared: dict[str, Path] | None = None,
) -> WriteReport:
    """Make ``out_dir`` hold ``files`` (relative posix paths -> content) plus the manifest
    (without one, e.g. for the support matrix, other files in ``out_dir`` stay as they are).

    ``shared`` (sha256 -> a file with that content, filled in here) lets the trees of several
    labels share their identical files (the per-family headers) as hard links: on this kind
    of disk writing a small file costs ~20x a link. A generated file is only ever replaced
    (written beside it and renamed), never changed in place, so a link never changes under
    the other tree."""
    encoded = {
        str(_safe_relpath(rel)): (data.encode("utf-8") if isinstance(data, str) else data)
        for rel, data in files.items()
    }
    if MANIFEST in encoded:
        raise ValueError(f"{MANIFEST} is written by the writer itself")
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest_path = out_dir / MANIFEST
    old_manifest = _read_manifest(manifest_path)

    manifest = dict(old_manifest)
    manifest.update(top_info or {})
    generators = manifest.get("generators")
    generators = dict(generators) if isinstance(generators, dict) else {}
    generators[owner] = {
        **owner_info,
        "files": (digests := {rel: sha256(data) for rel, data in sorted(encoded.items())}),
    }
    manifest["generators"] = dict(sorted(generators.items()))
    manifest_bytes = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")
    all_files = {**encoded, MANIFEST: manifest_bytes} if with_manifest else dict(encoded)

    written: list[str] = []
    unchanged: list[str] = []
    tmp = Path(tempfile.mkdtemp(prefix=".opplugin-codegen-", dir=out_dir))
    made: set[Path] = set()

    def ensure_dir(directory: Path) -> None:  # one mkdir per directory: a label is ~900 files
        if directory not in made:
            directory.mkdir(parents=True, exist_ok=True)
            made.add(directory)

    try:
        staged: list[tuple[Path, Path, str]] = []
        for rel, data in sorted(all_files.items()):
            dest = out_dir / rel
            digest = digests.get(rel)  # None for the manifest
            if _same_content(dest, data):
                unchanged.append(rel)
                if shared is not None and digest is not None:
                    shared.setdefault(digest, dest)
                continue
            staged_path = tmp / rel
            ensure_dir(staged_path.parent)
            source = shared.get(digest) if shared is not None and digest is not None else None
            if not _link(source, staged_path):
                staged_path.write_bytes(data)
            staged.append((staged_path, dest, rel))
        # Everything is staged; now move. The manifest goes last (sorted after the others
        # is not guaranteed), so a crash mid-way leaves the old manifest describing
        # files that still exist.
        staged.sort(key=lambda s: s[2] == MANIFEST)
        for staged_path, dest, rel in staged:
            ensure_dir(dest.parent)
            staged_path.replace(dest)
            written.append(rel)
            if shared is not None and rel in digests:
                shared.setdefault(digests[rel], dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    removed: list[str] = []
    for rel in _previous_files(old_manifest, owner) if with_manifest else ():
        if rel in encoded:
            continue
        try:
            path = out_dir / _safe_relpath(rel)
        except ValueError:
            continue
        if path.is_file():
            path.unlink()
            removed.append(rel)
            _prune_empty_dirs(path.parent, out_dir)
    return WriteReport(out_dir, tuple(sorted(written)), tuple(unchanged), tuple(removed))


def _prune_empty_dirs(directory: Path, stop: Path) -> None:
    stop = stop.resolve()
    d = directory.resolve()
    while d != stop and stop in d.parents:
        try:
            d.rmdir()
        except OSError:
            return
        d = d.parent
