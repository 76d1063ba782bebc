"""Writing a generated tree: all or nothing, write-if-changed, stale files removed.

The caller renders every file in memory first (so an invalid input never reaches this
module). Files are written into a temporary directory, and only then moved into place: into
a new (or empty) output directory the whole staged tree is renamed at once; into an existing
one only the changed files are staged (inside it) and moved with ``os.replace``, so
unchanged files keep their mtime and incremental C++ builds stay incremental. Files that an
earlier run of this generator listed in ``manifest.json`` and that are no longer produced
are removed.

``manifest.json`` is shared by the generators of a label: each owns one section under
``"generators"`` and leaves the others untouched.
"""

from __future__ import annotations

import hashlib
import json
import os
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


def _safe_relpath(rel: str) -> str:
    """``rel`` as a normal relative posix path inside the output directory."""
    parts = rel.split("/")
    if all(part not in ("", ".", "..") for part in parts):
        return rel  # already normal (every generated path): no PurePosixPath per file
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts or not p.parts:
        raise ValueError(f"generated path must stay inside the output directory: {rel!r}")
    return str(p)


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


def _same_content(path: Path | str, data: bytes) -> bool:
    """``path`` holds exactly ``data`` (os calls: this runs for every file of a tree)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if os.fstat(fd).st_size != len(data):
            return False
        return os.read(fd, len(data) + 1) == data
    except OSError:
        return False
    finally:
        os.close(fd)


def _put(path: str, data: bytes) -> None:
    """Create ``path`` (which must not exist) holding ``data``: the os calls, not pathlib's,
    as a label is ~900 small files and creating them is most of writing one."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _link(source: Path | str | None, target: str, data: bytes) -> bool:
    """Hard-link ``target`` to ``source`` if that holds exactly ``data``, and give it the
    current mtime (a linked file may be older than objects built from other content; a build
    must see it as new, as a written file would be). False: write it instead."""
    if source is None or not _same_content(source, data):
        return False
    try:
        os.link(source, target)
    except OSError:  # another file system, no hard links, the source gone: write the bytes
        return False
    os.utime(target)
    return True


def _stage(
    root: Path,
    files: Mapping[str, bytes],
    digests: Mapping[str, str],
    shared: Mapping[str, Path | str] | None,
) -> None:
    """Write ``files`` under ``root`` (each directory made once), linking to ``shared``."""
    base = str(root)
    for directory in sorted({rel.rpartition("/")[0] for rel in files} - {""}):
        (root / directory).mkdir(parents=True, exist_ok=True)
    for rel, data in files.items():
        target = f"{base}/{rel}"
        digest = digests.get(rel)  # None for the manifest
        source = shared.get(digest) if shared is not None and digest is not None else None
        if not _link(source, target, data):
            _put(target, data)


def _is_fresh(out_dir: Path) -> bool:
    """``out_dir`` does not exist or is an empty directory."""
    try:
        with os.scandir(out_dir) as entries:
            return next(entries, None) is None
    except FileNotFoundError:
        return True
    except NotADirectoryError:
        raise
    except OSError:
        return False


def _write_fresh(
    out_dir: Path,
    all_files: Mapping[str, bytes],
    digests: Mapping[str, str],
    shared: dict[str, Path | str] | None,
) -> bool:
    """Into a new (or empty) ``out_dir``: stage the whole tree beside it, then rename the
    staging directory into place, one rename instead of one per file. False (nothing done)
    where the rename cannot be made, e.g. another writer created ``out_dir`` meanwhile."""
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.opplugin-codegen-", dir=out_dir.parent))
    try:
        _stage(tmp, all_files, digests, shared)
        if out_dir.is_dir():
            out_dir.rmdir()  # empty (checked); if it no longer is, OSError: the slow path
        tmp.rename(out_dir)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        return False
    if shared is not None:
        base = str(out_dir)
        for rel, digest in digests.items():
            shared.setdefault(digest, f"{base}/{rel}")
    return True


def write_tree(
    out_dir: Path,
    files: Mapping[str, str | bytes],
    *,
    owner: str,
    owner_info: Mapping[str, Any],
    top_info: Mapping[str, Any] | None = None,
    with_manifest: bool = True,
    shared: dict[str, Path | str] | None = None,
) -> WriteReport:
    """Make ``out_dir`` hold ``files`` (relative posix paths -> content) plus the manifest
    (without one, e.g. for the support matrix, other files in ``out_dir`` stay as they are).

    ``shared`` (sha256 -> a file with that content, filled in here) lets the trees of several
    labels share their identical files (the per-family headers) as hard links: on this kind
    of disk writing a small file costs ~20x a link. A generated file is only ever replaced
    (written beside it and renamed), never changed in place, so a link never changes under
    the other tree."""
    encoded = {
        _safe_relpath(rel): (data.encode("utf-8") if isinstance(data, str) else data)
        for rel, data in files.items()
    }
    if MANIFEST in encoded:
        raise ValueError(f"{MANIFEST} is written by the writer itself")
    fresh = _is_fresh(out_dir)
    manifest_path = out_dir / MANIFEST
    old_manifest = {} if fresh else _read_manifest(manifest_path)

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

    if fresh and _write_fresh(out_dir, all_files, digests, shared):
        return WriteReport(out_dir, tuple(sorted(all_files)), (), ())

    written: list[str] = []
    unchanged: list[str] = []
    changed: dict[str, bytes] = {}
    for rel, data in sorted(all_files.items()):
        dest = out_dir / rel
        if _same_content(dest, data):
            unchanged.append(rel)
            digest = digests.get(rel)
            if shared is not None and digest is not None:
                shared.setdefault(digest, dest)
        else:
            changed[rel] = data
    if changed:
        out_dir.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".opplugin-codegen-", dir=out_dir))
        try:
            _stage(tmp, changed, digests, shared)
            # Everything is staged; now move. The manifest goes last, so a crash mid-way
            # leaves the old manifest describing files that still exist.
            made: set[Path] = set()
            for rel in sorted(changed, key=lambda r: r == MANIFEST):
                dest = out_dir / rel
                if dest.parent not in made:
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    made.add(dest.parent)
                (tmp / rel).replace(dest)
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
