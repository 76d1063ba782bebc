"""Diagnostics: every problem names where it is (file:line), which entry, and what is wrong."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Location:
    """A place in a YAML file. ``file`` is the display path (e.g. ``yaml/versions.yaml``)."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Diagnostic:
    loc: Location | None
    subject: str | None  # the entry's func name (``abs.out``), or None at file level
    message: str

    def __str__(self) -> str:
        parts = []
        if self.loc is not None:
            parts.append(str(self.loc))
        if self.subject:
            parts.append(self.subject)
        parts.append(self.message)
        return ": ".join(parts)


class CodegenError(Exception):
    """Invalid input. Carries every diagnostic found, in file order."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        lines = [str(d) for d in self.diagnostics]
        n = len(lines)
        lines.append(f"{n} error{'s' if n != 1 else ''}")
        return "\n".join(lines)


class Diagnostics:
    """Collects errors so that one run reports all of them together."""

    def __init__(self) -> None:
        self._items: list[Diagnostic] = []

    def error(self, loc: Location | None, subject: str | None, message: str) -> None:
        self._items.append(Diagnostic(loc, subject, message))

    def extend(self, items: Iterable[Diagnostic]) -> None:
        self._items.extend(items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __len__(self) -> int:
        return len(self._items)

    @property
    def items(self) -> tuple[Diagnostic, ...]:
        return tuple(self._items)

    def raise_if_any(self, file_order: Sequence[str] = ()) -> None:
        """Raises every problem at once, ordered by file (those of ``file_order`` first, in
        that order, then the others by name), then by line; file-level messages first."""
        if self._items:
            rank = {f: i for i, f in enumerate(file_order)}

            def key(d: Diagnostic) -> tuple[int, str, int]:
                if d.loc is None:
                    return (-1, "", 0)
                return (rank.get(d.loc.file, len(rank)), d.loc.file, d.loc.line)

            raise CodegenError(sorted(self._items, key=key))


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` or the empty string."""
    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.7)
    return f"; did you mean '{matches[0]}'?" if matches else ""
