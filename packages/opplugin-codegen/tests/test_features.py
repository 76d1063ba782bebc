"""Generated code per YAML key, beyond the basics of test_generated_code.py: cpu_scalar_h2d,
cpu_scalar_op, integral_identity_tensor, sparse, dvm, deprecated.yaml, and the support
matrix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from opplugin_codegen import load_model, render_label
from opplugin_codegen.api import generate_matrix
from opplugin_codegen.cli import main
from opplugin_codegen_testing import PROJECT_YAML, RICH_YAML, expanded, make_yaml_dir, snapshot


def function(files: dict[str, str], prefix: str, head: str) -> str:
    """The definition starting with ``head`` in ``op_plugin/<prefix>_<k>.cpp``."""
    for name, text in sorted(files.items()):
        if not name.startswith(f"op_plugin/{prefix}_"):
            continue
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if line.startswith(head):
                start = i - 1 if i and lines[i - 1].startswith("// ") else i
                end = lines.index("}", i)
                return "\n".join(lines[start : end + 1]) + "\n"
    raise AssertionError(f"{head!r} not found in {prefix}_*.cpp")


@pytest.fixture(scope="module")
def rich() -> dict[str, str]:
    return render_label(load_model(RICH_YAML), "v2.13")


@pytest.fixture(scope="module")
def project() -> dict[str, str]:
    return render_label(load_model(PROJECT_YAML), "v2.13")


# -- gen_opapi: cpu_scalar_h2d / cpu_scalar_op / integral_identity_tensor ---------------


def test_cpu_scalar_h2d_copies_and_uses_the_copy(rich: dict[str, str]) -> None:
    text = function(rich, "StructKernelNpuOpApi", "at::Tensor& sub_out(")
    assert (
        "  at::Tensor other_cp = other;\n"
        "  if (at_npu::native::OpPreparation::IsCPUScalar(other)) {\n"
        "    other_cp = at_npu::native::OpPreparation::copy_scalar_to_device(\n"
        "        other.item(), other.scalar_type(), self.device());\n"
        "  }\n"
    ) in text
    # exec and check_tensor take the copy; size/dtype read the original (same metadata,
    # and a wrapped Python number keeps its type-promotion rank).
    assert "check_tensor({self, other_cp}, out, output_dtype_0, output_size_0);" in text
    assert "EXEC_NPU_CMD(aclnnSub, self, other_cp, alpha, out);" in text
    assert "auto output_dtype_0 = at::result_type(self, other);" in text


def test_cpu_scalar_h2d_of_every_tensor_uses_the_current_device(rich: dict[str, str]) -> None:
    text = function(rich, "StructKernelNpuOpApi", "at::Tensor div(")
    assert "copy_scalar_to_device(\n        self.item(), self.scalar_type());" in text
    assert "copy_scalar_to_device(\n        other.item(), other.scalar_type());" in text
    # the output takes its options (device) from the copy
    assert "output_size_0, self_cp.options().dtype(output_dtype_0));" in text
    assert "EXEC_NPU_CMD(aclnnDiv, self_cp, other_cp, out);" in text


def test_cpu_scalar_op_branch(rich: dict[str, str]) -> None:
    text = function(rich, "StructKernelNpuOpApi", "at::Tensor sub(")
    assert "  DO_COMPATIBILITY(aclnnSub, acl_op::sub(self, other, alpha));\n" in text
    assert "  DO_COMPATIBILITY(aclnnSubs, acl_op::sub(self, other, alpha));\n" in text
    assert (
        "  if (at_npu::native::OpPreparation::IsCPUScalar(other)) {\n"
        "    const at::Scalar other_scalar = other.item();\n"
        "    EXEC_NPU_CMD(aclnnSubs, self, other_scalar, alpha, out);\n"
        "    return out;\n"
        "  }\n"
        "  EXEC_NPU_CMD(aclnnSub, self, other, alpha, out);\n"
    ) in text
    assert text.index("apply_tensor_without_format") < text.index("IsCPUScalar(other)")


def test_cpu_scalar_op_with_explicit_args_and_h2d(rich: dict[str, str]) -> None:
    text = function(rich, "StructKernelNpuOpApi", "at::Tensor where(")
    assert "self.item(), self.scalar_type(), condition.device());" in text
    assert "EXEC_NPU_CMD(aclnnWhereScalar, condition, self_cp, other_scalar, out);" in text
    assert "EXEC_NPU_CMD(aclnnSWhere, condition, self_cp, other_cp, out);" in text
    assert "DO_COMPATIBILITY" not in text  # no acl_op


def test_integral_identity_out_and_inplace(rich: dict[str, str]) -> None:
    floor_out = function(rich, "StructKernelNpuOpApi", "at::Tensor& floor_out(")
    assert (
        "  if (at::isIntegralType(self.scalar_type(), /*includeBool=*/false)) {\n"
        "    out.copy_(self);\n"
        "    return out;\n"
        "  }\n"
    ) in floor_out
    assert floor_out.index("check_tensor") < floor_out.index("isIntegralType")
    floor_ = function(rich, "StructKernelNpuOpApi", "at::Tensor& floor_(")
    assert (
        "  if (at::isIntegralType(self.scalar_type(), /*includeBool=*/false)) {\n"
        "    return self;\n"
        "  }\n"
        "  EXEC_NPU_CMD(aclnnInplaceFloor, self);\n"
    ) in floor_
    assert "acl_op" not in floor_out + floor_  # no acl_op kernel needed


def test_new_params_in_explicit_exec(rich: dict[str, str]) -> None:
    text = function(rich, "StructKernelNpuOpApi", "at::Tensor npu_scaled_add(")
    assert "  auto scale_f = static_cast<float>(scale);\n" in text
    assert "EXEC_NPU_CMD(aclnnScaledAdd, self, other, scale_f, result);" in text


# -- sparse / dvm / deprecated ----------------------------------------------------------


def test_sparse_forwarders(rich: dict[str, str]) -> None:
    assert "op_plugin/SparseOpsInterface.h" in rich
    header = rich["op_plugin/SparseOpsInterface.h"]
    assert "namespace sparse {" in header
    assert "at::Tensor _coalesce_sparse(const at::Tensor& self);  // _coalesce\n" in header
    decls = expanded(rich, "op_plugin/OpInterface.h")
    assert "at::Tensor _coalesce_sparse(const at::Tensor& self);  // _coalesce (sparse)" in decls
    assert " _coalesce(" not in decls  # sparse only: no dense op_plugin::_coalesce
    assert (
        "at::Tensor mse_loss_sparse(\n    const at::Tensor& self,\n    const at::Tensor& target,\n"
        "    int64_t reduction = at::Reduction::Mean);  // mse_loss (sparse)"
    ) in decls
    fwd = function(rich, "OpInterface", "at::Tensor mse_loss_sparse(")
    assert fwd.startswith("// mse_loss  sparse: [v2.5, newest]  (rich/op_plugin_functions.yaml)")
    assert "  return sparse::mse_loss_sparse(self, target, reduction);\n" in fwd
    v21 = render_label(load_model(RICH_YAML), "v2.1")
    assert "mse_loss_sparse" not in expanded(v21, "op_plugin/OpInterface.h")


def test_dvm_branch(rich: dict[str, str]) -> None:
    text = function(rich, "OpInterface", "at::Tensor sub(")
    assert (
        "    if (lazy_fusion::IsEnabled()) {\n"
        '      NPU_PATH_TAKEN("sub.Tensor", Dvm);\n'
        "      return lazy_fusion::sub(self, other, alpha);\n"
        "    }\n"
        '    NPU_PATH_TAKEN("sub.Tensor", OpApi);\n'
    ) in text
    assert "dvm: [v2.6, newest]" in text.splitlines()[0]
    out = function(rich, "OpInterface", "at::Tensor& sub_out(")
    assert "  if (lazy_fusion::IsEnabled()) {\n" in out  # op_api only, internal format
    assert "NpuDecideBaseFormat" not in out
    header = rich["op_plugin/DvmOpsInterface.h"]
    assert "namespace lazy_fusion {" in header and "at::Tensor sub(" in header
    shard = next(t for n, t in rich.items() if "OpInterface_" in n and "at::Tensor sub(const" in t)
    assert '#include "npu/dispatch/LazyFusion.h"\n' in shard
    assert '#include "op_plugin/DvmOpsInterface.h"\n' in shard
    v21 = render_label(load_model(RICH_YAML), "v2.1")
    assert "lazy_fusion::sub(self" not in "".join(v21.values())  # dvm starts at v2.6


def test_no_sparse_or_dvm_files_without_such_entries(project: dict[str, str]) -> None:
    assert "op_plugin/SparseOpsInterface.h" not in project
    assert "op_plugin/DvmOpsInterface.h" not in project
    text = "".join(project.values())
    assert "lazy_fusion" not in text and "sparse::" not in text


def test_deprecation_warns_once(rich: dict[str, str]) -> None:
    cast = function(rich, "OpInterface", "at::Tensor npu_format_cast(")
    assert (
        '  TORCH_WARN_ONCE("torch_npu.npu_format_cast is deprecated on the npu backend and '
        'will be "\n'
    ) in cast
    assert '"explicit acl_format instead.");' in cast
    gelu = function(rich, "OpInterface", "at::Tensor gelu(")
    assert 'TORCH_WARN_ONCE("gelu is deprecated on the npu backend' in gelu
    assert "instead" not in gelu.split("TORCH_CHECK")[0]  # no replacement given
    assert "TORCH_WARN_ONCE" not in function(rich, "OpInterface", "at::Tensor clone(")


ABS_OPS = """\
official:
  - func: abs(Tensor self) -> Tensor
    op_api: all_version
  - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
    op_api: all_version
"""


@pytest.mark.parametrize(
    "listed,warned",
    [(["abs"], ["abs"]), (["abs.out"], ["abs.out"]), (["abs", "abs.out"], ["abs", "abs.out"])],
)
def test_deprecation_names_one_overload_each(
    tmp_path: Path, listed: list[str], warned: list[str]
) -> None:
    yaml_dir = make_yaml_dir(tmp_path, ABS_OPS)
    (yaml_dir / "deprecated.yaml").write_text(
        "deprecated:\n" + "".join(f"  - name: {name}\n" for name in listed)
    )
    files = render_label(load_model(yaml_dir), "v2.13")
    heads = {"abs": "at::Tensor abs(", "abs.out": "at::Tensor& abs_out("}
    for name, head in heads.items():
        warns = "TORCH_WARN_ONCE" in function(files, "OpInterface", head)
        assert warns == (name in warned), (name, listed)


def test_generated_function_comment_names_entry_and_ranges(rich: dict[str, str]) -> None:
    for name, text in rich.items():
        if not name.endswith(".cpp"):
            continue
        lines = text.splitlines()
        for i, line in enumerate(lines):
            skip = (" ", "/", "#", "}", "TORCH_", "namespace", "using")
            if line and not line.startswith(skip) and line.endswith(("{", "(")):
                around = "\n".join(lines[max(0, i - 1) : i + 8])
                assert "(rich/op_plugin_functions.yaml)" in around, around


# -- support matrix ----------------------------------------------------------------------


def test_support_matrix(tmp_path: Path) -> None:
    report = generate_matrix(RICH_YAML, tmp_path)
    assert sorted(report.written) == ["support_matrix.json", "support_matrix.md"]
    doc = json.loads((tmp_path / "support_matrix.json").read_text())
    ops = {o["name"]: o for o in doc["operators"]}
    assert doc["labels"][0] == "v2.1" and doc["labels"][-1] == "v2.15"
    assert ops["_coalesce"]["labels"]["v2.1"] == ["sparse"]
    assert ops["sub.Tensor"]["labels"]["v2.5"] == ["acl_op", "gen_opapi"]
    assert ops["sub.Tensor"]["labels"]["v2.6"] == ["acl_op", "gen_opapi", "dvm"]
    assert ops["mul.out"]["labels"]["v2.1"] == ["acl_op"]
    assert ops["mul.out"]["labels"]["v2.13"] == ["gen_opapi"]
    assert ops["sum.dim_DimnameList"]["labels"]["v2.13"] == []
    assert len(ops["stft"]["yaml"]) == 2  # two entries, one row
    md = (tmp_path / "support_matrix.md").read_text()
    assert "| `sub.Tensor` | official | AG | AG | AG | AG | AG | AGD |" in md
    assert "| `_coalesce` | official | S |" in md
    assert "- `G` gen_opapi: aclnn kernel generated from the YAML (op_api::)" in md


def test_matrix_cli_is_deterministic_and_write_if_changed(tmp_path: Path) -> None:
    out = tmp_path / "m"
    assert main(["matrix", "--yaml-dir", str(RICH_YAML), "--out", str(out), "-q"]) == 0
    before = snapshot(out)
    assert main(["matrix", "--yaml-dir", str(RICH_YAML), "--out", str(out), "-q"]) == 0
    assert snapshot(out) == before
    assert sorted(before) == ["support_matrix.json", "support_matrix.md"]  # no manifest


def test_matrix_shows_what_each_labels_last_test_run_proved(tmp_path: Path) -> None:
    runs = [
        {
            "label": "v2.1",
            "torch": "2.1.2",
            "date": "2026-12-01",
            "commit": "43cb61cbe7",
            "passed": 5997,
            "skipped": 40,
            "xfailed": 12,
            "failed": 0,
            "errors": 0,
            "selection": "-m not slow and not differential",
        },
        {
            "label": "v2.5",
            "torch": "2.5.1",
            "date": "2026-12-02",
            "passed": 5000,
            "skipped": 40,
            "xfailed": 12,
            "failed": 3,
            "errors": 0,
            "selection": "-m not slow and not differential",
        },
    ]
    proven = tmp_path / "proven.json"
    proven.write_text(json.dumps(runs))
    out = tmp_path / "m"
    args = ["matrix", "--yaml-dir", str(RICH_YAML), "--out", str(out), "--proven", str(proven)]
    assert main([*args, "-q"]) == 0
    doc = json.loads((out / "support_matrix.json").read_text())
    assert doc["proven"]["v2.1"]["state"] == "proven" and doc["proven"]["v2.1"]["torch"] == "2.1.2"
    assert doc["proven"]["v2.5"]["state"] == "failing" and doc["proven"]["v2.5"]["failed"] == 3
    assert doc["proven"]["v2.15"] == {"state": "declared"}
    md = (out / "support_matrix.md").read_text()
    assert "| v2.1 | proven | 2.1.2 | 2026-12-01 | 43cb61cbe7 | 5997 | 40 | 12 | 0 | 0 |" in md
    # a run recorded before runs named their commit
    assert "| v2.5 | failing | 2.5.1 | 2026-12-02 |  | 5000 | 40 | 12 | 3 | 0 |" in md
    assert "| v2.15 | declared |" in md


def test_matrix_of_invalid_yaml_writes_nothing(tmp_path: Path) -> None:
    d = make_yaml_dir(tmp_path, "official:\n  - func: abs(Tensor self) -> Tensor\n    op_api: v9\n")
    out = tmp_path / "m"
    assert main(["matrix", "--yaml-dir", str(d), "--out", str(out)]) == 1
    assert not out.exists()
