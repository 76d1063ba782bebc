"""Generating the NPU registration for the project's YAML plus projection fixtures."""

from __future__ import annotations

import hashlib
import json
import os
import re

import pytest

from torchnpugen.errors import InputError
from torchnpugen_testlib import (
    HAS_AOTI_C_SHIM,
    LABEL,
    all_shards,
    generate,
    make_workspace,
    mark_op_api,
    wrapper_body,
    yaml_line,
)

PROJECT_RUNTIME_OPS = [
    "empty.memory_format", "empty_strided", "_copy_from", "_copy_from_and_resize", "copy_", "as_strided",
    "view", "_reshape_alias", "unfold", "view_as_real", "view_as_complex", "resize_", "_local_scalar_dense",
    "set_.source_Storage",
    "set_.source_Storage_storage_offset", "set_.source_Tensor", "set_", "fill_.Scalar", "zero_",
]  # fmt: skip
PROJECT_PLUGIN_OPS = [
    "abs", "abs.out", "abs_", "add.Tensor", "add.out", "add_.Tensor", "mul.Tensor", "clamp_min", "clamp_min.out",
    "clamp_min_",
]  # fmt: skip
PROJECT_CUSTOM_OPS = [
    "get_npu_format",
    "npu_format_cast",
    "npu_format_cast_",
    "get_storage_size",
    "npu_add_relu",
    "npu_add_relu_",
    "npu_add_relu.out",
]
ATEN_FILES = [
    "CustomFunctions.cpp", "CustomFunctions.h", "CustomRegisterSchema.cpp", "NPUNativeFunctions.h",
    "NPUStructuredNativeFunctions.cpp", "NPUStructuredNativeFunctions.h", "RegisterAutogradNPU.cpp",
    "RegisterFunctionalization.cpp", "RegisterNPU_0.cpp", "RegisterNPU_1.cpp", "RegisterNPU_2.cpp", "RegisterNPU_3.cpp",
]  # fmt: skip
NPU_FILES = [
    *(f"aten/{name}" for name in ATEN_FILES),
    "custom_ops.py",
    # The AOTInductor C shim, where this torchgen can generate it (not on torch 2.1).
    *(["inductor/c_shim_npu.cpp", "inductor/c_shim_npu.h"] if HAS_AOTI_C_SHIM else []),
]


def _impls(text: str):
    return re.findall(r'm\.impl\("([^"]+)", TORCH_FN\((\w+)\)\);', text)


# --------------------------------------------------------------------------- layout


def test_outputs_and_manifest(generated):
    npu = generated["npu"]
    names = sorted(p.relative_to(npu).as_posix() for p in npu.rglob("*") if p.is_file())
    assert names == sorted(NPU_FILES)
    manifest = json.loads((npu.parent / "manifest.json").read_text())
    ours = manifest["generators"]["torchnpugen"]
    assert manifest["label"] == LABEL and ours["shards"] == 4
    assert ours["torch"] and all(digest for digest in ours["inputs"].values())
    for name, digest in ours["files"].items():
        assert hashlib.sha256((npu.parent / name).read_bytes()).hexdigest() == digest
    assert sorted(ours["files"]) == sorted(f"npu/{name}" for name in NPU_FILES)


def test_label_manifest_gets_a_torchnpugen_section_and_keeps_the_others(workspace):
    other = {"files": {"op_plugin/OpInterface.h": "0" * 64}, "shards": 4, "version": "0.1.0"}
    label_manifest = workspace["out"] / "manifest.json"
    label_manifest.write_text(json.dumps({"generators": {"opplugin-codegen": other}, "label": LABEL}))
    generate(workspace)
    data = json.loads(label_manifest.read_text())
    assert data["label"] == LABEL
    assert data["generators"]["opplugin-codegen"] == other
    ours = data["generators"]["torchnpugen"]["files"]
    assert sorted(ours) == sorted(f"npu/{name}" for name in NPU_FILES)
    for relpath, digest in ours.items():
        assert hashlib.sha256((workspace["out"] / relpath).read_bytes()).hexdigest() == digest
    mtime = label_manifest.stat().st_mtime_ns
    generate(workspace)
    assert label_manifest.stat().st_mtime_ns == mtime


def test_every_declared_op_is_registered_exactly_once(generated):
    impls = _impls(all_shards(generated["aten"]))
    schema_names = [name for name, _ in impls]
    assert sorted(schema_names) == sorted(PROJECT_RUNTIME_OPS + PROJECT_PLUGIN_OPS + PROJECT_CUSTOM_OPS)
    assert ("add.Tensor", "wrapper_NPU_Tensor_add") in impls
    assert ("empty.memory_format", "wrapper_NPU_memory_format_empty") in impls


def test_shards_are_self_contained_translation_units(generated):
    for path in sorted(generated["aten"].glob("RegisterNPU_*.cpp")):
        text = path.read_text()
        if "m.impl" not in text:
            continue
        lines = [line for line in text.splitlines() if not line.startswith("//") and line.strip()]
        assert lines[0] == "#define TORCH_ASSERT_ONLY_METHOD_OPERATORS"
        assert "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m)" in text
        assert "namespace {" in text
        includes = re.findall(r"#include [<\"]([^>\"]+)", text)
        assert "ATen/ATen.h" not in includes and "torch/extension.h" not in includes
        for header in ("ATen/core/Tensor.h", "torch/library.h", "ATen/core/op_registration/adaption.h",
                       "npu/observe/OpHook.h", "npu/dispatch/EnvVariables.h",
                       "npu/observe/NPURecordFunction.h", "npu/op_common/MemoryOverlap.h",
                       "npu/aten/NPUNativeFunctions.h"):  # fmt: skip
            assert header in includes, (path.name, header)
        # the op families the shard calls, not every op's declaration
        assert "op_plugin/OpInterface.h" not in includes
        assert any(header.startswith("op_plugin/ops/") for header in includes), path.name


# --------------------------------------------------------------------------- wrapper anatomy


def _assert_in_order(body: str, markers):
    positions = []
    for marker in markers:
        pos = body.find(marker)
        assert pos >= 0, f"{marker!r} missing from:\n{body}"
        positions.append(pos)
    assert positions == sorted(positions), f"out of order:\n{body}"


def test_wrapper_elements_appear_in_order(generated):
    body = wrapper_body(all_shards(generated["aten"]), "add.out")
    _assert_in_order(
        body,
        [
            "// add.out  impl_ns: acl_op, op_api  (yaml/op_plugin_functions.yaml)",
            "try {",
            "// Device check: npu tensors on one device, CPU tensors only as 0-dim scalars",
            'at_npu::native::check_npu_device(common_device, self, "wrapper_NPU_out_add_out", "self");',
            'at_npu::native::check_npu_device(common_device, out, "wrapper_NPU_out_add_out", "out");',
            "const c10::OptionalDeviceGuard device_guard(at::device_of(self));",
            "at_npu::native::check_memory_overlaps({self, other}, {out});",
            'at_npu::native::NPURecordFunctionGuard record_guard("add.out");',
            "if (C10_UNLIKELY(op_hook_enabled)) {",
            'at_npu::native::OpHook::GetInstance().PreHook("add.out", self, other, alpha, out);',
            "at::Tensor & result = op_plugin::add_out(self, other, alpha, out);",
            "at_npu::native::OpHook::GetInstance().PostHook(result);",
            "return result;",
            "} catch (...) {",
            'at_npu::native::rethrow_naming_op("add");',
        ],
    )
    checked = wrapper_body(all_shards(generated["aten"]), "set_")
    _assert_in_order(
        checked,
        [
            "// set_  runtime kernel  (yaml/npu_native_functions.yaml)",
            "c10::optional<c10::Device> common_device = c10::nullopt;",
            'c10::impl::check_and_update_common_device(common_device, self, "wrapper_NPU__set_", "self");',
            "const c10::OptionalDeviceGuard device_guard(at::device_of(self));",
            'NPURecordFunctionGuard record_guard("set_");',
            'PreHook("set_", self);',
            "at::Tensor & result = at_npu::native::NPUNativeFunctions::set_(self);",
            "PostHook(result);",
        ],
    )


def test_factory_gets_device_guard_from_its_device_argument(generated):
    body = wrapper_body(all_shards(generated["aten"]), "empty.memory_format")
    assert "const c10::DeviceGuard device_guard(c10::device_or_default(device));" in body
    assert "check_and_update_common_device" not in body
    assert "check_memory_overlaps" not in body
    assert (
        "NPUNativeFunctions::empty(C10_AS_INTARRAYREF_SLOW(size), dtype, layout, device, pin_memory, memory_format)"
        in body
    )


def test_nocheck_skips_the_device_check(generated):
    text = all_shards(generated["aten"])
    copy_ = wrapper_body(text, "copy_")  # device_check: NoCheck in npu_native_functions.yaml
    assert "// No device check: device_check NoCheck (npu_native_functions.yaml)" in copy_
    assert "// DeviceGuard omitted: device_guard: False" in copy_
    for cross_device in ("_copy_from", "_copy_from_and_resize"):
        body = wrapper_body(text, cross_device)
        assert "// No device check: device_check NoCheck (npu_native_functions.yaml)" in body
        assert "check_and_update_common_device" not in body
    assert "check_and_update_common_device" in wrapper_body(text, "_local_scalar_dense")


def test_overlap_check_only_for_out_and_inplace(generated):
    text = all_shards(generated["aten"])
    expected = {
        "add.out": "check_memory_overlaps({self, other}, {out});",
        "add_.Tensor": "check_memory_overlaps({other}, {self});",
        "abs.out": "check_memory_overlaps({self}, {out});",
        "abs_": "check_memory_overlaps({}, {self});",
    }
    for op, line in expected.items():
        assert line in wrapper_body(text, op), op
    for op in ("add.Tensor", "abs", "mul.Tensor", "view", "as_strided", "_copy_from"):
        assert "check_memory_overlaps" not in wrapper_body(text, op), op
    for op in ("copy_", "set_.source_Tensor", "resize_", "fill_.Scalar", "zero_"):
        body = wrapper_body(text, op)
        assert "check_memory_overlaps" not in body and "// No overlap check" in body, op


def test_op_plugin_ops_call_op_plugin_and_runtime_ops_call_npu_native_functions(generated):
    text = all_shards(generated["aten"])
    for op, call in [("add.Tensor", "op_plugin::add("), ("add_.Tensor", "op_plugin::add_("),
                     ("abs.out", "op_plugin::abs_out("), ("mul.Tensor", "op_plugin::mul(")]:  # fmt: skip
        assert call in wrapper_body(text, op)
    for op in PROJECT_RUNTIME_OPS:
        body = wrapper_body(text, op)
        assert "at_npu::native::NPUNativeFunctions::" in body and "op_plugin::" not in body, op


def test_native_functions_header_declares_runtime_kernels_with_defaults(generated):
    header = (generated["aten"] / "NPUNativeFunctions.h").read_text()
    assert "#pragma once" in header
    assert "namespace at_npu::native {" in header and "struct NPUNativeFunctions {" in header
    decls = re.findall(r"^  static (.*);$", header, flags=re.MULTILINE)
    assert len(decls) == len(PROJECT_RUNTIME_OPS) + 4  # + the runtime-owned custom ops
    assert "int64_t get_npu_format(const at::Tensor & self)" in decls
    assert "at::Tensor & copy_(at::Tensor & self, const at::Tensor & src, bool non_blocking=false)" in decls
    assert (
        "at::Tensor empty(at::IntArrayRef size, c10::optional<at::ScalarType> dtype={}, c10::optional<at::Layout> layout={}, "
        "c10::optional<at::Device> device={}, c10::optional<bool> pin_memory={}, "
        "c10::optional<at::MemoryFormat> memory_format=c10::nullopt)"
    ) in decls
    assert "op_plugin" not in header and "add(" not in header
    assert "std::optional" not in header.replace("c10::optional", "")
    assert "overlap_tensors" not in all_shards(generated["aten"])  # helper only where a list needs it


def test_runtime_ops_with_an_op_api_kernel_choose_it_at_run_time(tmp_path):
    """Upstream's op_api: True on a supported entry: the wrapper calls the op_api kernel
    (NPUNativeOpApiFunctions) when aclnn is forced or the ACL compiler is off and every tensor
    is in a base format (internal_format_opapi: whatever the formats), else the NPUNativeFunctions one."""
    ws = make_workspace(tmp_path)
    mark_op_api(ws)
    generate(ws, shards=1)
    text = (ws["aten"] / "RegisterNPU_0.cpp").read_text()
    copy = wrapper_body(text, "_copy_from")
    assert (
        '    if ((at_npu::native::NpuDecideForceAclnn("_copy_from") || '
        'at_npu::native::NpuDecideJitDisabled("_copy_from"))\n'
        '        && at_npu::native::NpuDecideBaseFormat("_copy_from", "self", self)\n'
        '        && at_npu::native::NpuDecideBaseFormat("_copy_from", "dst", dst)) {\n'
        '      NPU_PATH_TAKEN("_copy_from", OpApi);\n'
        "      at::Tensor result = at_npu::native::NPUNativeOpApiFunctions::_copy_from(self, dst, non_blocking);\n"
    ) in copy
    assert (
        '    NPU_PATH_TAKEN("_copy_from", AclOp);\n'
        "    at::Tensor result = at_npu::native::NPUNativeFunctions::_copy_from(self, dst, non_blocking);\n"
    ) in copy
    zero = wrapper_body(text, "zero_")
    assert (
        '    if (at_npu::native::NpuDecideForceAclnn("zero_") || at_npu::native::NpuDecideJitDisabled("zero_")) {\n'
    ) in zero
    assert "NpuDecideBaseFormat" not in zero and "NPUNativeOpApiFunctions::zero_(self)" in zero
    assert '#include "npu/dispatch/PathDecision.h"' in text
    header = (ws["aten"] / "NPUNativeFunctions.h").read_text()
    op_api = header.split("struct NPUNativeOpApiFunctions {", 1)[1]
    assert re.findall(r"^  static (.*);$", op_api, flags=re.MULTILINE) == [
        "at::Tensor _copy_from(const at::Tensor & self, const at::Tensor & dst, bool non_blocking=false)",
        "at::Tensor & zero_(at::Tensor & self)",
    ]
    # without the flags (the project's own file): one path, no op_api declarations
    plain = make_workspace(tmp_path / "plain")
    generate(plain, shards=1)
    assert "NPUNativeOpApiFunctions" not in (plain["aten"] / "NPUNativeFunctions.h").read_text()
    assert "PathDecision" not in (plain["aten"] / "RegisterNPU_0.cpp").read_text()


def test_more_schema_shapes(tmp_path):
    ws = make_workspace(tmp_path, "op_plugin_functions.shapes.yaml")
    result = generate(ws, shards=1)
    text = (ws["aten"] / "RegisterNPU_0.cpp").read_text()
    # Other notes say what this torch lacks (tags of later releases, the C shim); see compat.py.
    assert [n for n in result.notes if "no functional form" in n] == [
        "npu::npu_scale_: no functional form declared, so no Functionalize kernel"
    ]
    assert all("no functional form" in n or "on 2.1" in n for n in result.notes), result.notes
    cat = wrapper_body(text, "cat.out")
    assert "check_and_update_common_device(common_device, tensors," in cat
    assert "check_memory_overlaps(overlap_tensors(tensors), {out});" in cat
    assert text.count("::std::vector<at::Tensor> overlap_tensors(const Args&... args)") == 1
    foreach = wrapper_body(text, "_foreach_add_.List")
    assert "op_plugin::_foreach_add_(self, other, alpha);\n  } catch (...) {" in foreach
    assert foreach.rstrip().endswith('at_npu::native::rethrow_naming_op("_foreach_add_");\n  }\n}')
    assert "PostHook" not in foreach and "return" not in foreach
    assert "check_memory_overlaps(overlap_tensors(other), overlap_tensors(self));" in foreach
    assert "check_memory_overlaps({values}, {self});" in wrapper_body(text, "index_put_")
    assert "::std::tuple<at::Tensor &,at::Tensor &> result = op_plugin::max_out(" in wrapper_body(text, "max.dim_max")
    assert "check_memory_overlaps({self}, {max, max_values});" in wrapper_body(text, "max.dim_max")
    assert "// No overlap check: factory" in wrapper_body(text, "arange.start_out")
    assert "op_plugin::zeros_symint(size, dtype, layout, device, pin_memory)" in wrapper_body(text, "zeros")
    assert "padding_idx.guard_int(__FILE__, __LINE__)" in wrapper_body(text, "embedding")
    assert "check_and_update_common_device(common_device, mat2," in wrapper_body(text, "addmm")


# --------------------------------------------------------------------------- input errors


def test_unknown_supported_op_names_file_line_and_op(workspace):
    path = workspace["yaml"] / "npu_native_functions.yaml"
    lines = path.read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.strip() == "- view")
    lines[index] = "  - not_an_op.Tensor\n"
    path.write_text("".join(lines))
    with pytest.raises(InputError) as info:
        generate(workspace)
    assert info.value.where == f"yaml/npu_native_functions.yaml:{index + 1}"
    assert "not_an_op.Tensor" in str(info.value)
    assert not workspace["aten"].exists()  # nothing partial


def test_unknown_projection_op_names_its_yaml_source(workspace):
    text = workspace["projection"].read_text().replace("mul.Tensor(Tensor self", "mull.Tensor(Tensor self")
    workspace["projection"].write_text(text)
    with pytest.raises(InputError) as info:
        generate(workspace)
    assert str(info.value).startswith("yaml/op_plugin_functions.yaml:41: unknown operator 'mull.Tensor'")


def test_symint_entries_must_mark_a_declared_op(workspace):
    text = (
        workspace["projection"]
        .read_text()
        .replace(
            "symint: []",
            "symint:\n  - func: zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,"
            ' bool? pin_memory=None) -> Tensor\n    impl_ns: acl_op\n    yaml_source: "yaml/op_plugin_functions.yaml:60"',
        )
    )
    workspace["projection"].write_text(text)
    with pytest.raises(InputError, match=r"op_plugin_functions.yaml:60: symint entry 'zeros' marks no op"):
        generate(workspace)


def test_runtime_symint_kernels_take_symint_types(workspace):
    path = workspace["yaml"] / "npu_native_functions.yaml"
    path.write_text(path.read_text().replace("symint: []", "symint:\n  - view"))
    generate(workspace)
    header = (workspace["aten"] / "NPUNativeFunctions.h").read_text()
    assert "static at::Tensor view_symint(const at::Tensor & self, c10::SymIntArrayRef size);" in header
    assert "NPUNativeFunctions::view_symint(self, size);" in wrapper_body(all_shards(workspace["aten"]), "view")


def test_two_ops_with_one_cpp_signature_are_rejected(workspace):
    text = (
        workspace["projection"]
        .read_text()
        .replace(
            "custom:\n",
            "  - func: neg(Tensor self) -> Tensor\n    impl_ns: op_api\n    impl_name: abs\n"
            '    yaml_source: "yaml/op_plugin_functions.yaml:50"\ncustom:\n',
            1,
        )
    )
    workspace["projection"].write_text(text)
    with pytest.raises(InputError, match=r"op_plugin_functions.yaml:50: 'neg' and 'abs' .* both become op_plugin::abs"):
        generate(workspace)


def test_projection_schema_must_match_torch(workspace):
    text = workspace["projection"].read_text().replace('Scalar alpha=1) -> Tensor"', 'Scalar alpha=2) -> Tensor"', 1)
    workspace["projection"].write_text(text)
    with pytest.raises(InputError, match=r"yaml/op_plugin_functions.yaml:29: schema of 'add.Tensor' differs"):
        generate(workspace)


def test_every_problem_of_the_inputs_is_reported_in_one_run(workspace):
    """Problems in two entries of npu_native_functions.yaml and two of the projection come out of
    one run together, each as file:line: op: what, and nothing is written."""
    backend = workspace["yaml"] / "npu_native_functions.yaml"
    text = backend.read_text()
    text = text.replace("  - func: _copy_from\n    device_check: NoCheck\n",
                        "  - func: _copy_from\n    device_check: Sometimes\n", 1)
    text = text.replace("  - func: copy_\n    device_check: NoCheck\n",
                        "  - func: copy_\n    device_check: NoCheck\n    op_apii: True\n", 1)
    backend.write_text(text)
    projection = workspace["projection"]
    ptext = projection.read_text()
    ptext = ptext.replace('  - func: "abs_(Tensor(a!) self) -> Tensor(a!)"\n    impl_ns: "op_api"\n',
                          '  - func: "abs_(Tensor(a!) self) -> Tensor(a!)"\n    impl_ns: "op_api"\n'
                          "    structured: maybe\n", 1)
    ptext = ptext.replace('  - func: "mul.Tensor(Tensor self, Tensor other) -> Tensor"\n',
                          '  - func: "mul.Tensor(Tensor self, Tensor other) -> Tensor"\n    tags: [1]\n', 1)
    projection.write_text(ptext)
    with pytest.raises(InputError) as error:
        generate(workspace)
    lines = str(error.value).splitlines()
    copy_from = yaml_line(backend, "  - func: _copy_from")
    copy_ = yaml_line(backend, "  - func: copy_")
    abs_ = yaml_line(projection, '  - func: "abs_(Tensor(a!) self) -> Tensor(a!)"')
    mul = yaml_line(projection, '  - func: "mul.Tensor(Tensor self, Tensor other) -> Tensor"')
    assert lines == [
        f"yaml/npu_native_functions.yaml:{copy_from}: _copy_from: device_check must be NoCheck or "
        "ExactSame, got 'Sometimes'",
        f"yaml/npu_native_functions.yaml:{copy_}: copy_: unsupported flag 'op_apii' on a supported "
        "entry; allowed: func, device_check, op_api, internal_format_opapi",
        f"{projection}:{abs_}: abs_: structured must be true or false, got 'maybe'",
        f"{projection}:{mul}: mul.Tensor: tags must be a tag name, a comma list or a list of tag "
        "names, got [1]",
        "4 errors",
    ]
    assert len(error.value.problems) == 4
    assert not workspace["npu"].exists()


def test_both_generators_parse_a_shared_key_alike(tmp_path, workspace):
    """device_check is parsed by one function for op_plugin_functions.yaml (opplugin-codegen)
    and for the projection (torchnpugen): the same bad value gets the same words from both."""
    from opplugin_codegen import entry_keys

    problem = str(entry_keys.parse_device_check("Sometimes"))
    projection = workspace["projection"]
    projection.write_text(projection.read_text().replace(
        '    yaml_source: "yaml/op_plugin_functions.yaml:10"\n',
        '    yaml_source: "yaml/op_plugin_functions.yaml:10"\n    device_check: Sometimes\n', 1))
    with pytest.raises(InputError) as error:
        generate(workspace)
    assert str(error.value).endswith(f": abs: {problem}")


def test_unsupported_flag_and_duplicates_are_rejected(workspace):
    path = workspace["yaml"] / "npu_native_functions.yaml"
    original = path.read_text()
    flag_line = yaml_line(path, "  - func: _copy_from")
    zero_line, view_line = yaml_line(path, "  - zero_"), yaml_line(path, "  - view")
    path.write_text(original.replace("    device_check: NoCheck\n", "    device_check: NoCheck\n    op_apii: True\n", 1))
    with pytest.raises(InputError, match=rf"npu_native_functions.yaml:{flag_line}: _copy_from: unsupported flag 'op_apii'"):
        generate(workspace)
    path.write_text(original.replace("    device_check: NoCheck\n", "    device_check: NoCheck\n    op_api: yes please\n", 1))
    with pytest.raises(InputError, match=rf"npu_native_functions.yaml:{flag_line}: _copy_from: op_api must be true or false"):
        generate(workspace)
    path.write_text(
        original.replace("    device_check: NoCheck\n", "    device_check: NoCheck\n    internal_format_opapi: True\n", 1)
    )
    with pytest.raises(InputError, match=rf"npu_native_functions.yaml:{flag_line}: _copy_from: internal_format_opapi .* needs op_api"):
        generate(workspace)
    path.write_text(original.replace("  - zero_\n", "  - zero_\n  - view\n"))
    with pytest.raises(
        InputError,
        match=rf"npu_native_functions.yaml:{zero_line + 1}: operator 'view' is listed twice "
        rf"\(first at yaml/npu_native_functions.yaml:{view_line}\)",
    ):
        generate(workspace)


def test_failed_run_leaves_previous_outputs_untouched(workspace):
    generate(workspace)
    before = _state(workspace["npu"])
    path = workspace["yaml"] / "npu_native_functions.yaml"
    path.write_text(path.read_text().replace("  - zero_\n", "  - zero_\n  - bogus_op\n"))
    with pytest.raises(InputError):
        generate(workspace, shards=2)
    assert _state(workspace["npu"]) == before
    assert not list(workspace["out"].joinpath("npu").glob(".torchnpugen-*"))


# --------------------------------------------------------------------------- incremental output


def _state(root):
    return {
        p.relative_to(root).as_posix(): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file()
    }


def test_write_if_changed_keeps_mtime(workspace):
    generate(workspace)
    old = 1_000_000_000 * 10**9  # far in the past: any rewrite would be visible
    for p in workspace["npu"].rglob("*"):
        if p.is_file():
            os.utime(p, ns=(old, old))
    result = generate(workspace)
    assert result.report.written == ()
    assert len(result.report.unchanged) == len(NPU_FILES) + 1  # and the label manifest
    assert all(mtime == old for _, mtime in _state(workspace["npu"]).values())


def _changed(before, after):
    return sorted(name for name in after if before.get(name, (None,))[0] != after[name][0])


def test_one_projection_op_change_touches_one_shard(workspace):
    generate(workspace)
    before = _state(workspace["aten"])
    text = workspace["projection"].read_text()
    text = text.replace(
        "custom:",
        "  - func: mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
        "    impl_ns: acl_op, op_api\n"
        '    yaml_source: "yaml/op_plugin_functions.yaml:49"\n'
        "custom:",
        1,
    )
    workspace["projection"].write_text(text)
    generate(workspace)
    changed = _changed(before, _state(workspace["aten"]))
    shards = [name for name in changed if name.startswith("RegisterNPU_")]
    # the shard of mul (and the label's manifest, beside npu/)
    assert len(shards) == 1 and changed == shards
    assert "op_plugin::mul_out(" in (workspace["aten"] / shards[0]).read_text()


def test_one_runtime_op_change_touches_one_shard_and_the_header(workspace):
    generate(workspace)
    before = _state(workspace["aten"])
    path = workspace["yaml"] / "npu_native_functions.yaml"
    # in place of a comment line, so no entry below moves (its file:line comment would change)
    text = path.read_text()
    comment = next(line for line in text.splitlines() if line.startswith("  # Cross-device"))
    path.write_text(text.replace(comment, "  - fill_.Tensor"))
    generate(workspace)
    changed = _changed(before, _state(workspace["aten"]))
    shards = [name for name in changed if name.startswith("RegisterNPU_")]
    assert len(shards) == 1
    assert changed == sorted([*shards, "NPUNativeFunctions.h"])


def test_stale_shards_are_removed(workspace):
    generate(workspace, shards=6)
    assert len(list(workspace["aten"].glob("RegisterNPU_*.cpp"))) == 6
    result = generate(workspace, shards=2)
    assert sorted(result.report.removed) == [f"npu/aten/RegisterNPU_{k}.cpp" for k in range(2, 6)]
    assert sorted(p.name for p in workspace["aten"].glob("RegisterNPU_*.cpp")) == [
        "RegisterNPU_0.cpp",
        "RegisterNPU_1.cpp",
    ]
    impls = _impls(all_shards(workspace["aten"]))
    assert len(impls) == len(PROJECT_RUNTIME_OPS) + len(PROJECT_PLUGIN_OPS) + len(PROJECT_CUSTOM_OPS)
    manifest = json.loads((workspace["out"] / "manifest.json").read_text())
    shards = [name for name in manifest["generators"]["torchnpugen"]["files"] if "RegisterNPU_" in name]
    assert sorted(shards) == ["npu/aten/RegisterNPU_0.cpp", "npu/aten/RegisterNPU_1.cpp"]


def test_sharding_is_stable_and_keeps_op_families_together(generated):
    shards = {}
    for path in sorted(generated["aten"].glob("RegisterNPU_*.cpp")):
        for name, _ in _impls(path.read_text()):
            shards[name] = path.name
    assert shards["add.Tensor"] == shards["add.out"] == shards["add_.Tensor"]
    assert len({shards[n] for n in ("set_", "set_.source_Tensor", "set_.source_Storage")}) == 1
