"""The aclnn declarations (abi/aclnn/*.decl) are the one source of the entry points: the
headers, the exported symbols and the tests' ctypes signatures all follow from them, a
declaration that drifts from its implementation fails the build, and bad declaration files
are reported whole, each problem with its file and line."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ascendc_kernels import get_include, library_path

PACKAGE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PACKAGE / "abi"))
import aclnn_abi  # noqa: E402


def write_decls(tmp_path: Path, files: dict[str, str]) -> Path:
    directory = tmp_path / "aclnn"
    directory.mkdir()
    for name, text in files.items():
        (directory / name).write_text(text)
    return directory


def test_declarations_load_and_cover_both_phases():
    families = aclnn_abi.load()
    apis = aclnn_abi.apis(families)
    assert len(apis) > 100
    add = next(a for a in apis if a.name == "aclnnAdd")
    assert [(p.direction, p.type, p.name) for p in add.params] == [
        ("in", "const aclTensor*", "self"), ("in", "const aclTensor*", "other"),
        ("in", "const aclScalar*", "alpha"), ("out", "aclTensor*", "out")]
    header = aclnn_abi.render_header(next(f for f in families if f.name == "add"))
    assert "aclnnAddGetWorkspaceSize(\n    const aclTensor* self," in header
    assert "uint64_t* workspaceSize,\n    aclOpExecutor** executor);" in header


def test_installed_headers_are_the_generated_ones():
    families = aclnn_abi.load()
    installed = Path(get_include())
    for path, text in aclnn_abi.outputs(families, Path("/generated")).items():
        if path.suffix != ".h":
            continue
        relative = path.relative_to("/generated/include")
        assert (installed / relative).read_text() == text, f"{relative} differs from the declarations"
    shipped = {p.name for p in (installed / "aclnnop").glob("*.h")}
    assert shipped == {Path(f.header).name for f in families}


def test_libopapi_exports_exactly_the_declared_entry_points():
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("nm (binutils) is not installed")
    listing = subprocess.run([nm, "-D", "--defined-only", library_path("opapi")], check=True,
                             capture_output=True, text=True).stdout
    exported = {line.split()[-1] for line in listing.splitlines() if line.strip()}
    declared = set()
    for api in aclnn_abi.apis(aclnn_abi.load()):
        declared |= {api.name, api.get_workspace_size}
    assert exported == declared


def test_every_problem_of_every_file_is_reported_with_its_line(tmp_path):
    directory = write_decls(tmp_path, {
        "good.decl": "# a family\n\naclnnGood(in const aclTensor* self, out aclTensor* out)\n",
        "bad.decl": (
            "# doc\n\n"
            "aclnnOne(sideways const aclTensor* self)\n"            # line 3: direction
            "aclnnTwo(in aclTensorThing* self)\n"                    # line 4: type
            "aclnnThree(out const aclTensor* self)\n"                # line 5: const output
            "aclnnFour(in const aclTensor* self,\n"                  # line 6: spans two lines,
            "          in const aclTensor* self)\n"                  #         duplicate parameter
            "aclnnGood(in const aclTensor* self, out aclTensor* out)\n"  # line 8: again in good.decl
            "notAnApi(in bool flag)\n"                               # line 9
            "aclnnFive(in int64_t executor)\n"                       # line 10: reserved name
        ),
    })
    with pytest.raises(aclnn_abi.AbiError) as caught:
        aclnn_abi.load(directory)
    problems = caught.value.problems
    expected = [
        ("bad.decl:3:", "direction 'sideways'"),
        ("bad.decl:4:", "type 'aclTensorThing*'"),
        ("bad.decl:5:", "'const aclTensor*' is in, not out"),
        ("bad.decl:6:", "parameter 'self' is declared twice"),
        ("good.decl:3:", "aclnnGood is declared in bad.decl:8 already"),
        ("bad.decl:9:", "'notAnApi' is not an aclnn api name"),
        ("bad.decl:10:", "parameter 'executor': the name is reserved"),
    ]
    for where, what in expected:
        assert any(p.startswith(where) and what in p for p in problems), (where, what, problems)
    assert len(problems) == len(expected), problems


def test_the_command_line_names_the_file_and_writes_nothing_on_errors(tmp_path):
    directory = write_decls(tmp_path, {"bad.decl": "aclnnBad(in float* x)\n"})
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, str(PACKAGE / "abi" / "aclnn_abi.py"), "--decl-dir", str(directory),
                             "--out", str(out)], capture_output=True, text=True)
    assert result.returncode == 1
    assert f"{directory}/bad.decl:1: aclnnBad: parameter 'x': type 'float*'" in result.stderr
    assert not out.exists()


def test_unchanged_outputs_keep_their_mtime(tmp_path):
    families = aclnn_abi.load()
    files = aclnn_abi.outputs(families, tmp_path)
    assert len(aclnn_abi.write(files, tmp_path / "include" / "aclnnop")) == len(files)
    assert aclnn_abi.write(files, tmp_path / "include" / "aclnnop") == []
    stale = tmp_path / "include" / "aclnnop" / "aclnn_removed_family.h"
    stale.write_text("")
    aclnn_abi.write(files, tmp_path / "include" / "aclnnop")
    assert not stale.exists()


def _compile_aclnn_source(source: str, generated: Path) -> subprocess.CompletedProcess:
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    return subprocess.run(
        [compiler, "-std=c++17", "-fsyntax-only", f"-I{PACKAGE / 'include'}", f"-I{generated / 'include'}",
         f"-I{PACKAGE / 'src'}", str(PACKAGE / "src" / "aclnn" / source)],
        capture_output=True, text=True)


def test_a_drifted_declaration_fails_the_build_of_its_implementation(tmp_path):
    decls = tmp_path / "aclnn"
    shutil.copytree(PACKAGE / "abi" / "aclnn", decls)
    good = tmp_path / "good"
    aclnn_abi.write(aclnn_abi.outputs(aclnn_abi.load(decls), good), good / "include" / "aclnnop")
    assert _compile_aclnn_source("aclnn_add.cpp", good).returncode == 0

    add = decls / "add.decl"
    text = add.read_text()
    assert "in const aclScalar* alpha" in text
    add.write_text(text.replace("in const aclScalar* alpha", "in double alpha", 1))
    drifted = tmp_path / "drifted"
    aclnn_abi.write(aclnn_abi.outputs(aclnn_abi.load(decls), drifted), drifted / "include" / "aclnnop")
    result = _compile_aclnn_source("aclnn_add.cpp", drifted)
    assert result.returncode != 0
    assert "aclnnAddGetWorkspaceSize" in result.stderr


def _opapi_link_flags(version_script: Path) -> list[str]:
    """libopapi.so's link options as CMakeLists.txt gives them, with `version_script` for the generated one."""
    text = (PACKAGE / "CMakeLists.txt").read_text()
    start = text.index("target_link_options(opapi PRIVATE")
    options = text[start:text.index(")", start)].split()[2:]
    assert "-Wl,--no-undefined-version" in options and "-Wl,--version-script=${GENERATED}/opapi.map" in options
    return [option.replace("${GENERATED}/opapi.map", str(version_script)) for option in options]


def _link_definitions_of(families: list, version_script: Path, out: Path) -> subprocess.CompletedProcess:
    """Links a shared object defining the two entry points of each api of `families` (C linkage, as the
    aclnnop headers declare them) with libopapi.so's flags and `version_script`."""
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    source = out.with_suffix(".cpp")
    source.write_text("".join(f'extern "C" int {name}() {{ return 0; }}\n'
                              for api in aclnn_abi.apis(families) for name in (api.get_workspace_size, api.name)))
    return subprocess.run([compiler, "-shared", "-fPIC", str(source), *_opapi_link_flags(version_script),
                           "-o", str(out)], capture_output=True, text=True)


def test_a_declared_api_that_nothing_defines_fails_the_link(tmp_path):
    decls = tmp_path / "aclnn"
    shutil.copytree(PACKAGE / "abi" / "aclnn", decls)
    defined = aclnn_abi.load(decls)
    script = tmp_path / "opapi.map"
    script.write_text(aclnn_abi.render_version_script(defined))
    linked = _link_definitions_of(defined, script, tmp_path / "libdefined.so")
    assert linked.returncode == 0, linked.stderr

    add = decls / "add.decl"
    add.write_text(add.read_text() + "\naclnnDeclaredButUndefined(in const aclTensor* self, out aclTensor* out)\n")
    declared = aclnn_abi.load(decls)
    assert len(aclnn_abi.apis(declared)) == len(aclnn_abi.apis(defined)) + 1
    script.write_text(aclnn_abi.render_version_script(declared))
    failed = _link_definitions_of(defined, script, tmp_path / "libmissing.so")
    assert failed.returncode != 0
    assert "aclnnDeclaredButUndefined" in failed.stderr
