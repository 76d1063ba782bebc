"""The files of a YAML directory, how messages and generated comments name them, and the
cache key of their contents (light: the command line computes it before importing the
generator, to write a tree that an earlier run rendered from the same files)."""

from __future__ import annotations

from pathlib import Path

from . import model_cache

VERSIONS_FILE = "versions.yaml"
OP_FILE = "op_plugin_functions.yaml"
DERIVATIVES_FILE = "derivatives.yaml"
DEPRECATED_FILE = "deprecated.yaml"
BACKEND_FILE = "npu_native_functions.yaml"
#: Every file a model depends on (the backend file: for the derivatives check).
INPUT_FILES = (VERSIONS_FILE, OP_FILE, DERIVATIVES_FILE, DEPRECATED_FILE, BACKEND_FILE)


def display_names(yaml_dir: Path) -> dict[str, str]:
    """How files are named in messages and in generated comments: ``<dir name>/<file>``
    (``yaml/op_plugin_functions.yaml``), independent of the working directory."""
    base = yaml_dir.resolve().name
    return {f: f"{base}/{f}" for f in (VERSIONS_FILE, OP_FILE, DERIVATIVES_FILE, DEPRECATED_FILE)}


def input_key(yaml_dir: Path | str) -> str | None:
    """The cache key of ``yaml_dir``'s inputs (None: the cache is off or an input unreadable)."""
    yaml_dir = Path(yaml_dir)
    display = sorted(display_names(yaml_dir).values())
    return model_cache.input_key(yaml_dir, INPUT_FILES, display)
