"""The acl_op JIT compile switch that selects the execution path of dual-path ops."""

from __future__ import annotations

from ._C import C
from .lazy_init import _lazy_init


def set_compile_mode(jit_compile: bool = False) -> None:
    """``jit_compile=False`` (the default) runs dual-path ops on op_api (aclnn);
    ``True`` runs them on acl_op (OpCommand) and sets ACL_OP_JIT_COMPILE."""
    _lazy_init()
    C.set_jit_compile(bool(jit_compile))


def is_jit_compile_false() -> bool:
    return C.is_jit_compile_false()
