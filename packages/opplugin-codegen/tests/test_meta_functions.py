"""Meta functions from gen_opapi size/dtype (op_plugin/MetaFunctions_<k>.cpp: custom ops'
Meta kernels; test_only/MetaCheckFunctions_<k>.cpp: the checking operators of aten ops).

The text tests read the generated C++; the end-to-end test builds both kinds of shard of
tests/data/meta (right and deliberately wrong size:/dtype: facts, custom ops) into a small
extension in a fresh interpreter and shows that the checks catch the wrong facts, that the
right ones agree with PyTorch's Meta kernels and with real kernels, and that FakeTensor and
torch.compile trace custom ops through the generated Meta kernels.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from opplugin_codegen import load_model, render_label
from opplugin_codegen.gen_meta import check_schema, meta_functions, render_meta_shards
from opplugin_codegen.projection import project
from opplugin_codegen.schema import parse_schema
from opplugin_codegen_testing import (
    DATA,
    PROJECT_YAML,
    RICH_YAML,
    make_yaml_dir,
    subprocess_env,
    torch_include_dirs,
)

META_YAML = DATA / "meta"


def meta_text(files: dict[str, str]) -> str:
    """Every Meta function shard, the product's and the test-only ones."""
    return "".join(v for k, v in sorted(files.items()) if "MetaFunctions_" in k) + check_text(files)


def check_text(files: dict[str, str]) -> str:
    return "".join(v for k, v in sorted(files.items()) if k.startswith("test_only/MetaCheck"))


def product_text(files: dict[str, str]) -> str:
    return "".join(v for k, v in sorted(files.items()) if k.startswith("op_plugin/MetaFunctions_"))


def test_project_meta_functions() -> None:
    text = meta_text(render_label(load_model(PROJECT_YAML), "v2.13"))
    assert (
        "at::Tensor floor_divide(const at::Tensor& self, const at::Tensor& other) {\n"
        "  auto output_size_0 = broadcast_ops_npu_output_size(self, other);\n"
        "  auto output_dtype_0 = at::result_type(self, other);\n"
        "  at::Tensor out = at::empty(\n"
        "      output_size_0, self.options().dtype(output_dtype_0).device(c10::kMeta));\n"
        "  return out;\n"
        "}\n"
    ) in text
    assert 'm.def("abs(Tensor self) -> Tensor");' in text  # functional, via abs.out's block
    assert 'm.def("abs.out(Tensor self) -> Tensor");' in text  # out= turned functional
    assert 'm.impl("abs.out", TORCH_FN(op_plugin::meta::abs_out));' in text
    assert "TORCH_LIBRARY_FRAGMENT(npu_meta_check, m) {" in text
    assert "TORCH_LIBRARY_IMPL(npu_meta_check, Meta, m) {" in text
    assert "//   abs_: in-place (the result is self)" in text
    assert "TORCH_LIBRARY_IMPL(npu, Meta" not in text  # no custom ops in the project yet


def test_wrong_yaml_facts_change_the_meta_function(tmp_path: Path) -> None:
    """The meta function is built from the same size:/dtype: text as the kernel."""
    good = PROJECT_YAML.joinpath("op_plugin_functions.yaml").read_text()
    bad = good.replace("dtype: at::result_type(self, other)", "dtype: self")
    assert bad != good
    d = make_yaml_dir(tmp_path, bad)
    files = render_label(load_model(d), "v2.13")
    text = meta_text(files)
    assert "auto output_dtype_0 = self.scalar_type();" in text.split("at::Tensor floor_divide(")[1]
    kernels = "".join(v for k, v in files.items() if "StructKernel" in k)
    kernel = kernels.split("at::Tensor floor_divide(")[1]
    assert "auto output_dtype_0 = self.scalar_type();" in kernel


def test_check_schema_is_functional_and_int() -> None:
    s = parse_schema(
        "max.dim_max(Tensor(a) self, SymInt dim, bool keepdim=False, *, Tensor(a!) max, "
        "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)"
    )
    assert str(check_schema(s)) == (
        "max.dim_max(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
    )


def test_skip_reasons_and_custom_registration() -> None:
    view = project(load_model(RICH_YAML), "v2.13")
    functions, skipped = meta_functions(view)
    reasons = {op.name: reason for op, reason in skipped}
    assert reasons["_softmax_backward_data.out"].startswith("structured: true")
    assert reasons["max.dim_max"] == "out argument(s) max, max_values lack size or dtype"
    assert reasons["mul_.Tensor"] == "in-place (the result is self)"
    custom = {fn.op.name for fn in functions if fn.custom}
    assert custom >= {"npu_fast_gelu", "npu_scaled_add", "npu_scaled_add.out", "npu_scaled_add_"}
    text = meta_text(render_label(load_model(RICH_YAML), "v2.13"))
    assert 'm.impl("npu_scaled_add.out", TORCH_FN(op_plugin::meta::npu_scaled_add_out));' in text
    # The dispatcher's signature for custom ops: SymInt types, guarded to the int64 values
    # the YAML's expressions use; unused parameters are unnamed (-Wextra clean).
    assert (
        "at::Tensor npu_fill_shape(\n    const at::Tensor& self,\n"
        "    c10::SymIntArrayRef size_sym,\n    c10::SymInt /*fill_dim*/,\n"
        "    c10::optional<c10::SymInt> /*extra*/) {\n"
    ) in text
    assert "size_values.push_back(value.guard_int(__FILE__, __LINE__));" in text
    # A tensor-named size stays symbolic for custom ops (dynamic shapes in torch.compile).
    assert "auto output_size_0 = self.sym_sizes();" in text
    assert "at::Tensor result = at::empty_symint(" in text
    # Custom out=: check the cast and resize; in-place: self.
    out = text.split("at::Tensor& npu_scaled_add_out(")[1].split("\n}\n")[0]
    assert "TORCH_CHECK(c10::canCast(output_dtype_0, out.scalar_type())," in out
    assert "out.resize__symint(output_size_0);" in out
    # The op_infer size helpers take their SymInt form in custom ops (torch 2.1 refuses
    # sizes() on symbolic shapes; later releases would specialise).
    assert (
        "auto output_size_0 = "
        "at::infer_size_symdimvector(self.sym_sizes(), other.sym_sizes());" in out
    )
    assert "  return self;\n" in text.split("at::Tensor& npu_scaled_add_(")[1]


def test_meta_check_namespace_is_configurable() -> None:
    files = render_meta_shards(project(load_model(META_YAML), "v2.13"), 1, "npu_meta_fixture")
    text = files["test_only/MetaCheckFunctions_0.cpp"]
    assert "TORCH_LIBRARY_FRAGMENT(npu_meta_fixture, m) {" in text
    assert "npu_meta_check" not in "".join(files.values())


def test_checking_operators_are_apart_from_the_custom_ops_meta_kernels() -> None:
    """The runtime compiles op_plugin/; the checking operators, which only tests call, are in
    test_only/ (built by the tests), and each side notes only the ops of its kind left out."""
    files = render_label(load_model(RICH_YAML), "v2.13")
    product, checks = product_text(files), check_text(files)
    assert "TORCH_LIBRARY_IMPL(npu, Meta, m) {" in product
    assert "npu_meta_check" not in product
    assert "//   mul_.Tensor: in-place (the result is self)" not in product
    assert "TORCH_LIBRARY_FRAGMENT(npu_meta_check, m) {" in checks
    assert "TORCH_LIBRARY_IMPL(npu, Meta" not in checks
    assert "npu_scaled_add" not in checks
    assert "//   mul_.Tensor: in-place (the result is self)" in checks
    shards = {k for k in files if "Meta" in k}
    assert shards == {
        *(f"op_plugin/MetaFunctions_{k}.cpp" for k in range(4)),
        *(f"test_only/MetaCheckFunctions_{k}.cpp" for k in range(4)),
    }


def _can_build() -> bool:
    return (
        shutil.which("g++") is not None
        and torch_include_dirs() is not None
        and importlib.util.find_spec("ninja") is not None
    )


@pytest.mark.skipif(not _can_build(), reason="needs g++, torch headers and ninja")
def test_generated_meta_functions_end_to_end(tmp_path: Path) -> None:
    gen = tmp_path / "gen"
    for rel, text in render_meta_shards(
        project(load_model(META_YAML), "v2.13"), 1, "npu_meta_fixture"
    ).items():
        (gen / rel).parent.mkdir(parents=True, exist_ok=True)
        (gen / rel).write_text(text)
    script = Path(__file__).with_name("meta_fixture_check.py")
    bin_dir = str(Path(sys.executable).parent)
    env = subprocess_env(PATH=f"{bin_dir}:{subprocess_env().get('PATH', '')}")
    r = subprocess.run(
        [sys.executable, str(script), str(gen), str(tmp_path / "build")],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-4000:]
    result = json.loads(r.stdout.strip().splitlines()[-1])

    # Right facts agree with PyTorch's Meta kernels and with the real (CPU) kernels.
    for op in ("mul.Tensor", "abs.out"):
        assert result[op]["mismatches"] == [], op
        assert result[op]["compared"] >= 10 and result[op]["on_device"] >= 10
    # The deliberately wrong dtype: (add promotes) and size: (sub broadcasts) are caught.
    add = result["add.Tensor"]["mismatches"]
    assert (
        "add.Tensor(int64[2, 3], float32[2, 3]): the YAML's size/dtype give int64[2, 3], "
        "PyTorch's Meta kernel gives float32[2, 3]"
    ) in add
    sub = result["sub.out"]["mismatches"]
    assert (
        "sub.out(float32[2, 3], float32[3]): the YAML's size/dtype give float32[2, 3], "
        "PyTorch's Meta kernel gives float32[2, 3]"
    ) not in sub
    assert any("float32[4, 1, 3], PyTorch's Meta kernel gives float32[4, 2, 3]" in m for m in sub)
    # Custom ops: Meta kernel == real kernel; FakeTensor and torch.compile trace them.
    assert result["npu::npu_fixture_scaled_add"]["mismatches"] == []
    assert result["npu::npu_fixture_like"]["mismatches"] == []
    assert result["fake"] == {
        "scaled_add": [[4, 2, 3], "torch.float32"],
        "expand": [[5, 6], "torch.float32"],
        "out": [[4, 2, 3], "torch.float64"],
        "inplace_is_self": True,
    }
    assert result["compile"] == "ok"
