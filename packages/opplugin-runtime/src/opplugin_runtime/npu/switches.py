"""``torch.npu.config``: process-wide switches that torch_npu scripts set as attributes::

    torch.npu.config.allow_internal_format = False

``allow_internal_format`` (default True): whether tensors may be given an internal storage
format. When False, ``npu_format_cast`` to NC1HWC0 or FRACTAL_NZ keeps the base format
(NCHW, ND) and warns once. An attribute the runtime does not know raises instead of being
stored and ignored.
"""

from __future__ import annotations

from typing import Any

from ._C import C


class _Config:
    __slots__ = ()

    @property
    def allow_internal_format(self) -> bool:
        return bool(C.is_allow_internal_format())

    @allow_internal_format.setter
    def allow_internal_format(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"torch.npu.config.allow_internal_format must be a bool, got {type(value).__name__}")
        C.set_allow_internal_format(value)

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "allow_internal_format":
            raise AttributeError(f"torch.npu.config has no switch {name!r} (it has: allow_internal_format)")
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"torch.npu.config(allow_internal_format={self.allow_internal_format})"


config = _Config()
