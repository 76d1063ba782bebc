"""Adding an elementwise operator is the row and the function the package README shows: the
row alone does not compile (the kernel's switch names the missing function), the row with
its function compiles warning-free."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent
KERNELS = PACKAGE / "src" / "kernels"


def readme_example() -> tuple[str, str]:
    """The row and the function of the README's section 'Adding an elementwise operator'."""
    text = (PACKAGE / "README.md").read_text()
    section = text[text.index("## Adding an elementwise operator"):]
    code = section[section.index("```cpp\n") + len("```cpp\n"):section.index("```\n", section.index("```cpp\n") + 7)]
    row = next(line for line in code.splitlines() if line.startswith("ASCENDC_SIM_EW_OP("))
    function = code[code.index("template <typename C>"):].rstrip() + "\n"
    return row, function


def compile_kernel(overlay: Path, source: Path) -> subprocess.CompletedProcess:
    """elementwise_kernel.cpp (or `source`) against the table in `overlay`, syntax only."""
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    import ascendc_kernels  # the generated headers (aclnnop/) come with the package under test

    return subprocess.run(
        [compiler, "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", f"-I{overlay}",
         f"-I{PACKAGE / 'include'}", f"-I{ascendc_kernels.get_include()}", f"-I{PACKAGE / 'src'}", str(source)],
        capture_output=True, text=True)


def test_an_operator_is_one_row_and_one_function(tmp_path):
    row, function = readme_example()
    name = re.match(r"ASCENDC_SIM_EW_OP\((\w+),", row).group(1)
    overlay = tmp_path / "overlay"
    (overlay / "kernels").mkdir(parents=True)
    table = (KERNELS / "elementwise_ops.def").read_text()
    assert name not in table
    (overlay / "kernels" / "elementwise_ops.def").write_text(table + row + "\n")

    row_only = compile_kernel(overlay, KERNELS / "elementwise_kernel.cpp")
    assert row_only.returncode != 0
    assert re.search(rf"{name}.? is not a member of .*ew_ops", row_only.stderr), row_only.stderr

    kernel = (KERNELS / "elementwise_kernel.cpp").read_text()
    end_of_ops = "}  // namespace ew_ops\n"
    assert kernel.count(end_of_ops) == 1
    source = overlay / "kernels" / "elementwise_kernel.cpp"
    source.write_text(kernel.replace(end_of_ops, function + "\n" + end_of_ops))
    with_function = compile_kernel(overlay, source)
    assert with_function.returncode == 0, with_function.stderr
