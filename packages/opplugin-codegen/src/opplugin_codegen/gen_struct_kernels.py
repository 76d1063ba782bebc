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

from functools import partial

from . import expr_helpers, templating
from .cppfile import LINE_WIDTH, function_head, ordered_includes, shard_of
from .gen_interface import family_header, family_include, ranges_comment
from .model import CpuScalarOp, OutputSpec
from .projection import LabelView, LiveOp, op_family
from .schema import FunctionSchema, SchemaKind
from .validate import tensor_ref

_PREPARATION = "at_npu::native::OpPreparation"
# Name propagation, where the kernel and its shard (StructKernelNpuOpApi.cpp.j2) test for it.
_HAS_NAMES = "#if __has_include(<ATen/NamedTensorUtils.h>)"


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
        self.includes: set[str] = {family_include(op)}
        if op.gen.source is not op.entry:  # the inherited out= kernel may be of another family
            self.includes.add(f'"{family_header(op_family(op.gen.source))}"')
        self.uses_infer = False  # a verbatim size/dtype/new_params expression
        self.uses_names = False
        #: cpu_scalar_h2d arguments -> their device copies, used wherever the kernel passes
        #: the tensor on (exec, check_tensor, options); size/dtype read the original.
        self.copies = {name: f"{name}_cp" for name in self.block.cpu_scalar_h2d}

    def emit(self, line: str = "", indent: str = "  ") -> None:
        self.lines.append(f"{indent}{line}" if line and not line.startswith("#") else line)

    def emit_all(self, lines: list[str], indent: str = "  ") -> None:
        for line in lines:
            self.emit(line, indent)

    # -- pieces -------------------------------------------------------------------------

    def _size_expr(self, text: str) -> str:
        ref = tensor_ref(self.schema, text)
        if ref is not None:
            return f"{ref}.sizes()"
        self._uses_helpers(text)
        return text

    def _dtype_expr(self, text: str) -> str:
        ref = tensor_ref(self.schema, text)
        if ref is not None:
            return f"{ref}.scalar_type()"
        self._uses_helpers(text)
        return text

    def _uses_helpers(self, text: str) -> None:
        self.uses_infer = True
        self.includes |= expr_helpers.headers(text)

    def _options_source(self) -> str:
        return self.copies.get(options_source(self.schema), options_source(self.schema))

    def _acl_fallback_call(self) -> str:
        return f"acl_op::{self.op.cpp.name}({self.op.cpp.call_args()})"

    def _raw_exec_args(self) -> list[str]:
        if self.block.exec_args is not None:
            return list(self.block.exec_args)
        args = [p.name for p in self.op.cpp.params]
        if self.kind is SchemaKind.functional:
            args += [o.name for o in self.block.outputs]
        return args

    def _exec_args(self) -> list[str]:
        return [self.copies.get(a, a) for a in self._raw_exec_args()]

    def _names_lines(self, target: str, spec: OutputSpec) -> list[str]:
        if not spec.names or spec.names == (target,):
            return []  # nothing to propagate (in-place ops keep self's names anyway)
        self.uses_names = True
        if len(spec.names) == 1:
            call = f"at::namedinference::propagate_names({target}, {spec.names[0]});"
        else:
            a, b = spec.names
            call = (
                f"at::namedinference::propagate_names_if_nonempty(\n      {target}, "
                f"at::namedinference::compute_broadcast_outnames({a}, {b}));"
            )
        return [_HAS_NAMES, call, "#endif"]

    def _results(self) -> list[str]:
        if self.kind is SchemaKind.inplace:
            return ["self"]
        if self.kind is SchemaKind.functional:
            return [o.name for o in self.block.outputs]
        return [a.name for a in self.schema.out_arguments][: len(self.schema.returns)]

    def _tail(self, *, last: bool = False) -> list[str]:
        """Name propagation and the return statement (shared by every exit); ``last``: the
        end of the function, where a void function needs no ``return;``."""
        outputs = {o.name: o for o in self.block.outputs}
        lines: list[str] = []
        if self.kind is SchemaKind.inplace:
            for spec in outputs.values():
                lines += self._names_lines("self", spec)
            return [*lines, "return self;"]
        results = self._results()
        for name in results:
            if name in outputs:
                lines += self._names_lines(name, outputs[name])
        if not self.schema.returns:
            return lines if last else [*lines, "return;"]
        if len(results) == 1:
            lines.append(f"return {results[0]};")
        elif self.kind is SchemaKind.functional:
            moved = ", ".join(f"std::move({r})" for r in results)
            lines.append(f"return ::std::make_tuple({moved});")
        else:
            lines.append(f"return {self.op.cpp.returns.text}({', '.join(results)});")
        return lines

    # -- kernel -------------------------------------------------------------------------

    def render(self) -> str:
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
        identity = block.integral_identity_tensor
        if identity is not None and self.kind is SchemaKind.inplace:
            self._integral_identity(identity)
        if op.has_acl_op:
            self.includes.add('"npu/op_api/op_api_common.h"')
            apis = [api] + [o.exec_api for o in block.cpu_scalar_op if o.exec_api != api]
            for name in dict.fromkeys(apis):
                self.emit(f"DO_COMPATIBILITY({name}, {self._acl_fallback_call()});")
        for name, expr in block.new_params:
            self._uses_helpers(expr)
            self.emit(f"auto {name} = {expr};")
        self._copy_cpu_scalars()
        outputs = {o.name: o for o in block.outputs}
        if self.kind is SchemaKind.functional:
            self._functional_outputs()
        elif self.kind is SchemaKind.out and not op.entry.structured:
            self._check_outs(outputs)
        if identity is not None and self.kind is not SchemaKind.inplace:
            self._integral_identity(identity)
        self.includes.add('"npu/op_api/op_api_common.h"')
        for scalar_op in block.cpu_scalar_op:
            self._cpu_scalar_branch(scalar_op)
        self.emit(f"EXEC_NPU_CMD({api}, {', '.join(self._exec_args())});")
        self.emit_all(self._tail(last=True))
        return self._wrap()

    def _integral_identity(self, tensor: str) -> None:
        """Integer inputs are their own result (ceil, floor, trunc, round): copy them."""
        target = self._results()[0]
        self.emit(f"if (at::isIntegralType({tensor}.scalar_type(), /*includeBool=*/false)) {{")
        if target != tensor:
            self.emit(f"{target}.copy_({tensor});", "    ")
        self.emit_all(self._tail(), "    ")
        self.emit("}")

    def _copy_cpu_scalars(self) -> None:
        if not self.copies:
            return
        self.includes.add('"npu/op_common/OpPreparation.h"')
        copied = set(self.copies)
        devices = [
            a.name
            for a in (
                *(a for a in self.schema.arguments if not a.is_out),
                *self.schema.out_arguments,
            )
            if str(a.type) == "Tensor" and a.name not in copied
        ]
        for name, copy in self.copies.items():
            where = f", {devices[0]}.device()" if devices else ""
            self.emit(f"at::Tensor {copy} = {name};")
            self.emit(f"if ({_PREPARATION}::IsCPUScalar({name})) {{")
            self.emit(f"{copy} = {_PREPARATION}::copy_scalar_to_device(", "    ")
            self.emit(f"{name}.item(), {name}.scalar_type(){where});", "        ")
            self.emit("}")

    def _cpu_scalar_branch(self, scalar_op: CpuScalarOp) -> None:
        self.includes.add('"npu/op_common/OpPreparation.h"')
        param = scalar_op.param
        scalar = f"{param}_scalar"
        raw = list(scalar_op.exec_args) if scalar_op.exec_args is not None else None
        args = [
            scalar if a == param else self.copies.get(a, a)
            for a in (raw if raw is not None else self._raw_exec_args())
        ]
        self.emit(f"if ({_PREPARATION}::IsCPUScalar({param})) {{")
        self.emit(f"const at::Scalar {scalar} = {param}.item();", "    ")
        self.emit(f"EXEC_NPU_CMD({scalar_op.exec_api}, {', '.join(args)});", "    ")
        self.emit_all(self._tail(), "    ")
        self.emit("}")

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
        self.includes.add('"npu/op_common/OpPreparation.h"')
        specs = [(o.size, o.dtype) for o in self.block.outputs]
        options = self._options_source()
        for o, (size, dtype) in zip(self.block.outputs, self._locals(specs)):
            self.emit(f"at::Tensor {o.name} = {_PREPARATION}::apply_tensor_without_format(")
            self.emit(f"    {size}, {options}.options().dtype({dtype}));")

    def _check_outs(self, outputs: dict[str, OutputSpec]) -> None:
        self.includes.add('"npu/op_common/OpPreparation.h"')
        outs = self.schema.out_arguments
        specs = [
            (outputs[a.name].size, outputs[a.name].dtype) if a.name in outputs else (None, None)
            for a in outs
        ]
        inputs = ", ".join(
            self.copies.get(a.name, a.name)
            for a in self.schema.arguments
            if not a.is_out and str(a.type) == "Tensor"
        )
        for a, (size, dtype) in zip(outs, self._locals(specs)):
            dtype = dtype or f"{a.name}.scalar_type()"
            size = size or f"{a.name}.sizes()"
            args = f"{{{inputs}}}, {a.name}, {dtype}, {size}"
            line = f"{_PREPARATION}::check_tensor({args});"
            if len(line) + 2 > LINE_WIDTH:
                line = f"{_PREPARATION}::check_tensor(\n      {args});"
            self.emit(line)

    def _wrap(self) -> str:
        return f"{function_head(self.op.cpp)} {{\n" + "\n".join(self.lines) + "\n}\n"


def options_source(schema: FunctionSchema) -> str:
    """The tensor whose options (device, layout) a functional op's outputs take."""
    for a in schema.arguments:
        if str(a.type) == "Tensor":
            return a.name
        if str(a.type) == "Tensor[]":
            return f"{a.name}[0]"
    raise AssertionError("validated: functional gen_opapi ops have a Tensor argument")


def kernel_definition(op: LiveOp) -> tuple[str, set[str], bool, bool]:
    """(text, includes, uses op_infer helpers, propagates names) of one op_api kernel.
    The text depends on the op's per-label facts only, never on the label itself."""
    k = _Kernel(op)
    text = k.render()
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
        assert op.gen is not None
        key = (
            "kernel",
            id(op.entry),
            op.has_acl_op,
            op.cpp.name,
            id(op.gen.source),
            op.inherit_target.name if op.inherit_target else None,
        )
        text, inc, uses_infer, uses_names = view.memo(key, partial(kernel_definition, op))
        per_shard[k].append(text)
        includes[k] |= inc
        infer[k] = infer[k] or uses_infer
        names[k] = names[k] or uses_names
    files = {}
    for k in range(shards):
        inc = includes[k] | expr_helpers.USING_HEADERS if infer[k] else includes[k]
        files[shard_name(k)] = templating.render(
            "StructKernelNpuOpApi.cpp.j2",
            source=view.model.op_file,
            label=view.label,
            torch=view.torch,
            k=k,
            shards=shards,
            includes=ordered_includes(inc),
            kernels=per_shard[k],
            infer=infer[k],
            names=names[k],
        )
    return files
