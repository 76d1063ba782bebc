"""Checks across entries, for every label at once (version sets are bit masks, so each
check is one pass over the entries, not one per label).

* one declaration per ``name.overload`` per label, no two C++ signatures alike;
* ``symint``/``autograd`` entries repeat an official/custom declaration;
* no ``Dimname`` op in a label whose torch has no named tensors;
* no two op names alike in C macros (``OP_API_LIVE(add_out)``);
* ``gen_opapi`` blocks fit their schema, and ``structured_inherit`` targets exist with
  op_api wherever the inheritor has it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from . import expr_helpers
from .errors import Diagnostics, Location, did_you_mean
from .model import CODE_SECTIONS, GenOpApi, OpEntry
from .schema import FunctionSchema, ListType, SchemaKind, contains_base
from .versions import VersionRegistry

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def describe_labels(registry: VersionRegistry, mask: int) -> str:
    """``v2.1 ... v2.4, v2.9`` for a mask: runs of three or more are shortened."""
    labels = registry.labels
    parts: list[str] = []
    i = 0
    while i < len(labels):
        if not mask >> i & 1:
            i += 1
            continue
        j = i
        while j + 1 < len(labels) and mask >> (j + 1) & 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{labels[i]} ... {labels[j]}")
        else:
            parts.extend(labels[i : j + 1])
        i = j + 1
    return ", ".join(parts)


@dataclass(frozen=True)
class ResolvedGen:
    """A gen_opapi block as it applies to one entry (inheritance resolved)."""

    block: GenOpApi
    source: OpEntry  # entry that holds the block (the entry itself or its inherit target)


def validate(entries: Sequence[OpEntry], registry: VersionRegistry, diags: Diagnostics) -> None:
    code = [e for e in entries if e.section in CODE_SECTIONS]
    by_name: dict[str, list[OpEntry]] = defaultdict(list)
    for e in code:
        by_name[e.name].append(e)
    symint_names = {e.name for e in entries if e.section == "symint"}

    _check_duplicates(by_name, registry, diags)
    _check_markers(entries, by_name, diags)
    _check_named_tensors(code, registry, diags)
    _check_cpp_collisions(code, symint_names, registry, diags)
    _check_macro_names(by_name, diags)
    for e in code:
        _check_dvm(e, registry, diags)
        if e.gen_opapi is not None:
            _check_gen_opapi(e, by_name, registry, diags)
        if e.structured_delegate is not None and e.gen_opapi is not None:
            diags.error(
                e.loc_of("gen_opapi"),
                e.name,
                "gen_opapi cannot be combined with structured_delegate",
            )


def _check_duplicates(
    by_name: dict[str, list[OpEntry]], registry: VersionRegistry, diags: Diagnostics
) -> None:
    for name, group in by_name.items():
        for i, later in enumerate(group):
            for earlier in group[:i]:
                overlap = later.live_mask & earlier.live_mask
                if overlap:
                    diags.error(
                        later.loc,
                        name,
                        f"declared twice for {describe_labels(registry, overlap)} "
                        f"(also at {earlier.loc}); give the entries disjoint version ranges",
                    )


def _check_markers(
    entries: Iterable[OpEntry], by_name: dict[str, list[OpEntry]], diags: Diagnostics
) -> None:
    for e in entries:
        if e.section in ("symint", "autograd"):
            matches = [m for m in by_name.get(e.name, ()) if m.section in ("official", "custom")]
            if not matches:
                diags.error(
                    e.loc,
                    e.name,
                    f"'{e.section}' entries mark an op declared in "
                    "official or custom, and there is none of this name",
                )
            elif all(m.func != e.func for m in matches):
                diags.error(
                    e.loc, e.name, f"schema differs from the declaration at {matches[0].loc}"
                )


def _check_named_tensors(
    code: Iterable[OpEntry], registry: VersionRegistry, diags: Diagnostics
) -> None:
    without = 0
    for i, label in enumerate(registry.labels):
        if not registry.has_named_tensors(label):
            without |= 1 << i
    if not without:
        return
    for e in code:
        bad = e.live_mask & without
        if bad and any(contains_base(a.type, "Dimname") for a in e.schema.arguments):
            first = registry.labels_of(bad)[0]
            diags.error(
                e.loc,
                e.name,
                f"uses Dimname, but torch {registry.torch_pin(first)} ({first}) and later have "
                f"no named tensors; end its ranges before {first} "
                f"(live in {describe_labels(registry, bad)})",
            )


def _check_cpp_collisions(
    code: Sequence[OpEntry],
    symint_names: set[str],
    registry: VersionRegistry,
    diags: Diagnostics,
) -> None:
    by_key: dict[tuple[str, ...], list[OpEntry]] = defaultdict(list)
    for e in code:
        by_key[e.cpp_signature(e.name in symint_names).type_key].append(e)
    for key, group in by_key.items():
        for i, later in enumerate(group):
            for earlier in group[:i]:
                overlap = later.live_mask & earlier.live_mask
                if overlap and later.name != earlier.name:
                    diags.error(
                        later.loc,
                        later.name,
                        f"its C++ signature {key[0]}({', '.join(key[1:])}) is the same as "
                        f"{earlier.name}'s (at {earlier.loc}) in "
                        f"{describe_labels(registry, overlap)}; set impl_name on one of them",
                    )


def _check_macro_names(by_name: dict[str, list[OpEntry]], diags: Diagnostics) -> None:
    """``foo.bar`` and ``foo_bar`` would share ``OP_API_LIVE_foo_bar``."""
    first: dict[str, OpEntry] = {}
    for name, group in by_name.items():
        e = group[0]
        other = first.setdefault(e.macro_name, e)
        if other is not e:
            diags.error(
                e.loc,
                name,
                f"its name in C macros, {e.macro_name}, is also {other.name}'s (at {other.loc}); "
                "rename one of them",
            )


def _check_dvm(e: OpEntry, registry: VersionRegistry, diags: Diagnostics) -> None:
    """The lazy_fusion kernel is tried first inside the op_api branch, so it needs op_api."""
    if e.dvm is None:
        return
    missing = e.dvm.mask & ~(e.op_api.mask if e.op_api else 0)
    if missing:
        diags.error(
            e.loc_of("dvm"),
            e.name,
            f"dvm: the lazy_fusion kernel is tried inside the op_api path, which is absent "
            f"in {describe_labels(registry, missing)}",
        )


def _check_gen_opapi(
    e: OpEntry,
    by_name: dict[str, list[OpEntry]],
    registry: VersionRegistry,
    diags: Diagnostics,
) -> None:
    gen = e.gen_opapi
    assert gen is not None
    if e.op_api is None:
        diags.error(
            gen.loc,
            e.name,
            "gen_opapi generates the op_api kernel, but the entry has "
            "no op_api range; add one (e.g. op_api: all_version)",
        )
        return
    if e.kind is SchemaKind.mutable:
        diags.error(
            gen.loc,
            e.name,
            "gen_opapi supports functional, out= and in-place schemas; "
            "this one mutates a positional argument",
        )
        return
    if gen.structured_inherit is None:
        _check_block(e, ResolvedGen(gen, e), diags)
    else:
        _check_inherit(e, gen.structured_inherit, by_name, registry, diags)


def _check_inherit(
    e: OpEntry,
    target_name: str,
    by_name: dict[str, list[OpEntry]],
    registry: VersionRegistry,
    diags: Diagnostics,
) -> None:
    gen = e.gen_opapi
    assert gen is not None and e.op_api is not None
    loc = e.loc_of("gen_opapi")
    candidates = by_name.get(target_name, [])
    if not candidates:
        names = list(by_name)
        diags.error(
            loc,
            e.name,
            f"structured_inherit: no op named '{target_name}'{did_you_mean(target_name, names)}",
        )
        return
    covered = 0
    inplace = e.kind is SchemaKind.inplace
    for t in candidates:
        if t.op_api is None or not (t.op_api.mask & e.op_api.mask):
            continue
        if inplace:
            if (
                t.kind is not SchemaKind.out
                or len(t.schema.out_arguments) != 1
                or len(t.schema.arguments) != len(e.schema.arguments) + 1
            ):
                diags.error(
                    loc,
                    e.name,
                    f"structured_inherit: an in-place op delegates to an "
                    f"out= op with its arguments plus one out tensor; "
                    f"{target_name} (at {t.loc}) is not one",
                )
                return
            covered |= t.op_api.mask
            continue
        tgen = t.gen_opapi
        if tgen is None or tgen.structured_inherit is not None:
            diags.error(
                loc,
                e.name,
                f"structured_inherit: {target_name} (at {t.loc}) has no "
                "gen_opapi block of its own to inherit",
            )
            return
        covered |= t.op_api.mask
        _check_block(e, ResolvedGen(tgen, t), diags)
    missing = e.op_api.mask & ~covered
    if missing:
        diags.error(
            loc,
            e.name,
            f"structured_inherit: {target_name} has no op_api in "
            f"{describe_labels(registry, missing)}, where {e.name} has",
        )


def tensor_ref(schema: FunctionSchema, text: str) -> str | None:
    """If ``text`` names a tensor argument (``x``, or ``xs[0]`` for a Tensor[]), the C++
    expression for that tensor; else None (the text is a C++ expression)."""
    m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)(\[0\])?$", text)
    if m is None:
        return None
    arg = schema.argument(m.group(1))
    if arg is None:
        return None
    if m.group(2):
        return text if isinstance(arg.type, ListType) and str(arg.type.elem) == "Tensor" else None
    return text if str(arg.type) == "Tensor" else None


def _check_block(e: OpEntry, resolved: ResolvedGen, diags: Diagnostics) -> None:
    """Check a (possibly inherited) gen_opapi block against ``e``'s own schema."""
    block = resolved.block
    via = (
        ""
        if resolved.source is e
        else f" (block inherited from {resolved.source.name} at "
        f"{resolved.source.loc_of('gen_opapi')})"
    )
    schema = e.schema
    kind = e.kind
    loc = e.gen_opapi.loc if e.gen_opapi else block.loc

    def err(message: str, at: Location | None = None) -> None:
        diags.error(at if resolved.source is e and at is not None else loc, e.name, message + via)

    arg_names = [a.name for a in schema.arguments]
    out_names = [a.name for a in schema.out_arguments]
    output_names = [o.name for o in block.outputs]
    param_names = [p for p, _ in block.new_params]

    if e.structured:
        # The out= kernel of a structured group, or an in-place member with its own kernel:
        # either way the meta function has checked (and for out=, sized) the result first.
        if kind not in (SchemaKind.out, SchemaKind.inplace):
            err("structured: true applies to out= and in-place schemas")
        if (
            block.outputs
            or block.integral_identity_tensor
            or block.cpu_scalar_h2d
            or block.cpu_scalar_op
        ):
            err(
                "with structured: true only exec and new_params are allowed (the structured "
                "meta function allocates and checks the outputs)"
            )
    if kind is SchemaKind.out:
        for o in block.outputs:
            if o.name not in out_names:
                err(
                    f"gen_opapi: '{o.name}' is not an out argument of {e.name} (outs: "
                    f"{', '.join(out_names)}){did_you_mean(o.name, out_names)}",
                    o.loc,
                )
    elif kind is SchemaKind.functional:
        # `-> ()` is allowed, as upstream: a void function that runs its exec and returns.
        rets = schema.returns
        if any(str(r.type) != "Tensor" for r in rets):
            err(
                "gen_opapi: a functional op must return Tensor, a tuple of Tensors "
                "or nothing (-> ())"
            )
        elif len(block.outputs) != len(rets):
            err(
                f"gen_opapi: {e.name} returns {len(rets)} tensor(s) but the block describes "
                f"{len(block.outputs)} output(s)"
            )
        for o in block.outputs:
            if o.name in arg_names:
                err(f"gen_opapi: output '{o.name}' has the name of an argument", o.loc)
            if o.size is None or o.dtype is None:
                err(f"gen_opapi: output '{o.name}' needs both size and dtype", o.loc)
        if rets and not any(str(a.type) in ("Tensor", "Tensor[]") for a in schema.arguments):
            err("gen_opapi: a functional op needs a Tensor argument to take tensor options from")
    elif kind is SchemaKind.inplace:
        for o in block.outputs:
            if o.size is not None or o.dtype is not None:
                err(
                    f"gen_opapi: '{o.name}': an in-place op writes self; size and dtype have no "
                    "meaning here (only name)",
                    o.loc,
                )

    for o in block.outputs:
        for n in o.names:
            arg = schema.argument(n)
            if arg is None or str(arg.type) != "Tensor":
                err(
                    f"gen_opapi: {o.name}.name: '{n}' is not a Tensor argument"
                    f"{did_you_mean(n, arg_names)}",
                    o.loc,
                )
        if len(o.names) > 2:
            err(f"gen_opapi: {o.name}.name: at most two tensors can merge their names", o.loc)

    for p in param_names:
        if p in arg_names or p in output_names:
            err(f"gen_opapi: new_params '{p}' has the name of an argument or output")

    allowed = [*arg_names, *param_names]
    if kind is SchemaKind.functional:
        allowed += output_names
    if block.exec_args is not None:
        for a in block.exec_args:
            if a not in allowed:
                err(
                    f"gen_opapi: exec argument '{a}' is not an argument, output or new_params "
                    f"name of {e.name}{did_you_mean(a, allowed)}",
                    block.exec_loc,
                )
    input_tensors = [a.name for a in schema.arguments if not a.is_out and str(a.type) == "Tensor"]
    for name in block.cpu_scalar_h2d:
        if name not in input_tensors:
            err(
                f"gen_opapi: cpu_scalar_h2d: '{name}' is not a Tensor input of {e.name}"
                f"{did_you_mean(name, input_tensors)}"
            )
    for scalar_op in block.cpu_scalar_op:
        if scalar_op.param not in input_tensors:
            err(
                f"gen_opapi: cpu_scalar_op: '{scalar_op.param}' is not a Tensor input of "
                f"{e.name}{did_you_mean(scalar_op.param, input_tensors)}",
                scalar_op.loc,
            )
        if (
            scalar_op.exec_args is None
            and block.exec_args is not None
            and scalar_op.param not in block.exec_args
        ):
            err(
                f"gen_opapi: cpu_scalar_op: '{scalar_op.param}' is not an argument of exec, so "
                f"'exec: {scalar_op.exec_api}' would not pass the scalar; list its arguments",
                scalar_op.loc,
            )
        for a in scalar_op.exec_args or ():
            if a not in allowed:
                err(
                    f"gen_opapi: cpu_scalar_op: exec argument '{a}' is not an argument, "
                    f"output or new_params name of {e.name}{did_you_mean(a, allowed)}",
                    scalar_op.loc,
                )
    used = set(block.exec_args or ())
    for scalar_op in block.cpu_scalar_op:
        used.update(scalar_op.exec_args or ())
    for _, expr in block.new_params:
        used.update(_TOKEN.findall(expr))
    for o in block.outputs:
        for text in (o.size, o.dtype):
            if text:
                used.update(_TOKEN.findall(text))
    for p in param_names:
        if p not in used:
            err(f"gen_opapi: new_params '{p}' is never used (not in exec, size or dtype)")
    if resolved.source is e:  # an inherited block is checked where it is written
        _check_helpers(block, err)
    identity = block.integral_identity_tensor
    if identity is not None:
        if identity not in input_tensors:
            err(
                f"gen_opapi: integral_identity_tensor '{identity}' is not a Tensor input"
                f"{did_you_mean(identity, input_tensors)}"
            )
        results = len(schema.out_arguments) if kind is SchemaKind.out else len(schema.returns)
        if results != 1:
            err(
                "gen_opapi: integral_identity_tensor copies its tensor to the one result; "
                f"{e.name} has {results}"
            )


def _check_helpers(block: GenOpApi, err: Callable[..., None]) -> None:
    """Every helper a size/dtype/new_params expression calls exists in the runtime."""
    lines = block.new_param_lines or (block.loc.line,) * len(block.new_params)
    for (name, expr), line in zip(block.new_params, lines):
        for problem in expr_helpers.problems(expr):
            where = Location(block.loc.file, line)
            err(expr_helpers.describe(problem, f"new_params '{name}'"), where)
    for o in block.outputs:
        for key, text in (("size", o.size), ("dtype", o.dtype)):
            for problem in expr_helpers.problems(text or ""):
                err(expr_helpers.describe(problem, f"{o.name}.{key}"), o.loc_of(key))
