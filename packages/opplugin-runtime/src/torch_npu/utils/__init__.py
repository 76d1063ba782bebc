"""``torch_npu.utils``: upstream's helpers that scripts and tests import from here."""

from __future__ import annotations

from opplugin_runtime.npu.utils import get_cann_version

__all__ = ["get_cann_version"]
