"""``torch.npu.utils`` (``torch_npu.npu.utils``): the toolkit's version and the device's SoC, as
torch_npu reports them. Both come from the simulator's CANN ABI (``aclsysGetVersionStr`` /
``aclsysGetCANNVersion``, ``aclrtGetSocName``); ``NPU_SIM_CANN_VERSION`` sets the version it reports.
"""

from __future__ import annotations

from ._C import C
from .lazy_init import _lazy_init


def get_cann_version(module: str = "CANN") -> str:
    """The toolkit's version of ``module`` ("CANN", "RUNTIME", "HCCL", ... or a package name such as
    "runtime"), "" when the toolkit cannot report it (the simulator reports only "CANN")."""
    if not isinstance(module, str):
        raise TypeError(f"get_cann_version: module must be a str, got {type(module).__name__}")
    return C._get_cann_version(module)


def _is_gte_cann_version(version: str, module: str = "CANN") -> bool:
    """Whether ``module`` of the toolkit is ``version`` or newer, in CANN's release order
    (8.2.RC1 < 8.2.0 < 8.5.0); False when the toolkit cannot report the version."""
    if not isinstance(version, str) or not isinstance(module, str):
        raise TypeError("_is_gte_cann_version: version and module must be str, got "
                        f"{type(version).__name__} and {type(module).__name__}")
    return bool(C._is_gte_cann_version(version, module))


def get_soc_version() -> int:
    """torch_npu's number of the device's SoC (the simulator's default ``Ascend910B1`` is 220)."""
    _lazy_init()
    return C._npu_get_soc_version()


__all__ = ["get_cann_version", "get_soc_version"]
