"""A cache of loaded models: loading and checking upstream's 1,500-entry file is most of the
time of generating one label, and the same YAML is loaded again by every build.

The key is a hash of everything the model depends on: the bytes of each input file of the
YAML directory (and which are absent), the directory's display names, the generator's own
source files and the Python version. Only valid YAML is cached (an error is recomputed and
reported every time). ``OPPLUGIN_CODEGEN_CACHE`` moves the cache (default
``$XDG_CACHE_HOME/opplugin-codegen``) or turns it off (``off``). An unreadable or corrupt
entry is ignored and replaced.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

_FORMAT = b"opplugin-codegen model cache 1\n"
_KEEP = 16  # entries kept; older ones are removed when a new one is written


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
    digest = hashlib.sha256(_FORMAT + sys.version.encode())
    for path in sorted(Path(__file__).resolve().parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


def _key(yaml_dir: Path, files: Sequence[str], names: Sequence[str]) -> str:
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


def cached(yaml_dir: Path, files: Sequence[str], names: Sequence[str], load: Callable[[], T]) -> T:
    """``load()``, or what it returned for the same inputs before."""
    directory = _directory()
    if directory is None:
        return load()
    try:
        key = _key(yaml_dir, files, names)
    except OSError:  # an input that cannot be read: load() reports it
        return load()
    entry = directory / f"{key}.pickle"
    try:
        with entry.open("rb") as f:
            return pickle.load(f)  # our own directory, keyed by content
    except Exception:  # absent, unreadable, truncated or of another version: reload
        pass
    value = load()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        Path(tmp).replace(entry)
        entries = sorted(directory.glob("*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[_KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only or full cache directory only costs the next load its time
    return value
