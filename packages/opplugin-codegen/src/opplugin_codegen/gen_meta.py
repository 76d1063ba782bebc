"""Meta (fake) functions from the size/dtype facts of ``gen_opapi`` blocks.

The ``size:`` and ``dtype:`` expressions that make the generated op_api kernel allocate
(or check) its outputs also say what a Meta kernel must return. ``MetaFunctions_<k>.cpp``
and ``test_only/MetaCheckFunctions_<k>.cpp`` turn them into one function per op, evaluated on
meta tensors, and register it:

* custom operators (section ``custom``, namespace ``npu``, unknown to PyTorch): as the
  ``Meta`` kernel of ``npu::<op>`` (``MetaFunctions_<k>.cpp``, compiled into the runtime),
  so FakeTensor and torch.compile trace them with no hand-written shape function. The
  function has the dispatcher's C++ signature (SymInt types), the one every kernel of an
  operator must share.
* aten operators (``official``), which have PyTorch's own Meta kernels: as a *checking*
  operator ``npu_meta_check::<op>`` in a private library (the op's schema without alias
  annotations, out= variants turned functional, SymInt spelled int). A test calls it next
  to ``aten::<op>`` on meta inputs and next to the real npu kernel, so a wrong ``size:`` or
  ``dtype:`` in the YAML fails a test instead of producing wrong tensors. Only tests call
  it, so it is generated apart (``test_only/MetaCheckFunctions_<k>.cpp``), built by the tests
  and never compiled into a wheel.

Ops whose facts are incomplete get no function: structured ops (their meta function
lives elsewhere), out= ops whose outs lack size or dtype, aten in-place ops (the result is
``self``). A comment at the end of each shard lists the ops of its kind (custom ops in
``MetaFunctions_<k>.cpp``, the others in the test-only shard) left out, and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import partial

from . import expr_helpers, templating
from .cpp import CppParam, CppSignature, CppType, signature
from .cppfile import c_string, function_head, ordered_includes, shard_of
from .gen_interface import ranges_comment
from .gen_struct_kernels import options_source
from .model import OutputSpec
from .projection import LabelView, LiveOp
from .schema import (
    BaseType,
    FunctionSchema,
    ListType,
    OptionalType,
    Return,
    SchemaKind,
    Type,
)
from .validate import tensor_ref

META_CHECK_NAMESPACE = "npu_meta_check"
CUSTOM_NAMESPACE = "npu"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


#: Generated sources that only tests compile (contracts.md section 1): the runtime's build
#: leaves this directory of the generated tree out.
TEST_ONLY_DIR = "test_only"


def shard_name(k: int) -> str:
    return f"op_plugin/MetaFunctions_{k}.cpp"


def check_shard_name(k: int) -> str:
    return f"{TEST_ONLY_DIR}/MetaCheckFunctions_{k}.cpp"


def _tokens(text: str) -> set[str]:
    """The identifiers of a C++ expression (to know which parameters it uses)."""
    return set(_IDENTIFIER.findall(text))


# --------------------------------------------------------------------------- schemas


def _int_type(t: Type) -> Type:
    """SymInt -> int everywhere in a type (the checking library's schemas)."""
    if isinstance(t, BaseType):
        return BaseType("int") if t.name == "SymInt" else t
    if isinstance(t, OptionalType):
        return OptionalType(_int_type(t.elem))
    return ListType(_int_type(t.elem), t.size)


def check_schema(schema: FunctionSchema) -> FunctionSchema:
    """The functional form used by ``npu_meta_check``: no out arguments, no alias
    annotations, SymInt spelled int."""
    args = tuple(
        replace(a, type=_int_type(a.type), annotation=None, is_out=False)
        for a in schema.arguments
        if not a.is_out
    )
    rets = tuple(Return(r.name, _int_type(r.type), None) for r in schema.returns)
    return FunctionSchema(replace(schema.name, namespace=""), args, rets)


_SYM_TYPES = {
    "SymInt": "c10::SymInt",
    "SymInt[]": "c10::SymIntArrayRef",
    "SymInt?": "c10::optional<c10::SymInt>",
}
_SYM_HEADERS = frozenset({"<c10/core/SymInt.h>", "<c10/core/SymIntArrayRef.h>"})


def _dispatcher_signature(sig: CppSignature, schema: FunctionSchema) -> CppSignature:
    """The native signature with SymInt arguments in dispatcher spelling."""
    params = []
    for p, a in zip(sig.params, schema.arguments):
        t = str(a.type)
        if t in _SYM_TYPES:
            p = CppParam(p.name, CppType(_SYM_TYPES[t], _SYM_HEADERS), None)
        params.append(p)
    return replace(sig, params=tuple(params))


# --------------------------------------------------------------------------- functions


@dataclass
class MetaFunction:
    """One generated meta function and its registration line(s)."""

    op: LiveOp
    custom: bool  # registered as npu::<op>'s Meta kernel (else as npu_meta_check::<op>)
    cname: str
    text: str = ""
    schema_def: str = ""  # npu_meta_check: the schema it defines
    includes: set[str] = field(default_factory=set)
    uses_infer: bool = False


def meta_skip_reason(op: LiveOp) -> str | None:
    """Why ``op`` gets no meta function in this label, or None."""
    if op.gen is None:
        return "no gen_opapi"
    kind = op.entry.kind
    if op.entry.section not in ("official", "custom"):
        return f"section {op.entry.section}"
    if op.entry.structured:
        return "structured: true (its meta function is the structured one)"
    if kind is SchemaKind.inplace:
        return None if op.entry.section == "custom" else "in-place (the result is self)"
    if kind is SchemaKind.out:
        outputs = {o.name: o for o in op.gen.block.outputs}
        missing = [
            a.name
            for a in op.entry.schema.out_arguments
            if a.name not in outputs
            or outputs[a.name].size is None
            or outputs[a.name].dtype is None
        ]
        if missing and op.entry.section == "official":
            return f"out argument(s) {', '.join(missing)} lack size or dtype"
        if len(op.entry.schema.returns) != len(op.entry.schema.out_arguments):
            return "out= op whose returns do not mirror its out arguments"
        texts = " ".join(t for o in op.gen.block.outputs for t in (o.size, o.dtype) if t)
        refers = _tokens(texts) & {a.name for a in op.entry.schema.out_arguments}
        if refers and op.entry.section == "official":
            return f"size/dtype refer to the out argument {sorted(refers)[0]}"
    if kind is SchemaKind.functional and any(
        str(r.type) != "Tensor" for r in op.entry.schema.returns
    ):
        return "returns something other than tensors"
    bad = [
        str(a.type)
        for a in op.entry.schema.arguments
        if "SymInt" in str(a.type) and str(a.type) not in _SYM_TYPES
    ]
    if bad and op.entry.section == "custom":
        return f"argument type {bad[0]} has no meta conversion"
    return None


_HELPER_CALL = re.compile(r"^\s*(?:op_infer::)?([A-Za-z_]\w*)\((.*)\)\s*$")
#: op_infer size helpers -> (argument count, symbolic C++ with the tensors substituted).
_SYMBOLIC_HELPERS = {
    "broadcast_ops_npu_output_size": (
        2,
        "at::infer_size_symdimvector({0}.sym_sizes(), {1}.sym_sizes())",
    ),
    "input_same_output_size": (1, "{0}.sym_sizes()"),
}


class _Builder:
    def __init__(self, op: LiveOp, cname: str, custom: bool) -> None:
        assert op.gen is not None
        self.op = op
        self.block = op.gen.block
        self.schema = op.entry.schema
        self.kind = op.entry.kind
        self.custom = custom
        self.fn = MetaFunction(op, custom, cname)
        self.fn.includes = {"<ATen/core/Tensor.h>"}
        self.lines: list[str] = []
        self.used: set[str] = set()

    def emit(self, line: str) -> None:
        self.lines.append(f"  {line}")

    def size_expr(self, text: str) -> tuple[str, bool]:
        """(C++ expression, symbolic): a tensor name reads its (Sym)sizes, else verbatim."""
        ref = tensor_ref(self.schema, text)
        if ref is not None:
            self.used.add(ref.split("[")[0])
            return (f"{ref}.sym_sizes()", True) if self.custom else (f"{ref}.sizes()", False)
        symbolic = self._symbolic_helper(text) if self.custom else None
        if symbolic is not None:
            return symbolic, True
        self._uses_helpers(text)
        self.used |= _tokens(text)
        return text, False

    def _symbolic_helper(self, text: str) -> str | None:
        """The SymInt form of an op_infer size helper called on tensor arguments
        (contracts.md section 4), so that custom ops stay dynamic under torch.compile:
        the helpers read ``sizes()``, which torch 2.1 refuses on symbolic shapes (later
        releases specialise instead)."""
        m = _HELPER_CALL.match(text)
        if m is None or m.group(1) not in _SYMBOLIC_HELPERS:
            return None
        args = [a.strip() for a in m.group(2).split(",")]
        refs = [tensor_ref(self.schema, a) for a in args]
        arity, template = _SYMBOLIC_HELPERS[m.group(1)]
        if len(args) != arity or any(r is None for r in refs):
            return None
        self.used |= {r.split("[")[0] for r in refs if r}
        if "infer_size_symdimvector" in template:
            self.fn.includes.add("<ATen/ExpandUtils.h>")
        return template.format(*refs)

    def dtype_expr(self, text: str) -> str:
        ref = tensor_ref(self.schema, text)
        if ref is not None:
            self.used.add(ref.split("[")[0])
            return f"{ref}.scalar_type()"
        self._uses_helpers(text)
        self.used |= _tokens(text)
        return text

    def _uses_helpers(self, text: str) -> None:
        self.fn.uses_infer = True
        self.fn.includes |= expr_helpers.headers(text)

    def specs(self) -> list[tuple[str, OutputSpec | None]]:
        """(result name, its block) per result, in return order."""
        outputs = {o.name: o for o in self.block.outputs}
        if self.kind is SchemaKind.functional:
            return [(o.name, o) for o in self.block.outputs]
        return [(a.name, outputs.get(a.name)) for a in self.schema.out_arguments]

    def build(self) -> MetaFunction:
        fn = self.fn
        op = self.op
        via = "" if op.gen is None or op.gen.source is op.entry else f"via {op.gen.source.name}"
        comment = ranges_comment(op, " ".join(p for p in ("gen_opapi", via) if p))
        if self.custom:
            # The dispatcher's signature: SymInt types, outs as at::Tensor& (whatever
            # use_const_ref_for_mutable_tensors says about the op_plugin functions).
            sig = _dispatcher_signature(signature(self.schema, fn.cname), self.schema)
        else:
            sig = signature(check_schema(self.schema), fn.cname)
        if self.kind is SchemaKind.inplace:
            body = ["  return self;"]
            self.used.add("self")
        else:
            body = self._outputs()
        fn.includes |= sig.headers
        conversions, params = self._sym_conversions(sig.params)
        params = [
            p if p.name in self.used else CppParam(f"/*{p.name}*/", p.type, None) for p in params
        ]
        head = function_head(replace(sig, params=tuple(params)))
        fn.text = (
            f"// {comment}\n{head} {{\n"
            + "".join(f"{line}\n" for line in conversions + self.lines + body)
            + "}\n"
        )
        if not self.custom:
            fn.schema_def = str(check_schema(self.schema))
        return fn

    def _sym_conversions(self, params: tuple[CppParam, ...]) -> tuple[list[str], list[CppParam]]:
        """SymInt parameters (custom ops) become the int64 values the YAML's expressions
        use: parameter ``size_sym``, local ``size`` (guarding on the value)."""
        out: list[str] = []
        renamed: list[CppParam] = []
        for p, a in zip(params, self.schema.arguments):
            t = str(a.type)
            if not self.custom or t not in _SYM_TYPES or p.name not in self.used:
                renamed.append(p)
                continue
            sym = f"{p.name}_sym"
            renamed.append(CppParam(sym, p.type, None))
            self.used.add(sym)
            if t == "SymInt":
                out.append(f"  const int64_t {p.name} = {sym}.guard_int(__FILE__, __LINE__);")
            elif t == "SymInt?":
                out.append(
                    f"  const c10::optional<int64_t> {p.name} = {sym}.has_value()\n"
                    f"      ? c10::optional<int64_t>({sym}->guard_int(__FILE__, __LINE__))\n"
                    "      : c10::nullopt;"
                )
            else:
                self.fn.includes.add("<vector>")
                out += [
                    f"  ::std::vector<int64_t> {p.name}_values;",
                    f"  for (const c10::SymInt& value : {sym}) {{",
                    f"    {p.name}_values.push_back(value.guard_int(__FILE__, __LINE__));",
                    "  }",
                    f"  const at::IntArrayRef {p.name} = {p.name}_values;",
                ]
        return out, renamed

    def _outputs(self) -> list[str]:
        self.fn.includes.add("<ATen/ops/empty.h>")
        specs = self.specs()
        used_params = {n for n, _ in self.block.new_params}
        # new_params the size/dtype expressions need (in authored order).
        needed: list[tuple[str, str]] = []
        texts = " ".join(
            t for _, s in specs if s is not None for t in (s.size, s.dtype) if t is not None
        )
        wanted = _tokens(texts) & used_params
        for name, expr in reversed(self.block.new_params):
            if name in wanted:
                wanted |= _tokens(expr) & used_params
        for name, expr in self.block.new_params:
            if name in wanted:
                needed.append((name, expr))
                self._uses_helpers(expr)
                self.used |= _tokens(expr)
        for name, expr in needed:
            self.emit(f"auto {name} = {expr};")
        sizes: dict[str, tuple[str, bool]] = {}
        dtypes: dict[str, str] = {}
        local: list[tuple[str, str | None, bool, str | None]] = []
        for result, spec in specs:
            s_var = d_var = None
            symbolic = False
            if spec is not None and spec.size is not None:
                expr, symbolic = self.size_expr(spec.size)
                if expr not in sizes:
                    sizes[expr] = (f"output_size_{len(sizes)}", symbolic)
                s_var = sizes[expr][0]
            if spec is not None and spec.dtype is not None:
                expr = self.dtype_expr(spec.dtype)
                d_var = dtypes.setdefault(expr, f"output_dtype_{len(dtypes)}")
            local.append((result, s_var, symbolic, d_var))
        for expr, (var, _) in sizes.items():
            self.emit(f"auto {var} = {expr};")
        for expr, var in dtypes.items():
            self.emit(f"auto {var} = {expr};")
        if self.kind is SchemaKind.out and self.custom:
            return self._resize_outs(local)
        if not local:
            return []  # `-> ()`: nothing to make, nothing to check
        source = options_source(self.schema)
        self.used.add(source.split("[")[0])
        body = []
        for result, s_var, symbolic, d_var in local:
            empty = "at::empty_symint" if symbolic else "at::empty"
            body.append(
                f"  at::Tensor {result} = {empty}(\n"
                f"      {s_var}, {source}.options().dtype({d_var}).device(c10::kMeta));"
            )
        names = [r for r, *_ in local]
        if len(names) == 1:
            body.append(f"  return {names[0]};")
        else:
            moved = ", ".join(f"std::move({n})" for n in names)
            body.append(f"  return ::std::make_tuple({moved});")
        return body

    def _resize_outs(self, local: list[tuple[str, str | None, bool, str | None]]) -> list[str]:
        body = []
        for result, s_var, symbolic, d_var in local:
            self.used.add(result)
            if d_var is not None:
                body.append(
                    f"  TORCH_CHECK(c10::canCast({d_var}, {result}.scalar_type()),\n"
                    f"              {c_string(self.op.name + ': result type ')}, {d_var},\n"
                    f'              " can\'t be cast to the desired output type ", '
                    f"{result}.scalar_type());"
                )
            if s_var is not None:
                resize = "resize__symint" if symbolic else "resize_"
                body.append(f"  {result}.{resize}({s_var});")
        names = [r for r, *_ in local]
        if len(names) == 1:
            body.append(f"  return {names[0]};")
        else:
            body.append(f"  return {self.op.entry.cpp.returns.text}({', '.join(names)});")
        return body


def _cname(op: LiveOp, taken: set[str]) -> str:
    name = op.entry.schema.name
    base = f"{name.name}_{name.overload}" if name.overload else name.name
    cname, i = base, 2
    while cname in taken:
        cname, i = f"{base}_{i}", i + 1
    taken.add(cname)
    return cname


def _build(op: LiveOp, cname: str, custom: bool) -> MetaFunction:
    return _Builder(op, cname, custom).build()


def meta_functions(view: LabelView) -> tuple[list[MetaFunction], list[tuple[LiveOp, str]]]:
    """(the meta functions of the label, the gen_opapi ops left out with the reason)."""
    functions: list[MetaFunction] = []
    skipped: list[tuple[LiveOp, str]] = []
    taken: set[str] = set()
    for op in view.ops:
        if op.gen is None:
            continue
        reason = meta_skip_reason(op)
        if reason is not None:
            skipped.append((op, reason))
            continue
        custom = op.entry.section == "custom"
        cname = _cname(op, taken)
        assert op.gen is not None
        key = ("meta", id(op.entry), cname, id(op.gen.source))
        functions.append(view.memo(key, partial(_build, op, cname, custom)))
    return functions, skipped


def render_meta_shards(
    view: LabelView, shards: int, check_namespace: str = META_CHECK_NAMESPACE
) -> dict[str, str]:
    """The product shards (Meta kernels of custom ops) and the test-only shards (the
    ``check_namespace`` operators of aten ops), each listing the ops of its kind left out."""
    functions, skipped = meta_functions(view)
    per_shard: list[list[MetaFunction]] = [[] for _ in range(shards)]
    left_out: list[list[tuple[LiveOp, str]]] = [[] for _ in range(shards)]
    for fn in functions:
        per_shard[shard_of(fn.op.shard_key, shards)].append(fn)
    for op, reason in skipped:
        left_out[shard_of(op.shard_key, shards)].append((op, reason))
    files = {}
    for k in range(shards):
        custom = [fn for fn in per_shard[k] if fn.custom]
        aten = [fn for fn in per_shard[k] if not fn.custom]
        custom_left_out = [(op, why) for op, why in left_out[k] if op.entry.section == "custom"]
        aten_left_out = [(op, why) for op, why in left_out[k] if op.entry.section != "custom"]
        files[shard_name(k)] = _render_shard(
            view, "MetaFunctions.cpp.j2", custom, custom_left_out, k=k, shards=shards
        )
        files[check_shard_name(k)] = _render_shard(
            view,
            "MetaCheckFunctions.cpp.j2",
            aten,
            aten_left_out,
            k=k,
            shards=shards,
            check_namespace=check_namespace,
        )
    return files


def _render_shard(
    view: LabelView,
    template: str,
    functions: list[MetaFunction],
    left_out: list[tuple[LiveOp, str]],
    **context: object,
) -> str:
    """One shard of Meta functions (MetaFunctions.cpp.j2 or MetaCheckFunctions.cpp.j2), with
    the ops of its kind left out and why."""
    includes = {"<torch/library.h>"}
    for fn in functions:
        includes |= fn.includes
    infer = any(fn.uses_infer for fn in functions)
    if infer:
        includes |= expr_helpers.USING_HEADERS
    return templating.render(
        template,
        source=view.model.op_file,
        label=view.label,
        torch=view.torch,
        custom_namespace=CUSTOM_NAMESPACE,
        includes=ordered_includes(includes),
        infer=infer,
        functions=functions,
        left_out=[(op.name, reason) for op, reason in left_out],
        **context,
    )
