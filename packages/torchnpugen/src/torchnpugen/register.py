"""The NPU wrapper around each registered kernel (RegisterNPU_<k>.cpp bodies).

``NPURegisterDispatchKey`` is a dataclass subclass of torchgen's
``RegisterDispatchKey`` (the way pytorch/xla extends it): it overrides
``gen_unstructured`` (our wrapper body) and ``wrapper_kernel_sig`` (``wrapper_NPU_*``
names, so the ``DispatchKey`` enum is never renamed globally).  The device check
comes from ``RegisterDispatchKey.gen_device_check``, which torchnpugen replaces
through the patch table (see ``patch.py`` for why that one is a patch).

Wrapper anatomy, in order (each step is one small method below):
  1. one comment line: schema name, what it calls, the YAML entry (file:line)
  2. device check          c10::impl::check_and_update_common_device (unless NoCheck)
  3. device guard          torchgen's rules (factory: DeviceGuard; else OptionalDeviceGuard)
  4. memory-overlap check  inplace/out only: at_npu::native::check_memory_overlaps
  5. profiler range        at_npu::native::NPURecordFunctionGuard
  6. OpHook pre-hook       behind the cheap env::CheckOpHookEnable()
  7. the call              op_plugin::<name> or at_npu::native::NPUNativeFunctions::<kernel>
  8. OpHook post-hook      on the result (not for void)
  9. return
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from torchgen.api.translate import translate
from torchgen.api.types import DispatcherSignature, NativeSignature
from torchgen.context import native_function_manager
from torchgen.dest.register_dispatch_key import RegisterDispatchKey
from torchgen.model import (
    Argument,
    BackendIndex,
    BackendMetadata,
    DeviceCheckType,
    DispatchKey,
    NativeFunction,
    NativeFunctionsGroup,
    OperatorName,
    SchemaKind,
    TensorOptionsArguments,
)
from torchgen.selective_build.selector import SelectiveBuilder
from torchgen.utils import Target

from .compat import cpp_default, cpp_spelling
from .errors import InputError
from .ops import RegisteredOp

__all__ = [
    "OVERLAP_HELPER",
    "WRAPPER_PREFIX",
    "NPURegisterDispatchKey",
    "check_overload_collisions",
    "kernel_declaration",
    "make_register_dispatch_key",
    "needs_overlap_helper",
    "npu_gen_device_check",
]

WRAPPER_PREFIX = "wrapper_NPU_"  # stock torchgen would say wrapper_PrivateUse1_

# inplace/out ops whose outputs are meant to alias or be rewritten wholesale: a
# TensorIterator-style overlap check would reject legal calls (fill_/zero_ disable
# it in ATen too; copy_/set_/resize_ manage storage themselves).
NO_OVERLAP_CHECK_OPS = (
    "copy_",
    "_copy_from",
    "_copy_from_and_resize",
    "fill_",
    "zero_",
    "resize_",
    "resize_as_",
    "set_",
)

# Argument types the overlap check takes (optional tensors and lists of optional
# tensors are left out: an absent tensor cannot overlap, index lists are read-only).
_OVERLAP_TYPES = ("Tensor", "Tensor[]")
# Argument types at::device_of() has overloads for.
_DEVICE_OF_TYPES = ("Tensor", "Tensor?", "Tensor[]")


def npu_gen_device_check(type: DeviceCheckType, args: list[Argument], method_name: str) -> str:
    """Replacement for ``RegisterDispatchKey.gen_device_check`` (see patch.py).

    Differences from stock: ``Tensor[]?`` arguments are skipped (there is no
    check_and_update_common_device overload for them), nothing is emitted when no
    argument can be checked (stock emits an unused variable and a (void) cast), and
    the contract's ``c10::optional`` spelling is used.
    """
    if type == DeviceCheckType.NoCheck:
        return "// No device check"
    checked = [a for a in args if a.type.is_tensor_like() and str(a.type) != "Tensor[]?"]
    if not checked:
        return "// No device check: no tensor arguments"
    lines = ["c10::optional<c10::Device> common_device = c10::nullopt;"]
    lines += [
        f'c10::impl::check_and_update_common_device(common_device, {a.name}, "{method_name}", "{a.name}");'
        for a in checked
    ]
    return "\n".join(lines)


def _unique_local(base: str, taken: Sequence[str]) -> str:
    name = base
    while name in taken:
        name += "_"
    return name


def kernel_signature(op: RegisteredOp) -> NativeSignature:
    """The kernel's C++ signature: torchgen's native API (contracts.md section 2)."""
    return NativeSignature(op.f.func, symint=op.symint)


def kernel_declaration(op: RegisteredOp) -> str:
    """``<ret> <kernel>(<args with C++ defaults>)`` for NPUNativeFunctions.h."""
    with native_function_manager(op.f):
        sig = kernel_signature(op)
        args = []
        for b in sig.arguments():
            default = "" if b.default is None else "=" + cpp_default(b.default)
            args.append(f"{cpp_spelling(b.type)} {b.name}{default}")
        return f"{cpp_spelling(sig.returns_type().cpp_type())} {op.kernel}({', '.join(args)})"


def check_overload_collisions(ops: Sequence[RegisteredOp]) -> None:
    """Two schemas mapping to one C++ name and parameter list cannot both be called."""
    seen: dict[tuple[str, tuple[str, ...]], RegisteredOp] = {}
    for op in ops:
        with native_function_manager(op.f):
            types = tuple(cpp_spelling(b.type) for b in kernel_signature(op).arguments())
        key = (op.qualified_kernel, types)
        if key in seen:
            raise InputError(
                f"'{op.schema_name}' and '{seen[key].schema_name}' ({seen[key].source}) both become "
                f"{op.qualified_kernel}({', '.join(types)}); give one an impl_name",
                op.source,
            )
        seen[key] = op


@dataclass(frozen=True)
class NPURegisterDispatchKey(RegisterDispatchKey):
    """torchgen's RegisterDispatchKey, with the NPU wrapper body and names."""

    ops: Mapping[OperatorName, RegisteredOp] = field(default_factory=dict)

    def wrapper_kernel_sig(self, f: NativeFunction) -> DispatcherSignature:  # type: ignore[override]
        return DispatcherSignature.from_schema(
            f.func, prefix=f"{WRAPPER_PREFIX}{f.func.name.overload_name}_", symint=self.symint
        )

    def gen_unstructured(self, f: NativeFunction, g: NativeFunctionsGroup | None = None) -> str | None:
        from .patch import require_patched  # patch.py imports this module

        require_patched()
        with native_function_manager(f):
            op = self.ops.get(f.func.name)
            if op is None:
                # Only declared ops are registered: no implicit out/inplace wrappers
                # built from the functional kernel (each wrapper traces to a YAML entry).
                return None
            name = self.wrapper_kernel_sig(f).name()
            if self.target is Target.REGISTRATION:
                return f'm.impl("{f.func.name}", TORCH_FN({name}));'
            if self.target is Target.ANONYMOUS_DEFINITION:
                return self.gen_wrapper(op)
            # at::npu:: namespaced declarations/definitions arrive with a later issue.
            raise NotImplementedError(f"torchnpugen does not generate {self.target} yet")

    # ---- the wrapper, one method per step ---------------------------------------------

    def gen_wrapper(self, op: RegisteredOp) -> str:
        f = op.f
        sig = self.wrapper_kernel_sig(f)
        name = sig.name()
        params = sig.arguments()
        param_names = [b.name for b in params]
        returns_type = cpp_spelling(sig.returns_type().cpp_type())
        call_args = ", ".join(
            cpp_spelling(e.expr) for e in translate(params, kernel_signature(op).arguments(), method=False)
        )
        call = f"{op.qualified_kernel}({call_args})"
        hook_flag = _unique_local("op_hook_enabled", param_names)
        pre_hook_args = ", ".join([f'"{op.schema_name}"', *param_names])

        body: list[str] = [self.gen_source_comment(op)]
        body += self.gen_device_check_lines(op, name)
        body += self.gen_device_guard_lines(f)
        body += self.gen_overlap_check_lines(f)
        body.append(f'at_npu::native::NPURecordFunctionGuard record_guard("{op.schema_name}");')
        body += [
            f"const bool {hook_flag} = at_npu::native::env::CheckOpHookEnable();",
            f"if (C10_UNLIKELY({hook_flag})) {{",
            f"  at_npu::native::OpHook::GetInstance().PreHook({pre_hook_args});",
            "}",
        ]
        if returns_type == "void":
            body.append(f"{call};")
        else:
            result = _unique_local("result", param_names)
            body += [
                f"{returns_type} {result} = {call};",
                f"if (C10_UNLIKELY({hook_flag})) {{",
                f"  at_npu::native::OpHook::GetInstance().PostHook({result});",
                "}",
                f"return {result};",
            ]
        params_str = ", ".join(cpp_spelling(b.defn()) for b in params)
        indented = "\n".join(("  " + line) if line else "" for line in body)
        return f"{returns_type} {name}({params_str}) {{\n{indented}\n}}\n"

    @staticmethod
    def gen_source_comment(op: RegisteredOp) -> str:
        return f"// {op.schema_name}  {op.provenance}  ({op.source})"

    @staticmethod
    def gen_device_check_lines(op: RegisteredOp, method_name: str) -> list[str]:
        if op.device_check == DeviceCheckType.NoCheck:
            return [f"// No device check: {op.device_check_note}"]
        args = itertools.chain(op.f.func.arguments.out, op.f.func.arguments.flat_positional)
        # Looked up on the class on purpose: this is the patched torchgen entry point.
        return RegisterDispatchKey.gen_device_check(op.device_check, list(args), method_name).splitlines()

    @staticmethod
    def gen_device_guard_lines(f: NativeFunction) -> list[str]:
        # torchgen's rules (RegisterDispatchKey.gen_unstructured), spelled fully qualified.
        if not f.device_guard:
            return ["// DeviceGuard omitted: device_guard: False (native_functions.yaml)"]
        if any(isinstance(a, TensorOptionsArguments) for a in f.func.arguments.non_out):
            return ["const c10::DeviceGuard device_guard(c10::device_or_default(device));"]
        self_arg = [f.func.arguments.self_arg.argument] if f.func.arguments.self_arg is not None else []
        candidates = itertools.chain(self_arg, f.func.arguments.out, f.func.arguments.flat_positional)
        device_of = next((a.name for a in candidates if str(a.type) in _DEVICE_OF_TYPES), None)
        if device_of is None:
            return ["// DeviceGuard omitted: no tensor arguments"]
        return [f"const c10::OptionalDeviceGuard device_guard(at::device_of({device_of}));"]

    @staticmethod
    def gen_overlap_check_lines(f: NativeFunction) -> list[str]:
        plan = overlap_check_plan(f)
        if isinstance(plan, str):
            return [plan] if plan else []
        inputs, outputs = plan
        return [f"at_npu::native::check_memory_overlaps({_overlap_operand(inputs)}, {_overlap_operand(outputs)});"]


OVERLAP_HELPER = """\
// Flattens tensors and tensor lists into the one list check_memory_overlaps takes.
inline void append_overlap_tensors(::std::vector<at::Tensor>& tensors, const at::Tensor& tensor) {
  tensors.push_back(tensor);
}
inline void append_overlap_tensors(::std::vector<at::Tensor>& tensors, at::ITensorListRef list) {
  for (const at::Tensor& tensor : list) {
    tensors.push_back(tensor);
  }
}
template <typename... Args>
::std::vector<at::Tensor> overlap_tensors(const Args&... args) {
  ::std::vector<at::Tensor> tensors;
  (append_overlap_tensors(tensors, args), ...);
  return tensors;
}
"""


def overlap_check_plan(f: NativeFunction) -> tuple[list[Argument], list[Argument]] | str:
    """(inputs, outputs) of the memory-overlap check, or the comment saying why there is none."""
    kind = f.func.kind()
    if kind not in (SchemaKind.inplace, SchemaKind.out):
        return ""
    if str(f.func.name.name) in NO_OVERLAP_CHECK_OPS or "inplace_view" in f.tags or f.is_view_op:
        return f"// No overlap check: {f.func.name.name} manages aliasing itself"
    inputs = [a for a in f.func.arguments.flat_non_out if not a.is_write and str(a.type) in _OVERLAP_TYPES]
    outputs = [a for a in f.func.arguments.flat_all if a.is_write and str(a.type) in _OVERLAP_TYPES]
    if not outputs:
        return "// No overlap check: no tensor outputs"
    if kind is SchemaKind.out and not inputs:
        return "// No overlap check: factory (no tensor inputs)"
    return inputs, outputs


def needs_overlap_helper(f: NativeFunction) -> bool:
    plan = overlap_check_plan(f)
    return not isinstance(plan, str) and any(str(a.type) != "Tensor" for group in plan for a in group)


def _overlap_operand(args: Sequence[Argument]) -> str:
    # Plain tensors: a braced list (no allocation). Any tensor list: flatten.
    names = ", ".join(a.name for a in args)
    if all(str(a.type) == "Tensor" for a in args):
        return "{" + names + "}"
    return f"overlap_tensors({names})"


def make_register_dispatch_key(ops: Sequence[RegisteredOp], target: Target) -> NPURegisterDispatchKey:
    metadata = {
        op.f.func.name: BackendMetadata(
            kernel=op.kernel, structured=False, cpp_namespace=op.qualified_kernel.rsplit("::", 1)[0]
        )
        for op in ops
    }
    index = BackendIndex(
        dispatch_key=DispatchKey.PrivateUse1,
        use_out_as_primary=False,
        external=True,
        device_guard=True,
        index=metadata,
    )
    return NPURegisterDispatchKey(
        index,
        target,
        SelectiveBuilder.get_nop_selector(),
        rocm=False,
        symint=True,
        class_method_name=None,
        skip_dispatcher_op_registration=False,
        ops={op.f.func.name: op for op in ops},
    )
