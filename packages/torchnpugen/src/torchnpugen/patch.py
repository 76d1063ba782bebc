"""Every place torchnpugen changes or relies on the shape of torchgen, in one table.

Each row names a torchgen attribute, what replaces it and why.  Four modes:

* ``PATCH``: the attribute is reassigned while the patch is applied (inside
  ``torchgen_patched()``, restored on exit).  This module is the only code in the
  repository that assigns to a torchgen attribute.
* ``PATCH_ITEM``: one entry of a torchgen mapping, set while applied, if the installed
  torchgen needs it; when it already holds the replacement the row says so (see
  ``patch_report()``) instead of silently doing nothing.
* ``OVERRIDE``: a torchnpugen subclass overrides the attribute; torchgen itself is
  untouched.  Preferred whenever torchgen reaches the attribute through ``self``.
* ``VERIFY``: reused or deliberately left alone; checked so that an upgrade that
  reshapes it fails at start, not later.

Before anything is applied every row is verified against the installed torchgen:
the target must exist, its parameter names must be the expected ones (so an
upgrade that moves or reshapes a target fails at start, naming the target and
the torch version, instead of silently generating different code), must not be
replaced already by a third party, and our replacement must take the same
parameters.

The seed's list (torch_npu's apply_torchgen_patch) and where each target went:
gen_unstructured, wrapper naming (PrivateUse1 -> NPU), gen_structured and the three
structured targets are OVERRIDE rows; gen_device_check and
compute_native_function_declaration are PATCH rows; the ``contiguous_format`` default is
a PATCH_ITEM row (a no-op on torch >= 2.2, a real patch on 2.1); the
``dispatcher.arguments`` swap is a VERIFY row (not needed: see its reason).
``DispatchKey.__str__`` / ``DispatchKey.parse`` are not patched either: names are
passed explicitly (``wrapper_kernel_sig``), ``TORCH_LIBRARY_IMPL(aten, PrivateUse1, m)``
keeps the real key name.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
from dataclasses import dataclass
from enum import Enum
from types import ModuleType
from typing import Any, Callable, Iterator, Sequence

from .compat import detected_differences, difference, torch_version, torchgen_dir
from .errors import TorchgenMismatchError
from .patch_state import enter_patched, is_patched, leave_patched, require_patched
from .register import (
    NPURegisterDispatchKey,
    NPUStructuredRegisterDispatchKey,
    npu_compute_native_function_declaration,
    npu_gen_device_check,
)

__all__ = [
    "TORCHGEN_PATCHES",
    "Mode",
    "TorchgenPatch",
    "apply_torchgen_patch",
    "is_patched",
    "patch_report",
    "require_patched",
    "torchgen_patched",
    "verify_torchgen_targets",
]


class Mode(Enum):
    PATCH = "patch"  # reassigned while applied
    PATCH_ITEM = "patch item"  # one mapping entry set while applied, when needed
    OVERRIDE = "override"  # overridden in a torchnpugen subclass; verified only
    VERIFY = "verify"  # reused or left alone on purpose; verified only


@dataclass(frozen=True)
class TorchgenPatch:
    target: str  # dotted path: module, then attribute chain
    params: tuple[str, ...]  # expected parameter names of the target (inspect.signature); () for PATCH_ITEM
    mode: Mode
    replacement: Any  # PATCH / PATCH_ITEM: the new value; OVERRIDE: the subclass; VERIFY: None
    reason: str
    key: Any = None  # PATCH_ITEM: the mapping key
    stock_values: tuple[Any, ...] = ()  # PATCH_ITEM: values the installed torchgen may hold instead
    #: A compat.TORCHGEN_DIFFERENCES name: where that difference is detected the target does
    #: not exist and the row is skipped (its output is not generated on that torch).
    absent_with: str | None = None
    #: VERIFY: parameter lists of earlier torchgen releases that the reusing code also handles.
    older_params: tuple[tuple[str, ...], ...] = ()

    def applies(self) -> bool:
        return self.absent_with is None or difference(self.absent_with) not in detected_differences()


_REGISTER = "torchgen.dest.register_dispatch_key"

TORCHGEN_PATCHES: tuple[TorchgenPatch, ...] = (
    TorchgenPatch(
        target=f"{_REGISTER}.RegisterDispatchKey.gen_unstructured",
        params=("self", "f", "g"),
        mode=Mode.OVERRIDE,
        replacement=NPURegisterDispatchKey,
        reason="The wrapper body is NPU-specific (YAML source comment, overlap check, "
        "NPURecordFunctionGuard, OpHook, op_plugin:: / NPUNativeFunctions:: call). "
        "torchgen reaches it via self (__call__, gen_structured), so a subclass suffices.",
    ),
    TorchgenPatch(
        target=f"{_REGISTER}.RegisterDispatchKey.wrapper_kernel_sig",
        params=("self", "f"),
        mode=Mode.OVERRIDE,
        replacement=NPURegisterDispatchKey,
        reason="PrivateUse1 -> NPU naming: wrapper_NPU_<overload>_<name> instead of "
        "wrapper_PrivateUse1_..., without patching the DispatchKey enum globally.",
    ),
    TorchgenPatch(
        target=f"{_REGISTER}.RegisterDispatchKey.gen_device_check",
        params=("type", "args", "method_name"),
        mode=Mode.PATCH,
        replacement=npu_gen_device_check,
        reason="Skip Tensor[]? arguments (no check_and_update_common_device overload), "
        "emit nothing unused, contract spelling. A static method that torchgen calls by "
        "class name (RegisterDispatchKey.gen_device_check(...) in gen_unstructured and "
        "StructuredRegisterDispatchKey.gen_one), so an override in a subclass would not "
        "reach torchgen's own call sites.",
    ),
    TorchgenPatch(
        target=f"{_REGISTER}.RegisterDispatchKey.gen_structured",
        params=("self", "g"),
        mode=Mode.OVERRIDE,
        replacement=NPURegisterDispatchKey,
        reason="Stock constructs StructuredRegisterDispatchKey by name; ours constructs "
        "NPUStructuredRegisterDispatchKey (the three structured rows below) with the ops map.",
    ),
    TorchgenPatch(
        target=f"{_REGISTER}.StructuredRegisterDispatchKey.gen_class",
        params=("self", "f", "k", "class_name", "parent_class", "generate_super"),
        mode=Mode.OVERRIDE,
        replacement=NPUStructuredRegisterDispatchKey,
        reason="Stock picks the guard member by key (OptionalCUDAGuard, OptionalDeviceGuard) and "
        "has none for PrivateUse1; ours holds c10_npu::OptionalNPUGuard guard_ and spells "
        "at:: types (our shards are not inside namespace at).",
    ),
    TorchgenPatch(
        target=f"{_REGISTER}.StructuredRegisterDispatchKey.gen_class_set_output_body",
        params=("self", "k", "maybe_create_proxy"),
        mode=Mode.OVERRIDE,
        replacement=NPUStructuredRegisterDispatchKey,
        reason="Stock sets the device guard only for CUDA/MPS/XPU and raises 'Unexpected dispatch "
        "key' for functional kernels on PrivateUse1; ours sets guard_ and allocates on npu "
        "(no proxy for in-place ops that keep their own kernel).",
    ),
    TorchgenPatch(
        target=f"{_REGISTER}.StructuredRegisterDispatchKey.gen_one",
        params=("self", "f"),
        mode=Mode.OVERRIDE,
        replacement=NPUStructuredRegisterDispatchKey,
        reason="The NPU prologue (device check, guard, overlap check, NPURecordFunctionGuard, "
        "OpHook) around op.meta/op.impl, only declared ops, and the separate in-place impl "
        "list (in-place ops marked structured: true call their own kernel after meta).",
    ),
    TorchgenPatch(
        target="torchgen.dest.compute_native_function_declaration",
        params=("g", "backend_index"),
        mode=Mode.PATCH,
        replacement=npu_compute_native_function_declaration,
        reason="The native declaration step (NPUNativeFunctions.h): stock raises for structured "
        "external kernels (ours skips them: NPUStructuredNativeFunctions.h declares them) and "
        "declares external kernels without C++ defaults (ours renders NativeSignature with "
        "defaults). A module function torchgen calls as dest.compute_native_function_declaration.",
    ),
    TorchgenPatch(
        target="torchgen.api.cpp.JIT_TO_CPP_DEFAULT",
        params=(),
        mode=Mode.PATCH_ITEM,
        replacement="c10::MemoryFormat::Contiguous",
        key="contiguous_format",
        stock_values=("MemoryFormat::Contiguous",),
        reason="C++ default of memory_format=contiguous_format in declarations with defaults: "
        "torch 2.1 spells it MemoryFormat::Contiguous, which does not resolve outside "
        "namespace at. Torch 2.2+ already has the qualified spelling (nothing to patch).",
    ),
    TorchgenPatch(
        target="torchgen.api.dispatcher.arguments",
        params=("func", "symint"),
        mode=Mode.VERIFY,
        replacement=None,
        reason="Not patched (upstream swaps it for native.arguments to get C++ defaults into "
        "NPUNativeFunctions.h, which breaks two torchgen call sites that pass no symint). "
        "Our declarations come from NativeSignature, which has the defaults.",
    ),
    TorchgenPatch(
        target="torchgen.dest.native_functions.gen_structured",
        params=("g", "backend_index"),
        mode=Mode.VERIFY,
        replacement=None,
        reason="Reused: declares struct structured_<kernel> : at::meta::structured_<meta> in "
        "NPUStructuredNativeFunctions.h.",
    ),
    TorchgenPatch(
        target="torchgen.gen_functionalization_type.wrap_propagate_mutations_and_return",
        params=("f", "functional_op", "inner_return_var"),
        mode=Mode.VERIFY,
        replacement=None,
        reason="Reused (with unwrap_tensor_args, convert_to_meta_tensors) for the Functionalize "
        "kernels of custom mutable ops.",
    ),
    TorchgenPatch(
        target="torchgen.gen_functionalization_type.unwrap_tensor_args",
        params=("sig", "is_view_op"),
        mode=Mode.VERIFY,
        replacement=None,
        reason="Reused for the Functionalize kernels of custom mutable ops.",
    ),
    TorchgenPatch(
        target="torchgen.gen_aoti_c_shim.gen_declaration_and_definition",
        params=("schema", "device", "backend_call", "op_metadata"),
        mode=Mode.VERIFY,
        replacement=None,
        reason="Reused: the AOTInductor C shim functions (c_shim_npu.h/.cpp); aoti.py passes an empty "
        "fourth argument (version_info before torch 2.13, op_metadata since) only where there is one.",
        older_params=(("schema", "device", "backend_call"), ("schema", "device", "backend_call", "version_info")),
        absent_with="no-aoti-c-shim",
    ),
    TorchgenPatch(
        target="torchgen.packaged.autograd.load_derivatives.create_differentiability_info",
        params=("defn_dict", "functions_by_signature", "functions_by_schema", "op_counter", "used_dispatch_keys"),
        mode=Mode.VERIFY,
        replacement=None,
        reason="Reused: parses the backward formulas of derivatives.yaml (saved variables, "
        "grad names) for the custom ops' autograd.",
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
    if row.mode is Mode.PATCH_ITEM:
        if not isinstance(current, dict) or row.key not in current:
            raise _mismatch(row, f"has no entry {row.key!r}")
        value = current[row.key]
        if value != row.replacement and value not in row.stock_values:
            raise _mismatch(
                row, f"[{row.key!r}] is {value!r}; expected {row.replacement!r} or one of {list(row.stock_values)}"
            )
        return owner, attr
    try:
        found = _param_names(current)
    except (TypeError, ValueError):
        raise _mismatch(row, "is not a callable with a signature") from None
    if found != row.params and found not in row.older_params:
        expected = " or ".join(f"({', '.join(params)})" for params in (row.params, *row.older_params))
        raise _mismatch(row, f"has parameters ({', '.join(found)}); expected {expected}")
    module = getattr(current, "__module__", "") or ""
    if not (module.startswith(("torchgen", "torchnpugen"))):
        raise _mismatch(row, f"was already replaced by {module}.{getattr(current, '__qualname__', '?')}")
    if row.mode is Mode.VERIFY:
        return owner, attr

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
    """Check every row that applies to the installed torchgen; raise on the first bad one."""
    return [(row, *_verify_row(row)) for row in table if row.applies()]


# --------------------------------------------------------------------------- apply / revert


def apply_torchgen_patch(table: Sequence[TorchgenPatch] = TORCHGEN_PATCHES) -> Callable[[], None]:
    """Verify every row, then apply the PATCH rows.  Returns the function that reverts them."""
    resolved = verify_torchgen_targets(table)
    saved: list[tuple[Any, str, Any]] = []
    items: list[tuple[dict, Any, Any]] = []
    for row, owner, attr in resolved:
        if row.mode is Mode.PATCH_ITEM:
            mapping = getattr(owner, attr)
            if mapping[row.key] != row.replacement:
                items.append((mapping, row.key, mapping[row.key]))
                mapping[row.key] = row.replacement  # a torchgen mapping entry, restored by revert()
            continue
        if row.mode is not Mode.PATCH:
            continue
        original = vars(owner).get(attr, _MISSING)  # raw: keeps staticmethod wrappers intact
        new_value = row.replacement
        if isinstance(original, staticmethod) and not isinstance(new_value, staticmethod):
            new_value = staticmethod(new_value)
        setattr(owner, attr, new_value)  # the one assignment to torchgen in the repository
        saved.append((owner, attr, original))
    enter_patched()
    reverted = False

    def revert() -> None:
        nonlocal reverted
        if reverted:
            return
        reverted = True
        for owner, attr, original in reversed(saved):
            if original is _MISSING:
                delattr(owner, attr)
            else:
                setattr(owner, attr, original)
        for mapping, key, original in reversed(items):
            mapping[key] = original
        leave_patched()

    return revert


@contextlib.contextmanager
def torchgen_patched(table: Sequence[TorchgenPatch] = TORCHGEN_PATCHES) -> Iterator[None]:
    """``with torchgen_patched(): ...`` applies the table and restores torchgen on exit."""
    revert = apply_torchgen_patch(table)
    try:
        yield
    finally:
        revert()


def patch_report(table: Sequence[TorchgenPatch] = TORCHGEN_PATCHES) -> list[tuple[str, str, str]]:
    """(target, what happens on this torch, reason) for every row, after verifying them all."""
    report = [
        (row.target, f"skipped on torch {torch_version()}: {difference(row.absent_with).releases}", row.reason)
        for row in table
        if not row.applies() and row.absent_with is not None
    ]
    for row, owner, attr in verify_torchgen_targets(table):
        if row.mode is Mode.PATCH_ITEM:
            value = getattr(owner, attr)[row.key]
            if value == row.replacement:
                action = f"verified, not patched: [{row.key!r}] is already {value!r} on torch {torch_version()}"
            else:
                action = f"patched while applied: [{row.key!r}] {value!r} -> {row.replacement!r}"
        elif row.mode is Mode.PATCH:
            action = f"patched while applied -> {row.replacement.__module__}.{row.replacement.__qualname__}"
        elif row.mode is Mode.OVERRIDE:
            action = f"overridden in {row.replacement.__module__}.{row.replacement.__qualname__}"
        else:
            action = "verified, not patched"
        report.append((row.target, action, row.reason))
    return report
