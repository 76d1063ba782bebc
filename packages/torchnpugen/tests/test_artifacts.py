"""The artifacts beyond the aten wrappers, checked on the generated text: structured
kernels, custom operators (schemas, C++ API, Python), functionalization, autograd and
the AOTInductor shim. (Compiling them is test_compile.py; running them, tests/ at the
repository root.)"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import sys

import pytest

from torchnpugen.errors import InputError
from torchnpugen_testlib import (
    HAS_AOTI_C_SHIM,
    HAS_PT2_COMPLIANT_TAG,
    all_shards,
    generate,
    make_workspace,
    wrapper_body,
)


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory):
    ws = make_workspace(tmp_path_factory.mktemp("shapes"), "op_plugin_functions.shapes.yaml")
    generate(ws, shards=1)
    return ws


def _read(ws, relpath: str) -> str:
    return (ws["npu"] / relpath).read_text()


# --------------------------------------------------------------------------- structured kernels


def test_structured_classes_derive_from_the_meta_class_and_forward_impl(generated):
    header = _read(generated, "aten/NPUStructuredNativeFunctions.h")
    assert "#include <ATen/ops/clamp_min_meta.h>" in header
    assert "struct structured_clamp_min_out : public at::meta::structured_clamp_min {" in header
    assert "void impl(const at::Tensor & self, const at::Scalar & min, const at::Tensor & out);" in header
    source = _read(generated, "aten/NPUStructuredNativeFunctions.cpp")
    assert "void structured_clamp_min_out::impl(" in source
    assert "op_plugin::clamp_min_out(self, min, const_cast<at::Tensor&>(out));" in source


def test_structured_wrappers_use_the_npu_guard_and_allocate_on_npu(generated):
    text = all_shards(generated["aten"])
    for kind in ("functional", "inplace", "out"):
        cls = text.split(
            f"struct structured_clamp_min_out_{kind} final : public at_npu::native::structured_clamp_min_out {{"
        )[1]
        cls = cls.split("\n};\n")[0]
        assert "c10_npu::OptionalNPUGuard guard_;" in cls
        assert "guard_.reset_device(options.device());" in cls
        # TensorIteratorBase meta classes learn their outputs from the parent's set_output
        assert "at_npu::native::structured_clamp_min_out::set_output_raw_strided(" in cls
    functional = text.split("struct structured_clamp_min_out_functional")[1].split("\n};\n")[0]
    assert "outputs_[output_idx] = create_out(sizes, strides, options);" in functional
    assert "maybe_create_proxy" not in functional
    out = text.split("struct structured_clamp_min_out_out")[1].split("\n};\n")[0]
    assert "resize_out(out, sizes, strides, options);" in out and "maybe_create_proxy" in out
    assert "at::Tensor create_out(at::IntArrayRef sizes" in text  # helpers, once per shard with structured kernels


def test_structured_variants_in_order_and_the_separate_inplace_impl(generated):
    text = all_shards(generated["aten"])
    functional = wrapper_body(text, "clamp_min")
    steps = [
        "// clamp_min  structured_delegate: clamp_min.out",
        "const c10::OptionalDeviceGuard device_guard(at::device_of(self));",
        'NPURecordFunctionGuard record_guard("clamp_min");',
        'PreHook("clamp_min", self, min);',
        "structured_clamp_min_out_functional op;",
        "op.meta(self, min);",
        "op.impl(self, min, op.outputs_[0]);",
        "at::Tensor result = std::move(op.outputs_[0]);",
        "PostHook(result);",
        "return result;",
    ]
    positions = [functional.index(step) for step in steps]
    assert positions == sorted(positions)
    out = wrapper_body(text, "clamp_min.out")
    assert "structured_clamp_min_out_out op(out);" in out
    assert "op.impl(self, min, op.maybe_get_output(0));" in out
    assert "if (op.proxy_outputs_[0].has_value()) op.outputs_[0].get().copy_(*op.proxy_outputs_[0]);" in out
    assert "check_memory_overlaps({self}, {out});" in out
    inplace = wrapper_body(text, "clamp_min_")  # structured: true -> meta, then its own kernel
    assert "structured_clamp_min_out_inplace op(self);" in inplace and "op.meta(self, min);" in inplace
    assert "at::Tensor & result = op_plugin::clamp_min_(self, min);" in inplace and "op.impl(" not in inplace
    cls = text.split("struct structured_clamp_min_out_inplace")[1].split("\n};\n")[0]
    assert "maybe_create_proxy" not in cls  # writes self directly
    assert 'm.impl("clamp_min_", TORCH_FN(wrapper_NPU__clamp_min_));' in text


def test_a_delegating_inplace_op_uses_the_structured_impl(shapes):
    text = all_shards(shapes["aten"])
    mul_ = wrapper_body(text, "mul_.Tensor")
    assert "structured_mul_out_inplace op(self);" in mul_ and "op.impl(self, other, op.outputs_[0]);" in mul_
    assert "if (op.proxy_outputs_[0].has_value())" in mul_
    assert 'm.impl("mul.Tensor"' not in text  # a group member the YAML does not declare


def test_structured_declarations_are_validated(workspace):
    text = workspace["projection"].read_text()
    bad = text.replace('structured_delegate: "clamp_min.out"', 'structured_delegate: "clamp_max.out"')
    workspace["projection"].write_text(bad)
    with pytest.raises(InputError, match=r"op_plugin_functions.yaml:\d+: 'clamp_min' delegates to 'clamp_max.out'"):
        generate(workspace)
    not_structured = text.replace(
        '  - func: "abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"\n    impl_ns: "op_api"\n',
        '  - func: "abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"\n    impl_ns: "op_api"\n    structured: true\n',
    )
    assert not_structured != text
    workspace["projection"].write_text(not_structured)
    with pytest.raises(InputError, match=r"'abs.out' is marked structured but is not a structured kernel in torch"):
        generate(workspace)
    no_kernel = text.replace(
        'structured: true\n    yaml_source: "yaml/op_plugin_functions.yaml:55"',
        'yaml_source: "yaml/op_plugin_functions.yaml:55"',
    )
    workspace["projection"].write_text(no_kernel)
    with pytest.raises(InputError, match=r"'clamp_min' needs 'clamp_min.out' declared as a structured kernel"):
        generate(workspace)


# --------------------------------------------------------------------------- custom operators


def test_custom_schemas_keep_alias_annotations_and_tags(generated):
    text = _read(generated, "aten/CustomRegisterSchema.cpp")
    assert "TORCH_LIBRARY(npu, m) {" in text
    assert 'm.def("get_npu_format(Tensor self) -> int");' in text
    # pt2_compliant_tag where this torch has it (compat "pt2-compliant-tag": not on 2.1)
    tags = ", {at::Tag::pt2_compliant_tag}" if HAS_PT2_COMPLIANT_TAG else ""
    assert f'm.def("npu_add_relu(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"{tags});' in text
    assert 'm.def("npu_add_relu_(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"' in text
    # declaration order: runtime-owned first, then op-plugin's, in YAML order
    names = [line.split('"')[1].split("(")[0] for line in text.splitlines() if "m.def(" in line]
    assert names == [
        "get_npu_format",
        "npu_format_cast",
        "npu_format_cast_",
        "get_storage_size",
        "npu_add_relu",
        "npu_add_relu_",
        "npu_add_relu.out",
    ]


def test_custom_wrappers_share_the_aten_wrapper_anatomy(generated):
    text = all_shards(generated["aten"])
    body = wrapper_body(text, "npu_add_relu.out")
    for step in ("check_and_update_common_device(common_device, out,", "OptionalDeviceGuard device_guard(at::device_of(self))",
                 "check_memory_overlaps({self, other}, {out});", 'NPURecordFunctionGuard record_guard("npu_add_relu.out")',
                 "op_plugin::npu_add_relu_out(self, other, alpha, out)"):  # fmt: skip
        assert step in body
    assert "NPUNativeFunctions::get_npu_format(self)" in wrapper_body(text, "get_npu_format")
    assert text.count("TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)") == 3  # the shards holding custom ops


def test_cpp_api_follows_the_at_conventions(generated):
    header = _read(generated, "aten/CustomFunctions.h")
    assert "namespace at_npu::native::custom_ops {" in header
    for decl in (
        "at::Tensor npu_add_relu(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha=1);",
        "at::Tensor & npu_add_relu_out(at::Tensor & out, const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha=1);",
        "at::Tensor & npu_add_relu_outf(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha, at::Tensor & out);",
        "int64_t get_npu_format(const at::Tensor & self);",
    ):
        assert decl in header
    source = _read(generated, "aten/CustomFunctions.cpp")
    assert (
        'find_op<at::Tensor & (const at::Tensor &, const at::Tensor &, const at::Scalar &, at::Tensor &)>("npu::npu_add_relu", "out")'
        in source
    )


def test_custom_symint_and_list_arguments(shapes):
    header = _read(shapes, "aten/CustomFunctions.h")
    assert "at::Tensor npu_scatter_sum(at::TensorList inputs, at::IntArrayRef size, int64_t dim=0);" in header
    assert (
        "at::Tensor npu_scatter_sum_symint(at::TensorList inputs, c10::SymIntArrayRef size, int64_t dim=0);" in header
    )
    body = wrapper_body(all_shards(shapes["aten"]), "npu_scatter_sum")
    assert "// No device check: device_check NoCheck (op_plugin_functions.yaml)" in body


def _load_custom_ops(ws):
    spec = importlib.util.spec_from_file_location("custom_ops_under_test", ws["npu"] / "custom_ops.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_python_bindings_have_signatures_and_docstrings(generated):
    module = _load_custom_ops(generated)
    assert module.__all__ == ["get_npu_format", "npu_format_cast", "npu_format_cast_", "get_storage_size", "npu_add_relu",
                              "npu_add_relu_"]
    sig = inspect.signature(module.npu_add_relu)
    assert list(sig.parameters) == ["self", "other", "alpha", "out"]
    assert sig.parameters["alpha"].kind is inspect.Parameter.KEYWORD_ONLY and sig.parameters["alpha"].default == 1
    assert sig.parameters["out"].default is None
    assert (
        "npu::npu_add_relu.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"
        in module.npu_add_relu.__doc__
    )
    assert "differentiable" in module.npu_add_relu.__doc__
    assert "writes ``self`` in place" in module.npu_add_relu_.__doc__
    source = _read(generated, "custom_ops.py")
    ast.parse(source)
    assert "torch.ops.npu.npu_add_relu.out(self, other, alpha=alpha, out=out)" in source


def test_python_bindings_fall_back_to_a_generic_signature(shapes):
    module = _load_custom_ops(shapes)
    assert list(inspect.signature(module.npu_scatter_sum).parameters) == ["inputs", "size", "dim"]
    assert list(inspect.signature(module.npu_scale_).parameters) == ["self", "factor"]


def test_custom_schema_errors_name_the_yaml_entry(workspace):
    path = workspace["yaml"] / "npu_native_functions.yaml"
    path.write_text(
        path.read_text().replace(
            "get_npu_format(Tensor self) -> int", "get_npu_format(Tensor self) -> int\n    tags: no_such_tag"
        )
    )
    with pytest.raises(InputError, match=r"npu_native_functions.yaml:\d+: get_npu_format: unknown tag 'no_such_tag'"):
        generate(workspace)
    path.write_text(
        path.read_text().replace("    tags: no_such_tag\n", "").replace("(Tensor self) -> int", "(Tensor self) -> intt")
    )
    with pytest.raises(InputError, match=r"npu_native_functions.yaml:\d+: invalid custom schema"):
        generate(workspace)


# --------------------------------------------------------------------------- functionalization, autograd, shim


def test_functionalization_of_custom_mutable_ops(generated):
    text = _read(generated, "aten/RegisterFunctionalization.cpp")
    assert "TORCH_LIBRARY_IMPL(npu, Functionalize, m) {" in text
    assert 'm.impl("npu_add_relu_", TORCH_FN(npu_add_relu_));' in text
    assert 'm.impl("npu_add_relu.out", TORCH_FN(npu_add_relu_out_out));' in text
    inplace = text.split("// npu::npu_add_relu_ -> npu::npu_add_relu")[1].split("\n}\n")[0]
    assert "at_npu::native::custom_ops::npu_add_relu_(self_meta, other_meta, alpha);" in inplace  # meta reference
    assert "tmp_output = at_npu::native::custom_ops::npu_add_relu(self_, other_, alpha);" in inplace
    for step in ("replace_(self, tmp_output)", "commit_update(self)", "sync(self)"):
        assert step in inplace
    out = text.split("// npu::npu_add_relu.out -> npu::npu_add_relu")[1]
    assert "replace_(out, tmp_output)" in out and "self_meta" not in out


def test_autograd_from_derivatives_yaml(generated):
    text = _read(generated, "aten/RegisterAutogradNPU.cpp")
    assert "struct NpuAddReluBackward0 final : public torch::autograd::Function<NpuAddReluBackward0> {" in text
    assert "at::AutoDispatchBelowADInplaceOrView guard;" in text
    assert "ctx->save_for_backward({result});" in text and 'ctx->saved_data["alpha"] = alpha;' in text
    assert "grad_inputs[0] = grad * (result > 0);" in text and "grad_inputs[1] = grad * (result > 0) * alpha;" in text
    assert "TORCH_LIBRARY_IMPL(npu, AutogradPrivateUse1, m) {" in text
    assert "(op_plugin/config/derivatives.yaml)" in text  # names its source


def test_derivative_errors(workspace):
    workspace["derivatives"].write_text(
        '- name: "npu_add_relu_(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"\n  self: "grad"\n'
    )
    with pytest.raises(InputError, match="backward formulas belong to functional operators"):
        generate(workspace)
    workspace["derivatives"].write_text('- name: "nope(Tensor self) -> Tensor"\n  self: "grad"\n')
    with pytest.raises(
        InputError, match=r"derivatives.yaml:1: backward for 'nope\(Tensor self\) -> Tensor': no custom operator"
    ):
        generate(workspace)


@pytest.mark.skipif(not HAS_AOTI_C_SHIM, reason="this torchgen has no gen_aoti_c_shim (torch 2.1)")
def test_aoti_shim_declares_every_expressible_op(generated):
    header = _read(generated, "inductor/c_shim_npu.h")
    assert (
        "AOTI_TORCH_EXPORT AOTITorchError aoti_torch_npu_npu_add_relu(AtenTensorHandle self, AtenTensorHandle other, double alpha, AtenTensorHandle* ret0);"
        in header
    )
    assert "aoti_torch_npu_clamp_min_out(AtenTensorHandle out, AtenTensorHandle self, double min);" in header
    assert "aoti_torch_npu_get_npu_format(AtenTensorHandle self, int64_t* ret0);" in header
    assert "//   aten::set_.source_Storage (" in header  # what the shim cannot express is listed
    source = _read(generated, "inductor/c_shim_npu.cpp")
    assert "at_npu::native::custom_ops::npu_add_relu(" in source
    assert "at::_ops::add__Tensor::call(" in source  # method-only aten ops go through _ops


def test_one_custom_op_change_touches_only_its_artifacts(workspace):
    from torchnpugen_testlib import generate as run

    run(workspace)
    before = {p: p.read_bytes() for p in workspace["npu"].rglob("*") if p.is_file()}
    text = workspace["projection"].read_text()
    workspace["projection"].write_text(
        text.replace(
            'tags: "pt2_compliant_tag"\n    yaml_source: "yaml/op_plugin_functions.yaml:80"',
            'tags: "pointwise"\n    yaml_source: "yaml/op_plugin_functions.yaml:80"',
        )
    )
    run(workspace)
    changed = sorted(p.relative_to(workspace["npu"]).as_posix() for p in before if p.read_bytes() != before[p])
    assert changed == ["aten/CustomRegisterSchema.cpp", "custom_ops.py"]


def test_generated_python_module_imports_without_the_runtime(generated):
    # torch.ops.npu is only touched when a function is called
    sys.modules.pop("custom_ops_under_test", None)
    assert _load_custom_ops(generated).npu_add_relu_.__name__ == "npu_add_relu_"
