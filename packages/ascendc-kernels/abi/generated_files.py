"""Writing generated files the way the build needs: only when their content changed.

A file whose content is unchanged keeps its mtime, so nothing that includes it rebuilds; a
changed one is written to a temporary beside it and renamed into place, so a reader never
sees half a file. Standard library only (the build runs this before anything is installed).
"""

from __future__ import annotations

import os
from pathlib import Path


def write_if_changed(files: dict[Path, str]) -> list[Path]:
    """Writes each path whose content differs from `files`; returns the paths written."""
    written = []
    for path, text in files.items():
        data = text.encode()
        try:
            if path.read_bytes() == data:
                continue
        except OSError:
            pass
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        written.append(path)
    return written
