"""The simulator's C ABI is CANN's: every function libascendcl/libopapi/libhccl export that CANN's
public headers declare has the same type, every constant, enumerator and enum type the simulator's
headers share with CANN's has the same value and size, and every structure they share has CANN's
size and field offsets.

CANN's headers come from upstream's torch-npu wheel (``torch_npu/include/acl``, HCCL under
``third_party/hccl``; downloaded at test time, never committed). The two sets of headers cannot
share a translation unit (they define the same names), so one program is compiled against each,
printing every function's type as the compiler's mangled name of its pointer type (typedefs
resolved: ``aclrtStream`` and ``void*`` are one type, an ``int`` where CANN has an enum is not),
every constant's value, every enum's and structure's size and every field's offset; the two
printouts are compared."""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from upstream_wheel import torch_npu_wheel  # loaded by tests/conftest.py

pytestmark = pytest.mark.skipif(shutil.which("g++") is None or shutil.which("nm") is None,
                                reason="the comparison compiles with g++ and reads exports with nm")

# CANN's public headers in the wheel, and the include roots they use.
REAL_INCLUDE = "torch_npu/include"
REAL_HEADERS = ("acl/acl.h", "acl/acl_op_compiler.h", "acl/acl_prof.h", "acl/acl_mdl.h", "acl/acl_rt_allocator.h",
                "acl/error_codes/rt_error_codes.h", "acl/error_codes/ge_error_codes.h", "hccl/hccl.h",
                "profiling/aprof_pub.h")
HCCL_INCLUDE = "torch_npu/include/third_party/hccl/inc"
# The profiler's reporting interface (Msprof*), as torch_npu ships it.
PROFILING_INCLUDE = "torch_npu/include/third_party/acl/inc"
# Structures of the profiler's interface (plain `struct X { ... };`, compared by size; typedef'd
# structures are compared field by field).
SHARED_STRUCTS = ("MsprofApi", "MsprofCompactInfo", "MsprofAdditionalInfo", "MsprofCommandHandle",
                  "MsprofNodeBasicInfo")
# The simulator's own entry points (aclsim*) have no CANN counterpart; aclnn* are declared by
# CANN's op headers, which the wheel does not ship.
CANN_FUNCTION = re.compile(r"^(?:acl(?!sim|nn)|Hccl|hccl|rt[A-Z]|Msprof)\w*$")
CONSTANT = re.compile(r"\b((?:ACL|HCCL|MSPROF|PROF)_[A-Z0-9_]+)\b")


def strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def header_text(root: Path) -> str:
    return "\n".join(strip_comments(p.read_text(errors="replace")) for p in sorted(root.rglob("*.h")))


def declared_functions(text: str, names: set[str]) -> set[str]:
    return {name for name in names if re.search(rf"\b{name}\s*\(", text)}


def simulator_constants(text: str) -> set[str]:
    """Names the simulator's headers give an integral value: object-like macros with a number,
    enumerators, ``const`` integers."""
    names = set(re.findall(r"^\s*#\s*define\s+((?:ACL|HCCL|MSPROF|PROF)_\w+)\s+\(?[-+0-9(]", text, flags=re.M))
    names |= set(re.findall(r"\bconst\s+\w+\s+((?:ACL|HCCL|MSPROF|PROF)_\w+)\s*=", text))
    for body in re.findall(r"\benum\b[^{;]*\{(.*?)\}", text, flags=re.S):
        names |= {m.group(1) for m in re.finditer(r"(?:^|,)\s*([A-Za-z_]\w*)", body)}
    return {name for name in names if CONSTANT.fullmatch(name)}


def struct_fields(text: str) -> dict[str, list[str]]:
    """The structures the simulator's headers define (``typedef struct X { ... } Name;``) and
    their fields' names."""
    return {name: re.findall(r"(\w+)\s*(?:\[[^\]]*\])?\s*;", body)
            for body, name in re.findall(r"\btypedef\s+struct\b[^{;]*\{(.*?)\}\s*(\w+)\s*;", text, flags=re.S)}


def enum_types(text: str) -> set[str]:
    names = set(re.findall(r"\btypedef\s+enum\b[^{;]*\{.*?\}\s*(\w+)\s*;", text, flags=re.S))
    names |= set(re.findall(r"\benum\s+(?:class\s+)?(\w+)\s*(?::\s*\w+\s*)?\{", text))
    return names


def probe_source(includes: list[str], functions: set[str], constants: set[str], types: set[str],
                 structs: dict[str, list[str]]) -> str:
    lines = ["#include <cstddef>", "#include <cstdio>", "#include <typeinfo>",
             *[f'#include "{h}"' for h in includes], "int main() {"]
    lines += [f'  std::printf("function {n} %s\\n", typeid(decltype(&::{n})).name());' for n in sorted(functions)]
    lines += [f'  std::printf("constant {n} %lld\\n", static_cast<long long>({n}));' for n in sorted(constants)]
    lines += [f'  std::printf("size {n} %zu\\n", sizeof({n}));' for n in sorted(types)]
    for name, fields in sorted(structs.items()):
        lines.append(f'  std::printf("layout {name} %zu\\n", sizeof({name}));')
        lines += [f'  std::printf("layout {name}.{f} %zu\\n", offsetof({name}, {f}));' for f in fields]
    return "\n".join([*lines, "  return 0;", "}", ""])


def run_probe(tmp: Path, name: str, source: str, include_dirs: list[Path]) -> dict[str, str]:
    (tmp / f"{name}.cpp").write_text(source)
    build = ["g++", "-std=c++17", "-w", *[f"-I{d}" for d in include_dirs], str(tmp / f"{name}.cpp"),
             "-o", str(tmp / name)]
    compiled = subprocess.run(build, capture_output=True, text=True)
    assert compiled.returncode == 0, f"the {name} probe does not compile:\n{compiled.stderr[-4000:]}"
    out = subprocess.run([str(tmp / name)], capture_output=True, text=True, check=True).stdout
    return {" ".join(line.split()[:2]): line.split()[2] for line in out.splitlines()}


@pytest.fixture(scope="module")
def real_headers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cann-headers")
    with zipfile.ZipFile(torch_npu_wheel()) as wheel:
        for member in wheel.namelist():
            if member.startswith((f"{REAL_INCLUDE}/acl/", f"{HCCL_INCLUDE}/", f"{PROFILING_INCLUDE}/profiling/")) \
                    and member.endswith(".h"):
                wheel.extract(member, root)
    return root


@pytest.fixture(scope="module")
def simulator() -> dict[str, object]:
    import ascendc_kernels

    package = Path(ascendc_kernels.__file__).parent
    exports: set[str] = set()
    for library in ("libascendcl.so", "libopapi.so", "libhccl.so"):
        out = subprocess.run(["nm", "-D", "--defined-only", str(package / "lib" / library)],
                             capture_output=True, text=True, check=True).stdout
        exports |= {line.split()[-1] for line in out.splitlines() if line.split()[-2:-1] == ["T"]}
    include = package / "include"
    headers = sorted(str(p.relative_to(include)) for p in (include / "acl").glob("*.h"))
    headers += sorted(str(p.relative_to(include)) for p in (include / "aclnn").glob("*.h"))
    headers += sorted(str(p.relative_to(include)) for p in (include / "hccl").glob("*.h"))
    headers += sorted(str(p.relative_to(include)) for p in (include / "toolchain").glob("*.h"))
    return {"include": include, "headers": headers, "exports": exports}


@pytest.fixture(scope="module")
def comparison(real_headers: Path, simulator: dict, tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = tmp_path_factory.mktemp("abi-probe")
    real_dirs = [real_headers / REAL_INCLUDE, real_headers / HCCL_INCLUDE, real_headers / PROFILING_INCLUDE]
    real_text = "\n".join(header_text(d) for d in real_dirs)
    ours_text = header_text(simulator["include"])
    exported = {n for n in simulator["exports"] if CANN_FUNCTION.match(n)}
    functions = declared_functions(real_text, exported)
    undeclared_by_us = functions - declared_functions(ours_text, functions)
    functions -= undeclared_by_us
    constants = {n for n in simulator_constants(ours_text) if re.search(rf"\b{n}\b", real_text)}
    types = {n for n in enum_types(ours_text) if re.search(rf"\b{n}\b", real_text)}
    types |= {n for n in SHARED_STRUCTS if re.search(rf"\bstruct\s+{n}\b", ours_text)}
    structs = {n: fields for n, fields in struct_fields(ours_text).items() if re.search(rf"\b{n}\b", real_text)}
    real = run_probe(tmp, "cann", probe_source(list(REAL_HEADERS), functions, constants, types, structs), real_dirs)
    ours = run_probe(tmp, "simulator", probe_source(simulator["headers"], functions, constants, types, structs),
                     [simulator["include"]])
    all_real = set(re.findall(r"\b(acl\w+|Hccl\w+)\s*\(", re.sub(r"#\s*define[^\n]*", "", real_text)))
    return {"real": real, "ours": ours, "exported": exported, "functions": functions,
            "undeclared_by_us": undeclared_by_us, "real_functions": all_real, "constants": constants, "types": types,
            "structs": structs}


def test_exported_functions_have_cann_types(comparison: dict) -> None:
    real, ours = comparison["real"], comparison["ours"]
    differ = [f"{key.split()[1]}: CANN {real[key]}, simulator {ours[key]}"
              for key in sorted(real) if key.startswith("function ") and real[key] != ours[key]]
    exported = comparison["exported"]
    print(f"\nthe simulator exports {len(comparison['functions'])} of the {len(comparison['real_functions'])} "
          f"functions CANN's public headers declare ({len(exported)} CANN-named exports in all)")
    assert not differ, "exported functions whose type is not CANN's:\n  " + "\n  ".join(differ)


def test_every_export_cann_declares_is_declared_in_the_simulators_headers(comparison: dict) -> None:
    assert not comparison["undeclared_by_us"], sorted(comparison["undeclared_by_us"])


def test_shared_constants_and_enums_have_cann_values(comparison: dict) -> None:
    real, ours = comparison["real"], comparison["ours"]
    differ = [f"{key}: CANN {real[key]}, simulator {ours[key]}" for key in sorted(real)
              if key.startswith(("constant ", "size ")) and real[key] != ours[key]]
    assert comparison["constants"], "no constant of the simulator's headers was found in CANN's"
    assert not differ, "values that are not CANN's:\n  " + "\n  ".join(differ)


def test_shared_structures_have_cann_layouts(comparison: dict) -> None:
    """Size and every field's offset: clients fill these structures (HcclCommConfig, HcclRootInfo,
    aclrtPhysicalMemProp ...) and pass them by pointer."""
    real, ours = comparison["real"], comparison["ours"]
    differ = [f"{key.split()[1]}: CANN {real[key]}, simulator {ours[key]}" for key in sorted(real)
              if key.startswith("layout ") and real[key] != ours[key]]
    assert "HcclCommConfig" in comparison["structs"], sorted(comparison["structs"])
    assert not differ, "sizes and offsets that are not CANN's:\n  " + "\n  ".join(differ)
