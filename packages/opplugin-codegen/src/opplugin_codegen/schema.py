"""A small parser for PyTorch's native_functions schema grammar.

``name[.overload](args) -> returns``, e.g.
``add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)``.
Parsed values print back to the exact input text; anything that does not is rejected, so
stray spaces and typos are caught here rather than in a C++ compiler.
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass
from typing import Union

from .errors import did_you_mean
from .yamlload import describe


class SchemaError(ValueError):
    """A schema string that is not valid in the native_functions grammar."""


#: Base types of the grammar (torchgen's ``BaseTy``, plus ``Dimname`` which torch < 2.13 has).
BASE_TYPES = frozenset(
    {
        "Tensor", "int", "float", "bool", "str", "Scalar", "ScalarType", "Layout", "Device",
        "DeviceIndex", "MemoryFormat", "Generator", "Dimname", "SymInt", "SymBool",
        "QScheme", "Storage", "Stream",
    }
)  # fmt: skip

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_OVERLOAD = re.compile(r"^[A-Za-z0-9_]+$")
_DECL = re.compile(r"^(?P<name>[^(]+)\((?P<args>.*)\) -> (?P<returns>.*)$")
_ANNOTATION = re.compile(r"^([a-z])((?:\|[a-z])*)(!?)(?: -> (\*|[a-z](?:\|[a-z])*))?$")
_TENSOR_ANNOTATED = re.compile(r"^Tensor\((.+)\)(.*)$")


@dataclass(frozen=True)
class BaseType:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class OptionalType:
    elem: Type

    def __str__(self) -> str:
        return f"{self.elem}?"


@dataclass(frozen=True)
class ListType:
    elem: Type
    size: int | None

    def __str__(self) -> str:
        return f"{self.elem}[{'' if self.size is None else self.size}]"


Type = Union[BaseType, OptionalType, ListType]


def is_tensor_like(t: Type) -> bool:
    """Tensor, Tensor?, Tensor[], Tensor?[] (the arguments a format check looks at)."""
    if isinstance(t, BaseType):
        return t.name == "Tensor"
    return is_tensor_like(t.elem)


def contains_base(t: Type, name: str) -> bool:
    if isinstance(t, BaseType):
        return t.name == name
    return contains_base(t.elem, name)


@functools.lru_cache(maxsize=4096)
def parse_type(text: str) -> Type:
    if text.endswith("?"):
        return OptionalType(parse_type(text[:-1]))
    m = re.match(r"^(.+)\[([0-9]*)\]$", text)
    if m is not None:
        size = int(m.group(2)) if m.group(2) else None
        return ListType(parse_type(m.group(1)), size)
    if text in BASE_TYPES:
        return BaseType(text)
    raise SchemaError(f"unknown type '{text}'{did_you_mean(text, BASE_TYPES)}")


@dataclass(frozen=True)
class Annotation:
    alias_set: tuple[str, ...]
    is_write: bool
    alias_set_after: tuple[str, ...]

    @staticmethod
    def parse(text: str) -> Annotation:
        m = _ANNOTATION.match(text)
        if m is None:
            raise SchemaError(f"malformed alias annotation '({text})'")
        alias_set = (m.group(1), *m.group(2).split("|")[1:])
        is_write = m.group(3) == "!"
        if is_write and len(alias_set) > 1:
            raise SchemaError(f"a mutable alias annotation names one alias set, got '({text})'")
        after = tuple(m.group(4).split("|")) if m.group(4) else ()
        return Annotation(alias_set, is_write, after)

    def __str__(self) -> str:
        s = "|".join(self.alias_set) + ("!" if self.is_write else "")
        if self.alias_set_after:
            s += " -> " + "|".join(self.alias_set_after)
        return s


def _split_annotation(text: str) -> tuple[str, Annotation | None]:
    m = _TENSOR_ANNOTATED.match(text)
    if m is None:
        return text, None
    suffix = m.group(2)
    if suffix not in ("", "?", "[]"):
        raise SchemaError(
            f"an alias annotation applies to Tensor, Tensor? or Tensor[], not '{text}'"
        )
    return "Tensor" + suffix, Annotation.parse(m.group(1))


def _type_with_annotation(t: Type, annotation: Annotation | None) -> str:
    s = str(t)
    return s.replace("Tensor", f"Tensor({annotation})", 1) if annotation else s


@dataclass(frozen=True)
class Argument:
    name: str
    type: Type
    default: str | None
    annotation: Annotation | None
    kwarg_only: bool
    is_out: bool

    @property
    def is_write(self) -> bool:
        return self.annotation is not None and self.annotation.is_write

    def __str__(self) -> str:
        s = f"{_type_with_annotation(self.type, self.annotation)} {self.name}"
        return s if self.default is None else f"{s}={self.default}"


@dataclass(frozen=True)
class Return:
    name: str | None
    type: Type
    annotation: Annotation | None

    @property
    def is_write(self) -> bool:
        return self.annotation is not None and self.annotation.is_write

    def __str__(self) -> str:
        s = _type_with_annotation(self.type, self.annotation)
        return s if self.name is None else f"{s} {self.name}"


class SchemaKind(enum.Enum):
    functional = "functional"
    inplace = "inplace"
    out = "out"
    mutable = "mutable"  # mutates a positional argument other than self, not an out= op


@dataclass(frozen=True)
class OperatorName:
    namespace: str  # "" or e.g. "npu"
    name: str  # as written, without namespace: "add", "add_", "__iand__"
    overload: str

    @property
    def inplace(self) -> bool:
        n = self.name
        if n.startswith("__") and n.endswith("__"):
            return n[2:-2].startswith("i") and n[3:-2] in _AUGMENTED
        return n.endswith("_")

    @functools.cached_property
    def full(self) -> str:
        """``name.overload`` without namespace: the key op-plugin uses everywhere."""
        return f"{self.name}.{self.overload}" if self.overload else self.name

    def __str__(self) -> str:
        ns = f"{self.namespace}::" if self.namespace else ""
        return ns + self.full


_AUGMENTED = frozenset(
    {"add", "sub", "mul", "div", "mod", "pow", "lshift", "rshift", "and", "xor", "or"}
)


@dataclass(frozen=True)
class FunctionSchema:
    name: OperatorName
    arguments: tuple[Argument, ...]
    returns: tuple[Return, ...]

    @property
    def out_arguments(self) -> tuple[Argument, ...]:
        return tuple(a for a in self.arguments if a.is_out)

    @property
    def kind(self) -> SchemaKind:
        if self.name.inplace:
            return SchemaKind.inplace
        if any(a.is_out for a in self.arguments):
            return SchemaKind.out
        if any(a.is_write and not a.kwarg_only for a in self.arguments):
            return SchemaKind.mutable
        return SchemaKind.functional

    def argument(self, name: str) -> Argument | None:
        for a in self.arguments:
            if a.name == name:
                return a
        return None

    def __str__(self) -> str:
        parts: list[str] = []
        star = False
        for a in self.arguments:
            if a.kwarg_only and not star:
                parts.append("*")
                star = True
            parts.append(str(a))
        if len(self.returns) == 1:
            rets = str(self.returns[0])
        else:
            rets = "(" + ", ".join(str(r) for r in self.returns) + ")"
        return f"{self.name}({', '.join(parts)}) -> {rets}"


def _parse_name(text: str) -> OperatorName:
    namespace = ""
    if "::" in text:
        namespace, text = text.split("::", 1)
        if not _IDENT.match(namespace):
            raise SchemaError(f"malformed namespace '{namespace}'")
    name, _, overload = text.partition(".")
    if not _IDENT.match(name):
        raise SchemaError(f"malformed operator name '{name}'")
    if "." in text and not _OVERLOAD.match(overload):
        raise SchemaError(f"malformed overload name '{overload}'")
    if name.endswith("_out"):
        raise SchemaError(
            f"operator name '{name}' ends with '_out': name out= variants with an overload, "
            f"e.g. '{name[:-4]}.out'"
        )
    return OperatorName(namespace, name, overload)


@functools.lru_cache(maxsize=16384)
def _parse_argument(text: str, kwarg_only: bool) -> Argument:
    if " " not in text:
        raise SchemaError(f"argument '{text}' needs a type and a name")
    default: str | None = None
    head = text
    if "=" in text:
        head, default = text.split("=", 1)
        if not default or "=" in default:
            raise SchemaError(f"malformed default in argument '{text}'")
    type_text, _, name = head.rpartition(" ")
    if not _IDENT.match(name):
        raise SchemaError(f"malformed argument name '{name}' in '{text}'")
    type_text, annotation = _split_annotation(type_text)
    t = parse_type(type_text)
    is_write = annotation is not None and annotation.is_write
    return Argument(name, t, default, annotation, kwarg_only, kwarg_only and is_write)


def _parse_returns(text: str) -> tuple[Return, ...]:
    if text == "()":
        return ()
    inner = text[1:-1] if text.startswith("(") and text.endswith(")") else text
    returns = []
    for part in inner.split(", "):
        name: str | None = None
        type_text = part
        if " " in part:
            type_text, name = part.rsplit(" ", 1)
            if not _IDENT.match(name):
                raise SchemaError(f"malformed return name '{name}'")
        type_text, annotation = _split_annotation(type_text)
        returns.append(Return(name, parse_type(type_text), annotation))
    return tuple(returns)


def parse_schema(text: str) -> FunctionSchema:
    """Parse and check one schema; raises :class:`SchemaError` saying what is wrong."""
    if not isinstance(text, str):
        raise SchemaError(f"func must be a schema text, got {describe(text)}")
    m = _DECL.match(text)
    if m is None:
        raise SchemaError("expected 'name.overload(args) -> returns'")
    name = _parse_name(m.group("name"))
    arguments: list[Argument] = []
    kwarg_only = False
    seen_out = False
    names: set[str] = set()
    args_text = m.group("args")
    for part in args_text.split(", ") if args_text else ():
        if part == "*":
            if kwarg_only:
                raise SchemaError("'*' can appear only once")
            kwarg_only = True
            continue
        arg = _parse_argument(part, kwarg_only)
        if arg.name in names:
            raise SchemaError(f"argument '{arg.name}' appears twice")
        names.add(arg.name)
        if arg.is_out:
            seen_out = True
        elif seen_out:
            raise SchemaError(f"argument '{arg.name}' follows the out arguments; outs come last")
        if arg.annotation is not None and not is_tensor_like(arg.type):
            raise SchemaError(f"alias annotation on non-Tensor argument '{arg.name}'")
        arguments.append(arg)
    returns = _parse_returns(m.group("returns"))
    schema = FunctionSchema(name, tuple(arguments), returns)
    if str(schema) != text:
        raise SchemaError(f"not in canonical form; expected '{schema}'")
    _check_invariants(schema)
    return schema


def _check_invariants(schema: FunctionSchema) -> None:
    outs = schema.out_arguments
    if outs and schema.name.inplace:
        raise SchemaError("a schema cannot be both in-place (name ending in '_') and out=")
    if outs:
        if len(schema.returns) < len(outs) and any(r.is_write for r in schema.returns):
            raise SchemaError("every out argument needs its matching return")
        for arg, ret in zip(outs, schema.returns):
            if ret.annotation != arg.annotation:
                raise SchemaError(
                    f"out argument '{arg.name}' is annotated ({arg.annotation}) but the "
                    f"matching return is '{ret}'"
                )
    if schema.name.inplace:
        self_arg = schema.argument("self")
        if self_arg is None or not self_arg.is_write:
            raise SchemaError("an in-place schema needs a mutable 'Tensor(a!) self'")
