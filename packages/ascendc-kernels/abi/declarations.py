"""What the two declaration readers (aclnn_abi.py, aclop_abi.py) share: the error that carries
every problem found, reading every family file of a folder, and C++ comment lines.
Standard library only (the build runs the readers before anything is installed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

SUFFIX = ".decl"

F = TypeVar("F")


class AbiError(Exception):
    """Every problem found in the declaration files, each ``file:line: ...: what``."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def load_families(
    directory: Path,
    parse_family: Callable[[Path], tuple[F, list[str]]],
    entries: Callable[[F], Iterable[Any]],
    declared_again: str,
) -> list[F]:
    """Every family of `directory`, by file name; an entry (with ``name`` and ``where``) that
    another file declared first is a problem worded by `declared_again` (``{name}``,
    ``{other}``). AbiError lists all problems of all files."""
    families: list[F] = []
    problems: list[str] = []
    first_declared: dict[str, str] = {}
    for path in sorted(directory.glob("*" + SUFFIX)):
        family, found = parse_family(path)
        problems.extend(found)
        for entry in entries(family):
            other = first_declared.setdefault(entry.name, entry.where)
            if other.split(":")[0] != path.name:
                problems.append(f"{entry.where}: " + declared_again.format(name=entry.name, other=other))
        families.append(family)
    if not families and not problems:
        problems.append(f"{directory}: no *{SUFFIX} files")
    if problems:
        raise AbiError(problems)
    return families


def cpp_comment(lines: Iterable[str], indent: str = "") -> str:
    """`lines` as C++ line comments."""
    return "".join(f"{indent}// {line}".rstrip() + "\n" for line in lines)
