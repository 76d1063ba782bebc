"""Every place torchnpugen changes torchgen's behaviour, in one table.

Each row names a torchgen attribute, what replaces it and why.  Two modes:

* ``PATCH``: the attribute is reassigned while the patch is applied.  This module is
  the only code in the repository that assigns to a torchgen attribute.
* ``OVERRIDE``: a torchnpugen subclass overrides the attribute; torchgen itself is
  untouched.  Preferred whenever torchgen reaches the attribute through ``self``.

Before anything is applied every row is verified against the installed torchgen:
the target must exist, its parameter names must be the expected ones (so an
upgrade that moves or reshapes a target fails at start, naming the target and
the torch version, instead of silently generating different code), must not be
replaced already by a third party, and our replacement must take the same
parameters.

Deliberately *not* in the table:

* ``DispatchKey.__str__`` / ``DispatchKey.parse`` (upstream renames PrivateUse1 to
  NPU globally).  We pass names explicitly: file and class names are ours, and the
  wrapper prefix comes from the ``wrapper_kernel_sig`` override below.
  ``TORCH_LIBRARY_IMPL(aten, PrivateUse1, m)`` keeps the real key name.
* ``torchgen.api.dispatcher.arguments`` -> ``native.arguments`` (upstream uses it to
  get C++ defaults into NPUNativeFunctions.h).  We render that header from
  ``NativeSignature``, which already carries the defaults, so stock call sites of
  ``dispatcher.arguments`` keep their behaviour.
* ``torchgen.api.cpp.JIT_TO_CPP_DEFAULT``: spellings are normalised in compat.py.

Later issues add rows here (StructuredRegisterDispatchKey.gen_class,
gen_class_set_output_body, gen_one; compute_native_function_declaration; ...).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
from dataclasses import dataclass
from enum import Enum
from types import ModuleType
from typing import Any, Callable, Iterator, Sequence

from .compat import torch_version, torchgen_dir
from .errors import TorchgenMismatchError
from .register import NPURegisterDispatchKey, npu_gen_device_check

__all__ = [
    "TORCHGEN_PATCHES",
    "Mode",
    "TorchgenPatch",
    "apply_torchgen_patch",
    "is_patched",
    "require_patched",
    "torchgen_patched",
    "verify_torchgen_targets",
]


class Mode(Enum):
    PATCH = "patch"  # reassigned while applied
    OVERRIDE = "override"  # overridden in a torchnpugen subclass; verified only


@dataclass(frozen=True)
class TorchgenPatch:
    target: str  # dotted path: module, then attribute chain
    params: tuple[str, ...]  # expected parameter names of the target (inspect.signature)
    mode: Mode
    replacement: Any  # PATCH: the new value; OVERRIDE: the subclass that overrides it
    reason: str


TORCHGEN_PATCHES: tuple[TorchgenPatch, ...] = (
    TorchgenPatch(
        target="torchgen.dest.register_dispatch_key.RegisterDispatchKey.gen_unstructured",
        params=("self", "f", "g"),
        mode=Mode.OVERRIDE,
        replacement=NPURegisterDispatchKey,
        reason="The wrapper body is NPU-specific (YAML source comment, overlap check, "
        "NPURecordFunctionGuard, OpHook, op_plugin:: / NPUNativeFunctions:: call). "
        "torchgen reaches it via self (__call__, gen_structured), so a subclass suffices.",
    ),
    TorchgenPatch(
        target="torchgen.dest.register_dispatch_key.RegisterDispatchKey.wrapper_kernel_sig",
        params=("self", "f"),
        mode=Mode.OVERRIDE,
        replacement=NPURegisterDispatchKey,
        reason="PrivateUse1 -> NPU naming: wrapper_NPU_<overload>_<name> instead of "
        "wrapper_PrivateUse1_..., without patching the DispatchKey enum globally.",
    ),
    TorchgenPatch(
        target="torchgen.dest.register_dispatch_key.RegisterDispatchKey.gen_device_check",
        params=("type", "args", "method_name"),
        mode=Mode.PATCH,
        replacement=npu_gen_device_check,
        reason="Skip Tensor[]? arguments (no check_and_update_common_device overload), "
        "emit nothing unused, contract spelling. A static method that torchgen calls by "
        "class name (RegisterDispatchKey.gen_device_check(...) in gen_unstructured and "
        "StructuredRegisterDispatchKey.gen_one), so an override in a subclass would not "
        "reach the structured path the next issue reuses.",
    ),
)


# --------------------------------------------------------------------------- resolution

_MISSING = object()


def _import_owner(target: str) -> tuple[Any, str]:
    """(object that holds the attribute, attribute name) for a dotted target path."""
    parts = target.split(".")
    module: ModuleType = importlib.import_module(parts[0])
    consumed = 1
    for i in range(2, len(parts)):
        try:
            module = importlib.import_module(".".join(parts[:i]))
            consumed = i
        except ImportError:
            break
    owner: Any = module
    for name in parts[consumed:-1]:
        owner = getattr(owner, name)  # AttributeError is reported by the caller
    return owner, parts[-1]


def _param_names(obj: Any) -> tuple[str, ...]:
    return tuple(inspect.signature(obj).parameters)


def _mismatch(row: TorchgenPatch, problem: str) -> TorchgenMismatchError:
    return TorchgenMismatchError(
        f"torchgen target {row.target} {problem} (torch {torch_version()}, torchgen at {torchgen_dir()}). "
        f"torchnpugen relies on it because: {row.reason}"
    )


def _verify_row(row: TorchgenPatch) -> tuple[Any, str]:
    try:
        owner, attr = _import_owner(row.target)
    except (ImportError, AttributeError) as e:
        raise _mismatch(row, f"cannot be resolved ({e})") from None
    current = getattr(owner, attr, _MISSING)
    if current is _MISSING:
        raise _mismatch(row, "does not exist")
    try:
        found = _param_names(current)
    except (TypeError, ValueError):
        raise _mismatch(row, "is not a callable with a signature") from None
    if found != row.params:
        raise _mismatch(row, f"has parameters ({', '.join(found)}); expected ({', '.join(row.params)})")
    module = getattr(current, "__module__", "") or ""
    if not (module.startswith(("torchgen", "torchnpugen"))):
        raise _mismatch(row, f"was already replaced by {module}.{getattr(current, '__qualname__', '?')}")

    if row.mode is Mode.OVERRIDE:
        subclass = row.replacement
        if not (isinstance(owner, type) and isinstance(subclass, type) and issubclass(subclass, owner)):
            raise _mismatch(row, f"is not overridable by {subclass!r}")
        replacement = vars(subclass).get(attr, _MISSING)
        if replacement is _MISSING:
            raise _mismatch(row, f"is not overridden in {subclass.__qualname__} (table out of date)")
        replacement = getattr(subclass, attr)
    else:
        replacement = row.replacement
    if _param_names(replacement) != row.params:
        raise _mismatch(row, f"replacement has parameters ({', '.join(_param_names(replacement))}): torchnpugen bug")
    return owner, attr


def verify_torchgen_targets(table: Sequence[TorchgenPatch] = TORCHGEN_PATCHES) -> list[tuple[TorchgenPatch, Any, str]]:
    """Check every row against the installed torchgen; raise on the first bad one."""
    return [(row, *_verify_row(row)) for row in table]


# --------------------------------------------------------------------------- apply / revert

_applied_depth = 0


def apply_torchgen_patch(table: Sequence[TorchgenPatch] = TORCHGEN_PATCHES) -> Callable[[], None]:
    """Verify every row, then apply the PATCH rows.  Returns the function that reverts them."""
    global _applied_depth
    resolved = verify_torchgen_targets(table)
    saved: list[tuple[Any, str, Any]] = []
    for row, owner, attr in resolved:
        if row.mode is not Mode.PATCH:
            continue
        original = vars(owner).get(attr, _MISSING)  # raw: keeps staticmethod wrappers intact
        new_value = row.replacement
        if isinstance(original, staticmethod) and not isinstance(new_value, staticmethod):
            new_value = staticmethod(new_value)
        setattr(owner, attr, new_value)  # the one assignment to torchgen in the repository
        saved.append((owner, attr, original))
    _applied_depth += 1
    reverted = False

    def revert() -> None:
        global _applied_depth
        nonlocal reverted
        if reverted:
            return
        reverted = True
        for owner, attr, original in reversed(saved):
            if original is _MISSING:
                delattr(owner, attr)
            else:
                setattr(owner, attr, original)
        _applied_depth -= 1

    return revert


@contextlib.contextmanager
def torchgen_patched(table: Sequence[TorchgenPatch] = TORCHGEN_PATCHES) -> Iterator[None]:
    """``with torchgen_patched(): ...`` applies the table and restores torchgen on exit."""
    revert = apply_torchgen_patch(table)
    try:
        yield
    finally:
        revert()


def is_patched() -> bool:
    return _applied_depth > 0


def require_patched() -> None:
    if not is_patched():
        raise RuntimeError(
            "torchnpugen generators must run inside torchnpugen.patch.torchgen_patched() "
            "(the device check comes from the patched torchgen)"
        )
