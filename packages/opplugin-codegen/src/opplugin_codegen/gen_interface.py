"""The op_plugin interface layer (contracts.md sections 1-3).

``op_plugin/ops/<family>.h`` declares, for the live ops of one family (``add``, ``add_``,
``add.out``), ``op_plugin::<name>`` with C++ defaults and ``op_api::`` / ``acl_op::`` for
the ops live on that path. Kernels and generated sources include the headers of the
families they use, so that a change to one op recompiles only what uses that op.
``OpInterface.h``, ``OpApiInterface.h`` and ``AclOpsInterface.h`` include every family's
header (for extensions and upstream-style code). ``OpInterface_<k>.cpp`` defines each
``op_plugin::<name>`` as the run-time choice between the two paths.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from . import templating
from .cpp import CppSignature, without_ambiguous_defaults
from .cppfile import (
    c_string,
    c_string_block,
    function_head,
    join_conditions,
    ordered_includes,
    shard_of,
)
from .model import CODE_SECTIONS
from .projection import LabelView, LiveOp, op_family
from .schema import is_tensor_like

OP_INTERFACE_H = "op_plugin/OpInterface.h"
OP_API_INTERFACE_H = "op_plugin/OpApiInterface.h"
ACL_OPS_INTERFACE_H = "op_plugin/AclOpsInterface.h"
SPARSE_OPS_INTERFACE_H = "op_plugin/SparseOpsInterface.h"
DVM_OPS_INTERFACE_H = "op_plugin/DvmOpsInterface.h"
LAZY_FUSION_H = "npu/dispatch/LazyFusion.h"

# The dual-path predicates (npu/dispatch/PathDecision.h): each reports its result to
# the thread's path observers (torch.npu.explain, expect_paths) and returns it.
_PATH_DECISION_H = '"npu/dispatch/PathDecision.h"'
_FORCE_ACLNN = "at_npu::native::NpuDecideForceAclnn"
_JIT_DISABLED = "at_npu::native::NpuDecideJitDisabled"
_BASE_FORMAT = "at_npu::native::NpuDecideBaseFormat"
_ACLNN_ONLY = "at_npu::native::NpuDecideAclnnOnly"
_LAZY_FUSION_ENABLED = "lazy_fusion::IsEnabled()"


OPS_HEADER_DIR = "op_plugin/ops"


def family_header(family: str) -> str:
    """The header that declares the ops of one family: ``op_plugin/ops/add.h``."""
    return f"{OPS_HEADER_DIR}/{family}.h"


def live_macro(path: str, macro_name: str) -> str:
    """The macro a family header sets to 1 when the op has its ``path`` (op_api, acl_op)
    kernel in the label and to 0 when not: ``OP_API_LIVE_add_out``. Hand-written kernels
    test it as ``#if OP_API_LIVE(add_out)`` (``npu/version.h``) instead of restating the
    YAML range in ``VERSION_BETWEEN``."""
    return f"{path.upper()}_LIVE_{macro_name}"


LIVE_PATHS = ("op_api", "acl_op")


def _family_paths(view: LabelView) -> dict[str, dict[str, tuple[str, ...]]]:
    """Per family, per op name declared in it (in any label): the paths it has in some label."""

    def compute() -> dict[str, dict[str, tuple[str, ...]]]:
        paths: dict[str, dict[str, set[str]]] = {}
        for e in view.model.entries:
            if e.section in CODE_SECTIONS:
                held = paths.setdefault(op_family(e), {}).setdefault(e.macro_name, set())
                held.update(path for path in LIVE_PATHS if getattr(e, path) is not None)
        return {
            family: {
                name: tuple(p for p in LIVE_PATHS if p in held)
                for name, held in sorted(ops.items())
            }
            for family, ops in paths.items()
        }

    return view.memo(("family paths",), compute)


def family_include(op: LiveOp) -> str:
    return f'"{family_header(op.shard_key)}"'


def shard_name(k: int) -> str:
    return f"op_plugin/OpInterface_{k}.cpp"


def sparse_signature(op: LiveOp) -> CppSignature:
    """``<name>_sparse``: the forwarder in op_plugin:: and its target in sparse::."""
    return replace(op.cpp, name=f"{op.cpp.name}_sparse")


def _declaration(sig: CppSignature, name: str, with_defaults: bool) -> str:
    return f"{function_head(sig, with_defaults=with_defaults)};  // {name}\n"


def _declarations(
    view: LabelView, decls: list[tuple[CppSignature, str]], *, with_defaults: bool
) -> str:
    return "".join(
        view.memo(
            ("declaration", sig, with_defaults, name),
            partial(_declaration, sig, name, with_defaults),
        )
        for sig, name in decls
    )


def _kernel_header(view: LabelView, template: str, decls: list[tuple[CppSignature, str]]) -> str:
    """A header of kernels the runtime defines (sparse::, lazy_fusion::), no C++ defaults."""
    includes = {"<ATen/core/Tensor.h>"}
    for sig, _ in decls:
        includes |= sig.headers
    return templating.render(
        template,
        source=view.model.op_file,
        label=view.label,
        torch=view.torch,
        includes=ordered_includes(includes),
        declarations=_declarations(view, decls, with_defaults=False),
    )


def _families(view: LabelView, ops: tuple[LiveOp, ...] | None = None) -> dict[str, list[LiveOp]]:
    """Every op family the YAML declares (in any label), with its `ops` (default: the ops
    with a dense path) live in this label."""
    declared = {op_family(e) for e in view.model.entries if e.section in CODE_SECTIONS}
    families: dict[str, list[LiveOp]] = {family: [] for family in sorted(declared)}
    for op in view.ops if ops is None else ops:
        families[op.shard_key].append(op)
    return families


def render_family_header(
    view: LabelView, family: str, ops: list[LiveOp], sparse: list[LiveOp]
) -> str:
    """``op_plugin/ops/<family>.h``: the family's op_plugin::, op_api:: and acl_op:: declarations
    (and the op_plugin::<name>_sparse forwarders of its ops with a live sparse kernel). Its text
    does not depend on the label: labels whose declarations of the family are the same text
    share one rendering."""
    unambiguous = without_ambiguous_defaults([op.cpp for op in ops])
    op_plugin = [(sig, op.name) for sig, op in zip(unambiguous, ops)]
    op_plugin += [(sparse_signature(op), f"{op.name} (sparse)") for op in sparse]
    includes = {"<ATen/core/Tensor.h>"}
    for sig, _ in op_plugin:
        includes |= sig.headers | sig.default_headers()
    blocks = (
        ("op_plugin", op_plugin, True),
        ("op_api", [(op.cpp, op.name) for op in ops if op.has_op_api], False),
        ("acl_op", [(op.cpp, op.name) for op in ops if op.has_acl_op], False),
    )
    namespaces = tuple(
        (namespace, _declarations(view, decls, with_defaults=with_defaults))
        for namespace, decls, with_defaults in blocks
        if decls
    )
    ordered = tuple(ordered_includes(includes))
    live = {(op.entry.macro_name, path) for op in ops for path in op.paths}
    liveness = tuple(
        (live_macro(path, name), int((name, path) in live))
        for name, paths in _family_paths(view).get(family, {}).items()
        for path in paths
    )
    return view.memo(
        ("family header", family, ordered, namespaces, liveness),
        lambda: templating.render(
            "family.h.j2",
            source=view.model.op_file,
            family=family,
            includes=ordered,
            namespaces=namespaces,
            liveness=liveness,
        ),
    )


def _umbrella(view: LabelView, template: str, families: dict[str, list[LiveOp]]) -> str:
    includes = [f'"{family_header(family)}"' for family, ops in families.items() if ops]
    return templating.render(
        template,
        source=view.model.op_file,
        label=view.label,
        torch=view.torch,
        ops_dir=OPS_HEADER_DIR,
        includes=ordered_includes(includes),
    )


def render_op_interface_h(view: LabelView) -> str:
    families = _families(view)
    for op in view.sparse_ops:
        families[op.shard_key].append(op)
    return _umbrella(view, "OpInterface.h.j2", families)


def render_op_api_interface_h(view: LabelView) -> str:
    families = {f: ops for f, ops in _families(view).items() if any(op.has_op_api for op in ops)}
    return _umbrella(view, "OpApiInterface.h.j2", families)


def render_acl_ops_interface_h(view: LabelView) -> str:
    families = {f: ops for f, ops in _families(view).items() if any(op.has_acl_op for op in ops)}
    return _umbrella(view, "AclOpsInterface.h.j2", families)


def render_sparse_ops_interface_h(view: LabelView) -> str:
    decls = [(sparse_signature(op), op.name) for op in view.sparse_ops]
    return _kernel_header(view, "SparseOpsInterface.h.j2", decls)


def render_dvm_ops_interface_h(view: LabelView) -> str:
    return _kernel_header(view, "DvmOpsInterface.h.j2", [(op.cpp, op.name) for op in view.dvm_ops])


def render_headers(view: LabelView) -> dict[str, str]:
    """Every declaration header of the label; the sparse and DVM ones only when used."""
    files = {
        OP_INTERFACE_H: render_op_interface_h(view),
        OP_API_INTERFACE_H: render_op_api_interface_h(view),
        ACL_OPS_INTERFACE_H: render_acl_ops_interface_h(view),
    }
    sparse = _families(view, view.sparse_ops)
    for family, ops in _families(view).items():
        files[family_header(family)] = render_family_header(view, family, ops, sparse[family])
    if view.sparse_ops:
        files[SPARSE_OPS_INTERFACE_H] = render_sparse_ops_interface_h(view)
    if view.dvm_ops:
        files[DVM_OPS_INTERFACE_H] = render_dvm_ops_interface_h(view)
    return files


_COMMENT_KEYS = ("acl_op", "op_api", "internal_format_opapi", "dvm")


def ranges_comment(op: LiveOp, extra: str = "", keys: tuple[str, ...] = _COMMENT_KEYS) -> str:
    """``add.Tensor  acl_op: all_version  op_api: all_version  (yaml/op_plugin_functions.yaml)``.

    The file without the line: a line added above an entry must not rewrite (and so recompile)
    every generated file below it."""
    e = op.entry
    parts = [e.name]
    for key in keys:
        rng = getattr(e, key)
        if rng is not None:
            parts.append(f"{key}: {rng}")
    if extra:
        parts.append(extra)
    return "  ".join(parts) + f"  ({e.loc.file})"


def _base_format_checks(op: LiveOp) -> list[str]:
    quoted = c_string(op.name)
    return [
        f'{_BASE_FORMAT}({quoted}, "{p.name}", {p.name})'
        for p, a in zip(op.cpp.params, op.entry.schema.arguments)
        if is_tensor_like(a.type)
    ]


def _op_api_tail(op: LiveOp, indent: str) -> list[str]:
    """The op_api path: the DVM kernel first when it is live and enabled, then op_api."""
    quoted = c_string(op.name)
    args = op.cpp.call_args()
    lines = []
    if op.dvm:
        lines += [
            f"if ({_LAZY_FUSION_ENABLED}) {{",
            f"  NPU_PATH_TAKEN({quoted}, Dvm);",
            f"  return lazy_fusion::{op.cpp.name}({args});",
            "}",
        ]
    lines += [f"NPU_PATH_TAKEN({quoted}, OpApi);", f"return op_api::{op.cpp.name}({args});"]
    return [indent + line for line in lines]


def dispatch_definition(op: LiveOp, label: str) -> tuple[str, set[str]]:
    """``op_plugin::<name>``: the dual-path choice of contracts.md section 3."""
    name = op.name
    quoted = c_string(name)
    args = op.cpp.call_args()
    includes = {'"npu/dispatch/PathLedger.h"'}
    body: list[str] = []
    if op.deprecation is not None:
        includes.add("<c10/util/Exception.h>")
        message = op.deprecation.message(op.entry)
        body.append(f"  TORCH_WARN_ONCE({c_string_block(message, 18)});")
    if op.dvm:
        includes |= {f'"{LAZY_FUSION_H}"', f'"{DVM_OPS_INTERFACE_H}"'}
    if op.has_op_api and op.has_acl_op:
        includes.add(_PATH_DECISION_H)
        formats = [] if op.internal_format else _base_format_checks(op)
        if formats:
            either = f"({_FORCE_ACLNN}({quoted}) ||\n       {_JIT_DISABLED}({quoted}))"
            conditions = [either, *formats]
        else:
            conditions = [f"{_FORCE_ACLNN}({quoted}) ||\n      {_JIT_DISABLED}({quoted})"]
        needs = "jit compile disabled (or the op in FORCE_ACLNN_OP_LIST)"
        if formats:
            needs += " and base-format inputs"
        aclnn_only = (
            f"{name}: acl_op kernels cannot run on this aclnn-only device, and the "
            f"op_api path needs {needs}"
        )
        body += [
            f"  if ({join_conditions(conditions, 6)}) {{",
            *_op_api_tail(op, "    "),
            "  }",
            f"  if ({_ACLNN_ONLY}({quoted})) {{",
            "    TORCH_CHECK(false,",
            f"                {c_string_block(aclnn_only, 16)});",
            "  }",
            f"  NPU_PATH_TAKEN({quoted}, AclOp);",
            f"  return acl_op::{op.cpp.name}({args});",
        ]
    elif op.has_op_api:
        formats = [] if op.internal_format else _base_format_checks(op)
        if formats:
            includes.add(_PATH_DECISION_H)
            message = (
                f"{name}: the op_api kernel accepts only base-format (ND, NCHW, NHWC, "
                f"NCDHW) tensors, and there is no acl_op kernel in {label}"
            )
            body += [
                f"  TORCH_CHECK({join_conditions(formats, 14)},",
                f"              {c_string_block(message, 14)});",
            ]
        body += _op_api_tail(op, "  ")
    else:
        includes.add(_PATH_DECISION_H)
        message = (
            f"{name} has no op_api (aclnn) kernel in {label}, and this device runs only "
            "aclnn kernels"
        )
        body += [
            f"  if ({_ACLNN_ONLY}({quoted})) {{",
            "    TORCH_CHECK(false,",
            f"                {c_string_block(message, 16)});",
            "  }",
            f"  NPU_PATH_TAKEN({quoted}, AclOp);",
            f"  return acl_op::{op.cpp.name}({args});",
        ]
    includes.add(family_include(op))
    text = f"// {ranges_comment(op)}\n{function_head(op.cpp)} {{\n" + "\n".join(body) + "\n}\n"
    return text, includes


def sparse_definition(op: LiveOp) -> tuple[str, set[str]]:
    """``op_plugin::<name>_sparse``: forwards to ``sparse::<name>_sparse``, no checks."""
    sig = sparse_signature(op)
    text = (
        f"// {ranges_comment(op, keys=('sparse',))}\n{function_head(sig)} {{\n"
        f"  return sparse::{sig.name}({sig.call_args()});\n}}\n"
    )
    return text, {f'"{SPARSE_OPS_INTERFACE_H}"', family_include(op)}


#: Stands for the label in memoised text (see LabelView.memo); replaced after lookup.
_LABEL_SLOT = "@LABEL@"


def _cached_dispatch(view: LabelView, op: LiveOp) -> tuple[str, set[str]]:
    key = ("dispatch", id(op.entry), op.paths, op.cpp.name, op.internal_format, op.dvm)
    text, includes = view.memo(key, lambda: dispatch_definition(op, _LABEL_SLOT))
    return text.replace(_LABEL_SLOT, view.label), includes


def render_dispatch_shards(view: LabelView, shards: int) -> dict[str, str]:
    per_shard: list[list[str]] = [[] for _ in range(shards)]
    includes: list[set[str]] = [set() for _ in range(shards)]
    definitions = [(op, _cached_dispatch(view, op)) for op in view.ops]
    definitions += [
        (op, view.memo(("sparse", id(op.entry), op.cpp.name), partial(sparse_definition, op)))
        for op in view.sparse_ops
    ]
    for op, (text, inc) in definitions:
        k = shard_of(op.shard_key, shards)
        per_shard[k].append(text)
        includes[k] |= inc
    return {
        shard_name(k): templating.render(
            "OpInterface.cpp.j2",
            source=view.model.op_file,
            label=view.label,
            torch=view.torch,
            k=k,
            shards=shards,
            includes=ordered_includes(includes[k]),
            definitions=per_shard[k],
        )
        for k in range(shards)
    }
