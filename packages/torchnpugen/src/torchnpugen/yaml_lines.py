"""YAML loading that remembers where every list item came from: opplugin-codegen's loader
(the project's one YAML-with-lines loader: UTF-8 and control characters checked at their
line, duplicate keys, aliases and runaway nesting refused, every problem of the file in one
error), seen through the top-level key and item lines that torchnpugen's inputs need."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from opplugin_codegen.errors import Diagnostics
from opplugin_codegen.yamlload import YamlList, YamlMap, load_yaml

from .errors import InputError


@dataclass(frozen=True)
class LocatedYaml:
    """A loaded YAML document plus the line of each item of each top-level list."""

    display_path: str  # how the file is named in messages and generated comments
    data: Any
    item_lines: dict[str, tuple[int, ...]]  # top-level key ("" for a bare list) -> line of each item
    key_lines: dict[str, int]  # top-level key -> its line

    def where(self, key: str, index: int) -> str:
        return f"{self.display_path}:{self.item_lines[key][index]}"


def load_located(path: Path, display_path: str) -> LocatedYaml:
    """Raises :class:`InputError` with every problem of the file, each ``file:line: what``."""
    diags = Diagnostics()
    data = load_yaml(path, display_path, diags)
    if diags:
        first, *rest = diags.items
        where = str(first.loc) if first.loc is not None else display_path
        raise InputError(first.message + "".join(f"\n{d}" for d in rest), where)
    item_lines: dict[str, tuple[int, ...]] = {}
    key_lines: dict[str, int] = {}
    if isinstance(data, YamlList):  # a bare list: its items under the key ""
        item_lines[""] = tuple(data.item_lines)
    if isinstance(data, YamlMap):
        key_lines = dict(data.key_lines)
        for key, value in data.items():
            if isinstance(value, YamlList):
                item_lines[key] = tuple(value.item_lines)
    return LocatedYaml(display_path, data, item_lines, key_lines)
