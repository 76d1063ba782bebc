"""The torchgen patch table: verification, apply/revert, and that nothing else patches."""

from __future__ import annotations

import ast
import sys
import types
from pathlib import Path

import pytest
from torchgen.dest.register_dispatch_key import RegisterDispatchKey

from torchnpugen import patch, patch_state
from torchnpugen.compat import torch_version
from torchnpugen.errors import TorchgenMismatchError
from torchnpugen.patch import (
    TORCHGEN_PATCHES,
    Mode,
    TorchgenPatch,
    apply_torchgen_patch,
    torchgen_patched,
    verify_torchgen_targets,
)
from torchnpugen.register import NPURegisterDispatchKey, npu_gen_device_check
from torchnpugen_testlib import PACKAGE_SRC

DEVICE_CHECK = "torchgen.dest.register_dispatch_key.RegisterDispatchKey.gen_device_check"
UNSTRUCTURED = "torchgen.dest.register_dispatch_key.RegisterDispatchKey.gen_unstructured"


def _raw_attributes():
    """(owner, attr) -> the raw object stored on the owner, for every table row."""
    snapshot = {}
    for row in TORCHGEN_PATCHES:
        if not row.applies():  # its torchgen module does not exist on this torch
            continue
        owner, attr = patch._import_owner(row.target)
        snapshot[(owner, attr)] = vars(owner).get(attr, patch._MISSING)
    return snapshot


def test_table_rows_verify_against_installed_torchgen():
    resolved = verify_torchgen_targets()
    assert [row.target for row, _, _ in resolved] == [row.target for row in TORCHGEN_PATCHES if row.applies()]
    assert {row.mode for row in TORCHGEN_PATCHES} == set(Mode)
    for row in TORCHGEN_PATCHES:
        assert row.reason.strip(), row.target


def test_missing_target_fails_with_its_name_and_the_torch_version(monkeypatch):
    monkeypatch.delattr(RegisterDispatchKey, "gen_device_check")
    with pytest.raises(TorchgenMismatchError) as info:
        apply_torchgen_patch()
    message = str(info.value)
    assert DEVICE_CHECK in message
    assert f"torch {torch_version()}" in message
    assert "does not exist" in message


def test_target_with_changed_parameters_fails(monkeypatch):
    def moved(self, function, group=None):  # renamed parameters: upstream refactor
        return None

    monkeypatch.setattr(RegisterDispatchKey, "gen_unstructured", moved)
    with pytest.raises(TorchgenMismatchError) as info, torchgen_patched():
        pytest.fail("must not get here")
    assert UNSTRUCTURED in str(info.value)
    assert "(self, function, group)" in str(info.value)
    assert torch_version() in str(info.value)


def test_moved_module_fails_with_target_name():
    row = TorchgenPatch(
        target="torchgen.dest.no_such_module.RegisterDispatchKey.gen_unstructured",
        params=("self", "f", "g"),
        mode=Mode.OVERRIDE,
        replacement=NPURegisterDispatchKey,
        reason="test",
    )
    with pytest.raises(TorchgenMismatchError, match=r"torchgen\.dest\.no_such_module\.RegisterDispatchKey"):
        verify_torchgen_targets([row])


def test_target_already_replaced_by_someone_else_fails(monkeypatch):
    foreign = types.ModuleType("someone_elses_patch")
    exec("def gen_device_check(type, args, method_name):\n    return ''\n", foreign.__dict__)
    monkeypatch.setattr(RegisterDispatchKey, "gen_device_check", staticmethod(foreign.gen_device_check))
    with pytest.raises(TorchgenMismatchError, match="already replaced by someone_elses_patch"):
        verify_torchgen_targets()


def test_nothing_is_patched_when_verification_fails(monkeypatch):
    original = vars(RegisterDispatchKey)["gen_device_check"]
    monkeypatch.delattr(RegisterDispatchKey, "gen_unstructured")
    with pytest.raises(TorchgenMismatchError):
        apply_torchgen_patch()
    assert vars(RegisterDispatchKey)["gen_device_check"] is original
    assert not patch.is_patched()


def test_context_manager_applies_and_restores_every_attribute():
    before = _raw_attributes()
    with torchgen_patched():
        assert patch.is_patched()
        assert RegisterDispatchKey.gen_device_check is npu_gen_device_check
        assert isinstance(vars(RegisterDispatchKey)["gen_device_check"], staticmethod)
        # OVERRIDE rows leave torchgen alone
        assert vars(RegisterDispatchKey)["gen_unstructured"] is before[(RegisterDispatchKey, "gen_unstructured")]
    assert _raw_attributes() == before
    for key, value in _raw_attributes().items():
        assert value is before[key], key
    assert not patch.is_patched()


def test_context_manager_restores_after_an_exception_and_when_nested():
    before = _raw_attributes()
    with pytest.raises(KeyError), torchgen_patched():
        with torchgen_patched():
            assert RegisterDispatchKey.gen_device_check is npu_gen_device_check
        assert RegisterDispatchKey.gen_device_check is npu_gen_device_check  # outer still active
        raise KeyError("boom")
    assert _raw_attributes() == before
    assert not patch.is_patched()


def test_apply_returns_an_idempotent_revert():
    before = _raw_attributes()
    revert = apply_torchgen_patch()
    assert RegisterDispatchKey.gen_device_check is npu_gen_device_check
    revert()
    revert()
    assert _raw_attributes() == before


def test_restore_handles_module_functions_and_inherited_attributes(monkeypatch):
    fake = types.ModuleType("torchgen_fake_for_test")
    exec(
        "class Base:\n"
        "    def hook(self, f):\n        return 'base'\n"
        "class Child(Base):\n    pass\n"
        "def helper(x, *, symint=True):\n    return 'stock'\n",
        fake.__dict__,
    )
    monkeypatch.setitem(sys.modules, "torchgen_fake_for_test", fake)

    def new_hook(self, f):
        return "ours"

    def new_helper(x, *, symint=True):
        return "ours"

    new_hook.__module__ = new_helper.__module__ = "torchnpugen.test"
    table = [
        TorchgenPatch("torchgen_fake_for_test.Child.hook", ("self", "f"), Mode.PATCH, new_hook, "inherited"),
        TorchgenPatch("torchgen_fake_for_test.helper", ("x", "symint"), Mode.PATCH, new_helper, "module level"),
    ]
    with torchgen_patched(table):
        assert fake.Child().hook(None) == "ours"
        assert fake.helper(1) == "ours"
    assert "hook" not in vars(fake.Child)  # inherited attribute removed again, not copied down
    assert fake.Child().hook(None) == "base"
    assert fake.helper(1) == "stock"


def test_generation_refuses_to_run_unpatched():
    from torchgen.utils import Target

    from torchnpugen.register import make_register_dispatch_key

    with pytest.raises(RuntimeError, match="torchgen_patched"):
        make_register_dispatch_key([], Target.REGISTRATION).gen_unstructured(None)


def _torchgen_bound_names(tree: ast.AST) -> set:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "torchgen":
                    names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torchgen":
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def _root_name(node: ast.AST):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def test_patch_module_is_the_only_place_that_assigns_torchgen_attributes():
    offenders = []
    for path in sorted(Path(PACKAGE_SRC).rglob("*.py")):
        if path.name == "patch.py":
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        torchgen_names = _torchgen_bound_names(tree)
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            for target in targets:
                if isinstance(target, (ast.Attribute, ast.Subscript)) and _root_name(target) in torchgen_names:
                    offenders.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("setattr", "delattr"):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def _package_imports(path: Path) -> set:
    """The torchnpugen modules ``path`` imports, at any depth (function-local imports too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names |= {node.module} if node.module else {alias.name for alias in node.names}
    return names


def test_the_generator_modules_do_not_import_the_patch_table():
    """patch.py imports the generator classes it installs, so they must not import patch.py
    (the patch state they check lives in patch_state.py)."""
    for name in ("register.py", "patch_state.py"):
        assert "patch" not in _package_imports(Path(PACKAGE_SRC) / "torchnpugen" / name), name
    assert patch.require_patched is patch_state.require_patched


# --------------------------------------------------------------------------- the seed's other targets


def test_every_seed_target_has_a_row():
    targets = {row.target.rsplit(".", 2)[-2] + "." + row.target.rsplit(".", 1)[-1] for row in TORCHGEN_PATCHES}
    for name in (
        "RegisterDispatchKey.gen_unstructured",
        "RegisterDispatchKey.gen_device_check",
        "StructuredRegisterDispatchKey.gen_class",
        "StructuredRegisterDispatchKey.gen_class_set_output_body",
        "StructuredRegisterDispatchKey.gen_one",
        "dest.compute_native_function_declaration",
        "cpp.JIT_TO_CPP_DEFAULT",
        "dispatcher.arguments",
    ):
        assert name in targets, name


def test_contiguous_format_row_says_it_is_a_no_op_on_this_torch():
    import torchgen.api.cpp as cpp

    report = {target: action for target, action, _ in patch.patch_report()}
    action = report["torchgen.api.cpp.JIT_TO_CPP_DEFAULT"]
    if cpp.JIT_TO_CPP_DEFAULT["contiguous_format"] == "c10::MemoryFormat::Contiguous":  # torch >= 2.2
        assert action.startswith("verified, not patched: ['contiguous_format'] is already")
    else:
        assert action.startswith("patched while applied")
    assert report["torchgen.api.dispatcher.arguments"] == "verified, not patched"


def test_contiguous_format_is_patched_and_restored_when_torchgen_needs_it(monkeypatch):
    import torchgen.api.cpp as cpp

    monkeypatch.setitem(cpp.JIT_TO_CPP_DEFAULT, "contiguous_format", "MemoryFormat::Contiguous")  # torch 2.1
    with torchgen_patched():
        assert cpp.JIT_TO_CPP_DEFAULT["contiguous_format"] == "c10::MemoryFormat::Contiguous"
    assert cpp.JIT_TO_CPP_DEFAULT["contiguous_format"] == "MemoryFormat::Contiguous"


def test_an_unexpected_mapping_value_fails_with_the_target_name(monkeypatch):
    import torchgen.api.cpp as cpp

    monkeypatch.setitem(cpp.JIT_TO_CPP_DEFAULT, "contiguous_format", "at::MemoryFormat::Something")
    with pytest.raises(
        TorchgenMismatchError, match=r"torchgen target torchgen.api.cpp.JIT_TO_CPP_DEFAULT \['contiguous_format'\]"
    ):
        verify_torchgen_targets()


def test_a_missing_structured_target_fails_with_its_name(monkeypatch):
    from torchgen.dest.register_dispatch_key import StructuredRegisterDispatchKey

    monkeypatch.delattr(StructuredRegisterDispatchKey, "gen_class_set_output_body")
    with pytest.raises(TorchgenMismatchError) as info:
        apply_torchgen_patch()
    assert "StructuredRegisterDispatchKey.gen_class_set_output_body does not exist" in str(info.value)
    assert f"torch {torch_version()}" in str(info.value)


def test_the_native_declaration_step_is_patched_only_inside_the_context():
    import torchgen.dest as dest

    stock = dest.compute_native_function_declaration
    with torchgen_patched():
        assert dest.compute_native_function_declaration.__module__ == "torchnpugen.register"
    assert dest.compute_native_function_declaration is stock


def test_a_row_whose_module_this_torch_lacks_is_skipped_and_reported():
    """The AOTI C shim row names the compat difference that removes its target (torch 2.1)."""
    from torchnpugen.compat import detected_differences, difference

    (row,) = [r for r in TORCHGEN_PATCHES if r.absent_with is not None]
    assert row.target.startswith("torchgen.gen_aoti_c_shim.")
    absent = difference("no-aoti-c-shim") in detected_differences()
    assert row.applies() is not absent
    (line,) = [entry for entry in patch.patch_report() if entry[0] == row.target]
    if absent:
        assert line[1].startswith("skipped on torch ") and "absent on 2.1" in line[1]
    else:
        assert line[1] == "verified, not patched"


def test_a_verified_target_may_have_an_earlier_releases_parameters(monkeypatch):
    """The shim generator took three arguments before torch 2.8 and a differently named fourth
    before 2.13; its row accepts those lists and no other."""
    fake = types.ModuleType("torchgen_fake_shim_for_test")
    exec("def gen(schema, device, backend_call, version_info):\n    return None\n", fake.__dict__)
    monkeypatch.setitem(sys.modules, "torchgen_fake_shim_for_test", fake)
    row = TorchgenPatch(
        target="torchgen_fake_shim_for_test.gen",
        params=("schema", "device", "backend_call", "op_metadata"),
        mode=Mode.VERIFY,
        replacement=None,
        reason="test",
        older_params=(("schema", "device", "backend_call"), ("schema", "device", "backend_call", "version_info")),
    )
    verify_torchgen_targets([row])
    exec("def gen(schema, device, call):\n    return None\n", fake.__dict__)
    with pytest.raises(TorchgenMismatchError) as info:
        verify_torchgen_targets([row])
    assert "has parameters (schema, device, call); expected (schema, device, backend_call, op_metadata) or " \
        "(schema, device, backend_call) or (schema, device, backend_call, version_info)" in str(info.value)
