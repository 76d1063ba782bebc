"""The aclnn entry points of libopapi.so, declared once as data, and what the build derives from them.

Each file ``abi/aclnn/<family>.decl`` declares one family of aclnn apis. From those files this
module writes (``python abi/aclnn_abi.py --out DIR``):

- ``DIR/include/aclnnop/aclnn_<family>.h``: the C headers of the family, CANN's two-phase pair
  per api (``aclnnXGetWorkspaceSize(params..., uint64_t* workspaceSize, aclOpExecutor** executor)``
  and ``aclnnX(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)``);
- ``DIR/opapi.map``: the linker version script exporting exactly those symbols;
- ``DIR/include/ascendc_sim/aclnn_declarations.h``: the declarations as C++ types, with which the
  runtime checks at compile time that each ``EXEC_NPU_CMD`` call passes arguments its api takes.

The kernel tests build their ctypes signatures from ``load()`` too (``ctypes_argtypes``).

The format, one declaration per api::

    # Comment lines before the first declaration document the family (the header's comment).

    # Comment lines right above a declaration document it.
    aclnnAdd(in const aclTensor* self, in const aclTensor* other, in const aclScalar* alpha,
             out aclTensor* out)

A declaration may span lines until its closing parenthesis. Each parameter is
``<direction> <CANN type> <name>``; the direction is ``in``, ``out`` or ``inout`` (an in-place
``selfRef``). Only the standard library is used: the build runs this before anything is installed.
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
DECL_DIR = HERE / "aclnn"

# CANN type -> (the ctypes type of the kernel tests, the directions it may have).
TYPES: dict[str, tuple[str, frozenset[str]]] = {
    "const aclTensor*": ("c_void_p", frozenset({"in"})),
    "aclTensor*": ("c_void_p", frozenset({"out", "inout"})),
    "const aclScalar*": ("c_void_p", frozenset({"in"})),
    "const aclIntArray*": ("c_void_p", frozenset({"in"})),
    "const aclFloatArray*": ("c_void_p", frozenset({"in"})),
    "const aclBoolArray*": ("c_void_p", frozenset({"in"})),
    "const aclTensorList*": ("c_void_p", frozenset({"in"})),
    "aclTensorList*": ("c_void_p", frozenset({"out", "inout"})),
    "const aclScalarList*": ("c_void_p", frozenset({"in"})),
    "const char*": ("c_char_p", frozenset({"in"})),
    "char*": ("c_char_p", frozenset({"in"})),  # CANN's read-only strings (aclnnGeluBackwardV2's approximate)
    "bool": ("c_bool", frozenset({"in"})),
    "int8_t": ("c_int8", frozenset({"in"})),
    "int32_t": ("c_int32", frozenset({"in"})),
    "int64_t": ("c_int64", frozenset({"in"})),
    "uint64_t": ("c_uint64", frozenset({"in"})),
    "float": ("c_float", frozenset({"in"})),
    "double": ("c_double", frozenset({"in"})),
    "aclDataType": ("c_int", frozenset({"in"})),
}
DIRECTIONS = ("in", "out", "inout")
# Names the generated C and C++ code reserves: the pair's own parameters and C++ keywords that
# a CANN parameter name could collide with.
RESERVED_NAMES = frozenset({"workspaceSize", "executor", "workspace", "stream", "params", "kName",
                            "GetWorkspaceSizeFn", "RunFn", "default", "delete", "new", "class",
                            "template", "this", "operator", "register", "switch", "case"})

_API_RE = re.compile(r"aclnn[A-Z][A-Za-z0-9]*")
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FAMILY_RE = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class Param:
    direction: str
    type: str
    name: str


@dataclass(frozen=True)
class Api:
    name: str
    params: tuple[Param, ...]
    doc: tuple[str, ...]
    where: str  # file:line of the declaration

    @property
    def get_workspace_size(self) -> str:
        return self.name + "GetWorkspaceSize"


@dataclass(frozen=True)
class Family:
    name: str
    path: Path
    doc: tuple[str, ...]
    apis: tuple[Api, ...]

    @property
    def header(self) -> str:
        return f"aclnnop/aclnn_{self.name}.h"


def _parse_param(text: str) -> tuple[Param | None, str]:
    words = text.split()
    if len(words) < 3:
        return None, f"parameter '{text}': expected '<direction> <type> <name>'"
    direction, name = words[0], words[-1]
    ctype = " ".join(words[1:-1]).replace(" *", "*")
    if direction not in DIRECTIONS:
        return None, f"parameter '{text}': direction '{direction}' is not one of {', '.join(DIRECTIONS)}"
    if ctype not in TYPES:
        return None, f"parameter '{name}': type '{ctype}' is not one of {', '.join(TYPES)}"
    if not _NAME_RE.fullmatch(name):
        return None, f"parameter '{text}': '{name}' is not a C identifier"
    if name in RESERVED_NAMES:
        return None, f"parameter '{name}': the name is reserved by the generated code"
    allowed = TYPES[ctype][1]
    if direction not in allowed:
        return None, (f"parameter '{name}': a '{ctype}' is {' or '.join(sorted(allowed))}, not {direction} "
                      "(CANN passes inputs as const pointers, outputs as non-const ones)")
    return Param(direction, ctype, name), ""


def parse_family(path: Path) -> tuple[Family, list[str]]:
    """One declaration file; the problems found, each ``file:line: what``."""
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
    apis: list[Api] = []
    seen_declaration = False
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if not line:
            if not seen_declaration and pending_doc:
                family_doc.extend(pending_doc)
                pending_doc = []
            i += 1
            continue
        if line.startswith("#"):
            pending_doc.append(line[1:].strip() if line == "#" else line[2:] if line.startswith("# ") else line[1:])
            i += 1
            continue
        start = i + 1  # 1-based line of the declaration
        text = line
        while ")" not in text and i + 1 < len(lines):
            i += 1
            text += " " + lines[i].split("#", 1)[0].strip()
        i += 1
        where = f"{display}:{start}"
        seen_declaration = True
        match = re.fullmatch(r"(\S+)\s*\((.*)\)", text)
        if match is None:
            problems.append(f"{where}: expected 'aclnnName(<direction> <type> <name>, ...)', got '{text}'")
            pending_doc = []
            continue
        name, body = match.group(1), match.group(2).strip()
        if not _API_RE.fullmatch(name) or name.endswith("GetWorkspaceSize"):
            problems.append(f"{where}: '{name}' is not an aclnn api name (aclnn<Name>, without GetWorkspaceSize)")
        params: list[Param] = []
        names: set[str] = set()
        for piece in [p.strip() for p in body.split(",")] if body else []:
            param, problem = _parse_param(piece)
            if param is None:
                problems.append(f"{where}: {name}: {problem}")
                continue
            if param.name in names:
                problems.append(f"{where}: {name}: parameter '{param.name}' is declared twice")
            names.add(param.name)
            params.append(param)
        if name in {a.name for a in apis}:
            problems.append(f"{where}: {name} is declared twice")
        apis.append(Api(name, tuple(params), tuple(pending_doc), where))
        pending_doc = []
    if not seen_declaration:
        problems.append(f"{display}:1: declares no aclnn api")
    return Family(family_name, path, tuple(family_doc), tuple(apis)), problems


def load(directory: Path = DECL_DIR) -> list[Family]:
    """Every family of `directory`, by name; AbiError lists all problems of all files."""
    return load_families(directory, parse_family, lambda family: family.apis, "{name} is declared in {other} already")


def apis(families: list[Family]) -> list[Api]:
    return sorted((api for family in families for api in family.apis), key=lambda a: a.name)


def ctypes_argtypes(api: Api) -> list[str]:
    """The ctypes type names (attributes of the ctypes module) of aclnnXGetWorkspaceSize's
    own parameters, without workspaceSize and executor."""
    return [TYPES[p.type][0] for p in api.params]


# ---- what the build writes ----

_BANNER = "// Generated by abi/aclnn_abi.py from abi/aclnn/{source}: edit that file, not this one.\n"


def _prototype(result: str, name: str, params: list[str]) -> str:
    head = f"ACL_FUNC_VISIBILITY {result} {name}("
    one_line = head + ", ".join(params) + ");"
    if len(one_line) <= 110:
        return one_line + "\n"
    return head + "\n" + ",\n".join("    " + p for p in params) + ");\n"


def render_header(family: Family) -> str:
    guard = f"ASCENDC_SIM_ACLNN_{family.name.upper()}_H"
    out = [_BANNER.format(source=family.path.name), cpp_comment(family.doc)]
    out.append(f"#ifndef {guard}\n#define {guard}\n#include \"aclnn/aclnn_base.h\"\n")
    out.append("#ifdef __cplusplus\nextern \"C\" {\n#endif\n")
    for api in family.apis:
        out.append("\n" + cpp_comment(api.doc))
        params = [f"{p.type} {p.name}" for p in api.params]
        out.append(_prototype("aclnnStatus", api.get_workspace_size,
                              [*params, "uint64_t* workspaceSize", "aclOpExecutor** executor"]))
        out.append(_prototype("aclnnStatus", api.name,
                              ["void* workspace", "uint64_t workspaceSize", "aclOpExecutor* executor",
                               "aclrtStream stream"]))
    out.append("\n#ifdef __cplusplus\n}\n#endif\n#endif\n")
    return "".join(out)


def render_version_script(families: list[Family]) -> str:
    out = ["/* Generated by abi/aclnn_abi.py from abi/aclnn/*.decl: the exported symbols of libopapi.so,\n",
           "   the declared aclnn entry points and nothing else. */\n{\n  global:\n"]
    for api in apis(families):
        out.append(f"    {api.get_workspace_size};\n    {api.name};\n")
    out.append("  local:\n    *;\n};\n")
    return "".join(out)


def render_declarations(families: list[Family]) -> str:
    """The C++ view of the declarations that callers check their calls against."""
    declared = apis(families)
    out = [
        "// Generated by abi/aclnn_abi.py from abi/aclnn/*.decl: edit those files, not this one.\n",
        "//\n",
        "// The aclnn entry points of libopapi.so as C++ types, for compile-time checks of callers:\n",
        "// aclnn_declared::IndexOf(\"aclnnAdd\") is the api's index (kNotDeclared when libopapi.so\n",
        "// does not declare it), At<I>::type its struct, whose `params` list each parameter's name\n",
        "// (a tag type named like the parameter) and CANN type.\n",
        "#pragma once\n\n#include <cstddef>\n\n",
    ]
    out.extend(f'#include "{family.header}"\n' for family in families)
    out.append("\nnamespace ascendc_sim::aclnn_declared {\n\n")
    out.append("template <typename Name, typename Type>\nstruct Param {\n  using name = Name;\n"
               "  using type = Type;\n};\n\ntemplate <typename... Ps>\nstruct Params {};\n\n")
    for api in declared:
        tags = " ".join(f"struct {p.name};" for p in api.params)
        plist = ", ".join(f"Param<{p.name}, {p.type}>" for p in api.params)
        out.append(f"struct {api.name} {{\n")
        out.append(f'  static constexpr const char* kName = "{api.name}";\n')
        if tags:
            out.append(f"  {tags}\n")
        out.append(f"  using params = Params<{plist}>;\n")
        out.append(f"  using GetWorkspaceSizeFn = decltype(&::{api.get_workspace_size});\n")
        out.append(f"  using RunFn = decltype(&::{api.name});\n}};\n\n")
    out.append("inline constexpr const char* kNames[] = {\n")
    out.extend(f'    "{api.name}",\n' for api in declared)
    out.append("};\ninline constexpr std::size_t kNotDeclared = sizeof(kNames) / sizeof(kNames[0]);\n\n")
    out.append("template <std::size_t I>\nstruct At;\n")
    out.extend(f"template <>\nstruct At<{i}> {{\n  using type = {api.name};\n}};\n"
               for i, api in enumerate(declared))
    out.append(
        "\nconstexpr bool SameName(const char* a, const char* b) {\n"
        "  while (*a != '\\0' && *a == *b) {\n    ++a;\n    ++b;\n  }\n  return *a == *b;\n}\n\n"
        "// The index of api `name` in kNames, or kNotDeclared.\n"
        "constexpr std::size_t IndexOf(const char* name) {\n"
        "  for (std::size_t i = 0; i < kNotDeclared; ++i) {\n"
        "    if (SameName(kNames[i], name)) {\n      return i;\n    }\n  }\n  return kNotDeclared;\n}\n\n"
        "}  // namespace ascendc_sim::aclnn_declared\n")
    return "".join(out)


def outputs(families: list[Family], out_dir: Path) -> dict[Path, str]:
    files = {out_dir / "include" / family.header: render_header(family) for family in families}
    files[out_dir / "opapi.map"] = render_version_script(families)
    files[out_dir / "include" / "ascendc_sim" / "aclnn_declarations.h"] = render_declarations(families)
    return files


def write(files: dict[Path, str], header_dir: Path) -> list[Path]:
    """Writes the files whose content changed (others keep their mtime, so nothing rebuilds) and
    removes generated headers of families that no longer exist. Returns the paths written."""
    written = write_if_changed(files)
    if header_dir.is_dir():
        for stale in header_dir.glob("aclnn_*.h"):
            if stale not in files:
                stale.unlink()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decl-dir", type=Path, default=DECL_DIR, help="the *.decl files (default: %(default)s)")
    parser.add_argument("--out", type=Path, required=True, help="where include/ and opapi.map go")
    parser.add_argument("--list-headers", action="store_true",
                        help="print the headers the declarations generate (for the build) and exit")
    args = parser.parse_args(argv)
    try:
        families = load(args.decl_dir)
    except AbiError as exc:
        for problem in exc.problems:
            print(f"{args.decl_dir}/{problem}", file=sys.stderr)
        return 1
    if args.list_headers:
        for family in families:
            print(args.out / "include" / family.header)
        return 0
    write(outputs(families, args.out), args.out / "include" / "aclnnop")
    return 0


if __name__ == "__main__":
    sys.exit(main())
