"""The wheels of the label (dist/<label>/*.whl, as `nox -s build` leaves them) hold the product
only: no test support module, no test-only generated code, and no generator module that
imports torch (opplugin-codegen promises never to). Test scaffolding lives with the tests.
The generators' wheels hold their templates (package data they cannot generate without)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
WHEEL_STEMS = ("ascendc_kernels", "opplugin_codegen", "torchnpugen", "opplugin_runtime")

# (what is wrong, a regex over the file's path inside the wheel).
TEST_ONLY_PATHS = (
    ("ctypes test bindings of ascendc-kernels (tests/ascendc_kernels_testing.py)",
     re.compile(r"(^|/)ascendc_kernels/testing\.py$|(^|/)\w*_testing\.py$")),
    ("the Meta function checks of opplugin-codegen (tests/opplugin_meta_check.py)", re.compile(r"meta_check\w*\.py$")),
    ("test-only generated code (build/generated/<label>/test_only)",
     re.compile(r"(^|/)test_only/|MetaCheckFunctions")),
    ("a test module or test directory", re.compile(r"(^|/)(tests?/|conftest\.py$|test_\w+\.py$)")),
)
# (what is wrong, bytes that only test-only code puts into a compiled library).
TEST_ONLY_BYTES = (
    ("the npu_meta_check operators (compiled from test_only/MetaCheckFunctions_<k>.cpp)", b"npu_meta_check"),
    ("code compiled from test_only/MetaCheckFunctions_<k>.cpp", b"MetaCheckFunctions"),
)
IMPORTS_TORCH = re.compile(rb"^\s*(import|from)\s+torch(gen)?\b", re.M)
# A generator's templates are how it writes every file, the test-only ones too (templates/
# MetaCheckFunctions.cpp.j2 is the skeleton of test_only/MetaCheckFunctions_<k>.cpp): product.
GENERATOR_TEMPLATE = re.compile(r"^(opplugin_codegen|torchnpugen)/templates/[^/]+\.j2$")

RUNTIME_CSRC = REPO / "packages" / "opplugin-runtime" / "csrc"
RUNTIME_INCLUDE = "opplugin_runtime/include/"
# The generated headers setup.py ships with the runtime's own (GENERATED_PACKAGE_FILES).
GENERATED_HEADERS = frozenset({"npu/aten/CustomFunctions.h", "npu/inductor/c_shim_npu.h", "npu/version.h"})
# Quoted includes that the toolkit's include directory (ascendc_kernels.get_include()) provides.
TOOLKIT_INCLUDE = re.compile(r"^(acl|aclnn|aclnnop|ascendc_sim)/")
QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def _wheels(label: str) -> list[Path]:
    dist = REPO / "dist" / label
    wheels = sorted(dist.glob("*.whl"))
    if not wheels:
        pytest.fail(f"{dist} holds no wheel: run `nox -s build -- {label}` first")
    return wheels


def test_every_package_built_a_wheel(label: str) -> None:
    names = {wheel.name.split("-", 1)[0] for wheel in _wheels(label)}
    assert names == set(WHEEL_STEMS), f"dist/{label}: {sorted(names)}"


def _problems(wheel: Path) -> list[str]:
    problems = []
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            where = f"{wheel.name}: {name}"
            if GENERATOR_TEMPLATE.match(name):
                continue
            problems += [f"{where}: {what}" for what, pattern in TEST_ONLY_PATHS if pattern.search(name)]
            if name.endswith(".so") or ".so." in name:
                data = archive.read(name)
                problems += [f"{where}: holds {what} ({marker.decode()!r})"
                             for what, marker in TEST_ONLY_BYTES if marker in data]
            elif name.startswith("opplugin_codegen/") and name.endswith(".py"):
                if IMPORTS_TORCH.search(archive.read(name)):
                    problems.append(f"{where}: imports torch, which the generator never does (test support "
                                    "that needs torch belongs in packages/opplugin-codegen/tests)")
    return problems


def test_the_wheels_ship_no_test_only_code(label: str) -> None:
    problems = [problem for wheel in _wheels(label) for problem in _problems(wheel)]
    assert not problems, "test-only files in the wheels of dist/" + label + ":\n" + "\n".join(problems)


# (wheel stem, package directory) of the generators, whose templates/*.j2 are package data.
GENERATORS = (("opplugin_codegen", "opplugin-codegen"), ("torchnpugen", "torchnpugen"))


@pytest.mark.parametrize(("stem", "package"), GENERATORS)
def test_the_generator_wheels_hold_every_template(label: str, stem: str, package: str) -> None:
    source = REPO / "packages" / package / "src" / stem
    templates = {f"{stem}/templates/{p.name}" for p in source.glob("templates/*.j2")}
    (wheel,) = [w for w in _wheels(label) if w.name.startswith(f"{stem}-")]
    with zipfile.ZipFile(wheel) as archive:
        missing = sorted(templates - set(archive.namelist()))
    assert templates, f"packages/{package}: no templates"
    assert not missing, f"{wheel.name} lacks {missing}: build it again (`nox -s build -- {label}`)"


def test_the_check_finds_test_only_files(tmp_path: Path) -> None:
    """The rules above catch what they are for (a wheel made here, not the build's)."""
    wheel = tmp_path / "fake-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("ascendc_kernels/testing.py", "")
        archive.writestr("opplugin_codegen/meta_check.py", "import torch\n")
        archive.writestr("opplugin_codegen/api.py", '"""Never imports torch."""\n')
        archive.writestr("opplugin_runtime/_C.so", b"\0TORCH_LIBRARY npu_meta_check\0")
        archive.writestr("opplugin_runtime/__init__.py", "import torch\n")
        archive.writestr("opplugin_codegen/templates/MetaCheckFunctions.cpp.j2", "")  # the generator's
        archive.writestr("opplugin_codegen/templates/MetaCheckFunctions_0.cpp", "")  # generated, not a template
        archive.writestr("opplugin_runtime/test_only/MetaCheckFunctions_0.cpp", "")
    problems = _problems(wheel)
    assert [p.split(": ")[1] for p in problems] == [
        "ascendc_kernels/testing.py",
        "opplugin_codegen/meta_check.py",
        "opplugin_codegen/meta_check.py",
        "opplugin_runtime/_C.so",
        "opplugin_codegen/templates/MetaCheckFunctions_0.cpp",
        "opplugin_runtime/test_only/MetaCheckFunctions_0.cpp",
    ], problems


def _shipped_headers(wheel: Path) -> dict[str, str]:
    """The runtime headers a wheel ships for user extensions: path under include/ -> text."""
    with zipfile.ZipFile(wheel) as archive:
        return {
            name[len(RUNTIME_INCLUDE):]: archive.read(name).decode()
            for name in archive.namelist()
            if name.startswith(RUNTIME_INCLUDE) and name.endswith(".h")
        }


def _header_problems(headers: dict[str, str], csrc: Path) -> list[str]:
    """A shipped header that csrc/ no longer has at that path (a copy left at an old path), and a
    quoted include of a shipped header that neither the wheel nor the toolkit provides."""
    problems = []
    for path, text in sorted(headers.items()):
        if path not in GENERATED_HEADERS and not (csrc / path).is_file():
            problems.append(f"{path}: not a header of packages/opplugin-runtime/csrc")
        for include in QUOTED_INCLUDE.findall(text):
            beside = str(Path(path).parent / include)
            if include not in headers and beside not in headers and not TOOLKIT_INCLUDE.match(include):
                problems.append(f'{path}: #include "{include}" is not in the wheel')
    return problems


def test_the_runtime_wheel_ships_a_complete_set_of_headers(label: str) -> None:
    """An extension compiles against the installed headers alone (with the toolkit's): every
    runtime header a shipped header includes ships too, and nothing ships at a path csrc/ left."""
    wheel = next(w for w in _wheels(label) if w.name.startswith("opplugin_runtime-"))
    headers = _shipped_headers(wheel)
    assert "npu/op_api/op_api_common.h" in headers, sorted(headers)
    problems = _header_problems(headers, RUNTIME_CSRC)
    generated = REPO / "build" / "generated" / label
    problems += [f"{header}: generated for {label} but not in the wheel" for header in sorted(GENERATED_HEADERS)
                 if (generated / header).is_file() and header not in headers]
    assert not problems, f"{wheel.name}:\n" + "\n".join(problems)


def test_the_header_check_finds_stale_and_missing_headers(tmp_path: Path) -> None:
    """The check above catches what it is for (headers made here, not the build's)."""
    csrc = tmp_path / "csrc"
    (csrc / "npu" / "op_api").mkdir(parents=True)
    (csrc / "npu" / "op_api" / "op_api_common.h").write_text("")
    headers = {
        "npu/op_api/op_api_common.h": '#include "acl/acl_rt.h"\n#include "npu/dispatch/PathLedger.h"\n',
        "npu/old_folder/op_api_common.h": '#include "npu/op_api/op_api_common.h"\n',
        "npu/version.h": "",
    }
    assert _header_problems(headers, csrc) == [
        "npu/old_folder/op_api_common.h: not a header of packages/opplugin-runtime/csrc",
        'npu/op_api/op_api_common.h: #include "npu/dispatch/PathLedger.h" is not in the wheel',
    ]
