"""Schema types -> C++ types (contracts.md section 2).

torchgen's *native* API with ``symint=False``, spelled so it compiles on every supported
torch: ``c10::optional`` (an alias of ``std::optional`` on new releases, its own class on
old ones, where ``std::optional`` breaks IValue unboxing) and ``c10::nullopt``. Each C++
type carries the headers it needs, so a generated header includes only what it uses.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .schema import Argument, BaseType, FunctionSchema, ListType, OptionalType, Return, Type

H_TENSOR = "<ATen/core/Tensor.h>"
H_OPTIONAL = "<c10/util/Optional.h>"
H_OPT_ARRAY = "<c10/util/OptionalArrayRef.h>"
H_LIST = "<ATen/core/List.h>"
H_STRING_VIEW = "<c10/util/string_view.h>"
H_GENERATOR = "<ATen/core/Generator.h>"
H_DIMNAME = "<ATen/core/Dimname.h>"
H_REDUCTION = "<ATen/core/Reduction.h>"
H_SYMINT = "<c10/core/SymInt.h>"
H_SYMBOOL = "<c10/core/SymBool.h>"
H_ARRAY = "<array>"
H_TUPLE = "<tuple>"
H_VECTOR = "<vector>"

_VALUE_TYPES: dict[str, tuple[str, tuple[str, ...]]] = {
    "int": ("int64_t", ()),
    "SymInt": ("int64_t", ()),  # symint=False
    "float": ("double", ()),
    "bool": ("bool", ()),
    "str": ("c10::string_view", (H_STRING_VIEW,)),
    "ScalarType": ("at::ScalarType", (H_TENSOR,)),
    "Layout": ("at::Layout", (H_TENSOR,)),
    "Device": ("at::Device", (H_TENSOR,)),
    "DeviceIndex": ("at::DeviceIndex", (H_TENSOR,)),
    "MemoryFormat": ("at::MemoryFormat", (H_TENSOR,)),
    "Generator": ("at::Generator", (H_GENERATOR,)),
    "Dimname": ("at::Dimname", (H_DIMNAME,)),
    "QScheme": ("at::QScheme", (H_TENSOR,)),
    "Storage": ("at::Storage", (H_TENSOR,)),
    "Stream": ("at::Stream", (H_TENSOR,)),
    "SymBool": ("bool", ()),
}

_DEFAULTS = {
    "False": "false",
    "True": "true",
    "Mean": "at::Reduction::Mean",
    "[]": "{}",
    "contiguous_format": "c10::MemoryFormat::Contiguous",
    "long": "at::kLong",
}


class CppTypeError(ValueError):
    """A schema type that has no C++ spelling in the native API."""


@dataclass(frozen=True)
class CppType:
    text: str
    headers: frozenset[str]

    def __str__(self) -> str:
        return self.text


def _t(text: str, *headers: str) -> CppType:
    return CppType(text, frozenset(headers))


def _value_type(t: Type, symint: bool = False) -> CppType | None:
    """Types passed by value (torchgen's ``valuetype_type``), or None."""
    if isinstance(t, BaseType):
        if t.name in ("Tensor", "Scalar"):
            return None
        if symint and t.name == "SymInt":
            return _t("c10::SymInt", H_SYMINT)
        text, headers = _VALUE_TYPES[t.name]
        return _t(text, *headers)
    if isinstance(t, OptionalType):
        elem = _value_type(t.elem, symint)
        if elem is None:
            return None
        return CppType(f"c10::optional<{elem.text}>", elem.headers | {H_OPTIONAL})
    if isinstance(t, ListType) and str(t.elem) == "bool":
        if t.size is None:
            raise CppTypeError("bool[] needs a size, e.g. bool[3]")
        return _t(f"::std::array<bool,{t.size}>", H_ARRAY)
    return None


@functools.lru_cache(maxsize=4096)
def argument_type(
    arg: Argument, *, const_ref_for_mutable: bool = False, symint: bool = False
) -> CppType:
    """The C++ parameter type of one argument (native API; ``symint``: the op is listed under
    ``symint:``, and SymInt arguments keep their symbolic types, as torchgen's ``symint=True``)."""
    mutable = arg.is_write and not const_ref_for_mutable
    t = arg.type
    if str(t) == "Tensor?":
        opt = "c10::optional<at::Tensor>"
        return _t(f"{opt}&" if mutable else f"const {opt}&", H_TENSOR, H_OPTIONAL)
    if str(t) == "Scalar?":
        return _t("const c10::optional<at::Scalar>&", H_TENSOR, H_OPTIONAL)
    if str(t) == "Tensor?[]":
        return _t("const c10::List<c10::optional<at::Tensor>>&", H_TENSOR, H_LIST, H_OPTIONAL)
    return _argumenttype(t, mutable, symint)


def _argumenttype(t: Type, mutable: bool, symint: bool = False) -> CppType:
    value = _value_type(t, symint)
    if value is not None:
        return value
    if symint and str(t) == "SymInt[]?":
        return _t("at::OptionalSymIntArrayRef", H_TENSOR, H_OPT_ARRAY, H_SYMINT)
    if symint and str(t).startswith("SymInt[") and str(t).endswith("]"):
        return _t("c10::SymIntArrayRef", H_TENSOR, H_SYMINT)
    if isinstance(t, BaseType):
        if t.name == "Tensor":
            return _t("at::Tensor&" if mutable else "const at::Tensor&", H_TENSOR)
        return _t("const at::Scalar&", H_TENSOR)  # Scalar
    if isinstance(t, OptionalType):
        elem = t.elem
        if str(elem) == "Tensor":
            return _t("const c10::optional<at::Tensor>&", H_TENSOR, H_OPTIONAL)
        if str(elem) == "Scalar":
            return _t("const c10::optional<at::Scalar>&", H_TENSOR, H_OPTIONAL)
        if isinstance(elem, ListType) and str(elem.elem) in ("int", "SymInt"):
            return _t("at::OptionalIntArrayRef", H_TENSOR, H_OPT_ARRAY)
        inner = _argumenttype(elem, mutable, symint)
        return CppType(f"c10::optional<{inner.text}>", inner.headers | {H_OPTIONAL})
    # ListType
    elem_s = str(t.elem)
    if elem_s in ("int", "SymInt"):
        return _t("at::IntArrayRef", H_TENSOR)
    if elem_s == "Tensor":
        return _t("at::TensorList", H_TENSOR)
    if elem_s == "Scalar":
        return _t("at::ArrayRef<at::Scalar>", H_TENSOR)
    if elem_s == "Tensor?":
        return _t("const c10::List<c10::optional<at::Tensor>>&", H_TENSOR, H_LIST, H_OPTIONAL)
    if elem_s == "Dimname":
        return _t("at::DimnameList", H_DIMNAME)
    inner = _argumenttype(t.elem, mutable, symint)
    return CppType(f"at::ArrayRef<{inner.text}>", inner.headers | {H_TENSOR})


def _return_type(r: Return, const_ref_for_mutable: bool) -> CppType:
    t = r.type
    if isinstance(t, BaseType):
        if t.name == "Tensor":
            if r.is_write:
                return _t("const at::Tensor&" if const_ref_for_mutable else "at::Tensor&", H_TENSOR)
            return _t("at::Tensor", H_TENSOR)
        if t.name == "Scalar":
            return _t("at::Scalar", H_TENSOR)
        if t.name == "SymInt":  # returns always keep SymInt/SymBool (torchgen)
            return _t("c10::SymInt", H_SYMINT)
        if t.name == "SymBool":
            return _t("c10::SymBool", H_SYMBOOL)
        value = _value_type(t)
        assert value is not None
        return value
    if isinstance(t, ListType):
        if r.is_write:
            raise CppTypeError("a mutable list return is not supported; return () instead")
        if t.size is not None:
            raise CppTypeError(f"fixed-size list return '{t}' is not supported")
        elem = _return_type(Return(None, t.elem, None), const_ref_for_mutable)
        return CppType(f"::std::vector<{elem.text}>", elem.headers | {H_VECTOR})
    if str(t.elem) == "Tensor":
        return _t("c10::optional<at::Tensor>", H_TENSOR, H_OPTIONAL)
    value = _value_type(t)
    if value is None:
        raise CppTypeError(f"return type '{t}' is not supported")
    return value


def returns_type(schema: FunctionSchema, *, const_ref_for_mutable: bool = False) -> CppType:
    rets = schema.returns
    if not rets:
        return _t("void")
    if len(rets) == 1:
        return _return_type(rets[0], const_ref_for_mutable)
    parts = [_return_type(r, const_ref_for_mutable) for r in rets]
    headers = frozenset({H_TUPLE}).union(*(p.headers for p in parts))
    return CppType(f"::std::tuple<{', '.join(p.text for p in parts)}>", headers)


def default_expr(arg: Argument, *, symint: bool = False) -> tuple[str, frozenset[str]]:
    """The C++ default of an argument with a schema default (torchgen's ``default_expr``).
    ``symint``: the argument has its symbolic type, so ``SymInt[2] stride=1`` defaults to
    ``c10::SymInt(1)`` (a ``c10::SymIntArrayRef`` cannot be made from the integer itself)."""
    d = arg.default
    assert d is not None
    t = arg.type
    if d == "None":
        return (
            ("{}", frozenset())
            if str(t) == "Tensor?"
            else ("c10::nullopt", frozenset({H_OPTIONAL}))
        )
    base = t.elem if isinstance(t, OptionalType) else t
    if isinstance(base, BaseType) and base.name == "str" and len(d) >= 2 and d[0] in "'\"":
        return _cpp_string(d), frozenset()
    if isinstance(base, ListType) and d.startswith("[") and d.endswith("]"):
        return "{" + d[1:-1] + "}", frozenset()
    if symint and isinstance(base, ListType) and d.isdigit() and str(base.elem) == "SymInt":
        return f"c10::SymInt({d})", frozenset()
    if d == "Mean":
        return _DEFAULTS[d], frozenset({H_REDUCTION})
    return _DEFAULTS.get(d, d), frozenset()


def _cpp_string(literal: str) -> str:
    """A schema string literal ('x' or "x") as a C++ string literal."""
    body = literal[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append("'" if nxt == "'" else body[i : i + 2])
            i += 2
            continue
        out.append('\\"' if c == '"' else c)
        i += 1
    return '"' + "".join(out) + '"'


@dataclass(frozen=True)
class CppParam:
    name: str
    type: CppType
    default: str | None  # C++ default, or None
    default_headers: frozenset[str] = frozenset()

    def render(self, with_default: bool) -> str:
        text = f"{self.type.text} {self.name}"
        return f"{text} = {self.default}" if with_default and self.default is not None else text


@dataclass(frozen=True)
class CppSignature:
    """One op_plugin/op_api/acl_op function: the same name and parameters in all three."""

    name: str
    returns: CppType
    params: tuple[CppParam, ...]

    @functools.cached_property
    def headers(self) -> frozenset[str]:
        hs = set(self.returns.headers)
        for p in self.params:
            hs |= p.type.headers
        return frozenset(hs)

    def default_headers(self) -> frozenset[str]:
        return frozenset().union(*(p.default_headers for p in self.params))

    def declaration(self, *, with_defaults: bool) -> str:
        return f"{self.returns.text} {self.name}({self.param_list(with_defaults=with_defaults)})"

    def param_list(self, *, with_defaults: bool = False) -> str:
        return ", ".join(p.render(with_defaults) for p in self.params)

    def call_args(self) -> str:
        return ", ".join(p.name for p in self.params)

    @property
    def type_key(self) -> tuple[str, ...]:
        """What C++ overload resolution sees: the name and the parameter types."""
        return (self.name, *(p.type.text for p in self.params))


_TENSOR_OPTIONS = (
    ("dtype", "ScalarType"),
    ("layout", "Layout"),
    ("device", "Device"),
    ("pin_memory", "bool"),
)


def tensor_options_group(schema: FunctionSchema) -> range:
    """Indices of the keyword-only ``dtype, layout, device, pin_memory`` run (torchgen's
    TensorOptionsArguments), or an empty range."""
    args = schema.arguments
    n = len(_TENSOR_OPTIONS)
    for i, a in enumerate(args):
        if a.name != "dtype" or not a.kwarg_only:
            continue
        window = args[i : i + n]
        if len(window) == n and all(
            b.kwarg_only and b.name == name and str(b.type) in (base, f"{base}?")
            for b, (name, base) in zip(window, _TENSOR_OPTIONS)
        ):
            return range(i, i + n)
    return range(0)


def signature(
    schema: FunctionSchema, name: str, *, const_ref_for_mutable: bool = False, symint: bool = False
) -> CppSignature:
    """The C++ signature: schema order (outs are last already), C++ defaults on the
    trailing run of defaulted arguments of non-out= schemas (torchgen never defaults
    out= functions: their out arguments come last and have none)."""
    is_out = any(a.is_out for a in schema.arguments)
    options = tensor_options_group(schema)
    params: list[CppParam] = []
    for i, a in enumerate(schema.arguments):
        cpp_type = argument_type(a, const_ref_for_mutable=const_ref_for_mutable, symint=symint)
        if not is_out and i in options:
            # torchgen defaults the scattered TensorOptions group to {} as a whole.
            params.append(CppParam(a.name, cpp_type, "{}"))
        elif not is_out and a.default is not None:
            default, headers = default_expr(a, symint=symint)
            params.append(CppParam(a.name, cpp_type, default, headers))
        else:
            params.append(CppParam(a.name, cpp_type, None))
    # C++ allows defaults only on a trailing run of parameters.
    for i in range(len(params) - 1, -1, -1):
        if params[i].default is None:
            params[:i] = [CppParam(p.name, p.type, None) for p in params[:i]]
            break
    returns = returns_type(schema, const_ref_for_mutable=const_ref_for_mutable)
    return CppSignature(name, returns, tuple(params))


def _required(sig: CppSignature) -> int:
    return sum(1 for p in sig.params if p.default is None)


def without_ambiguous_defaults(sigs: Sequence[CppSignature]) -> list[CppSignature]:
    """``sigs`` (overloads declared together) with the C++ defaults dropped that would let one
    call match two overloads equally well: where calling overload A with its first n arguments
    is also a call of a shorter overload B taking exactly those parameter types, A keeps no
    default up to its (n+1)-th parameter. native_functions.yaml says so by hand with
    ``cpp_no_default_args`` (``all.dims``' dim next to ``all(Tensor self)``); here it follows
    from the overloads a family declares."""
    result = list(sigs)
    for i, a in enumerate(result):
        keep_required = _required(a)
        for b in sigs:
            if b.name != a.name or len(b.params) >= len(a.params):
                continue
            for n in range(max(_required(a), _required(b)), len(b.params) + 1):
                if all(x.type.text == y.type.text for x, y in zip(a.params[:n], b.params[:n])):
                    keep_required = max(keep_required, n + 1)
        if keep_required > _required(a):
            params = [
                CppParam(p.name, p.type, None) if k < keep_required else p
                for k, p in enumerate(a.params)
            ]
            result[i] = CppSignature(a.name, a.returns, tuple(params))
    return result


def collect_headers(types: Iterable[CppType]) -> frozenset[str]:
    return frozenset().union(*(t.headers for t in types))
