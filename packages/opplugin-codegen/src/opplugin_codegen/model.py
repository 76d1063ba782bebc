"""The typed, immutable model of the YAML, built once by :mod:`loader` and shared by
every generator."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cpp import CppSignature, signature
from .errors import Location
from .schema import FunctionSchema, SchemaKind
from .versions import VersionRange, VersionRegistry

#: Sections of op_plugin_functions.yaml, in output order.
SECTIONS = ("official", "custom", "symint", "quant", "autograd")
#: Sections whose entries become C++ (symint and autograd are marker lists that repeat
#: entries of official/custom).
CODE_SECTIONS = ("official", "custom", "quant")
#: Implementation paths, in the order ``impl_ns`` lists them.
PATHS = ("acl_op", "op_api")


class FrozenMap(Mapping[str, Any]):
    """A read-only, hashable mapping that keeps insertion order (for pass-through keys)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Any]) -> None:
        self._items = dict(items)

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._items) == dict(other)

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"


def freeze(value: Any) -> Any:
    """YAML value -> immutable equivalent (mappings -> FrozenMap, lists -> tuples)."""
    if isinstance(value, Mapping):
        return FrozenMap({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class OutputSpec:
    """One output block of ``gen_opapi`` (``out: {size, dtype, name}``)."""

    name: str
    size: str | None
    dtype: str | None
    names: tuple[str, ...]  # tensors whose dimension names propagate to this output
    loc: Location
    #: the line of each key of the block (size, dtype, name)
    key_lines: tuple[tuple[str, int], ...] = ()

    def loc_of(self, key: str) -> Location:
        return Location(self.loc.file, dict(self.key_lines).get(key, self.loc.line))


@dataclass(frozen=True)
class CpuScalarOp:
    """One ``cpu_scalar_op`` item: when ``param`` is a 0-dim CPU tensor, call ``exec_api``
    with ``param.item()`` (a Scalar) in its place instead of the main aclnn API."""

    param: str
    exec_api: str
    exec_args: tuple[str, ...] | None  # None: the main exec's arguments
    loc: Location


@dataclass(frozen=True)
class GenOpApi:
    """A ``gen_opapi`` block: generate ``op_api::<name>`` instead of hand-writing it.

    Either ``structured_inherit`` names the entry whose block is reused, or ``exec_api``
    is set. ``exec_args`` is None when ``exec`` names only the aclnn API (the arguments are
    then the C++ signature in order, plus the result names of a functional op).
    """

    loc: Location
    structured_inherit: str | None = None
    exec_api: str | None = None
    exec_args: tuple[str, ...] | None = None
    exec_loc: Location | None = None
    outputs: tuple[OutputSpec, ...] = ()
    new_params: tuple[tuple[str, str], ...] = ()
    #: the line of each new_params entry, in order
    new_param_lines: tuple[int, ...] = ()
    integral_identity_tensor: str | None = None
    #: Tensor arguments copied to the device first when they are 0-dim CPU tensors.
    cpu_scalar_h2d: tuple[str, ...] = ()
    cpu_scalar_op: tuple[CpuScalarOp, ...] = ()


@dataclass(frozen=True)
class OpEntry:
    """One entry of op_plugin_functions.yaml."""

    section: str
    func: str
    schema: FunctionSchema
    loc: Location
    #: The C++ signature (contracts.md section 2), without the ``_symint`` suffix.
    cpp: CppSignature
    acl_op: VersionRange | None = None
    op_api: VersionRange | None = None
    internal_format_opapi: VersionRange | None = None
    exposed: VersionRange | None = None
    sparse: VersionRange | None = None
    dvm: VersionRange | None = None
    gen_opapi: GenOpApi | None = None
    impl_name: str | None = None
    use_const_ref_for_mutable_tensors: bool = False
    structured: bool = False
    structured_delegate: str | None = None
    #: Keys handed to torchnpugen unchanged, in authored order.
    passthrough: FrozenMap = field(default_factory=lambda: FrozenMap({}))
    key_lines: FrozenMap = field(default_factory=lambda: FrozenMap({}), compare=False)

    @functools.cached_property
    def name(self) -> str:
        """``name.overload`` (no namespace)."""
        return self.schema.name.full

    @property
    def macro_name(self) -> str:
        """The name in C macros (``add.out`` -> ``add_out``): ``OP_API_LIVE(add_out)``."""
        return self.name.replace(".", "_")

    @property
    def kind(self) -> SchemaKind:
        return self.schema.kind

    @property
    def dense_mask(self) -> int:
        """Labels in which ``op_plugin::<name>`` exists (acl_op or op_api is live)."""
        return (self.acl_op.mask if self.acl_op else 0) | (self.op_api.mask if self.op_api else 0)

    @property
    def live_mask(self) -> int:
        """Labels in which the entry is declared at all (a dense path or ``sparse``)."""
        return self.dense_mask | (self.sparse.mask if self.sparse else 0)

    def has(self, key: str, label: str) -> bool:
        """Whether the range-valued key ``key`` (acl_op, op_api, dvm, ...) holds ``label``."""
        rng = getattr(self, key)
        return rng is not None and label in rng

    def paths_in(self, label: str) -> tuple[str, ...]:
        """The implementation paths live in ``label``, in ``impl_ns`` order."""
        live = []
        if self.acl_op is not None and label in self.acl_op:
            live.append("acl_op")
        if self.op_api is not None and label in self.op_api:
            live.append("op_api")
        return tuple(live)

    def cpp_signature(self, symint: bool) -> CppSignature:
        """The signature in a label where the op is (``symint``) or is not listed under
        ``symint:``: there SymInt arguments keep their symbolic C++ types and the name gets
        ``_symint``, as upstream's (``impl_name`` overrides the whole name)."""
        if not symint:
            return self.cpp
        name = self.cpp.name if self.impl_name else f"{self.cpp.name}_symint"
        return signature(
            self.schema,
            name,
            const_ref_for_mutable=bool(self.passthrough.get("use_const_ref_for_mutable_tensors")),
            symint=True,
        )

    def line_of(self, key: str) -> int:
        return int(self.key_lines.get(key, self.loc.line))

    def loc_of(self, key: str) -> Location:
        return Location(self.loc.file, self.line_of(key))


@dataclass(frozen=True)
class Derivative:
    """One ``backward`` entry of derivatives.yaml; ``fields`` excludes ``version``."""

    name: str
    version: VersionRange
    fields: FrozenMap
    loc: Location


@dataclass(frozen=True)
class Deprecation:
    """One item of deprecated.yaml: ``name`` is one overload, ``op`` or ``op.overload``."""

    name: str
    replace: str | None
    loc: Location

    def matches(self, entry: OpEntry) -> bool:
        return entry.name == self.name

    def message(self, entry: OpEntry) -> str:
        what = f"torch_npu.{entry.schema.name.name}" if entry.section == "custom" else entry.name
        text = f"{what} is deprecated on the npu backend and will be removed in a future release."
        return text + (f" Use {self.replace} instead." if self.replace else "")


@dataclass(frozen=True)
class Model:
    registry: VersionRegistry
    op_file: str  # display path of op_plugin_functions.yaml
    entries: tuple[OpEntry, ...]  # every section, in file order
    derivatives_file: str
    derivatives: tuple[Derivative, ...]
    deprecations: tuple[Deprecation, ...] = ()
    #: Rendered text shared by the labels (see LabelView.memo); not part of the value.
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def section(self, name: str) -> tuple[OpEntry, ...]:
        return tuple(e for e in self.entries if e.section == name)
