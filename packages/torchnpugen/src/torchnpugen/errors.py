"""Errors torchnpugen reports to its caller (the CLI maps them to exit code 1)."""

from __future__ import annotations


class TorchnpugenError(Exception):
    """Base class: anything that is the input's or the environment's fault."""


class InputError(TorchnpugenError):
    """Invalid YAML input. ``where`` is ``file:line`` of the offending entry."""

    def __init__(self, message: str, where: str | None = None) -> None:
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class TorchgenMismatchError(TorchnpugenError):
    """The installed torchgen lacks a target we patch/override, or it changed shape."""
