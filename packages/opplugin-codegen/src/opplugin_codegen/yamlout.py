"""A small, deterministic YAML emitter for the generated config files.

Every string is written double-quoted with JSON escapes (a JSON string is a valid YAML
double-quoted scalar), so the output never depends on PyYAML's style heuristics or on
whether libyaml is installed, and it reads back to exactly the same values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    raise TypeError(f"cannot emit {type(value).__name__}")


def _key(key: str) -> str:
    return key if _PLAIN_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def _is_flat(value: Any) -> bool:
    return not isinstance(value, (Mapping, list, tuple))


def _emit(value: Any, indent: int, out: list[str]) -> None:
    """Emit the body of a block value at ``indent`` (the caller wrote the key)."""
    pad = " " * indent
    if isinstance(value, Mapping):
        for k, v in value.items():
            _emit_pair(k, v, indent, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, Mapping) and item:
                first = True
                for k, v in item.items():
                    prefix = f"{pad}- " if first else f"{pad}  "
                    first = False
                    _emit_pair(k, v, indent + 2, out, prefix=prefix)
            elif _is_flat(item) or not item:
                out.append(f"{pad}- {inline(item)}")
            else:
                out.append(f"{pad}-")
                _emit(item, indent + 2, out)
    else:  # pragma: no cover - callers emit scalars inline
        out.append(pad + scalar(value))


def _emit_pair(
    key: str, value: Any, indent: int, out: list[str], prefix: str | None = None
) -> None:
    head = (prefix if prefix is not None else " " * indent) + _key(key) + ":"
    if (
        _is_flat(value)
        or not value
        or (isinstance(value, (list, tuple)) and all(_is_flat(v) for v in value))
    ):
        out.append(f"{head} {inline(value)}")
    else:
        out.append(head)
        _emit(value, indent + 2, out)


def inline(value: Any) -> str:
    """Flow style for scalars, empty collections and lists of scalars."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)}: {inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(inline(v) for v in value) + "]"
    return scalar(value)


def dump_lines(document: Any) -> list[str]:
    """The lines of ``document`` (a mapping or a list) as YAML, without line ends."""
    if isinstance(document, (list, tuple)) and not document:
        return ["[]"]
    if isinstance(document, Mapping) and not document:
        return ["{}"]
    out: list[str] = []
    _emit(document, 0, out)
    return out


def dump_items(items: list[Any], indent: int) -> str:
    """The lines of ``items`` as a block sequence at ``indent`` (one entry of a section)."""
    out: list[str] = []
    _emit(items, indent, out)
    return "\n".join(out) + "\n"
