"""op_api kernels generated from ``gen_opapi`` blocks (contracts.md section 4).

One kernel per op whose op_api path is live in the label and that has a gen_opapi block:

* functional: allocate each output (size, dtype), run the aclnn API, return the outputs;
* out=: check/resize each out tensor, run the aclnn API, return the outs;
* in-place: run the aclnn API on self; with ``structured_inherit`` delegate to the out=
  kernel with self as the out tensor.

``DO_COMPATIBILITY`` (fall back to acl_op when the aclnn symbols are missing) is emitted
only when the acl_op path is live in the label. Name propagation is guarded by
``__has_include(<ATen/NamedTensorUtils.h>)``: torch 2.13 removed named tensors.
"""

from __future__ import annotations

from .cppfile import LINE_WIDTH, banner, function_head, include_block, shard_of
from .gen_interface import ACL_OPS_INTERFACE_H, OP_API_INTERFACE_H, ranges_comment
from .model import OutputSpec
from .projection import LabelView, LiveOp
from .schema import SchemaKind
from .validate import tensor_ref

_PREPARATION = "at_npu::native::OpPreparation"
_NAMES_H = "<ATen/NamedTensorUtils.h>"
_HAS_NAMES = f"#if __has_include({_NAMES_H})"


def shard_name(k: int) -> str:
    return f"op_plugin/StructKernelNpuOpApi_{k}.cpp"


class _Kernel:
    """Builds one kernel body; records which headers it needs."""

    def __init__(self, op: LiveOp) -> None:
        assert op.gen is not None
        self.op = op
        self.block = op.gen.block
        self.schema = op.entry.schema
        self.kind = op.entry.kind
        self.lines: list[str] = []
        self.includes: set[str] = {f'"{OP_API_INTERFACE_H}"'}
        self.uses_infer = False  # a verbatim size/dtype/new_params expression
        self.uses_names = False

    def emit(self, line: str = "") -> None:
        self.lines.append(f"  {line}" if line and not line.startswith("#") else line)

    # -- pieces -------------------------------------------------------------------------

    def _size_expr(self, text: str) -> str:
        ref = tensor_ref(self.schema, text)
        if ref is not None:
            return f"{ref}.sizes()"
        self.uses_infer = True
        return text

    def _dtype_expr(self, text: str) -> str:
        ref = tensor_ref(self.schema, text)
        if ref is not None:
            return f"{ref}.scalar_type()"
        self.uses_infer = True
        return text

    def _options_source(self) -> str:
        for a in self.schema.arguments:
            if str(a.type) == "Tensor":
                return a.name
            if str(a.type) == "Tensor[]":
                return f"{a.name}[0]"
        raise AssertionError("validated: functional gen_opapi ops have a Tensor argument")

    def _acl_fallback_call(self) -> str:
        return f"acl_op::{self.op.cpp.name}({self.op.cpp.call_args()})"

    def _exec_args(self) -> list[str]:
        if self.block.exec_args is not None:
            return list(self.block.exec_args)
        args = [p.name for p in self.op.cpp.params]
        if self.kind is SchemaKind.functional:
            args += [o.name for o in self.block.outputs]
        return args

    def _propagate_names(self, target: str, spec: OutputSpec) -> None:
        if not spec.names or spec.names == (target,):
            return  # nothing to propagate (in-place ops keep self's names anyway)
        self.uses_names = True
        if len(spec.names) == 1:
            call = f"at::namedinference::propagate_names({target}, {spec.names[0]});"
        else:
            a, b = spec.names
            call = (
                f"at::namedinference::propagate_names_if_nonempty(\n      {target}, "
                f"at::namedinference::compute_broadcast_outnames({a}, {b}));"
            )
        self.emit(_HAS_NAMES)
        self.emit(call)
        self.emit("#endif")

    # -- kernel -------------------------------------------------------------------------

    def render(self, label: str) -> str:
        op = self.op
        source = op.gen.source if op.gen else op.entry
        via = f"gen_opapi via {source.name}" if source is not op.entry else "gen_opapi"
        self.emit(f"// {ranges_comment(op, via)}")
        if op.inherit_target is not None:
            out_fn = op.inherit_target.name
            args = [*(p.name for p in op.cpp.params), "self"]
            self.emit(f"return op_api::{out_fn}({', '.join(args)});")
            return self._wrap()
        block = self.block
        api = block.exec_api
        if block.integral_identity_tensor is not None:
            t = block.integral_identity_tensor
            self.includes.add(f'"{ACL_OPS_INTERFACE_H}"')
            self.emit(f"if (at::isIntegralType({t}.scalar_type(), /*includeBool=*/false)) {{")
            self.emit(f"  return {self._acl_fallback_call()};  // integers are their own result")
            self.emit("}")
        if op.has_acl_op:
            self.includes |= {f'"{ACL_OPS_INTERFACE_H}"', '"npu/framework/op_api_common.h"'}
            self.emit(f"DO_COMPATIBILITY({api}, {self._acl_fallback_call()});")
        for name, expr in block.new_params:
            self.uses_infer = True
            self.emit(f"auto {name} = {expr};")
        outputs = {o.name: o for o in block.outputs}
        if self.kind is SchemaKind.functional:
            self._functional_outputs()
        elif self.kind is SchemaKind.out and not op.entry.structured:
            self._check_outs(outputs)
        self.includes.add('"npu/framework/op_api_common.h"')
        self.emit(f"EXEC_NPU_CMD({api}, {', '.join(self._exec_args())});")
        self._names_and_return(outputs)
        return self._wrap()

    def _locals(self, specs: list[tuple[str | None, str | None]]) -> list[tuple[str, str]]:
        """One local per distinct size and dtype expression; returns (size, dtype) names."""
        sizes: dict[str, str] = {}
        dtypes: dict[str, str] = {}
        names = []
        for size, dtype in specs:
            s = d = ""
            if size is not None:
                expr = self._size_expr(size)
                s = sizes.setdefault(expr, f"output_size_{len(sizes)}")
            if dtype is not None:
                expr = self._dtype_expr(dtype)
                d = dtypes.setdefault(expr, f"output_dtype_{len(dtypes)}")
            names.append((s, d))
        for expr, var in sizes.items():
            self.emit(f"auto {var} = {expr};")
        for expr, var in dtypes.items():
            self.emit(f"auto {var} = {expr};")
        return names

    def _functional_outputs(self) -> None:
        self.includes.add('"npu/framework/OpPreparation.h"')
        specs = [(o.size, o.dtype) for o in self.block.outputs]
        options = self._options_source()
        for o, (size, dtype) in zip(self.block.outputs, self._locals(specs)):
            self.emit(f"at::Tensor {o.name} = {_PREPARATION}::apply_tensor_without_format(")
            self.emit(f"    {size}, {options}.options().dtype({dtype}));")

    def _check_outs(self, outputs: dict[str, OutputSpec]) -> None:
        self.includes.add('"npu/framework/OpPreparation.h"')
        outs = self.schema.out_arguments
        specs = [
            (outputs[a.name].size, outputs[a.name].dtype) if a.name in outputs else (None, None)
            for a in outs
        ]
        inputs = ", ".join(
            a.name for a in self.schema.arguments if not a.is_out and str(a.type) == "Tensor"
        )
        for a, (size, dtype) in zip(outs, self._locals(specs)):
            dtype = dtype or f"{a.name}.scalar_type()"
            size = size or f"{a.name}.sizes()"
            args = f"{{{inputs}}}, {a.name}, {dtype}, {size}"
            line = f"{_PREPARATION}::check_tensor({args});"
            if len(line) + 2 > LINE_WIDTH:
                line = f"{_PREPARATION}::check_tensor(\n      {args});"
            self.emit(line)

    def _names_and_return(self, outputs: dict[str, OutputSpec]) -> None:
        if self.kind is SchemaKind.inplace:
            for spec in outputs.values():
                self._propagate_names("self", spec)
            self.emit("return self;")
            return
        if self.kind is SchemaKind.functional:
            results = [o.name for o in self.block.outputs]
        else:
            results = [a.name for a in self.schema.out_arguments][: len(self.schema.returns)]
        for name in results:
            if name in outputs:
                self._propagate_names(name, outputs[name])
        if not self.schema.returns:
            return
        if len(results) == 1:
            self.emit(f"return {results[0]};")
        elif self.kind is SchemaKind.functional:
            moved = ", ".join(f"std::move({r})" for r in results)
            self.emit(f"return ::std::make_tuple({moved});")
        else:
            self.emit(f"return {self.op.cpp.returns.text}({', '.join(results)});")

    def _wrap(self) -> str:
        return f"{function_head(self.op.cpp)} {{\n" + "\n".join(self.lines) + "\n}\n"


def kernel_definition(op: LiveOp, label: str) -> tuple[str, set[str], bool, bool]:
    """(text, includes, uses op_infer helpers, propagates names) of one op_api kernel."""
    k = _Kernel(op)
    text = k.render(label)
    return text, k.includes, k.uses_infer, k.uses_names


def render_struct_shards(view: LabelView, shards: int) -> dict[str, str]:
    per_shard: list[list[str]] = [[] for _ in range(shards)]
    includes: list[set[str]] = [set() for _ in range(shards)]
    infer = [False] * shards
    names = [False] * shards
    for op in view.ops:
        if op.gen is None:
            continue
        k = shard_of(op.shard_key, shards)
        text, inc, uses_infer, uses_names = kernel_definition(op, view.label)
        per_shard[k].append(text)
        includes[k] |= inc
        infer[k] = infer[k] or uses_infer
        names[k] = names[k] or uses_names
    files = {}
    for k in range(shards):
        what = f"op_api kernels generated from gen_opapi, shard {k} of {shards}."
        head = banner(view.model.op_file, view.label, view.torch, what)
        if not per_shard[k]:
            files[shard_name(k)] = (
                head + f"// No gen_opapi kernel of {view.label} falls in this shard.\n"
            )
            continue
        inc = set(includes[k])
        if infer[k]:
            inc.add('"npu/framework/InferSize.h"')
        text = head + include_block(inc)
        if names[k]:
            text += f"\n{_HAS_NAMES}\n#include {_NAMES_H}  // torch < 2.13 only\n#endif\n"
        text += "\nnamespace op_api {\n\n"
        if infer[k]:
            text += (
                "// size/dtype/new_params expressions in the YAML call op_infer helpers "
                "unqualified.\nusing namespace op_infer;\n\n"
            )
        text += "\n".join(per_shard[k]) + "\n}  // namespace op_api\n"
        files[shard_name(k)] = text
    return files
