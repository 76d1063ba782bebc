"""The op_plugin:: C++ signature has two engines: opplugin-codegen declares the functions
(its own schema-to-C++ mapping, no torch), torchnpugen calls them from the wrappers it builds
with torchgen's native API. contracts.md section 2 says they agree; this checks it token for
token (name, types, C++ defaults) over every entry of the project's YAML and of an
upstream-sized synthetic one, in this label's torchgen."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _tokens(text: str) -> list[str]:
    return re.findall(r"\w+|::|\S", text)


def _torchgen_declaration(func: str, name: str, *, symint: bool, const_ref: bool) -> str:
    """The declaration as torchnpugen's kernel_declaration spells a native signature."""
    import torchgen.local as local
    from torchgen.api.types import NativeSignature
    from torchgen.model import FunctionSchema
    from torchnpugen.compat import cpp_default, cpp_spelling

    with local.parametrize(use_const_ref_for_mutable_tensors=const_ref, use_ilistref_for_tensor_lists=False):
        sig = NativeSignature(FunctionSchema.parse(func), symint=symint)
        args = []
        for b in sig.arguments():
            default = "" if b.default is None else " = " + cpp_default(b.default)
            args.append(f"{cpp_spelling(b.type)} {b.name}{default}")
        return f"{cpp_spelling(sig.returns_type().cpp_type())} {name}({', '.join(args)})"


def _disagreements(yaml_dir: Path) -> tuple[int, list[str]]:
    from opplugin_codegen import load_model
    from opplugin_codegen.model import CODE_SECTIONS

    model = load_model(yaml_dir)
    symint = {e.name for e in model.entries if e.section == "symint"}
    compared, wrong = 0, []
    for e in model.entries:
        if e.section not in CODE_SECTIONS:
            continue
        ours = e.cpp_signature(e.name in symint)
        theirs = _torchgen_declaration(
            e.func,
            ours.name,
            symint=e.name in symint,
            const_ref=bool(e.passthrough.get("use_const_ref_for_mutable_tensors")),
        )
        compared += 1
        if _tokens(ours.declaration(with_defaults=True)) != _tokens(theirs):
            wrong.append(f"{e.loc}: {e.name}\n  opplugin-codegen: {ours.declaration(with_defaults=True)}\n"
                         f"  torchgen:         {theirs}")  # fmt: skip
    return compared, wrong


def test_the_projects_entries_have_one_signature() -> None:
    compared, wrong = _disagreements(REPO / "yaml")
    assert compared > 150
    assert wrong == [], "\n".join(wrong)


@pytest.fixture(scope="module")
def synthetic_yaml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("synthetic") / "yaml"
    subprocess.run([sys.executable, str(REPO / "bench" / "make_synthetic_yaml.py"), "--out", str(out)],
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    return out


def test_an_upstream_sized_files_entries_have_one_signature(synthetic_yaml: Path) -> None:
    compared, wrong = _disagreements(synthetic_yaml)
    assert compared > 1400
    assert wrong == [], "\n".join(wrong)
