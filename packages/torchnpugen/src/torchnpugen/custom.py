"""Custom ``npu::`` operators: their schemas, C++ API and Python entry points.

* ``CustomRegisterSchema.cpp``: ``TORCH_LIBRARY(npu, m)`` with one ``m.def`` per op (the
  full schema, alias annotations included, and its tags).  Their npu kernels are
  registered next to the aten wrappers in the RegisterNPU shards.
* ``CustomFunctions.h/.cpp``: ``at_npu::native::custom_ops::<name>``, the ``at::``-style C++
  API (torchgen's C++ signatures: defaults, ``_out``/``_outf``, ``_symint``) that calls the op
  through the dispatcher, so it runs autograd, functionalization and the npu kernel
  exactly like a call from Python.
* ``custom_ops.py``: Python functions with signatures and docstrings that call
  ``torch.ops.npu.<name>``; the runtime package re-exports them.

Operators appear in declaration order (npu_native_functions.yaml, then the projection),
which is deterministic: nothing here iterates a set.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from typing import Sequence

from torchgen.api.translate import translate
from torchgen.api.types import CppSignatureGroup, DispatcherSignature
from torchgen.context import native_function_manager
from torchgen.model import Argument, BaseTy, BaseType, ListType, OptionalType, SchemaKind, Type

from . import templating
from .compat import cpp_spelling
from .ops import CUSTOM_NAMESPACE, RegisteredOp

__all__ = [
    "CUSTOM_FUNCTIONS_HEADER",
    "CUSTOM_FUNCTIONS_SOURCE",
    "CUSTOM_OPS_PY",
    "CUSTOM_SCHEMA_SOURCE",
    "cpp_api_signatures",
    "render_custom_files",
]

CUSTOM_SCHEMA_SOURCE = "CustomRegisterSchema.cpp"
CUSTOM_FUNCTIONS_HEADER = "CustomFunctions.h"
CUSTOM_FUNCTIONS_SOURCE = "CustomFunctions.cpp"
CUSTOM_OPS_PY = "custom_ops.py"
CPP_API_NAMESPACE = "at_npu::native::custom_ops"


def cpp_api_signatures(op: RegisteredOp) -> list:
    """torchgen's C++ API signatures of the op, int and SymInt flavours, out and outf."""
    group = CppSignatureGroup.from_native_function(op.f, method=False, fallback_binding=False)
    return list(group.signatures(symint=True))


def cpp_api_call_name(op: RegisteredOp) -> str:
    """The C++ API function generated code calls: the faithful one (dispatcher argument
    order, out arguments last), SymInt flavour when the schema has SymInts."""
    group = CppSignatureGroup.from_native_function(op.f, method=False, fallback_binding=False)
    faithful = group.symint_faithful_signature or group.faithful_signature
    plain = group.symint_signature or group.signature
    return f"{CPP_API_NAMESPACE}::{(faithful or plain).name()}"


# --------------------------------------------------------------------------- schemas


def _render_schema_source(ops: Sequence[RegisteredOp], banner: str) -> str:
    schemas = [
        {
            "name": op.qualified_name,
            "source": op.source_file,
            "schema": str(op.f.func),
            "tags": "{" + ", ".join(f"at::Tag::{tag}" for tag in op.tags) + "}" if op.tags else "",
        }
        for op in ops
    ]
    return templating.render(
        "CustomRegisterSchema.cpp.j2", banner=banner, custom_namespace=CUSTOM_NAMESPACE, ops=schemas
    )


# --------------------------------------------------------------------------- C++ API


def _render_cpp_api(ops: Sequence[RegisteredOp], banner: str) -> tuple[str, str]:
    declared: list[dict] = []
    functions: list[dict] = []
    for op in ops:
        with native_function_manager(op.f):
            dispatcher = DispatcherSignature.from_schema(op.f.func)
            function_type = cpp_spelling(dispatcher.type())
            signatures = cpp_api_signatures(op)
            declared.append(
                {
                    "name": op.qualified_name,
                    "schema": str(op.f.func),
                    "source": op.source_file,
                    "declarations": [cpp_spelling(sig.decl()) for sig in signatures],
                }
            )
            for sig in signatures:
                exprs = translate(sig.arguments(), dispatcher.arguments())
                functions.append(
                    {
                        "definition": cpp_spelling(sig.defn()),
                        "function_type": function_type,
                        "operator": f"{CUSTOM_NAMESPACE}::{op.f.func.name.name}",
                        "overload": op.f.func.name.overload_name,
                        "arguments": ", ".join(cpp_spelling(e.expr) for e in exprs),
                    }
                )
    header = templating.render(
        "CustomFunctions.h.j2",
        banner=banner,
        custom_namespace=CUSTOM_NAMESPACE,
        cpp_namespace=CPP_API_NAMESPACE,
        reduction=any("at::Reduction::" in d for op in declared for d in op["declarations"]),
        ops=declared,
    )
    source = templating.render(
        "CustomFunctions.cpp.j2",
        banner=banner,
        cpp_namespace=CPP_API_NAMESPACE,
        header=CUSTOM_FUNCTIONS_HEADER,
        functions=functions,
    )
    return header, source


# --------------------------------------------------------------------------- Python

_PY_BASE = {
    BaseTy.Tensor: "torch.Tensor",
    BaseTy.int: "int",
    BaseTy.SymInt: "int",
    BaseTy.float: "float",
    BaseTy.bool: "bool",
    BaseTy.str: "str",
    BaseTy.Scalar: "Union[int, float, bool]",
    BaseTy.ScalarType: "torch.dtype",
    BaseTy.Layout: "torch.layout",
    BaseTy.Device: "Union[torch.device, str]",
    BaseTy.MemoryFormat: "torch.memory_format",
    BaseTy.Generator: "torch.Generator",
}
_PY_DEFAULTS = {"True": "True", "False": "False", "None": "None", "contiguous_format": "torch.contiguous_format"}


def _py_type(t: Type) -> str | None:
    if isinstance(t, BaseType):
        return _PY_BASE.get(t.name)
    if isinstance(t, OptionalType):
        inner = _py_type(t.elem)
        return None if inner is None else f"Optional[{inner}]"
    if isinstance(t, ListType):
        inner = _py_type(t.elem)
        return None if inner is None else f"Sequence[{inner}]"
    return None


def _py_default(value: str) -> str | None:
    if value in _PY_DEFAULTS:
        return _PY_DEFAULTS[value]
    if re.fullmatch(r"-?\d+(\.\d*)?(e-?\d+)?", value):
        return value
    if re.fullmatch(r"\[[-\d, ]*\]", value):
        items = [v.strip() for v in value[1:-1].split(",") if v.strip()]
        return "(" + "".join(f"{v}, " for v in items).rstrip(" ") + ")"
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return repr(value[1:-1])
    return None


def _py_returns(op: RegisteredOp) -> str | None:
    returns = op.f.func.returns
    types = [_py_type(r.type) for r in returns]
    if any(t is None for t in types):
        return None
    if not types:
        return "None"
    return types[0] if len(types) == 1 else f"tuple[{', '.join(types)}]"  # type: ignore[arg-type]


@dataclass(frozen=True)
class _PyFunction:
    name: str
    overloads: tuple[RegisteredOp, ...]


def _py_functions(ops: Sequence[RegisteredOp]) -> list[_PyFunction]:
    """One Python function per C++ base name (``npu_add_relu`` covers the functional op and
    its out= overload; ``npu_add_relu_`` the in-place one), in declaration order."""
    names: dict[str, list[RegisteredOp]] = {}
    for op in ops:
        name = op.f.func.name.name
        key = str(name.base) + ("_" if name.inplace else "")
        names.setdefault(key, []).append(op)
    return [_PyFunction(name, tuple(overloads)) for name, overloads in names.items()]


def _py_param(a: Argument, kw_only: bool) -> str | None:
    t = _py_type(a.type)
    if t is None or keyword.iskeyword(a.name):
        return None
    if a.default is None:
        return f"{a.name}: {t}"
    default = _py_default(a.default)
    return None if default is None else f"{a.name}: {t} = {default}"


def _typed_function(fn: _PyFunction) -> tuple[list[str], str] | None:
    """(parameters, body) of a typed binding, or None when only a generic one fits."""
    outs = [op for op in fn.overloads if op.f.func.kind() is SchemaKind.out]
    main = [op for op in fn.overloads if op.f.func.kind() is not SchemaKind.out]
    if len(main) != 1 or len(outs) > 1:
        return None
    op = main[0]
    args = op.f.func.arguments
    if outs and [str(a) for a in outs[0].f.func.arguments.flat_non_out] != [str(a) for a in args.flat_non_out]:
        return None
    params: list[str] = []
    for a in args.flat_positional:
        p = _py_param(a, False)
        if p is None:
            return None
        params.append(p)
    kw = []
    for a in args.flat_kwarg_only:
        p = _py_param(a, True)
        if p is None:
            return None
        kw.append(p)
    out_names = [a.name for a in outs[0].f.func.arguments.out] if outs else []
    if out_names:
        if any(keyword.iskeyword(n) for n in out_names):
            return None
        kw += [f"{n}: Optional[torch.Tensor] = None" for n in out_names]
    if kw:
        params += ["*", *kw]
    positional = ", ".join(a.name for a in args.flat_positional)
    keywords = ", ".join(f"{a.name}={a.name}" for a in args.flat_kwarg_only)
    call_args = ", ".join(x for x in (positional, keywords) if x)
    overload = op.f.func.name.overload_name or "default"
    call = f"torch.ops.{CUSTOM_NAMESPACE}.{op.f.func.name.name}.{overload}({call_args})"
    if not outs:
        return params, f"    return {call}"
    out_op = outs[0]
    out_kw = ", ".join(f"{n}={n}" for n in out_names)
    out_call = (
        f"torch.ops.{CUSTOM_NAMESPACE}.{out_op.f.func.name.name}.{out_op.f.func.name.overload_name}"
        f"({', '.join(x for x in (call_args, out_kw) if x)})"
    )
    missing = " or ".join(f"{n} is None" for n in out_names)
    body = f"    if {missing}:\n        return {call}\n    return {out_call}"
    if len(out_names) > 1:
        any_given = " or ".join(f"{n} is not None" for n in out_names)
        body = (
            f"    if {any_given}:\n"
            f"        if {missing}:\n"
            f"            raise TypeError({fn.name!r} + ': give all of {', '.join(out_names)} or none')\n"
            f"        return {out_call}\n"
            f"    return {call}"
        )
    return params, body


def _docstring(fn: _PyFunction, derivative_ops: set[str]) -> list[str]:
    lines = [f"Schemas (namespace ``{CUSTOM_NAMESPACE}``)::", ""]
    lines += [f"    {CUSTOM_NAMESPACE}::{op.f.func}" for op in fn.overloads]
    lines.append("")
    for op in fn.overloads:
        notes = [f"declared in {op.source_file}", op.provenance]
        written = [a.name for a in op.f.func.arguments.flat_all if a.annotation is not None and a.annotation.is_write]
        if written:
            notes.append("writes " + ", ".join(f"``{n}``" for n in written) + " in place")
        if op.tags:
            notes.append("tags: " + ", ".join(op.tags))
        if str(op.f.func) in derivative_ops:
            notes.append("differentiable (yaml/derivatives.yaml)")
        lines.append(f"``{op.f.func.name}``: " + "; ".join(notes) + ".")
    return lines


def _render_custom_ops_py(ops: Sequence[RegisteredOp], banner: str, derivative_ops: set[str]) -> str:
    functions = []
    for fn in _py_functions(ops):
        typed = _typed_function(fn)
        returns = _py_returns(fn.overloads[0]) if typed is not None else None
        if typed is None or returns is None:
            signature = "*args: Any, **kwargs: Any"
            returns = "Any"
            body = f"    return torch.ops.{CUSTOM_NAMESPACE}.{fn.overloads[0].f.func.name.name}(*args, **kwargs)"
        else:
            params, body = typed
            signature = ", ".join(params)
        summary = f"``torch.ops.{CUSTOM_NAMESPACE}.{fn.overloads[0].f.func.name.name}``."
        doc = [summary, "", *_docstring(fn, derivative_ops)]
        doc_text = "\n".join(("    " + line) if line else "" for line in doc).rstrip()
        functions.append(
            {
                "name": fn.name,
                "signature": signature,
                "returns": returns,
                "docstring": doc_text.lstrip(),
                "body": body,
                "exposed": any(op.exposed for op in fn.overloads),
            }
        )
    return templating.render(
        "custom_ops.py.j2",
        comment="\n".join("# " + line[3:] if line.startswith("// ") else "#" for line in banner.splitlines()),
        custom_namespace=CUSTOM_NAMESPACE,
        functions=functions,
        # upstream's exposed: True: the functions that are part of the public torch_npu API
        exposed=sorted({fn["name"] for fn in functions if fn["exposed"]}),
    )


def render_custom_files(ops: Sequence[RegisteredOp], *, banner: str, derivative_ops: set[str]) -> dict[str, str]:
    """{relative path under npu/: text} for the custom-op artifacts."""
    header, source = _render_cpp_api(ops, banner)
    return {
        f"aten/{CUSTOM_SCHEMA_SOURCE}": _render_schema_source(ops, banner),
        f"aten/{CUSTOM_FUNCTIONS_HEADER}": header,
        f"aten/{CUSTOM_FUNCTIONS_SOURCE}": source,
        CUSTOM_OPS_PY: _render_custom_ops_py(ops, banner, derivative_ops),
    }
