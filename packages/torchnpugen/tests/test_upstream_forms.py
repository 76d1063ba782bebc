"""What upstream's files say that ours do not, each with a small fixture of ours: the merged
projection (torch_npu's npu_native_functions_by_codegen.yaml form), schemas that differ from
torch's only where the C++ call does not, the cat family, custom ops' exposed and dispatch."""

from __future__ import annotations

import re

import pytest

from torchnpugen.errors import InputError
from torchnpugen_testlib import PROJECTION, all_shards, generate, make_workspace, wrapper_body


def _torch_schema(name: str) -> str:
    from torchnpugen.gen import load_native_functions

    with_overload = {str(f.func.name): f for f in load_native_functions()}
    return str(with_overload[name].func)


def merged_projection() -> str:
    """A projection in upstream's merged form, built from the installed torch's schemas: the
    official entries under `supported`, the backend's own ops repeated there (by name, or as a
    mapping with a bare name), the backend's custom ops repeated under `custom`."""
    renamed = _torch_schema("addcmul.out").replace("Scalar value=1", "Scalar scale=1")
    int_for_symint = _torch_schema("new_empty_strided").replace("SymInt[]", "int[]")
    return f"""\
backend: NPU
cpp_namespace: at_npu::native
supported:
  - empty.memory_format
  - func: copy_
    device_check: NoCheck
  - func: "abs(Tensor self) -> Tensor"
    impl_ns: op_api
  - func: "abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"
    impl_ns: op_api
    sparse: op_api
  - func: "cat(Tensor[] tensors, int dim=0) -> Tensor"
    impl_ns: acl_op, op_api
    structured_delegate: cat.out
  - func: "cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)"
    impl_ns: acl_op, op_api
    structured: true
  - func: "{renamed}"
    impl_ns: op_api
  - func: "{int_for_symint}"
    impl_ns: op_api
custom:
  - func: get_npu_format(Tensor self) -> int
    device_check: NoCheck
  - func: npu_sim_scale(Tensor self, float factor) -> Tensor
    impl_ns: op_api
    exposed: true
  - func: npu_sim_scale_autograd(Tensor self, float factor) -> Tensor
    impl_ns: op_api
    dispatch:
      AutogradPrivateUse1: npu_sim_scale_autograd
"""


@pytest.fixture
def merged(tmp_path):
    ws = make_workspace(tmp_path, derivatives_fixture=None)
    (ws["out"] / PROJECTION).write_text(merged_projection())
    backend = ws["yaml"] / "npu_native_functions.yaml"
    text = backend.read_text().replace(
        "  - func: get_npu_format(Tensor self) -> int\n    device_check: NoCheck\n",
        "  - func: get_npu_format(Tensor self) -> int\n    device_check: NoCheck\n    exposed: True\n"
        "  - func: npu_sim_empty(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor\n"
        "    dispatch:\n      CompositeExplicitAutograd: npu_sim_empty_kernel\n",
    )
    backend.write_text(text)
    return ws


def test_the_merged_projection_registers_each_op_once(merged):
    result = generate(merged, shards=1)
    text = all_shards(merged["aten"])
    registered = re.findall(r'm\.impl\("([^"]+)"', text)
    assert len(registered) == len(set(registered))
    for op in ("abs", "abs.out", "cat", "cat.out", "addcmul.out", "new_empty_strided", "copy_", "empty.memory_format"):
        assert op in registered, op
    # the backend's own ops, repeated in the projection, stay the backend's
    assert "at_npu::native::NPUNativeFunctions::copy_(" in wrapper_body(text, "copy_")
    # the cat family is called like any other op, not through a structured group
    assert "op_plugin::cat(" in wrapper_body(text, "cat") and "op_plugin::cat_out(" in wrapper_body(text, "cat.out")
    assert "structured_cat" not in text
    # schemas that differ from torch's only where the C++ call does not: registered, with a note
    notes = [n for n in result.notes if "registered with torch" in n]
    assert any(n.startswith("addcmul.out") and "scale (torch: value)" in n for n in notes), result.notes
    assert any(n.startswith("new_empty_strided") for n in notes), result.notes
    # upstream's sparse flag: the dense kernel is registered, the sparse one is said to be absent
    assert any(n.startswith("abs.out") and "sparse kernel is not registered" in n for n in result.notes)


def test_custom_ops_exposed_and_dispatch(merged):
    generate(merged, shards=1)
    text = all_shards(merged["aten"])
    blocks = dict(re.findall(r"TORCH_LIBRARY_IMPL\(npu, (\w+), m\) \{\n(.*?)\n\}", text, flags=re.DOTALL))
    assert sorted(blocks) == ["AutogradPrivateUse1", "CompositeExplicitAutograd", "PrivateUse1"]
    assert '"npu_sim_empty"' in blocks["CompositeExplicitAutograd"]
    assert '"npu_sim_scale_autograd"' in blocks["AutogradPrivateUse1"]
    assert '"npu_sim_scale"' in blocks["PrivateUse1"] and '"get_npu_format"' in blocks["PrivateUse1"]
    assert "NPUNativeFunctions::npu_sim_empty_kernel(" in wrapper_body(text, "npu_sim_empty")
    header = (merged["aten"] / "NPUNativeFunctions.h").read_text()
    assert "static at::Tensor npu_sim_empty_kernel(at::IntArrayRef size" in header
    custom_py = (merged["npu"] / "custom_ops.py").read_text()
    assert "EXPOSED = (\n    'get_npu_format',\n    'npu_sim_scale',\n)" in custom_py


def test_a_real_schema_difference_is_still_an_error(merged):
    path = merged["out"] / PROJECTION
    text = path.read_text()
    path.write_text(text.replace('"abs(Tensor self) -> Tensor"', '"abs(Tensor self, bool extra=False) -> Tensor"', 1))
    with pytest.raises(InputError, match="schema of 'abs' differs from torch"):
        generate(merged, shards=1)


@pytest.mark.parametrize(
    "change,message",
    [
        (("  - empty.memory_format\n", "  - empty.memory_format\n  - empty_strided\n  - zeros_like\n"),
         "'zeros_like' is listed by name, as a runtime-owned op, but npu_native_functions.yaml does not"),
        (("      AutogradPrivateUse1: npu_sim_scale_autograd\n", "      Meta: npu_sim_scale_autograd\n"),
         "dispatch key 'Meta' is not supported for custom ops"),
        (("      AutogradPrivateUse1: npu_sim_scale_autograd\n", "      AutogradPrivateUse1: 'npu sim'\n"),
         "the kernel must be a C++ function name"),
        (("    exposed: true\n", "    exposed: sometimes\n"), "npu_sim_scale: exposed must be true or false, got 'sometimes'"),
        (("    exposed: true\n", "    exposd: true\n"),
         "unknown key 'exposd' on a projection entry; did you mean 'exposed'?"),
        (("    exposed: true\n", "    exposed: true\n    backend_hint: fast\n"),
         "unknown key 'backend_hint' on a projection entry; known: func, impl_ns"),
    ],
)
def test_merged_projection_errors(merged, change, message):
    path = merged["out"] / PROJECTION
    old, new = change
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))
    with pytest.raises(InputError, match=re.escape(message)):
        generate(merged, shards=1)
