"""RegisterFunctionalization.cpp: Functionalize kernels of the custom mutable operators.

An in-place or out= ``npu::`` op whose functional form is declared too (same signature,
e.g. ``npu_add_relu_`` / ``npu_add_relu.out`` next to ``npu_add_relu``) gets the kernel
torchgen generates for aten's mutable ops (``emit_inplace_functionalization_body``): run
the mutable op on meta copies (shape errors surface as in eager), unwrap, call the
functional op, then ``replace_`` / ``commit_update`` / ``sync`` the mutated arguments.
The difference from torchgen is the callee: ``at::_ops::<op>::call`` does not exist for
custom ops, so both calls go through the C++ API (``at_npu::native::custom_ops``).  With
it ``torch.compile(backend="aot_eager", fullgraph=True)`` traces the mutable op into its
functional form instead of failing.
"""

from __future__ import annotations

from typing import Sequence

from torchgen.api.translate import translate
from torchgen.api.types import CppSignatureGroup, DispatcherSignature
from torchgen.context import native_function_manager
from torchgen.gen_functionalization_type import (
    convert_to_meta_tensors,
    maybe_create_output,
    modifies_arguments,
    return_from_mutable_noop_redispatch,
    unwrap_tensor_args,
    wrap_propagate_mutations_and_return,
    wrapper_name,
)
from torchgen.model import BaseTy, BaseType, NativeFunction, SchemaKind

from . import templating
from .compat import cpp_spelling
from .custom import CPP_API_NAMESPACE, CUSTOM_FUNCTIONS_HEADER
from .ops import CUSTOM_NAMESPACE, RegisteredOp

__all__ = ["FUNCTIONALIZATION_SOURCE", "functionalized_ops", "render_functionalization"]

FUNCTIONALIZATION_SOURCE = "RegisterFunctionalization.cpp"


def functionalized_ops(ops: Sequence[RegisteredOp]) -> list[tuple[RegisteredOp, RegisteredOp]]:
    """(mutable op, its functional op) for every custom in-place / out= op that has one."""
    functional = {op.f.func.signature(): op for op in ops if op.f.func.kind() is SchemaKind.functional}
    pairs = []
    for op in ops:
        if op.f.func.kind() in (SchemaKind.inplace, SchemaKind.out) and modifies_arguments(op.f):
            target = functional.get(op.f.func.signature())
            if target is not None:
                pairs.append((op, target))
    return pairs


def _api_name(f: NativeFunction) -> str:
    group = CppSignatureGroup.from_native_function(f, method=False, fallback_binding=False)
    return group.symint_faithful_signature or group.faithful_signature or group.symint_signature or group.signature


def _call(f: NativeFunction, context: list) -> str:
    sig = _api_name(f)
    exprs = ", ".join(cpp_spelling(e.expr) for e in translate(context, sig.arguments(), method=False))
    return f"{CPP_API_NAMESPACE}::{sig.name()}({exprs})"


def _kernel(op: RegisteredOp, functional: RegisteredOp) -> str:
    f = op.f
    with native_function_manager(f):
        sig = DispatcherSignature.from_schema(f.func)
        unwrap, unwrapped_ctx = unwrap_tensor_args(sig, is_view_op=False)
        mutated = [a.name for a in f.func.arguments.flat_all if a.type.is_tensor_like() and a.annotation is not None]
        read = [a.name for a in f.func.arguments.flat_all if a.type.is_tensor_like() and a.annotation is None]
        all_mutated_functional = " && ".join(
            ["true", *(f"at::functionalization::impl::isFunctionalTensor({a})" for a in mutated)]
        )
        any_read_functional = " || ".join(
            ["false", *(f"at::functionalization::impl::isFunctionalTensor({a})" for a in read)]
        )
        meta_conversion, meta_ctx = convert_to_meta_tensors(sig)
        storage = any(a.type == BaseType(BaseTy.Storage) for a in f.func.arguments.flat_all)
        run_meta = str(not storage and f.func.kind() is SchemaKind.inplace).lower()
        functional_type = cpp_spelling(
            DispatcherSignature.from_schema(functional.f.func).returns_type().remove_const_ref().cpp_type()
        )
        propagate = wrap_propagate_mutations_and_return(f, functional.f, "tmp_output")
        meta_reference = (
            f"""\
  if (!disable_meta_reference()) {{
    // The mutable op on meta copies first: errors only the in-place form has (a
    // broadcast self) surface here, as they would in eager mode.
    {meta_conversion}
    at::AutoDispatchSkipFunctionalize func_guard;
    c10::impl::ExcludeDispatchKeyGuard guard(exclude_keys_for_meta_dispatch);
    {_call(f, meta_ctx)};
  }}
"""
            if run_meta == "true"
            else ""
        )
        return f"""\
// {op.qualified_name} -> {functional.qualified_name}  ({op.source_file})
{cpp_spelling(sig.defn(name=wrapper_name(f.func)))} {{
{meta_reference}  {unwrap.strip()}
  if (!({all_mutated_functional})) {{
    if ({any_read_functional}) {{
      // Mutating a non-functional tensor with a functional one is an error.
      TORCH_INTERNAL_ASSERT(false, "mutating a non-functional tensor with a functional tensor is not allowed.",
                            " Please ensure that all of your inputs are wrapped inside of a functionalize() call.");
    }} else {{
      // No functional tensors: nothing to functionalize, run the mutable op.
      at::AutoDispatchSkipFunctionalize guard;
      {cpp_spelling(maybe_create_output(f, "tmp_output"))}{_call(f, unwrapped_ctx)};
      {return_from_mutable_noop_redispatch(f, "tmp_output")}
    }}
  }} else {{
    {functional_type} tmp_output;
    {{
      at::AutoDispatchSkipFunctionalize guard;
      tmp_output = {_call(functional.f, unwrapped_ctx)};
    }}
{propagate}
  }}
}}
"""


def reindent(code: str) -> str:
    """Re-indent brace-structured C++ by nesting depth (torchgen's snippets carry their own
    template indentation); blank lines collapse to one."""
    lines: list[str] = []
    depth = 0
    for raw in code.splitlines():
        line = raw.strip()
        if not line:
            if lines and lines[-1]:
                lines.append("")
            continue
        closing = len(line) - len(line.lstrip("}"))
        indent = max(depth - closing, 0)
        lines.append("  " * indent + line)
        depth = max(depth + line.count("{") - line.count("}"), 0)
    return "\n".join(lines).rstrip() + "\n"


def render_functionalization(ops: Sequence[RegisteredOp], *, banner: str) -> str:
    pairs = functionalized_ops(ops)
    return templating.render(
        "RegisterFunctionalization.cpp.j2",
        banner=banner,
        custom_namespace=CUSTOM_NAMESPACE,
        custom_functions_header=CUSTOM_FUNCTIONS_HEADER,
        kernels=[reindent(_kernel(op, functional)) for op, functional in pairs],
        registrations=[(str(op.f.func.name), wrapper_name(op.f.func)) for op, _ in pairs],
    )
