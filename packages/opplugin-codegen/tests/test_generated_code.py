"""Generated C++ for the project's YAML and for the rich fixture (contracts.md 2-4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from opplugin_codegen import load_model, render_label
from opplugin_codegen.errors import CodegenError
from opplugin_codegen_testing import (
    PROJECT_YAML,
    RICH_YAML,
    expanded,
    line_of,
    make_yaml_dir,
    namespace_text,
)


def files_of(yaml_dir: Path, label: str, shards: int = 4) -> dict[str, str]:
    return render_label(load_model(yaml_dir), label, shards)


def function(files: dict[str, str], prefix: str, head: str) -> str:
    """The definition starting with ``head`` in the shards named ``prefix``_<k>.cpp,
    including the comment line right above it (if any), up to its closing brace."""
    for name, text in files.items():
        if not name.startswith(f"op_plugin/{prefix}_"):
            continue
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if line.startswith(head):
                start = i - 1 if i and lines[i - 1].startswith("// ") else i
                end = lines.index("}", i)
                return "\n".join(lines[start : end + 1]) + "\n"
    raise AssertionError(f"{head!r} not found in {prefix}_*.cpp")


def src(yaml_dir: Path, func_prefix: str) -> str:
    """The source note of a generated function: the YAML file (the entry is named before it)."""
    assert line_of(yaml_dir / "op_plugin_functions.yaml", f"- func: {func_prefix}")
    return f"({yaml_dir.name}/op_plugin_functions.yaml)"


# -- the project's YAML, v2.13 ----------------------------------------------------------


@pytest.fixture(scope="module")
def project_files() -> dict[str, str]:
    return files_of(PROJECT_YAML, "v2.13")


def test_file_set(project_files: dict[str, str]) -> None:
    families = {n for n in project_files if n.startswith("op_plugin/ops/")}
    assert {"op_plugin/ops/add.h", "op_plugin/ops/_foreach_add.h"} <= families
    assert set(project_files) - families == {
        "op_plugin/config/op_plugin_functions.yaml",
        "op_plugin/config/derivatives.yaml",
        "op_plugin/OpInterface.h",
        "op_plugin/OpApiInterface.h",
        "op_plugin/AclOpsInterface.h",
        *(f"op_plugin/OpInterface_{k}.cpp" for k in range(4)),
        *(f"op_plugin/StructKernelNpuOpApi_{k}.cpp" for k in range(4)),
        *(f"op_plugin/MetaFunctions_{k}.cpp" for k in range(4)),
        *(f"test_only/MetaCheckFunctions_{k}.cpp" for k in range(4)),
        "npu/version.h",
    }


def test_headers(project_files: dict[str, str]) -> None:
    assert '#include "op_plugin/ops/add.h"\n' in project_files["op_plugin/OpInterface.h"]
    op = expanded(project_files, "op_plugin/OpInterface.h")
    assert "#pragma once\n" in op and "namespace op_plugin {" in op
    assert "#include <ATen/core/Tensor.h>\n" in op
    assert (
        "at::Tensor add(const at::Tensor& self, const at::Tensor& other, "
        "const at::Scalar& alpha = 1);  // add.Tensor\n"
    ) in op
    assert "at::Tensor& abs_out(const at::Tensor& self, at::Tensor& out);  // abs.out\n" in op
    api = namespace_text(expanded(project_files, "op_plugin/OpApiInterface.h"), "op_api")
    acl = namespace_text(expanded(project_files, "op_plugin/AclOpsInterface.h"), "acl_op")
    assert api and acl
    assert "alpha = 1" not in api and "alpha = 1" not in acl  # defaults only in op_plugin::
    assert "at::Tensor abs(const at::Tensor& self);" in api
    assert "at::Tensor abs(const at::Tensor& self);" in acl  # abs has both paths
    assert "npu_add_relu" not in acl  # npu_add_relu has no acl_op path
    assert "at::Tensor mul(const at::Tensor& self, const at::Tensor& other);" in acl


def test_abs_family_from_gen_opapi(project_files: dict[str, str]) -> None:
    s = lambda p: src(PROJECT_YAML, p)  # noqa: E731
    assert (
        function(project_files, "StructKernelNpuOpApi", "at::Tensor abs(")
        == f"""\
at::Tensor abs(const at::Tensor& self) {{
  // abs  acl_op: all_version  op_api: all_version  gen_opapi via abs.out  {s("abs(")}
  DO_COMPATIBILITY(aclnnAbs, acl_op::abs(self));
  auto output_size_0 = self.sizes();
  auto output_dtype_0 = c10::toRealValueType(self.scalar_type());
  at::Tensor out = at_npu::native::OpPreparation::apply_tensor_without_format(
      output_size_0, self.options().dtype(output_dtype_0));
  EXEC_NPU_CMD(aclnnAbs, self, out);
#if __has_include(<ATen/NamedTensorUtils.h>)
  at::namedinference::propagate_names(out, self);
#endif
  return out;
}}
"""
    )
    assert (
        function(project_files, "StructKernelNpuOpApi", "at::Tensor& abs_out(")
        == f"""\
at::Tensor& abs_out(const at::Tensor& self, at::Tensor& out) {{
  // abs.out  acl_op: all_version  op_api: all_version  gen_opapi  {s("abs.out(")}
  DO_COMPATIBILITY(aclnnAbs, acl_op::abs_out(self, out));
  auto output_size_0 = self.sizes();
  auto output_dtype_0 = c10::toRealValueType(self.scalar_type());
  at_npu::native::OpPreparation::check_tensor({{self}}, out, output_dtype_0, output_size_0);
  EXEC_NPU_CMD(aclnnAbs, self, out);
#if __has_include(<ATen/NamedTensorUtils.h>)
  at::namedinference::propagate_names(out, self);
#endif
  return out;
}}
"""
    )
    assert (
        function(project_files, "StructKernelNpuOpApi", "at::Tensor& abs_(")
        == f"""\
at::Tensor& abs_(at::Tensor& self) {{
  // abs_  acl_op: all_version  op_api: all_version  gen_opapi via abs.out  {s("abs_(")}
  return op_api::abs_out(self, self);
}}
"""
    )
    # with an acl_op path: the dual-path choice, base-format inputs only on op_api
    assert (
        function(project_files, "OpInterface", "at::Tensor abs(")
        == f"""\
// abs  acl_op: all_version  op_api: all_version  {s("abs(")}
at::Tensor abs(const at::Tensor& self) {{
  if ((at_npu::native::NpuDecideForceAclnn("abs") ||
       at_npu::native::NpuDecideJitDisabled("abs")) &&
      at_npu::native::NpuDecideBaseFormat("abs", "self", self)) {{
    NPU_PATH_TAKEN("abs", OpApi);
    return op_api::abs(self);
  }}
  if (at_npu::native::NpuDecideAclnnOnly("abs")) {{
    TORCH_CHECK(false,
                "abs: acl_op kernels cannot run on this aclnn-only device, and the op_api "
                "path needs jit compile disabled (or the op in FORCE_ACLNN_OP_LIST) and "
                "base-format inputs");
  }}
  NPU_PATH_TAKEN("abs", AclOp);
  return acl_op::abs(self);
}}
"""
    )
    # no acl_op path -> no DO_COMPATIBILITY, op_api-only dispatch
    assert "DO_COMPATIBILITY(aclnnNpuAddRelu" not in "".join(project_files.values())
    assert (
        '  TORCH_CHECK(at_npu::native::NpuDecideBaseFormat("npu_add_relu", "self", self) &&\n'
        '              at_npu::native::NpuDecideBaseFormat("npu_add_relu", "other", other),\n'
        '              "npu_add_relu: the op_api kernel accepts only base-format (ND, NCHW, "\n'
        '              "NHWC, NCDHW) tensors, and there is no acl_op kernel in v2.13");\n'
    ) in function(project_files, "OpInterface", "at::Tensor npu_add_relu(")


def test_add_family_dual_path(project_files: dict[str, str]) -> None:
    s = lambda p: src(PROJECT_YAML, p)  # noqa: E731
    assert (
        function(project_files, "OpInterface", "at::Tensor add(")
        == f"""\
// add.Tensor  acl_op: all_version  op_api: all_version  {s("add.Tensor(")}
at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {{
  if ((at_npu::native::NpuDecideForceAclnn("add.Tensor") ||
       at_npu::native::NpuDecideJitDisabled("add.Tensor")) &&
      at_npu::native::NpuDecideBaseFormat("add.Tensor", "self", self) &&
      at_npu::native::NpuDecideBaseFormat("add.Tensor", "other", other)) {{
    NPU_PATH_TAKEN("add.Tensor", OpApi);
    return op_api::add(self, other, alpha);
  }}
  if (at_npu::native::NpuDecideAclnnOnly("add.Tensor")) {{
    TORCH_CHECK(false,
                "add.Tensor: acl_op kernels cannot run on this aclnn-only device, and the "
                "op_api path needs jit compile disabled (or the op in "
                "FORCE_ACLNN_OP_LIST) and base-format inputs");
  }}
  NPU_PATH_TAKEN("add.Tensor", AclOp);
  return acl_op::add(self, other, alpha);
}}
"""
    )
    out = function(project_files, "OpInterface", "at::Tensor& add_out(")
    assert out.startswith(f"// add.out  acl_op: all_version  op_api: all_version  {s('add.out(')}")
    assert 'NpuDecideBaseFormat("add.out", "out", out)' in out  # out tensors are checked too
    assert "return op_api::add_out(self, other, alpha, out);" in out
    assert "return acl_op::add_out(self, other, alpha, out);" in out
    inplace = function(project_files, "OpInterface", "at::Tensor& add_(")
    assert 'NpuDecideForceAclnn("add_.Tensor")' in inplace
    assert "return acl_op::add_(self, other, alpha);" in inplace
    # hand-written kernels: no generated op_api add
    assert "add(" not in "".join(
        t for n, t in project_files.items() if "StructKernel" in n and "EXEC" in t
    ).replace("EXEC_NPU_CMD(aclnnAdd", "")


def test_floor_divide_gen_opapi_explicit_exec_and_verbatim_size(
    project_files: dict[str, str],
) -> None:
    s = src(PROJECT_YAML, "floor_divide(")
    assert (
        function(project_files, "StructKernelNpuOpApi", "at::Tensor floor_divide(")
        == f"""\
at::Tensor floor_divide(const at::Tensor& self, const at::Tensor& other) {{
  // floor_divide  acl_op: all_version  op_api: all_version  gen_opapi  {s}
  DO_COMPATIBILITY(aclnnFloorDivide, acl_op::floor_divide(self, other));
  auto output_size_0 = broadcast_ops_npu_output_size(self, other);
  auto output_dtype_0 = at::result_type(self, other);
  at::Tensor out = at_npu::native::OpPreparation::apply_tensor_without_format(
      output_size_0, self.options().dtype(output_dtype_0));
  EXEC_NPU_CMD(aclnnFloorDivide, self, other, out);
  return out;
}}
"""
    )
    head = "at::Tensor floor_divide("
    shard = next(t for n, t in project_files.items() if "StructKernel" in n and head in t)
    assert '#include "npu/op_infer/InferSize.h"\n' in shard
    assert "using namespace op_infer;" in shard
    assert '#include "op_plugin/ops/floor_divide.h"\n' in shard


def test_cpp_files_include_only_what_they_use(project_files: dict[str, str]) -> None:
    for name, text in project_files.items():
        if not name.endswith(".cpp"):
            continue
        includes = re.findall(r'#include "([^"]+)"', text)
        assert "torch/extension.h" not in text and "ATen/ATen.h" not in text
        if "#include" in text:  # contracts.md 1: per-operator ATen headers only
            assert text.index("#define TORCH_ASSERT_ONLY_METHOD_OPERATORS\n") < text.index(
                "#include"
            )
        # The family headers of the ops a file uses, never the umbrellas (a change to one op
        # would recompile every file).
        umbrellas = {"OpInterface.h", "OpApiInterface.h", "AclOpsInterface.h"}
        assert not {f"op_plugin/{u}" for u in umbrellas} & set(includes), name
        if "OpInterface_" in name and includes:
            assert any(i.startswith("op_plugin/ops/") for i in includes)
        if "EXEC_NPU_CMD" in text:
            assert "npu/op_api/op_api_common.h" in includes
        if "InferSize.h" in " ".join(includes):
            assert "using namespace op_infer;" in text
        if "NPU_PATH_TAKEN" not in text:
            assert "npu/dispatch/PathLedger.h" not in includes


# -- the rich fixture ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def rich() -> dict[str, str]:
    return files_of(RICH_YAML, "v2.13")


def test_functional_multi_output(rich: dict[str, str]) -> None:
    text = function(rich, "StructKernelNpuOpApi", "::std::tuple<at::Tensor, at::Tensor> max(")
    assert "DO_COMPATIBILITY(aclnnMaxDim, acl_op::max(self, dim, keepdim));" in text
    assert "auto output_size_0 = input_same_output_size(self);" in text  # one local, reused
    assert "auto output_dtype_1 = at::kLong;" in text
    assert (
        "at::Tensor indices = at_npu::native::OpPreparation::apply_tensor_without_format(\n"
        "      output_size_0, self.options().dtype(output_dtype_1));" in text
    )
    assert "return ::std::make_tuple(std::move(values), std::move(indices));" in text


def test_functional_op_returning_nothing(rich: dict[str, str]) -> None:
    """`-> ()` with gen_opapi (new_params, explicit exec): a void kernel, as upstream, whose
    Meta kernel makes nothing."""
    text = function(rich, "StructKernelNpuOpApi", "void npu_sim_exchange(")
    body = text.split(") {", 1)[1]
    assert body.splitlines()[2:] == [
        "  auto group_ptr = const_cast<char *>(group.data());",
        "  EXEC_NPU_CMD(aclnnSimExchange, x, scales, group_ptr, world_size, shape, mode);",
        "}",
    ]
    meta = function(rich, "MetaFunctions", "void npu_sim_exchange(")
    assert meta.endswith("    int64_t /*mode*/) {\n}\n")
    dispatch = function(rich, "OpInterface", "void npu_sim_exchange(")
    assert "return op_api::npu_sim_exchange(x, scales, group, world_size, shape, mode);" in dispatch


def test_functional_op_returning_nothing_describes_no_outputs(tmp_path: Path) -> None:
    yaml_dir = make_yaml_dir(
        tmp_path,
        """\
        custom:
          - func: npu_sim_signal(Tensor x) -> ()
            op_api: all_version
            gen_opapi:
              result:
                size: x
                dtype: x
              exec: aclnnSimSignal, x
        """,
    )
    with pytest.raises(CodegenError) as error:
        load_model(yaml_dir)
    assert (
        "npu_sim_signal: gen_opapi: npu_sim_signal returns 0 tensor(s) but the block describes 1"
        in str(error.value)
    )


def test_cat_keeps_its_function_despite_structured_delegate(tmp_path: Path) -> None:
    """Upstream's cat family: cat names cat.out in structured_delegate, yet both keep their
    op_plugin:: functions (hand-written kernels); any other delegating op gets none."""
    yaml_dir = make_yaml_dir(
        tmp_path,
        """\
        official:
          - func: cat(Tensor[] tensors, int dim=0) -> Tensor
            structured_delegate: cat.out
            acl_op: all_version
            op_api: all_version
          - func: cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
            structured: true
            acl_op: all_version
            op_api: all_version
          - func: sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
            structured_delegate: sub.out
            op_api: all_version
          - func: sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out)
              -> Tensor(a!)
            structured: true
            op_api: all_version
        """,
    )
    files = files_of(yaml_dir, "v2.13")
    cat = function(files, "OpInterface", "at::Tensor cat(")
    assert "return op_api::cat(tensors, dim);" in cat and "return acl_op::cat(tensors, dim);" in cat
    function(files, "OpInterface", "at::Tensor& cat_out(")
    function(files, "OpInterface", "at::Tensor& sub_out(")
    with pytest.raises(AssertionError):
        function(files, "OpInterface", "at::Tensor sub(")


def test_structured_inplace_op_runs_its_own_exec(tmp_path: Path) -> None:
    """An in-place op marked structured: true keeps its own kernel after the meta function;
    with an exec-only gen_opapi block that kernel is generated (no hand-written one)."""
    yaml_dir = make_yaml_dir(
        tmp_path,
        """\
        official:
          - func: clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)
            op_api: all_version
            structured: true
            gen_opapi:
              exec: aclnnClampMin, self, min, out
          - func: clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)
            op_api: all_version
            structured: true
            gen_opapi:
              exec: aclnnInplaceClampMin, self, min
        """,
    )
    files = files_of(yaml_dir, "v2.13")
    kernel = function(files, "StructKernelNpuOpApi", "at::Tensor& clamp_min_(")
    assert "  EXEC_NPU_CMD(aclnnInplaceClampMin, self, min);\n  return self;\n}" in kernel
    assert "check_tensor" not in kernel and "apply_tensor" not in kernel


def test_structured_applies_to_out_and_inplace_only(tmp_path: Path) -> None:
    yaml_dir = make_yaml_dir(
        tmp_path,
        """\
        official:
          - func: clamp_min(Tensor self, Scalar min) -> Tensor
            op_api: all_version
            structured: true
            gen_opapi:
              exec: aclnnClampMin, self, min, out
        """,
    )
    with pytest.raises(CodegenError) as error:
        load_model(yaml_dir)
    assert "clamp_min: structured: true applies to out= and in-place schemas" in str(error.value)


def test_out_multi_output(rich: dict[str, str]) -> None:
    text = function(rich, "StructKernelNpuOpApi", "::std::tuple<at::Tensor&, at::Tensor&> max_out(")
    assert (
        "at_npu::native::OpPreparation::check_tensor({self}, max, max.scalar_type(), "
        "output_size_0);"
    ) in text
    assert "max_values.scalar_type(), max_values.sizes());" in text
    assert "EXEC_NPU_CMD(aclnnMaxDim, self, dim, keepdim, max, max_values);" in text
    assert "return ::std::tuple<at::Tensor&, at::Tensor&>(max, max_values);" in text
    assert "DO_COMPATIBILITY" not in text


def test_new_params_identity_and_inplace(rich: dict[str, str]) -> None:
    leaky = function(rich, "StructKernelNpuOpApi", "at::Tensor leaky_relu(")
    assert "  auto slope = negative_slope.toDouble();\n" in leaky
    assert "EXEC_NPU_CMD(aclnnLeakyRelu, self, slope, result);" in leaky
    ceil = function(rich, "StructKernelNpuOpApi", "at::Tensor ceil(")
    # Integers are their own ceiling: copied into the allocated result, on every device
    # (upstream calls acl_op here, which an aclnn-only device cannot run).
    assert (
        "  if (at::isIntegralType(self.scalar_type(), /*includeBool=*/false)) {\n"
        "    out.copy_(self);\n"
        "    return out;\n"
        "  }\n"
        "  EXEC_NPU_CMD(aclnnCeil, self, out);\n"
    ) in ceil
    assert "acl_op::ceil(self)" in ceil  # only in DO_COMPATIBILITY
    relu = function(rich, "StructKernelNpuOpApi", "at::Tensor& relu_(")
    assert "EXEC_NPU_CMD(aclnnInplaceRelu, self);" in relu
    assert "DO_COMPATIBILITY" not in relu  # acl_op ends at v2.9
    assert "propagate_names" not in relu  # self onto self is a no-op
    assert relu.rstrip().endswith("return self;\n}")


def test_inherited_inplace_and_merged_names(rich: dict[str, str]) -> None:
    mul_ = function(rich, "StructKernelNpuOpApi", "at::Tensor& mul_(")
    assert "return op_api::mul_out(self, other, self);" in mul_
    mul_out = function(rich, "StructKernelNpuOpApi", "at::Tensor& mul_out(")
    assert "check_tensor({self, other}, out, output_dtype_0, output_size_0);" in mul_out
    assert "compute_broadcast_outnames(self, other)" in mul_out
    assert "DO_COMPATIBILITY" not in mul_out  # acl_op of mul.out ends at v2.6


def test_structured_out_has_no_allocation(rich: dict[str, str]) -> None:
    text = function(rich, "StructKernelNpuOpApi", "at::Tensor& _softmax_backward_data_out(")
    assert "check_tensor" not in text and "apply_tensor" not in text
    assert (
        "EXEC_NPU_CMD(aclnnSoftmaxBackward, grad_output, output, dim, input_dtype, grad_input);"
    ) in text


def test_dispatch_variants(rich: dict[str, str]) -> None:
    clone = function(rich, "OpInterface", "at::Tensor clone(")
    assert "NpuDecideBaseFormat" not in clone  # internal_format_opapi drops the format test
    assert 'FORCE_ACLNN_OP_LIST)");' in clone and "base-format inputs" not in clone
    init = function(rich, "OpInterface", "void npu_sim_init(")
    assert "TORCH_CHECK" not in init  # no tensor args: no format check at all
    assert "return op_api::npu_sim_init(device_id);" in init
    sync = function(rich, "OpInterface", "void npu_sim_sync(")
    assert (
        '  if (at_npu::native::NpuDecideForceAclnn("npu_sim_sync") ||\n'
        '      at_npu::native::NpuDecideJitDisabled("npu_sim_sync")) {\n'
    ) in sync
    cast = function(rich, "OpInterface", "at::Tensor npu_format_cast(")
    assert 'if (at_npu::native::NpuDecideAclnnOnly("npu_format_cast")) {' in cast
    assert "npu_format_cast has no op_api (aclnn) kernel in v2.13" in cast
    assert 'NPU_PATH_TAKEN("npu_format_cast", AclOp);' in cast
    cat = function(rich, "OpInterface", "at::Tensor cat(")
    assert '"tensors", tensors)' in cat
    index = function(rich, "OpInterface", "at::Tensor index(")
    assert '"self", self) &&' in index and '"indices", indices)' in index
    ln = function(
        rich, "OpInterface", "::std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm("
    )
    assert '"weight", weight)' in ln and '"bias", bias)' in ln


def test_symint_and_impl_name(rich: dict[str, str]) -> None:
    op = expanded(rich, "op_plugin/OpInterface.h")
    assert "at::Tensor new_empty_strided_symint(" in op
    # listed under symint: SymInt arguments keep their symbolic types (torchnpugen's wrapper
    # passes c10::SymIntArrayRef), as upstream's
    assert "    c10::SymIntArrayRef size,\n    c10::SymIntArrayRef stride," in op
    assert "npu_mask_three(" in op and "npu_mask3(" not in op
    assert "_softmax_backward_data(" not in op  # structured_delegate
    assert "c10::optional<at::ScalarType> dtype = {}," in op
    assert "#include <ATen/core/Reduction.h>" in op  # for at::Reduction::Mean
    assert "#include <ATen/core/Dimname.h>" not in op  # no Dimname op live in v2.13


def test_v2_1_has_dimname_and_acl_only_paths() -> None:
    files = files_of(RICH_YAML, "v2.1")
    op = expanded(files, "op_plugin/OpInterface.h")
    assert "#include <ATen/core/Dimname.h>" in op
    assert "at::DimnameList dim" in op
    mul_out = function(files, "OpInterface", "at::Tensor& mul_out(")
    assert "op_api::" not in mul_out
    assert not any("mul_out(" in t for n, t in files.items() if "StructKernel" in n)


def test_sharding_is_stable_by_op_name(tmp_path: Path) -> None:
    """Adding an op or changing another op's range changes one OpInterface shard only."""
    ops = [
        f"  - func: op{i}(Tensor self) -> Tensor\n    acl_op: all_version\n"
        f"    op_api: all_version\n"
        for i in range(40)
    ]
    d1 = make_yaml_dir(tmp_path / "a", "official:\n" + "".join(ops))
    changed = list(ops)
    changed[7] = changed[7].replace("acl_op: all_version", "acl_op: [v2.1, v2.12]")
    d2 = make_yaml_dir(tmp_path / "b", "official:\n" + "".join(changed))
    a = files_of(d1, "v2.13", shards=8)
    b = files_of(d2, "v2.13", shards=8)
    differing = [n for n in a if a[n] != b[n] and n.endswith(".cpp")]
    assert len(differing) == 1 and "OpInterface_" in differing[0]
    assert sum(1 for n in a if n.startswith("op_plugin/OpInterface_")) == 8


def test_shard_count_is_configurable() -> None:
    files = files_of(RICH_YAML, "v2.13", shards=1)
    assert "op_plugin/OpInterface_0.cpp" in files
    assert "op_plugin/OpInterface_1.cpp" not in files
    text = files["op_plugin/OpInterface_0.cpp"]
    assert text.count("\nnamespace op_plugin {") == 1
