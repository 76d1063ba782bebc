"""A cache of loaded models and of rendered labels: loading and checking upstream's
1,500-entry file, then rendering a label's ~900 files, is nearly all the time of generating
one label, and every build (and every fresh build directory) generates from the same YAML
again.

The key is a hash of everything the output depends on: the bytes of each input file of the
YAML directory (and which are absent), the directory's display names, the generator's own
source files and templates, and the Python version; a rendered label adds its label and shard
count. Only valid YAML is cached (an error is recomputed and reported every time).
``OPPLUGIN_CODEGEN_CACHE`` moves the cache (default ``$XDG_CACHE_HOME/opplugin-codegen``) or
turns it off (``off``). An unreadable or corrupt entry is ignored and replaced. The cache keeps
the newest 16 models and 32 rendered labels (~4 MB each for an upstream-sized file).
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

_FORMAT = b"opplugin-codegen model cache 1\n"
_KEEP = 16  # models kept; older ones are removed when a new one is written
_KEEP_RENDERED = 32  # rendered labels kept (two YAML states of 15 labels)
_RENDERED = "rendered"  # the rendered labels' subdirectory


def _directory() -> Path | None:
    value = os.environ.get("OPPLUGIN_CODEGEN_CACHE", "")
    if value.lower() == "off":
        return None
    if value:
        return Path(value).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "opplugin-codegen"


@cache
def _generator_digest() -> bytes:
    """The generator's modules and its templates (templates/*.j2: a changed template renders
    other files from the same YAML)."""
    digest = hashlib.sha256(_FORMAT + sys.version.encode())
    package = Path(__file__).resolve().parent
    for path in [*sorted(package.glob("*.py")), *sorted(package.glob("templates/*.j2"))]:
        name = path.relative_to(package).as_posix()
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


def _key(yaml_dir: Path, files: Sequence[str], names: Sequence[str]) -> str:
    """The hash of the inputs (raises OSError for an input that cannot be read)."""
    digest = hashlib.sha256(_generator_digest())
    digest.update(str(yaml_dir.resolve()).encode() + b"\0")
    for name in names:
        digest.update(name.encode() + b"\0")
    for name in files:
        try:
            data = (yaml_dir / name).read_bytes()
        except FileNotFoundError:
            digest.update(name.encode() + b"\0absent\0")
            continue
        digest.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return digest.hexdigest()


def input_key(yaml_dir: Path, files: Sequence[str], names: Sequence[str]) -> str | None:
    """The cache key of a YAML directory's inputs; None when the cache is off or an input
    cannot be read (then the loader reports it)."""
    if _directory() is None:
        return None
    try:
        return _key(yaml_dir, files, names)
    except OSError:
        return None


def _store(directory: Path, entry: Path, dump: Callable[[Any], None], keep: int) -> None:
    """Write ``entry`` through ``dump(file)`` atomically, then drop all but the newest
    ``keep`` entries of its kind. A read-only or full cache directory only costs the next
    run its time."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
        with os.fdopen(fd, "wb") as f:
            dump(f)
        Path(tmp).replace(entry)
        entries = sorted(
            directory.glob(f"*{entry.suffix}"), key=lambda p: p.stat().st_mtime, reverse=True
        )
        for old in entries[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def cached(yaml_dir: Path, files: Sequence[str], names: Sequence[str], load: Callable[[], T]) -> T:
    """``load()``, or what it returned for the same inputs before."""
    directory = _directory()
    key = input_key(yaml_dir, files, names)
    if directory is None or key is None:
        return load()
    entry = directory / f"{key}.pickle"
    try:
        with entry.open("rb") as f:
            return pickle.load(f)  # our own directory, keyed by content
    except Exception:  # absent, unreadable, truncated or of another version: reload
        pass
    value = load()
    _store(
        directory,
        entry,
        lambda f: pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL),
        _KEEP,
    )
    return value


def _rendered_entry(key: str, name: str) -> Path | None:
    directory = _directory()
    return None if directory is None else directory / _RENDERED / f"{key}-{name}.marshal"


def load_rendered(key: str, name: str) -> Any | None:
    """What :func:`store_rendered` stored under ``key`` and ``name``, or None."""
    entry = _rendered_entry(key, name)
    if entry is None:
        return None
    try:
        data = entry.read_bytes()
        # marshal, not pickle: the value is plain strings and dicts, and a label's 4 MB load
        # in a few milliseconds (the key holds the Python version, so the format matches)
        return marshal.loads(data)
    except Exception:  # absent, unreadable, truncated or of another version: render again
        return None


def store_rendered(key: str, name: str, value: Any) -> None:
    """Keep ``value`` (plain data: str, int, list, dict) for :func:`load_rendered`."""
    entry = _rendered_entry(key, name)
    if entry is not None:
        _store(entry.parent, entry, lambda f: f.write(marshal.dumps(value)), _KEEP_RENDERED)


# The file store: for each key, the distinct generated files of the labels written from it,
# named by their sha256. They are hard links of the first tree written (no copy is made), so
# that the next tree from the same inputs is links too: on some disks creating a file costs
# ~1 ms and a link ~30 us, and a label is ~900 files. The writer links a stored file only if
# it still holds the expected bytes, and gives the link the current mtime.
_FILES = "files"
_KEEP_FILES = 2  # stores kept (the newest inputs: a switch back and forth stays fast)


def file_store(key: str) -> dict[str, Path]:
    """sha256 -> stored file, of ``key`` (empty when the cache is off or holds none)."""
    directory = _directory()
    if directory is None:
        return {}
    store = directory / _FILES / key
    try:
        return {p.name: p for p in store.iterdir() if not p.name.startswith(".")}
    except OSError:
        return {}


def keep_files(key: str, files: Mapping[str, Path]) -> None:
    """Link ``files`` (sha256 -> a generated file just written) into the store of ``key``;
    drop all but the newest stores. Never fails: a file that cannot be linked is not kept."""
    directory = _directory()
    if directory is None or not files:
        return
    store = directory / _FILES / key
    try:
        store.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    for digest, path in files.items():
        # already there, another file system, no hard links: not kept
        with contextlib.suppress(OSError):
            os.link(path, store / digest)
    try:
        os.utime(store)
        stores = sorted(
            (directory / _FILES).iterdir(), key=lambda p: p.stat().st_mtime, reverse=True
        )
        for old in stores[_KEEP_FILES:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass
