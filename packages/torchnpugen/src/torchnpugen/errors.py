"""Errors torchnpugen reports to its caller (the CLI maps them to exit code 1).

Input errors read like opplugin-codegen's diagnostics: ``file:line: op: what``, and a run
reports every problem of its input files together (:class:`Problems` collects them, one per
entry, and raises them as one :class:`InputError`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


class TorchnpugenError(Exception):
    """Base class: anything that is the input's or the environment's fault."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input: where (``file:line``), which entry, what."""

    where: str | None
    subject: str | None
    message: str

    def __str__(self) -> str:
        return ": ".join(part for part in (self.where, self.subject, self.message) if part)


class InputError(TorchnpugenError):
    """Invalid YAML input: one problem (``where`` is ``file:line`` of the offending entry,
    ``subject`` its op), or, raised by :meth:`Problems.raise_if_any`, several."""

    def __init__(self, message: str, where: str | None = None, subject: str | None = None) -> None:
        self.where = where
        self.problems: tuple[Problem, ...] = (Problem(where, subject, message),)
        super().__init__(str(self.problems[0]))

    @classmethod
    def of(cls, problems: tuple[Problem, ...]) -> InputError:
        error = cls(problems[0].message, problems[0].where, problems[0].subject)
        error.problems = problems
        if len(problems) > 1:
            error.args = ("\n".join([*(str(p) for p in problems), f"{len(problems)} errors"]),)
        return error


class Problems:
    """Collects the input errors of a run, so that one run reports all of them."""

    def __init__(self) -> None:
        self._items: list[Problem] = []

    def add(self, message: str, where: str | None, subject: str | None = None) -> None:
        self._items.append(Problem(where, subject, message))

    @contextmanager
    def entry(self, subject: str | None = None) -> Iterator[None]:
        """Runs one entry's checks: an InputError raised inside is recorded (naming
        ``subject`` when the error does not name its entry) and the run goes on."""
        try:
            yield
        except InputError as error:
            for problem in error.problems:
                # a message that names its entry already ("'abs' is listed twice") keeps its words
                if problem.subject is None and subject and f"'{subject}" not in problem.message:
                    problem = Problem(problem.where, subject, problem.message)
                self._items.append(problem)

    def __bool__(self) -> bool:
        return bool(self._items)

    def raise_if_any(self) -> None:
        if self._items:
            raise InputError.of(tuple(self._items))


class TorchgenMismatchError(TorchnpugenError):
    """The installed torchgen lacks a target we patch/override, or it changed shape."""
