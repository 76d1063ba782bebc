"""The NPU wrapper around each registered kernel (RegisterNPU_<k>.cpp bodies).

``NPURegisterDispatchKey`` is a dataclass subclass of torchgen's
``RegisterDispatchKey`` (the way pytorch/xla extends it): it overrides
``gen_unstructured`` (our wrapper body), ``wrapper_kernel_sig`` (``wrapper_NPU_*``
names, so the ``DispatchKey`` enum is never renamed globally) and ``gen_structured``
(which builds ``NPUStructuredRegisterDispatchKey``, the subclass of torchgen's
``StructuredRegisterDispatchKey`` overriding ``gen_class``,
``gen_class_set_output_body`` and ``gen_one``).  The device check comes from
``RegisterDispatchKey.gen_device_check``, which torchnpugen replaces through the patch
table (see ``patch.py`` for why that one is a patch).

Wrapper anatomy, in order (each step is one small method below):
  1. one comment line: schema name, what it calls, the YAML entry (file:line)
     the rest runs in a try block whose catch (...) calls at_npu::native::rethrow_naming_op:
     every error leaving the wrapper begins with the op's name
  2. device check          c10::impl::check_and_update_common_device; for NoCheck ops with
                           two or more tensor arguments at_npu::native::check_npu_device
                           (CPU scalars allowed, as TensorIterator does), torch's message form
  3. device guard          torchgen's rules (factory: DeviceGuard; else OptionalDeviceGuard)
  4. memory-overlap check  inplace/out only: at_npu::native::check_memory_overlaps
  5. profiler range        at_npu::native::NPURecordFunctionGuard
  6. OpHook pre-hook       behind the cheap env::CheckOpHookEnable()
  7. the call              op_plugin::<name> or at_npu::native::NPUNativeFunctions::<kernel>;
                           structured: op.meta(...) then op.impl(...) (or, for an in-place op
                           with its own kernel, op.meta(...) then op_plugin::<name>_(...))
  8. OpHook post-hook      on the result (not for void)
  9. return
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import torchgen.api.structured as structured_api
from torchgen.api.translate import translate
from torchgen.api.types import (
    BaseCType,
    Binding,
    ConstRefCType,
    DispatcherSignature,
    Expr,
    MutRefCType,
    NamedCType,
    NativeSignature,
    tensorT,
)
from torchgen.context import native_function_manager
from torchgen.dest.register_dispatch_key import RegisterDispatchKey, StructuredRegisterDispatchKey
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

from .compat import cpp_default, cpp_spelling, structured_set_output_takes_names
from .errors import Problems
from .ops import RegisteredOp, StructuredGroup, StructuredRole
from .patch_state import require_patched

__all__ = [
    "STRUCTURED_NAMESPACE",
    "WRAPPER_PREFIX",
    "NPURegisterDispatchKey",
    "NPUStructuredRegisterDispatchKey",
    "check_overload_collisions",
    "kernel_declaration",
    "make_register_dispatch_key",
    "needs_overlap_helper",
    "npu_compute_native_function_declaration",
    "npu_gen_device_check",
]

WRAPPER_PREFIX = "wrapper_NPU_"  # stock torchgen would say wrapper_PrivateUse1_
STRUCTURED_NAMESPACE = "at_npu::native"  # where structured_<kernel> classes live

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

# NoCheck ops whose tensors may be on different devices by design (copies, storage and view
# plumbing, factories, CPU indices, a CPU probability tensor): they get no device check of their own.
NO_DEVICE_CHECK_OPS = (
    "copy_",
    "_copy_from",
    "_copy_from_and_resize",
    "_to_copy",
    "set_",
    "resize_",
    "resize_as_",
    "as_strided",
    "view",
    "_reshape_alias",
    "empty",
    "empty_strided",
    "index",
    "index_put_",
    "_index_put_impl_",
    "bernoulli",
    "bernoulli_",
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
    checked = _device_checked(args)
    if not checked:
        return "// No device check: no tensor arguments"
    lines = ["c10::optional<c10::Device> common_device = c10::nullopt;"]
    lines += [
        f'c10::impl::check_and_update_common_device(common_device, {a.name}, "{method_name}", "{a.name}");'
        for a in checked
    ]
    return "\n".join(lines)


def _device_checked(args: Sequence[Argument]) -> list[Argument]:
    """The arguments a device check takes: tensors and tensor lists (no overload takes a Tensor[]?)."""
    return [a for a in args if a.type.is_tensor_like() and str(a.type) != "Tensor[]?"]


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


def npu_compute_native_function_declaration(
    g: NativeFunctionsGroup | NativeFunction, backend_index: BackendIndex
) -> list[str]:
    """Replacement for ``torchgen.dest.compute_native_function_declaration`` (see patch.py).

    For the npu index (external): structured groups declare nothing here (their
    ``structured_<kernel>`` classes are in NPUStructuredNativeFunctions.h; stock raises
    "Structured external backend functions are not implemented yet"), and kernels are
    declared from their ``NativeSignature`` with C++ defaults (stock uses the dispatcher
    signature for external backends, which has no defaults: upstream swaps
    ``dispatcher.arguments`` for ``native.arguments`` globally to get them).  Other
    indices keep torchgen's behaviour.
    """
    from torchgen.dest.native_functions import compute_native_function_declaration as stock

    if not backend_index.external or backend_index.dispatch_key is not DispatchKey.PrivateUse1:
        return stock(g, backend_index)
    metadata = backend_index.get_kernel(g)
    if isinstance(g, NativeFunctionsGroup) and metadata is not None and metadata.structured:
        return []
    functions = g.functions() if isinstance(g, NativeFunctionsGroup) else [g]
    declarations = []
    for f in functions:
        kernel = backend_index.get_kernel(f)
        if kernel is None:
            continue
        with native_function_manager(f):
            sig = NativeSignature(f.func, symint=kernel.supports_symint())
            args = []
            for b in sig.arguments():
                default = "" if b.default is None else "=" + cpp_default(b.default)
                args.append(f"{cpp_spelling(b.type)} {b.name}{default}")
            returns = cpp_spelling(sig.returns_type().cpp_type())
            declarations.append(f"static {returns} {kernel.kernel}({', '.join(args)});")
    return declarations


def check_overload_collisions(ops: Sequence[RegisteredOp]) -> None:
    """Two schemas mapping to one C++ name and parameter list cannot both be called."""
    seen: dict[tuple[str, tuple[str, ...]], RegisteredOp] = {}
    problems = Problems()
    for op in ops:
        if op.structured is not None and op.structured.name == "DELEGATE":
            continue  # calls the out= kernel through impl(), not by its own name
        with native_function_manager(op.f):
            types = tuple(cpp_spelling(b.type) for b in kernel_signature(op).arguments())
        key = (op.qualified_kernel, types)
        if key in seen:
            problems.add(
                f"'{op.schema_name}' and '{seen[key].schema_name}' ({seen[key].source}) both become "
                f"{op.qualified_kernel}({', '.join(types)}); give one an impl_name",
                op.source,
            )
            continue
        seen[key] = op
    problems.raise_if_any()


@dataclass(frozen=True)
class NPURegisterDispatchKey(RegisterDispatchKey):
    """torchgen's RegisterDispatchKey, with the NPU wrapper body and names."""

    ops: Mapping[OperatorName, RegisteredOp] = field(default_factory=dict)

    def wrapper_kernel_sig(self, f: NativeFunction) -> DispatcherSignature:  # type: ignore[override]
        return DispatcherSignature.from_schema(
            f.func, prefix=f"{WRAPPER_PREFIX}{f.func.name.overload_name}_", symint=self.symint
        )

    def gen_unstructured(self, f: NativeFunction, g: NativeFunctionsGroup | None = None) -> str | None:
        require_patched()
        with native_function_manager(f):
            op = self.ops.get(f.func.name)
            if op is None or op.structured is not None:
                # Only declared ops are registered: no implicit out/inplace wrappers
                # built from the functional kernel (each wrapper traces to a YAML entry);
                # members of structured groups come from gen_structured.
                return None
            name = self.wrapper_kernel_sig(f).name()
            if self.target is Target.REGISTRATION:
                return f'm.impl("{f.func.name}", TORCH_FN({name}));'
            if self.target is Target.ANONYMOUS_DEFINITION:
                return self.gen_wrapper(op)
            # at::npu:: namespaced declarations/definitions arrive with a later issue.
            raise NotImplementedError(f"torchnpugen does not generate {self.target} yet")

    def gen_structured(self, g: NativeFunctionsGroup) -> list[str]:
        metadata = self.backend_index.get_kernel(g)
        if metadata is None or not metadata.structured:
            return [text for f in g.functions() if (text := self.gen_unstructured(f, g)) is not None]
        structured_gen = NPUStructuredRegisterDispatchKey(
            self.backend_index,
            self.target,
            self.selector,
            self.rocm,
            self.symint,
            self.class_method_name,
            self.skip_dispatcher_op_registration,
            g,
            ops=self.ops,
        )
        return [text for f in g.functions() if (text := structured_gen.gen_one(f)) is not None]

    # ---- the wrapper, one method per step ---------------------------------------------

    def gen_prologue(self, op: RegisteredOp, name: str) -> list[str]:
        """Steps 1-5: the source comment, device check, device guard, overlap check and
        profiler range (everything before the hooks and the call)."""
        body: list[str] = [self.gen_source_comment(op)]
        body += self.gen_device_check_lines(op, name)
        body += self.gen_device_guard_lines(op.f)
        body += self.gen_overlap_check_lines(op.f)
        body.append(f'at_npu::native::NPURecordFunctionGuard record_guard("{op.schema_name}");')
        return body

    @staticmethod
    def gen_pre_hook(op: RegisteredOp, hook_flag: str, param_names: Sequence[str]) -> list[str]:
        pre_hook_args = ", ".join([f'"{op.schema_name}"', *param_names])
        return [
            f"const bool {hook_flag} = at_npu::native::env::CheckOpHookEnable();",
            f"if (C10_UNLIKELY({hook_flag})) {{",
            f"  at_npu::native::OpHook::GetInstance().PreHook({pre_hook_args});",
            "}",
        ]

    @staticmethod
    def gen_post_hook_and_return(returns_type: str, result: str, result_expr: str, hook_flag: str) -> list[str]:
        return [
            f"{returns_type} {result} = {result_expr};",
            f"if (C10_UNLIKELY({hook_flag})) {{",
            f"  at_npu::native::OpHook::GetInstance().PostHook({result});",
            "}",
            f"return {result};",
        ]

    def gen_wrapper(self, op: RegisteredOp) -> str:
        f = op.f
        sig = self.wrapper_kernel_sig(f)
        name = sig.name()
        params = sig.arguments()
        param_names = [b.name for b in params]
        returns_type = cpp_spelling(sig.returns_type().cpp_type())
        exprs = [cpp_spelling(e.expr) for e in translate(params, kernel_signature(op).arguments(), method=False)]
        if op.qualified_kernel.startswith("op_plugin::"):
            # op-plugin kernels take Tensor[] as at::TensorList (contracts.md section 2); torchgen's
            # signature of a structured group's member (cat) has an at::ITensorListRef: materialize it.
            kinds = [cpp_spelling(b.type) for b in kernel_signature(op).arguments()]
            exprs = [f"overlap_tensors({e})" if "ITensorListRef" in k else e for e, k in zip(exprs, kinds)]
        call_args = ", ".join(exprs)
        call = f"{op.qualified_kernel}({call_args})"
        hook_flag = _unique_local("op_hook_enabled", param_names)

        body = self.gen_prologue(op, name)
        body += self.gen_pre_hook(op, hook_flag, param_names)
        result = _unique_local("result", param_names)

        def call_and_return(expr: str) -> list[str]:
            if returns_type == "void":
                return [f"{expr};"]
            return self.gen_post_hook_and_return(returns_type, result, expr, hook_flag)

        if op.op_api_kernel is None:
            body += call_and_return(call)
        else:
            # Upstream's op_api: True on a runtime-owned op: its op_api kernel when aclnn is forced
            # or the ACL op compiler is off and (unless internal_format_opapi) every tensor is in
            # a base format, as op_plugin:: functions decide; the NPUNativeFunctions kernel otherwise.
            key = f'"{op.schema_name}"'
            body += self.gen_op_api_choice(op, params)
            body += [f"  NPU_PATH_TAKEN({key}, OpApi);"]
            body += [f"  {line}" for line in call_and_return(f"{op.op_api_kernel}({call_args})")]
            if returns_type == "void":
                body.append("  return;")
            body += ["}", f"NPU_PATH_TAKEN({key}, AclOp);"]
            body += call_and_return(call)
        return _function(returns_type, name, params, body, op)

    @staticmethod
    def gen_op_api_choice(op: RegisteredOp, params: Sequence[Binding]) -> list[str]:
        """``if (<force aclnn or no JIT> && <base formats>) {`` for a runtime-owned op with op_api."""
        key = f'"{op.schema_name}"'
        condition = [f"(at_npu::native::NpuDecideForceAclnn({key}) || at_npu::native::NpuDecideJitDisabled({key}))"]
        if not op.internal_format_opapi:
            tensors = [a for a in op.f.func.arguments.flat_all if a.type.is_tensor_like()]
            by_name = {b.name for b in params}
            condition += [
                f'at_npu::native::NpuDecideBaseFormat({key}, "{a.name}", {a.name})'
                for a in tensors
                if a.name in by_name
            ]
        if len(condition) == 1:
            return [f"if ({condition[0][1:-1]}) {{"]
        lines = [f"if ({condition[0]}"]
        lines += [f"    && {c}" for c in condition[1:]]
        lines[-1] += ") {"
        return lines

    @staticmethod
    def gen_source_comment(op: RegisteredOp) -> str:
        return f"// {op.schema_name}  {op.provenance}  ({op.source_file})"

    @staticmethod
    def gen_device_check_lines(op: RegisteredOp, method_name: str) -> list[str]:
        # Inputs first: an out= tensor on another device is then the argument the error names.
        args = itertools.chain(op.f.func.arguments.flat_positional, op.f.func.arguments.out)
        if op.device_check == DeviceCheckType.NoCheck:
            return npu_device_check_lines(op, list(args), method_name)
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


def npu_device_check_lines(op: RegisteredOp, args: Sequence[Argument], method_name: str) -> list[str]:
    """The device check of a NoCheck op: npu tensors on one device, other tensors CPU scalars."""
    checked = _device_checked(args)
    note = f"// No device check: {op.device_check_note}"
    if str(op.f.func.name.name) in NO_DEVICE_CHECK_OPS or op.f.func.name.name.base in NO_DEVICE_CHECK_OPS:
        return [note]
    if len(checked) < 2:
        return [note + "; one tensor argument"]
    lines = [
        f"// Device check: npu tensors on one device, CPU tensors only as 0-dim scalars ({op.device_check_note})",
        "c10::optional<c10::Device> common_device = c10::nullopt;",
    ]
    lines += [
        f'at_npu::native::check_npu_device(common_device, {a.name}, "{method_name}", "{a.name}");' for a in checked
    ]
    return lines


def _function(returns_type: str, name: str, params: Sequence[Binding], body: Sequence[str], op: RegisteredOp) -> str:
    """The wrapper: everything after the first line (the source comment) runs in a try block whose
    errors leave naming the op (the schema's name without its overload)."""
    params_str = ", ".join(cpp_spelling(b.defn()) for b in params)
    body = [
        body[0],
        "try {",
        *("  " + line if line else "" for line in body[1:]),
        "} catch (...) {",
        f'  at_npu::native::rethrow_naming_op("{op.f.func.name.name}");',
        "}",
    ]
    indented = "\n".join(("  " + line) if line else "" for line in body)
    return f"{returns_type} {name}({params_str}) {{\n{indented}\n}}\n"


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
    """Whether the wrapper of ``f`` calls ``overlap_tensors`` (its shard then defines it:
    templates/RegisterNPU.cpp.j2)."""
    if f.part_of_structured_group and any(str(a.type) == "Tensor[]" for a in f.func.arguments.flat_all):
        return True  # the wrapper materializes an at::ITensorListRef with overlap_tensors (gen_wrapper)
    plan = overlap_check_plan(f)
    return not isinstance(plan, str) and any(str(a.type) != "Tensor" for group in plan for a in group)


def _overlap_operand(args: Sequence[Argument]) -> str:
    # Plain tensors: a braced list (no allocation). Any tensor list: flatten.
    names = ", ".join(a.name for a in args)
    if all(str(a.type) == "Tensor" for a in args):
        return "{" + names + "}"
    return f"overlap_tensors({names})"


# The NPU guard member of every structured class; set on the first set_output_* call.
_SET_GUARD = """\
auto current_device = guard_.current_device();
if (C10_UNLIKELY(current_device.has_value())) {
  TORCH_INTERNAL_ASSERT(*current_device == options.device(), "structured kernels don't support multi-device outputs");
} else {
  guard_.reset_device(options.device());
}"""


@dataclass(frozen=True)
class NPUStructuredRegisterDispatchKey(StructuredRegisterDispatchKey):
    """torchgen's StructuredRegisterDispatchKey for the npu key (seed section 4.2).

    Overrides ``gen_class`` (a ``c10_npu::OptionalNPUGuard`` member, fully qualified
    names: our shards do not live in ``namespace at``), ``gen_class_set_output_body``
    (stock raises for functional kernels on PrivateUse1; ours allocates on npu) and
    ``gen_one`` (the NPU wrapper: the same prologue and hooks as unstructured wrappers
    around ``op.meta`` / ``op.impl``; in-place ops marked ``structured: true`` call their
    own kernel after ``op.meta``).  What stays torchgen's: the meta/impl argument
    translation (``structured.meta_arguments`` / ``impl_arguments``, precomputed values).
    """

    ops: Mapping[OperatorName, RegisteredOp] = field(default_factory=dict)

    def wrapper_kernel_sig(self, f: NativeFunction) -> DispatcherSignature:  # type: ignore[override]
        return NPURegisterDispatchKey.wrapper_kernel_sig(self, f)  # type: ignore[arg-type]

    def class_name(self, k: SchemaKind) -> str:
        metadata = self.backend_index.get_kernel(self.g)
        assert metadata is not None
        return f"structured_{metadata.kernel}_{k.name}"

    def parent_class(self) -> str:
        metadata = self.backend_index.get_kernel(self.g)
        assert metadata is not None
        return f"{metadata.cpp_namespace}::structured_{metadata.kernel}"

    def own_inplace_kernel(self, k: SchemaKind) -> bool:
        """The in-place member keeps its own kernel (the seed's separate in-place impl list)."""
        inplace = self.g.inplace
        if k is not SchemaKind.inplace or inplace is None:
            return False
        op = self.ops.get(inplace.func.name)
        return op is not None and op.structured is StructuredRole.INPLACE_IMPL

    def gen_class_set_output_body(self, k: SchemaKind, maybe_create_proxy: bool) -> str:
        if self.own_inplace_kernel(k):
            maybe_create_proxy = False  # the kernel writes self directly: no proxy to copy back
        create_proxy = (
            "auto maybe_proxy = maybe_create_proxy(out, sizes, strides, options);\n"
            "if (C10_UNLIKELY(maybe_proxy.has_value())) {\n"
            "  proxy_outputs_[output_idx] = std::move(maybe_proxy).value();\n"
            "}"
            if maybe_create_proxy
            else ""
        )
        if k is SchemaKind.functional:
            create_proxy = ""  # a fresh output always has the meta function's strides
            lines = [_SET_GUARD, "outputs_[output_idx] = create_out(sizes, strides, options);"]
        elif k is SchemaKind.inplace:
            lines = [_SET_GUARD, "const auto& out = outputs_[output_idx].get();", "check_inplace(out, sizes, options);"]
        elif k is SchemaKind.out:
            lines = [
                _SET_GUARD,
                "const auto& out = outputs_[output_idx].get();",
                "resize_out(out, sizes, strides, options);",
            ]
        else:
            raise AssertionError(f"{k} structured operators are not supported")
        return "\n".join([*lines, *([create_proxy] if create_proxy else [])])

    def gen_class(
        self,
        f: NativeFunction,
        k: SchemaKind,
        *,
        class_name: str,
        parent_class: str,
        generate_super: bool,
    ) -> str:
        returns = len(f.func.returns)
        if k is SchemaKind.functional:
            output_type, output_value, ctor, proxy = "at::Tensor", "outputs_[output_idx]", [], []
        elif k in (SchemaKind.inplace, SchemaKind.out):
            output_type = "std::reference_wrapper<at::Tensor>"
            output_value = (
                "proxy_outputs_[output_idx].has_value() ? *proxy_outputs_[output_idx] : outputs_[output_idx].get()"
            )
            if k is SchemaKind.inplace:
                ctor = [f"explicit {class_name}(at::Tensor& self) : outputs_{{std::ref(self)}} {{}}"]
            else:
                outs = ", ".join(f"at::Tensor& out{i}" for i in range(returns))
                refs = ", ".join(f"std::ref(out{i})" for i in range(returns))
                explicit = "explicit " if returns == 1 else ""
                ctor = [f"{explicit}{class_name}({outs}) : outputs_{{{refs}}} {{}}"]
            proxy = [f"::std::array<c10::optional<at::Tensor>, {returns}> proxy_outputs_;"]
        else:
            raise AssertionError(f"{k} structured operators are not supported")
        # torch 2.1 passes the output names too (compat "structured-set-output-names").
        names = structured_set_output_takes_names()
        super_args = "output_idx, sizes, strides, options" + (", names" if names else "")
        super_call = [f"{parent_class}::set_output_raw_strided({super_args});"] if generate_super else []

        def set_output(name: str, maybe_create_proxy: bool) -> list[str]:
            body = self.gen_class_set_output_body(k, maybe_create_proxy).splitlines()
            if names:
                body += [
                    "if (!names.empty()) {",
                    "  at::namedinference::propagate_names(outputs_[output_idx], names);",
                    "}",
                ]
            if super_call:  # after ours, so that the parent can use maybe_get_output
                body += super_call
            last = "at::TensorOptions options, at::DimnameList names" if names else "at::TensorOptions options"
            return [
                f"void set_output_{name}(int64_t output_idx, at::IntArrayRef sizes, at::IntArrayRef strides,",
                " " * (16 + len(name)) + f"{last}) override {{",
                *("  " + line if line else "" for line in body),
                "}",
            ]

        members = [
            *ctor,
            *set_output("strided", True),
            *set_output("raw_strided", False),
            "const at::Tensor& maybe_get_output(int64_t output_idx) override {",
            f"  return {output_value};",
            "}",
            f"::std::array<{output_type}, {returns}> outputs_;",
            *proxy,
            "c10_npu::OptionalNPUGuard guard_;",
        ]
        indented = "\n".join("  " + line if line else "" for line in members)
        return f"struct {class_name} final : public {parent_class} {{\n{indented}\n}};\n"

    def gen_one(self, f: NativeFunction) -> str | None:
        require_patched()
        with native_function_manager(f):
            op = self.ops.get(f.func.name)
            if op is None or op.structured is None:
                return None  # a group member the YAML does not declare: not registered
            sig = self.wrapper_kernel_sig(f)
            name = sig.name()
            if self.target is Target.REGISTRATION:
                return f'm.impl("{f.func.name}", TORCH_FN({name}));'
            if self.target is not Target.ANONYMOUS_DEFINITION:
                raise NotImplementedError(f"torchnpugen does not generate {self.target} yet")
            k = f.func.kind()
            class_name = self.class_name(k)
            parent_class = self.parent_class()
            klass = self.gen_class(
                f,
                k,
                class_name=class_name,
                parent_class=parent_class,
                generate_super=self.g.out.structured_inherits is not None,
            )
            return klass + "\n" + self.gen_structured_wrapper(op, f, k, class_name)

    def gen_structured_wrapper(self, op: RegisteredOp, f: NativeFunction, k: SchemaKind, class_name: str) -> str:
        sig = self.wrapper_kernel_sig(f)
        name = sig.name()
        params = sig.arguments()
        param_names = [b.name for b in params]
        returns_type = cpp_spelling(sig.returns_type().cpp_type())
        hook_flag = _unique_local("op_hook_enabled", param_names)
        unstructured = NPURegisterDispatchKey(
            self.backend_index,
            self.target,
            self.selector,
            self.rocm,
            self.symint,
            self.class_method_name,
            self.skip_dispatcher_op_registration,
            ops=self.ops,
        )
        body = unstructured.gen_prologue(op, name)
        body += unstructured.gen_pre_hook(op, hook_flag, param_names)

        # torchgen's translation of the wrapper's arguments into meta / impl arguments.
        context: list[Binding | Expr] = list(params)
        if k is SchemaKind.functional:
            body.append(f"{class_name} op;")
        elif k is SchemaKind.inplace:
            body.append(f"{class_name} op(self);")
        else:
            body.append(f"{class_name} op({', '.join(a.name for a in f.func.arguments.out)});")
        meta_exprs = ", ".join(
            cpp_spelling(e.expr) for e in translate(context, structured_api.meta_arguments(self.g), method=False)
        )
        if self.g.out.precomputed:
            body.append(f"auto precompute = op.meta({meta_exprs});")
            precomputed = [*self.g.out.precomputed.replace.values(), self.g.out.precomputed.add]
            for elements in precomputed:
                context.extend(
                    Expr(expr=f"precompute.{arg.name}", type=structured_api.argument_type(arg, binds=arg.name))
                    for arg in elements
                )
            body.append("(void)precompute;")
        else:
            body.append(f"op.meta({meta_exprs});")

        result = _unique_local("result", param_names)
        if self.own_inplace_kernel(k):
            call_args = ", ".join(
                cpp_spelling(e.expr) for e in translate(params, kernel_signature(op).arguments(), method=False)
            )
            body += self.gen_post_hook_lines(returns_type, result, f"{op.qualified_kernel}({call_args})", hook_flag)
            return _function(returns_type, name, params, body, op)

        for i, out_arg in enumerate(structured_api.out_arguments(self.g)):
            assert out_arg.nctype.type == ConstRefCType(BaseCType(tensorT)), out_arg
            expr = f"op.maybe_get_output({i})" if k is SchemaKind.out else f"op.outputs_[{i}]"
            context.append(Expr(expr=expr, type=NamedCType(out_arg.nctype.name, MutRefCType(BaseCType(tensorT)))))
        impl_exprs = ", ".join(
            cpp_spelling(e.expr) for e in translate(context, structured_api.impl_arguments(self.g), method=False)
        )
        body.append(f"op.impl({impl_exprs});")
        returns = len(f.func.returns)
        if k in (SchemaKind.out, SchemaKind.inplace):
            body += [
                f"if (op.proxy_outputs_[{i}].has_value()) op.outputs_[{i}].get().copy_(*op.proxy_outputs_[{i}]);"
                for i in range(returns)
            ]
        if k is SchemaKind.functional:
            moved = [f"std::move(op.outputs_[{i}])" for i in range(returns)]
            value = moved[0] if returns == 1 else f"::std::make_tuple({', '.join(moved)})"
        elif k is SchemaKind.inplace:
            value = "self"
        else:
            outs = [a.name for a in f.func.arguments.out]
            value = outs[0] if returns == 1 else f"::std::forward_as_tuple({', '.join(outs)})"
        body += self.gen_post_hook_lines(returns_type, result, value, hook_flag)
        return _function(returns_type, name, params, body, op)

    @staticmethod
    def gen_post_hook_lines(returns_type: str, result: str, value: str, hook_flag: str) -> list[str]:
        return NPURegisterDispatchKey.gen_post_hook_and_return(returns_type, result, value, hook_flag)


def structured_includes(group: StructuredGroup) -> list[str]:
    """Headers a shard needs for one structured group (beyond the common ones)."""
    return [f"ATen/ops/{group.g.out.root_name}_meta.h"]


def make_register_dispatch_key(
    ops: Sequence[RegisteredOp], target: Target, structured: Sequence[StructuredGroup] = ()
) -> NPURegisterDispatchKey:
    metadata = {
        op.f.func.name: BackendMetadata(
            kernel=op.kernel, structured=False, cpp_namespace=op.qualified_kernel.rsplit("::", 1)[0]
        )
        for op in ops
        if op.structured is None
    }
    for group in structured:
        # Every function of the group maps to the out= kernel, so get_kernel(g) finds the
        # structured_<kernel> class whichever member is primary.
        entry = BackendMetadata(kernel=group.kernel, structured=True, cpp_namespace=STRUCTURED_NAMESPACE)
        for f in group.g.functions():
            metadata[f.func.name] = entry
    index = BackendIndex(
        dispatch_key=DispatchKey.PrivateUse1,
        use_out_as_primary=True,
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
