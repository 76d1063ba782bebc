"""The acl_op operator types of libascendcl.so, declared once as data, and the registry built from them.

Each file ``abi/aclop/<family>.decl`` declares one family of op types. From those files this
module writes (``python abi/aclop_abi.py --out DIR``) ``DIR/aclop/declared_ops.h``, which
src/aclop/op_registry.cpp includes: per op type a struct of its attributes, the declaration
of the function ``Run<Type>(OpContext&, const <Type>Attrs&)`` that src/aclop/ops/ defines, a
checking function that enforces the declared dtypes and reads the declared attributes (with
their defaults) before calling it, and the table of OpDefs the executor looks types up in.
A declared type whose Run function nothing defines fails the link of libascendcl.so.

The format, one block per op type::

    # Comment lines before the first block document the family.

    # Comment lines right above a block document the op type.
    Axpy
      input x1: float float16 bfloat16 double int32 int64
      input x2: like x1
      input bias?: like x1             # '?': optional (only trailing inputs)
      ...
    ConcatD
      input x*: all                    # '*': dynamic, one or more tensors x0, x1, ... of one dtype
                                       #      (the op's last input; no optional inputs beside it)
      output y: like x1
      attr alpha: float                # required
      attr transpose: bool = false     # optional, with its default
      attr src_format: string?         # optional, without a default
      formats: elementwise
    NonZero
      ...
      output_shape: data-dependent     # the op reports its outputs' real shapes (aclopCompileAndExecuteV2)

An operand's dtypes are a list of ``float float16 bfloat16 double int8 uint8 int16 int32 int64
bool`` (or the groups ``numeric``, every one but bool, and ``all``), or ``like <operand>``: the
dtype of an operand declared before it. Attribute types: ``bool``, ``int``, ``float``, ``string``,
``ints`` (a list of ints; default ``[]`` or ``[1, 2]``), ``floats`` (a list of floats; default ``[]``
or ``[0.5, 2]``), ``dtype`` (an aclDataType; default ``int64``).
``formats``: ``base`` (base formats only), ``elementwise`` (any format shared by all operands)
or ``own`` (the op checks formats itself). ``output_shape: data-dependent`` marks an op whose
outputs are given at their largest size and shrink to what the data gives: it runs only through
aclopCompileAndExecuteV2, which waits for it and writes the real shapes into the output
descriptors. Only the standard library is used: the build runs
this before anything is installed.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from declarations import SUFFIX, AbiError, cpp_comment, load_families
from generated_files import write_if_changed

HERE = Path(__file__).resolve().parent
DECL_DIR = HERE / "aclop"
HEADER = Path("aclop") / "declared_ops.h"

# Operand dtype names -> aclDataType, in the order messages list them.
DTYPES: dict[str, str] = {
    "float": "ACL_FLOAT", "float16": "ACL_FLOAT16", "bfloat16": "ACL_BF16", "double": "ACL_DOUBLE",
    "int8": "ACL_INT8", "uint8": "ACL_UINT8", "int16": "ACL_INT16", "int32": "ACL_INT32", "int64": "ACL_INT64",
    "bool": "ACL_BOOL",
}
DTYPE_GROUPS: dict[str, tuple[str, ...]] = {
    "all": tuple(DTYPES),
    "numeric": tuple(name for name in DTYPES if name != "bool"),
}
# Attribute type -> (its C++ type, the OpContext getter that reads it).
ATTR_TYPES: dict[str, tuple[str, str]] = {
    "bool": ("bool", "GetBoolAttr"),
    "int": ("int64_t", "GetIntAttr"),
    "float": ("float", "GetFloatAttr"),
    "string": ("std::string", "GetStringAttr"),
    "ints": ("std::vector<int64_t>", "GetIntListAttr"),
    "floats": ("std::vector<float>", "GetFloatListAttr"),
    "dtype": ("aclDataType", "GetDataTypeAttr"),  # aclopSetAttrDataType; a default names a dtype: int64
}
FORMATS: dict[str, str] = {"base": "kBaseOnly", "elementwise": "kElementwiseAnyFormat", "own": "kOwnCheck"}

_TYPE_RE = re.compile(r"[A-Z][A-Za-z0-9]*")
_NAME_RE = re.compile(r"[a-z_][a-z0-9_]*")
_ATTR_NAME_RE = re.compile(r"[a-z_][a-z0-9_]*|[A-Z]")  # CANN's attribute names, as ConcatD's count "N"
_FAMILY_RE = re.compile(r"[a-z][a-z0-9_]*")
_INT_RE = re.compile(r"-?[0-9]+")
_FLOAT_RE = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")
# C++ names the generated code uses for an op type's parts.
RESERVED_NAMES = frozenset({"ctx", "attrs", "rc", "default", "delete", "new", "class", "template", "this",
                            "operator", "register", "switch", "case", "bool", "int", "float", "double"})


@dataclass(frozen=True)
class Operand:
    direction: str  # "input" or "output"
    name: str
    optional: bool
    dtypes: tuple[str, ...]  # dtype names (empty when `like` is set)
    like: str  # the operand whose dtype this one has, or ""
    index: int  # among the inputs, or among the outputs
    dynamic: bool = False  # one or more tensors (x0, x1, ...): the op's last input

    @property
    def role(self) -> str:
        """How messages name it: 'input x1' (a dynamic input by its first tensor, 'input x0')."""
        return f"{self.direction} {self.name}{'0' if self.dynamic else ''}"


@dataclass(frozen=True)
class Attr:
    name: str
    type: str
    required: bool
    default: str | None  # the C++ spelling of the default, or None


@dataclass(frozen=True)
class OpType:
    name: str
    doc: tuple[str, ...]
    inputs: tuple[Operand, ...]
    outputs: tuple[Operand, ...]
    attrs: tuple[Attr, ...]
    formats: str
    where: str  # file:line of the block
    data_dependent_shape: bool = False  # outputs shrink to the data's result (aclopCompileAndExecuteV2 only)

    @property
    def min_inputs(self) -> int:
        return sum(1 for operand in self.inputs if not operand.optional)

    @property
    def dynamic_inputs(self) -> bool:
        return any(operand.dynamic for operand in self.inputs)

    @property
    def run_function(self) -> str:
        return f"Run{self.name}"

    @property
    def attrs_struct(self) -> str:
        return f"{self.name}Attrs"


@dataclass(frozen=True)
class Family:
    name: str
    path: Path
    doc: tuple[str, ...]
    ops: tuple[OpType, ...]


def _parse_default(attr_type: str, text: str) -> str | None:
    """The C++ spelling of a default value of `attr_type`, or None when `text` is not one."""
    if attr_type == "bool":
        return text if text in ("true", "false") else None
    if attr_type == "int":
        return text if _INT_RE.fullmatch(text) else None
    if attr_type == "float":
        if not _FLOAT_RE.fullmatch(text):
            return None
        return (text if "." in text or "e" in text.lower() else text + ".0") + "f"
    if attr_type == "dtype":
        return DTYPES.get(text)
    if attr_type == "ints":
        if not (text.startswith("[") and text.endswith("]")):
            return None
        items = [item.strip() for item in text[1:-1].split(",") if item.strip()]
        return "{" + ", ".join(items) + "}" if all(_INT_RE.fullmatch(i) for i in items) else None
    if attr_type == "floats":
        if not (text.startswith("[") and text.endswith("]")):
            return None
        items = [item.strip() for item in text[1:-1].split(",") if item.strip()]
        if not all(_FLOAT_RE.fullmatch(i) for i in items):
            return None
        return "{" + ", ".join(_parse_default("float", i) or "" for i in items) + "}"
    if len(text) >= 2 and text[0] == text[-1] == '"' and '"' not in text[1:-1] and "\\" not in text:
        return text
    return None


class _Block:
    """The items of one op type while its lines are read."""

    def __init__(self, name: str, doc: tuple[str, ...], where: str) -> None:
        self.name = name
        self.doc = doc
        self.where = where
        self.inputs: list[Operand] = []
        self.outputs: list[Operand] = []
        self.attrs: list[Attr] = []
        self.formats = ""
        self.data_dependent_shape = False
        self.names: set[str] = set()
        # What the block's lines declare, valid or not (a bad line is reported once, not again as missing).
        self.output_lines = 0
        self.formats_lines = 0


def _parse_operand(block: _Block, direction: str, text: str, at: str, problems: list[str]) -> None:
    block.output_lines += direction == "output"
    head, sep, spec = text.partition(":")
    name = head.strip()
    optional = name.endswith("?")
    dynamic = name.endswith("*")
    name = name.rstrip("?*").strip()
    what = f"{at}: {block.name}: {direction} '{name}'"
    if not sep:
        problems.append(f"{what}: expected '{direction} <name>: <dtypes> | like <operand>'")
        return
    if not _NAME_RE.fullmatch(name) or name in RESERVED_NAMES:
        problems.append(f"{what}: not a lower_snake_case name the generated code may use")
        return
    if name in block.names:
        problems.append(f"{what}: the name is declared twice")
        return
    block.names.add(name)
    if optional and direction == "output":
        problems.append(f"{what}: outputs cannot be optional")
    if dynamic and direction == "output":
        problems.append(f"{what}: outputs cannot be dynamic")
    if direction == "input" and any(o.dynamic for o in block.inputs):
        problems.append(f"{what}: a dynamic input must be the op's last input")
    if direction == "input" and (dynamic or any(o.dynamic for o in block.inputs)) and \
            (optional or any(o.optional for o in block.inputs)):
        problems.append(f"{what}: an op with a dynamic input has no optional inputs")
    listed = block.inputs if direction == "input" else block.outputs
    if direction == "input" and not optional and any(o.optional for o in block.inputs):
        problems.append(f"{what}: a required input cannot follow an optional one (only trailing inputs are optional)")
    words = spec.split()
    like = ""
    dtypes: list[str] = []
    if words[:1] == ["like"]:
        if len(words) != 2:
            problems.append(f"{what}: expected 'like <operand>'")
            return
        like = words[1]
        earlier = {o.name for o in (*block.inputs, *block.outputs)}
        if like not in earlier:
            problems.append(f"{what}: 'like {like}' names no operand declared before it")
            return
    elif not words:
        problems.append(f"{what}: no dtypes (a list of {', '.join(DTYPES)}, a group of {', '.join(DTYPE_GROUPS)}, "
                        "or 'like <operand>')")
        return
    else:
        for word in words:
            expanded = DTYPE_GROUPS.get(word, (word,) if word in DTYPES else ())
            if not expanded:
                problems.append(f"{what}: dtype '{word}' is not one of {', '.join([*DTYPES, *DTYPE_GROUPS])}")
            for dtype in expanded:
                if dtype in dtypes:
                    problems.append(f"{what}: dtype '{dtype}' is listed twice")
                else:
                    dtypes.append(dtype)
        dtypes.sort(key=list(DTYPES).index)
    listed.append(Operand(direction, name, optional, tuple(dtypes), like, len(listed), dynamic))


def _parse_attr(block: _Block, text: str, at: str, problems: list[str]) -> None:
    head, sep, spec = text.partition(":")
    name = head.strip()
    what = f"{at}: {block.name}: attr '{name}'"
    if not sep:
        problems.append(f"{what}: expected 'attr <name>: <type>[?| = <default>]'")
        return
    if not _ATTR_NAME_RE.fullmatch(name) or name in RESERVED_NAMES:
        problems.append(f"{what}: not a lower_snake_case (or one capital letter) name the generated code may use")
        return
    if name in block.names:
        problems.append(f"{what}: the name is declared twice")
        return
    block.names.add(name)
    type_text, eq, default_text = spec.partition("=")
    attr_type = type_text.strip()
    optional = attr_type.endswith("?")
    attr_type = attr_type.rstrip("?").strip()
    if attr_type not in ATTR_TYPES:
        problems.append(f"{what}: type '{attr_type}' is not one of {', '.join(ATTR_TYPES)}")
        return
    default = None
    if eq:
        if optional:
            problems.append(f"{what}: '?' and a default both make it optional: give one")
            return
        default = _parse_default(attr_type, default_text.strip())
        if default is None:
            problems.append(f"{what}: default '{default_text.strip()}' is not a {attr_type}")
            return
    block.attrs.append(Attr(name, attr_type, not (optional or eq), default))


def parse_family(path: Path) -> tuple[Family, list[str]]:
    """One declaration file; the problems found, each ``file:line: op: what``."""
    problems: list[str] = []
    display = path.name
    family_name = path.name[: -len(SUFFIX)] if path.name.endswith(SUFFIX) else path.name
    if not _FAMILY_RE.fullmatch(family_name):
        problems.append(f"{display}:1: the family name '{family_name}' must be lower_snake_case")
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        return Family(family_name, path, (), ()), [f"{display}:1: cannot read: {exc}"]

    family_doc: list[str] = []
    pending_doc: list[str] = []
    blocks: list[_Block] = []
    block: _Block | None = None
    bad_header = False  # the last block's first line was not an op type (its items are not reported)
    for number, raw in enumerate(lines, start=1):
        at = f"{display}:{number}"
        text = raw.split("#", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        stripped = raw.strip()
        if not stripped:
            if not blocks and pending_doc:
                family_doc.extend(pending_doc)
                pending_doc = []
            continue
        if stripped.startswith("#"):
            if raw[0] == "#":  # a comment in column 0 documents what follows
                comment = stripped[1:]
                pending_doc.append(comment[1:] if comment.startswith(" ") else comment)
            continue
        if not raw[0].isspace():  # a block's first line: the op type
            name = text.strip()
            if not _TYPE_RE.fullmatch(name):
                problems.append(f"{at}: '{name}' is not an op type name (CamelCase, like 'MatMulV2'); items of a "
                                "type are indented below it")
                block, bad_header = None, True
            else:
                block, bad_header = _Block(name, tuple(pending_doc), at), False
                blocks.append(block)
            pending_doc = []
            continue
        if block is None:
            if not bad_header:
                problems.append(f"{at}: an indented item before the first op type")
            continue
        keyword, _, rest = text.strip().partition(" ")
        if keyword in ("input", "output"):
            _parse_operand(block, keyword, rest, at, problems)
        elif keyword == "attr":
            _parse_attr(block, rest, at, problems)
        elif keyword == "formats:":
            block.formats_lines += 1
            if block.formats_lines > 1:
                problems.append(f"{at}: {block.name}: formats are declared twice")
            elif rest.strip() not in FORMATS:
                problems.append(f"{at}: {block.name}: formats '{rest.strip()}' is not one of {', '.join(FORMATS)}")
            else:
                block.formats = rest.strip()
        elif keyword == "output_shape:":
            if block.data_dependent_shape:
                problems.append(f"{at}: {block.name}: output_shape is declared twice")
            elif rest.strip() != "data-dependent":
                problems.append(f"{at}: {block.name}: output_shape '{rest.strip()}' is not 'data-dependent' (the "
                                "only value; without the line the caller gives the output shapes)")
            else:
                block.data_dependent_shape = True
        else:
            problems.append(f"{at}: {block.name}: '{keyword}' is not one of input, output, attr, formats:, "
                            "output_shape:")

    ops: list[OpType] = []
    for b in blocks:
        if not b.output_lines:
            problems.append(f"{b.where}: {b.name}: declares no output")
        if not b.formats_lines:
            problems.append(f"{b.where}: {b.name}: declares no 'formats:' ({', '.join(FORMATS)})")
        if b.name in {o.name for o in ops}:
            problems.append(f"{b.where}: {b.name}: declared twice")
        ops.append(OpType(b.name, b.doc, tuple(b.inputs), tuple(b.outputs), tuple(b.attrs), b.formats, b.where,
                          b.data_dependent_shape))
    if not blocks and not problems:
        problems.append(f"{display}:1: declares no op type")
    return Family(family_name, path, tuple(family_doc), tuple(ops)), problems


def load(directory: Path = DECL_DIR) -> list[Family]:
    """Every family of `directory`, by name; AbiError lists all problems of all files."""
    return load_families(directory, parse_family, lambda family: family.ops, "{name}: declared in {other} already")


def op_types(families: list[Family]) -> list[OpType]:
    return sorted((op for family in families for op in family.ops), key=lambda o: o.name)


def acl_dtypes(operand: Operand) -> list[str]:
    """The aclDataType names an operand with a dtype list accepts, in message order."""
    return [DTYPES[name] for name in operand.dtypes]


# ---- what the build writes ----

def _operand_ref(operand: Operand) -> str:
    return f"ctx.{operand.direction}s[{operand.index}]"


def _wrap(items: list[str], indent: str, width: int = 110) -> str:
    """`items` joined by ', ', broken before the item that would pass `width` columns."""
    lines = [""]
    for item in items:
        piece = item if not lines[-1] else ", " + item
        if lines[-1] and len(indent) + len(lines[-1]) + len(piece) > width:
            lines[-1] += ","
            lines.append(item)
        else:
            lines[-1] += piece
    return ("\n" + indent).join(lines)


def _check_operands(op: OpType) -> list[str]:
    """The generated statements that check the declared dtypes, in declaration order (an
    optional input, or one like it, only when the call passes it)."""
    by_name = {o.name: o for o in (*op.inputs, *op.outputs)}
    out = []
    for operand in (*op.inputs, *op.outputs):
        if operand.like:
            ref = by_name[operand.like]
            call = (f'rc = ctx.RequireSameDtype({_operand_ref(ref)}, "{ref.role}", {_operand_ref(operand)}, '
                    f'"{operand.role}");\n')
        else:
            ref = operand
            head = f'rc = ctx.RequireDtypeIn({_operand_ref(operand)}, "{operand.role}", {{'
            call = head + _wrap(acl_dtypes(operand), " " * (2 + len(head))) + "});\n"
        passed = sorted({o.index for o in (operand, ref) if o.optional})
        if passed:
            guard = " && ".join(f"ctx.inputs.size() > {index}" for index in passed)
            call = f"if ({guard}) {call}"
        out.append(f"  {call}  if (rc != ACL_SUCCESS) return rc;\n")
        if operand.dynamic:
            out.append(f'  rc = ctx.RequireInputsShareDtype("{operand.direction} {operand.name}", {operand.index});\n'
                       "  if (rc != ACL_SUCCESS) return rc;\n")
    return out


def _read_attrs(op: OpType) -> list[str]:
    out = []
    for attr in op.attrs:
        getter = ATTR_TYPES[attr.type][1]
        if attr.required:
            out.append(f'  if ((rc = ctx.{getter}("{attr.name}", &attrs.{attr.name})) != ACL_SUCCESS) return rc;\n')
        elif attr.default is not None:
            out.append(f'  if (ctx.HasAttr("{attr.name}") && (rc = ctx.{getter}("{attr.name}", &attrs.{attr.name})) '
                       "!= ACL_SUCCESS) {\n    return rc;\n  }\n")
        else:
            out.append(f'  if (ctx.HasAttr("{attr.name}")) {{\n    attrs.{attr.name}.emplace();\n'
                       f'    if ((rc = ctx.{getter}("{attr.name}", &*attrs.{attr.name})) != ACL_SUCCESS) return rc;\n'
                       "  }\n")
    return out


def _attr_field(attr: Attr) -> str:
    cpp = ATTR_TYPES[attr.type][0]
    if not attr.required and attr.default is None:
        return f"  std::optional<{cpp}> {attr.name};\n"
    if attr.default is not None:
        return f"  {cpp} {attr.name} = {attr.default};\n"
    return f"  {cpp} {attr.name}{{}};  // required\n"


def render_header(families: list[Family]) -> str:
    out = [
        "// Generated by abi/aclop_abi.py from abi/aclop/*.decl: edit those files, not this one.\n",
        "//\n",
        "// The acl_op types of the simulator, for src/aclop/op_registry.cpp: per type its attributes\n",
        "// as a struct, the Run function src/aclop/ops/ defines, and a checking function that enforces\n",
        "// the declared dtypes and reads the declared attributes before calling it; kDeclaredOps, the\n",
        "// table of OpDefs the executor looks types up in.\n",
        "#pragma once\n\n#include <stdint.h>\n\n#include <optional>\n#include <string>\n\n",
        '#include "aclop/op_registry.h"\n\n',
        "namespace ascendc_sim {\nnamespace aclop {\n",
    ]
    for family in families:
        for op in family.ops:
            out.append(f"\n// {op.name} (abi/aclop/{op.where})\n")
            out.append(cpp_comment(op.doc))
            fields = "".join(_attr_field(a) for a in op.attrs)
            out.append(f"struct {op.attrs_struct} {{\n{fields}}};\n" if fields else f"struct {op.attrs_struct} {{}};\n")
            out.append(f"aclError {op.run_function}(OpContext& ctx, const {op.attrs_struct}& attrs);\n")
    out.append("\nnamespace declared {\n")
    for op in op_types(families):
        body = [*_check_operands(op), *_read_attrs(op)]
        out.append(f"\ninline aclError Check{op.name}(OpContext& ctx) {{\n")
        out.append(f"  {op.attrs_struct} attrs;\n")
        if body:
            out.append("  aclError rc = ACL_SUCCESS;\n")
            out.extend(body)
        out.append(f"  return {op.run_function}(ctx, attrs);\n}}\n")
    out.append("\n}  // namespace declared\n\n")
    out.append("// Every declared op type, by name.\ninline const OpDef kDeclaredOps[] = {\n")
    for op in op_types(families):
        min_inputs = op.min_inputs if op.min_inputs != len(op.inputs) else -1
        flags = ""
        if op.dynamic_inputs or op.data_dependent_shape:
            flags = f", {str(op.dynamic_inputs).lower()}" + (", true" if op.data_dependent_shape else "")
        out.append(f'    {{"{op.name}", {len(op.inputs)}, {len(op.outputs)}, FormatPolicy::{FORMATS[op.formats]}, '
                   f"&declared::Check{op.name}, {min_inputs}{flags}}},\n")
    out.append("};\n\n}  // namespace aclop\n}  // namespace ascendc_sim\n")
    return "".join(out)


def outputs(families: list[Family], out_dir: Path) -> dict[Path, str]:
    return {out_dir / HEADER: render_header(families)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decl-dir", type=Path, default=DECL_DIR, help="the *.decl files (default: %(default)s)")
    parser.add_argument("--out", type=Path, required=True, help=f"where {HEADER} goes")
    args = parser.parse_args(argv)
    try:
        families = load(args.decl_dir)
    except AbiError as exc:
        for problem in exc.problems:
            print(f"{args.decl_dir}/{problem}", file=sys.stderr)
        return 1
    write_if_changed(outputs(families, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
