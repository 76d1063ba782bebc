"""One label's view of the model, and the per-label op_plugin_functions.yaml.

:func:`project` decides, once per label, which entries are live and on which paths, their
C++ signatures and their resolved gen_opapi blocks; every generator reads that view.
:func:`render_projection` writes the view as the YAML contract handed to torchnpugen:
sections with live entries only, ``acl_op``/``op_api``/``gen_opapi`` replaced by
``impl_ns``, pass-through keys unchanged, and ``yaml_source`` naming the authored entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from . import templating, yamlout
from .cpp import CppSignature
from .model import CODE_SECTIONS, SECTIONS, Deprecation, Derivative, Model, OpEntry
from .schema import SchemaKind
from .validate import ResolvedGen

T = TypeVar("T")


def op_family(entry: OpEntry) -> str:
    """The family of an op: its name without overload and without the in-place ``_``
    (``abs``, ``abs.out`` and ``abs_`` are ``abs``; ``__and__`` stays)."""
    n = entry.schema.name.name
    return n[:-1] if n.endswith("_") and not n.startswith("__") else n


@dataclass(frozen=True)
class LiveOp:
    """An entry of a code section that is live in the label."""

    entry: OpEntry
    paths: tuple[str, ...]  # live paths in impl_ns order: ("acl_op",), ("op_api",) or both
    cpp: CppSignature
    internal_format: bool  # internal_format_opapi is live
    gen: ResolvedGen | None  # gen_opapi block that applies, when op_api is live
    inherit_target: CppSignature | None  # in-place structured_inherit: the out= function
    dvm: bool = False  # a lazy_fusion kernel is tried first on the op_api path
    sparse: bool = False  # an op_plugin::<name>_sparse forwarder exists
    deprecation: Deprecation | None = None

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def has_acl_op(self) -> bool:
        return "acl_op" in self.paths

    @property
    def has_op_api(self) -> bool:
        return "op_api" in self.paths

    @property
    def shard_key(self) -> str:
        """Ops of one family (``abs``, ``abs.out``, ``abs_``) share a shard and a header."""
        return op_family(self.entry)


@dataclass(frozen=True)
class LabelView:
    model: Model
    label: str
    sections: tuple[tuple[str, tuple[OpEntry, ...]], ...]  # live entries per section
    ops: tuple[LiveOp, ...]  # code sections with a dense path, sorted by C++ name, schema
    sparse_ops: tuple[LiveOp, ...]  # ops with a live sparse forwarder, same order
    derivatives: tuple[Derivative, ...]

    @property
    def dvm_ops(self) -> tuple[LiveOp, ...]:
        return tuple(op for op in self.ops if op.dvm)

    @property
    def torch(self) -> str:
        return self.model.registry.torch_pin(self.label)

    def memo(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """``compute()`` once per model for ``key``. Most ops render to the same text in
        most labels; a key holds everything the text depends on (the entry and its
        per-label facts, never the label itself), so the labels share the work."""
        cache = self.model.memo
        if key not in cache:
            cache[key] = compute()
        return cache[key]  # type: ignore[no-any-return]


def has_hand_written_interface(e: OpEntry) -> bool:
    """The cat family, as upstream: cat carries structured_delegate in the YAML, but its
    kernels are written by hand in op_plugin and reached through op_plugin::cat like any
    other op's (upstream's generator makes this one exception by name), so it keeps its
    op_plugin:: function."""
    return e.schema.name.name == "cat"


def project(model: Model, label: str) -> LabelView:
    """The live world of ``label`` (a label of ``model.registry``)."""
    bit = 1 << model.registry.index(label)
    live = [e for e in model.entries if e.live_mask & bit]
    sections = tuple((s, tuple(e for e in live if e.section == s)) for s in SECTIONS)
    symint = {e.name for e in live if e.section == "symint"}
    code = [e for e in live if e.section in CODE_SECTIONS]
    # Targets of structured_inherit: the entry of that name with op_api live in the label.
    op_api_live = {e.name: e for e in code if e.op_api is not None and e.op_api.mask & bit}

    def sig(e: OpEntry) -> CppSignature:
        return e.cpp_signature(e.name in symint)

    deprecated = {d.name: d for d in model.deprecations}  # one overload each
    ops: list[LiveOp] = []
    sparse_ops: list[LiveOp] = []
    for e in code:
        if e.structured_delegate is not None and not has_hand_written_interface(e):
            continue  # torchnpugen routes these to the structured out= kernel
        paths = e.paths_in(label)
        sparse = e.has("sparse", label)
        deprecation = deprecated.get(e.name)
        gen = None
        inherit_target = None
        if e.gen_opapi is not None and "op_api" in paths:
            target_name = e.gen_opapi.structured_inherit
            if target_name is None:
                gen = ResolvedGen(e.gen_opapi, e)
            else:
                target = op_api_live[target_name]  # validated for every label
                if e.kind is SchemaKind.inplace:
                    inherit_target = sig(target)
                    gen = ResolvedGen(e.gen_opapi, target)
                else:
                    assert target.gen_opapi is not None
                    gen = ResolvedGen(target.gen_opapi, target)
        op = LiveOp(
            e,
            paths,
            sig(e),
            e.has("internal_format_opapi", label),
            gen,
            inherit_target,
            dvm=e.has("dvm", label),
            sparse=sparse,
            deprecation=deprecation,
        )
        if paths:
            ops.append(op)
        if sparse:
            sparse_ops.append(op)
    ops.sort(key=lambda op: (op.cpp.name, op.entry.func))
    sparse_ops.sort(key=lambda op: (op.cpp.name, op.entry.func))
    derivatives = tuple(d for d in model.derivatives if label in d.version)
    return LabelView(model, label, sections, tuple(ops), tuple(sparse_ops), derivatives)


def projected_entry(e: OpEntry, label: str) -> dict[str, Any]:
    """``impl_ns`` lists the live paths (``acl_op, op_api[, dvm]``, as upstream); range keys
    that hold the label become ``true``; pass-through keys are copied unchanged."""
    impl_ns = [*e.paths_in(label), *(["dvm"] if e.has("dvm", label) else [])]
    out: dict[str, Any] = {"func": e.func, "impl_ns": ", ".join(impl_ns)}
    if e.impl_name:
        out["impl_name"] = e.impl_name
    out.update(e.passthrough)
    for key in ("exposed", "internal_format_opapi", "sparse"):
        if e.has(key, label):
            out[key] = True
    out["yaml_source"] = str(e.loc)
    return out


def _entry_text(e: OpEntry, label: str) -> str:
    return yamlout.dump_items([projected_entry(e, label)], 2)


def render_projection(view: LabelView) -> str:
    """The projected YAML (templates/op_plugin_functions.yaml.j2): every section, with the
    text of each live entry (shared between the labels where the entry projects alike)."""
    label = view.label
    sections = []
    for section, entries in view.sections:
        texts = []
        for e in entries:
            state = (
                e.paths_in(label),
                *(e.has(k, label) for k in ("dvm", "exposed", "internal_format_opapi", "sparse")),
            )
            texts.append(view.memo(("projection", id(e), state), partial(_entry_text, e, label)))
        sections.append((section, texts))
    return templating.render(
        "op_plugin_functions.yaml.j2",
        source=view.model.op_file,
        label=label,
        torch=view.torch,
        sections=sections,
    )
