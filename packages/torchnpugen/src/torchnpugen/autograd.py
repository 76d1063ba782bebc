"""RegisterAutogradNPU.cpp: autograd for the custom operators with a backward formula.

The label's ``derivatives.yaml`` (written by opplugin-codegen from ``yaml/derivatives.yaml``,
entries outside the label's ``version`` range dropped) is read with torchgen's own
derivative parser (``load_derivatives.create_differentiability_info``): the same grammar
as PyTorch's derivatives.yaml (``grad``, ``grads[i]``, ``result``, input names,
``self.sym_sizes()`` and the other saved-attribute rewrites, ``output_differentiability``).

Each op becomes a ``torch::autograd::Function`` whose forward calls the op below autograd
through the C++ API and saves what the formulas need (tensors with
``save_for_backward``, so saving an output cannot create a reference cycle; everything
else in ``saved_data``), and whose backward evaluates the formulas for the inputs that
need a gradient.  The kernel is registered for ``AutogradPrivateUse1``.  Broadcast
gradients are reduced by the autograd engine (as for PyTorch's own formulas).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Sequence

from torchgen.api.types import (
    BaseCType,
    SymIntT,
    VectorCType,
    boolT,
    doubleT,
    intArrayRefT,
    longT,
    scalarT,
    scalarTypeT,
    symIntArrayRefT,
    tensorT,
)
from torchgen.context import native_function_manager
from torchgen.model import FunctionSchema, NativeFunction, SchemaKind
from torchgen.packaged.autograd.load_derivatives import cpp_arguments, create_differentiability_info

from . import templating
from .compat import cpp_spelling, torch_include_dirs
from .custom import CUSTOM_FUNCTIONS_HEADER, cpp_api_call_name
from .errors import InputError, Problems
from .inputs import DerivativeEntry
from .ops import CUSTOM_NAMESPACE, RegisteredOp, yaml_file_of

__all__ = ["AUTOGRAD_SOURCE", "DifferentiableOp", "render_autograd", "resolve_derivatives"]

AUTOGRAD_SOURCE = "RegisterAutogradNPU.cpp"

# Saved non-tensor values: how they are stored in ctx->saved_data and read back.
_IVALUE_TYPES = {
    BaseCType(scalarT): ("at::Scalar", "toScalar()"),
    BaseCType(longT): ("int64_t", "toInt()"),
    BaseCType(doubleT): ("double", "toDouble()"),
    BaseCType(boolT): ("bool", "toBool()"),
    BaseCType(SymIntT): ("c10::SymInt", "toSymInt()"),
    BaseCType(scalarTypeT): ("at::ScalarType", "toScalarType()"),
    BaseCType(symIntArrayRefT): ("std::vector<c10::SymInt>", "toSymIntVector()"),
    BaseCType(intArrayRefT): ("std::vector<int64_t>", "toIntVector()"),
    VectorCType(BaseCType(longT)): ("std::vector<int64_t>", "toIntVector()"),
}
_TENSOR = BaseCType(tensorT)


class DifferentiableOp:
    """A custom op and torchgen's DifferentiabilityInfo for it."""

    def __init__(self, op: RegisteredOp, info: Any, source: str) -> None:
        self.op = op
        self.info = info
        self.source = source


def resolve_derivatives(
    entries: Sequence[DerivativeEntry], custom: Sequence[RegisteredOp], aten_schemas: set[str] = frozenset()
) -> tuple[list[DifferentiableOp], list[str]]:
    """(the differentiable custom ops, notes). A backward for a registered aten operator is
    left to PyTorch's own formula (noted); any other unknown schema is an error."""
    by_schema = {str(op.f.func): op for op in custom}
    functions_by_schema: dict[str, NativeFunction] = {schema: op.f for schema, op in by_schema.items()}
    functions_by_signature: dict[FunctionSchema, list[NativeFunction]] = defaultdict(list)
    for op in custom:
        functions_by_signature[op.f.func.signature()].append(op.f)
    counter: Counter[str] = Counter()
    result = []
    notes = []
    problems = Problems()
    for entry in entries:
        with problems.entry(entry.name.split("(", 1)[0].strip()):
            op = by_schema.get(entry.name.strip())
            if op is None and entry.name.strip() in aten_schemas:
                notes.append(
                    f"{entry.where}: backward for aten '{entry.name.split('(')[0]}' not generated: "
                    "PyTorch's formula applies"
                )
                continue
            if op is None:
                raise InputError(
                    f"backward for '{entry.name}': no custom operator of this label has this schema "
                    f"(autograd is generated for npu:: operators; aten operators keep PyTorch's formulas)",
                    entry.where,
                )
            if op.f.func.kind() is not SchemaKind.functional:
                raise InputError(
                    f"backward formulas belong to functional operators; '{op.f.func.name}' mutates", entry.where
                )
            if [str(r.type) for r in op.f.func.returns] != ["Tensor"]:
                raise InputError(f"'{op.f.func.name}': autograd is generated for single-Tensor results", entry.where)
            fields = dict(entry.fields)
            defn: dict[str, Any] = {"name": entry.name}
            if "output_differentiability" in fields:
                defn["output_differentiability"] = fields.pop("output_differentiability")
            defn["dispatch"] = {"Default": {k: str(v) for k, v in fields.items()}}
            try:
                with native_function_manager(op.f):
                    _, infos = create_differentiability_info(
                        defn, functions_by_signature, functions_by_schema, counter, set()
                    )
            except (RuntimeError, AssertionError, KeyError) as e:
                raise InputError(f"backward for '{entry.name}': {e}", entry.where) from e
            info = infos["Default"]
            if info.args_with_derivatives:
                result.append(DifferentiableOp(op, info, entry.where))
    problems.raise_if_any()
    return result, notes


def _formula_headers(formulas: Sequence[str]) -> tuple[list[str], bool]:
    """Per-operator ATen headers of the functions the formulas call, and whether they use a
    helper of torch/csrc/autograd/FunctionsManual.h (which pulls in ATen/ATen.h)."""
    include = torch_include_dirs()[0]
    names = sorted({m.group(1) for text in formulas for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", text)})
    headers = [f"ATen/ops/{name}.h" for name in names if (include / "ATen" / "ops" / f"{name}.h").is_file()]
    manual = include / "torch" / "csrc" / "autograd" / "FunctionsManual.h"
    manual_text = manual.read_text(encoding="utf-8") if manual.is_file() else ""
    uses_manual = any(
        re.search(rf"\b{re.escape(n)}\s*\(", manual_text) for n in names if f"ATen/ops/{n}.h" not in headers
    )
    return headers, uses_manual


@dataclass(frozen=True)
class _AutogradFunction:
    """One op's torch::autograd::Function, the kernel that applies it, and what registers it."""

    struct: str
    kernel: str
    schema_name: str  # name.overload, as m.impl names it
    kernel_name: str


def _function(d: DifferentiableOp) -> _AutogradFunction:
    op, info = d.op, d.info
    f = op.f
    with native_function_manager(f):
        args = list(cpp_arguments(f))
        params = ", ".join(cpp_spelling(f"{b.type} {b.name}") for b in args)
        names = ", ".join(b.name for b in args)
        index = {b.name: i for i, b in enumerate(args)}
        forward: list[str] = ["at::AutoDispatchBelowADInplaceOrView guard;"]
        forward.append(f"at::Tensor result = {cpp_api_call_name(op)}({names});")
        saved_tensors: list[str] = []
        restore: list[str] = []
        for var in [*info.all_saved_inputs, *info.all_saved_outputs]:
            name = str(var.nctype.name)
            ctype = (
                var.nctype.type.remove_const_ref() if hasattr(var.nctype.type, "remove_const_ref") else var.nctype.type
            )
            if ctype == _TENSOR:
                restore.append(f"const at::Tensor& {name} = saved[{len(saved_tensors)}];")
                saved_tensors.append(var.expr)
            elif ctype in _IVALUE_TYPES:
                cpp_type, getter = _IVALUE_TYPES[ctype]
                forward.append(f'ctx->saved_data["{name}"] = {var.expr};')
                restore.append(f'const {cpp_type} {name} = ctx->saved_data["{name}"].{getter};')
            else:
                raise InputError(
                    f"backward for '{f.func.name}': saving '{var.expr}' ({ctype.cpp_type()}) is not supported; "
                    "rewrite the formula in terms of tensors, scalars, ints, bools or sizes",
                    d.source,
                )
        if saved_tensors:
            forward.append(f"ctx->save_for_backward({{{', '.join(saved_tensors)}}});")
            restore.insert(0, "const torch::autograd::variable_list saved = ctx->get_saved_variables();")
        forward.append("return result;")

        backward: list[str] = [*restore]
        uses_grad = any(re.search(r"\bgrad\b", d_.formula) for d_ in info.derivatives)
        if uses_grad:
            backward.append("const at::Tensor& grad = grads[0];")
        for name in sorted(info.used_named_gradients):
            backward.append(f"const at::Tensor& {name} = grads[{info.available_named_gradients.index(name)}];")
        backward.append(f"torch::autograd::variable_list grad_inputs({len(args)});")
        for derivative in info.derivatives:
            var_names = derivative.var_names
            if len(var_names) == 1:
                i = index[var_names[0]]
                backward += [
                    f"if (ctx->needs_input_grad({i})) {{  // {var_names[0]}",
                    f"  grad_inputs[{i}] = {derivative.formula};",
                    "}",
                ]
            else:
                needs = " || ".join(f"ctx->needs_input_grad({index[n]})" for n in var_names)
                backward.append(f"if ({needs}) {{")
                if "grad_input_mask" in derivative.formula:
                    masks = ", ".join(f"ctx->needs_input_grad({index[n]})" for n in var_names)
                    backward.append(f"  const std::array<bool, {len(var_names)}> grad_input_mask{{{masks}}};")
                backward.append(f"  auto grad_result = {derivative.formula};")
                for j, n in enumerate(var_names):
                    backward.append(
                        f"  if (ctx->needs_input_grad({index[n]})) "
                        f"grad_inputs[{index[n]}] = std::get<{j}>(grad_result);"
                    )
                backward.append("}")
        backward.append("return grad_inputs;")

        formulas = "; ".join(f"{', '.join(x.var_names)}: {x.original_formula}" for x in info.derivatives)
        struct = (
            f"// {op.qualified_name}: {formulas}  ({yaml_file_of(d.source)})\n"
            f"struct {info.op} final : public torch::autograd::Function<{info.op}> {{\n"
            f"  static at::Tensor forward(torch::autograd::AutogradContext* ctx, {params}) {{\n"
            + "".join(f"    {line}\n" for line in forward)
            + "  }\n\n"
            "  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,\n"
            "                                                 torch::autograd::variable_list grads) {\n"
            + "".join(f"    {line}\n" for line in backward)
            + "  }\n};\n"
        )
        kernel_name = f"{f.func.name.unambiguous_name()}_autograd"
        kernel = f"at::Tensor {kernel_name}({params}) {{\n  return {info.op}::apply({names});\n}}\n"
        return _AutogradFunction(struct, kernel, str(f.func.name), kernel_name)


def render_autograd(ops: Sequence[DifferentiableOp], *, banner: str) -> str:
    formulas = [x.formula for d in ops for x in d.info.derivatives]
    headers, uses_manual = _formula_headers(formulas) if formulas else ([], False)
    return templating.render(
        "RegisterAutogradNPU.cpp.j2",
        banner=banner,
        custom_namespace=CUSTOM_NAMESPACE,
        custom_functions_header=CUSTOM_FUNCTIONS_HEADER,
        formula_headers=headers,
        uses_manual=uses_manual,
        functions=[_function(d) for d in ops],
    )
