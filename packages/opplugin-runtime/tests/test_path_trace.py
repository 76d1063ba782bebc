"""Path ledger strict mode (torch.npu.expect_paths) and decision traces (torch.npu.explain)."""

import pytest
import torch

import opplugin_runtime


def test_expected_path_runs(expect_paths, assert_same):
    a, b = torch.randn(5), torch.randn(5)
    with expect_paths({"add.Tensor": "op_api"}):
        result = a.npu() + b.npu()
    assert_same(result, a + b)
    assert torch.npu.path_ledger()["add.Tensor"]["op_api"] == 1


def test_unexpected_path_raises_in_the_op(expect_paths):
    a = torch.randn(5).npu()
    torch.npu.set_compile_mode(jit_compile=True)
    with expect_paths({"add.Tensor": "op_api"}):
        with pytest.raises(RuntimeError, match=r"expect_paths: add\.Tensor ran on the acl_op path, expected op_api"):
            torch.add(a, a)
        _ = torch.abs(a)  # not listed, not strict: fine
    # raised before the path ran: nothing counted for add
    assert "add.Tensor" not in torch.npu.path_ledger()
    assert not opplugin_runtime._C.path_observers_active()
    torch.add(a, a)  # outside the block nothing is checked


def test_strict_mode_rejects_unlisted_ops(expect_paths):
    a = torch.randn(5).npu()
    with expect_paths({"add.Tensor": ["op_api", "acl_op"]}, strict=True):
        torch.add(a, a)
        with pytest.raises(RuntimeError, match=r"strict=True\): mul\.Tensor ran on the op_api path, but no path"):
            torch.mul(a, a)


def test_compat_fallback_is_a_path_of_its_own(run_python):
    result = run_python(
        """
        import warnings
        import torch, opplugin_runtime
        warnings.simplefilter("ignore")
        a = torch.randn(4).npu()
        with torch.npu.expect_paths({"add.Tensor": ["op_api", "compat"]}):
            torch.add(a, a)
        try:
            with torch.npu.expect_paths({"add.Tensor": "op_api"}):
                torch.add(a, a)
        except RuntimeError as error:
            print("ERROR:", str(error).splitlines()[0])
        """,
        env={"NPU_HIDE_ACLNN_SYMBOLS": "aclnnAdd"},
    )
    assert result.returncode == 0, result.stderr
    assert "ERROR: add: expect_paths: add.Tensor ran on the compat path, expected op_api" in result.stdout


def test_unknown_path_name_is_rejected():
    with pytest.raises(ValueError, match="unknown path 'aclnn'"), torch.npu.expect_paths({"add.Tensor": "aclnn"}):
        pass


def _steps(trace, op):
    return [(s["step"], s["subject"], s["value"]) for s in trace if s["op"] == op]


def test_explain_default_mode_takes_op_api():
    a, b = torch.randn(3).npu(), torch.randn(3).npu()
    trace = torch.npu.explain(torch.add, a, b)
    assert _steps(trace, "add.Tensor") == [
        ("force_aclnn", "", False),
        ("jit_compile_disabled", "", True),
        ("base_format", "self", True),
        ("base_format", "other", True),
        ("path", "", "op_api"),
        ("aclnn_symbol", "aclnnAdd", True),  # DO_COMPATIBILITY inside op_api::add
    ]
    base = [s for s in trace if s["step"] == "base_format"]
    assert all(s["detail"] == "ND" for s in base), base
    assert "jit compile is off" in trace[1]["reason"]


def test_explain_jit_compile_takes_acl_op():
    torch.npu.set_compile_mode(jit_compile=True)
    a = torch.randn(3).npu()
    trace = torch.npu.explain(torch.add, a, a, alpha=2)
    assert _steps(trace, "add.Tensor") == [
        ("force_aclnn", "", False),
        ("jit_compile_disabled", "", False),
        ("aclnn_only_device", "", False),
        ("path", "", "acl_op"),
    ]


def test_explain_internal_format_routes_to_acl_op():
    if not hasattr(torch.ops.npu, "npu_format_cast"):
        pytest.skip("npu_format_cast (internal formats) is not in this build")
    nz = torch.ops.npu.npu_format_cast(torch.randn(2, 3, 16, 16).npu(), 29)  # 29: ACL_FORMAT_FRACTAL_NZ
    trace = torch.npu.explain(torch.add, nz, nz)
    steps = _steps(trace, "add.Tensor")
    assert ("base_format", "self", False) in steps
    assert steps[-1] == ("path", "", "acl_op")
    assert next(s for s in trace if s["step"] == "base_format")["detail"] == "FRACTAL_NZ"


def test_explain_force_aclnn_and_missing_symbol(run_python):
    result = run_python(
        """
        import warnings
        import torch, opplugin_runtime
        warnings.simplefilter("ignore")
        torch.npu.set_compile_mode(jit_compile=True)
        a = torch.randn(4).npu()
        for s in torch.npu.explain(torch.add, a, a):
            print(s["op"], s["step"], s["subject"], s["value"])
        """,
        env={"FORCE_ACLNN_OP_LIST": "add", "NPU_HIDE_ACLNN_SYMBOLS": "aclnnAdd"},
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("add.Tensor")]
    assert lines[:7] == [
        "add.Tensor force_aclnn  True",  # short-circuit: the jit mode is not consulted
        "add.Tensor base_format self True",
        "add.Tensor base_format other True",
        "add.Tensor path  op_api",
        "add.Tensor aclnn_symbol aclnnAdd False",
        "add.Tensor aclnn_only_device aclnnAdd False",
        "add.Tensor path  compat",
    ]


def test_explain_aclnn_only_device_error_carries_the_trace(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        torch.npu.set_compile_mode(jit_compile=True)
        a = torch.randn(4).npu()
        try:
            torch.npu.explain(torch.add, a, a)
        except RuntimeError as error:
            print([(s["step"], s["value"]) for s in error.npu_explain])
        """,
        env={"NPU_ACLNN_ONLY": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert "('jit_compile_disabled', False), ('aclnn_only_device', True)]" in result.stdout


def test_observers_are_off_outside_explain():
    a = torch.randn(3).npu()
    torch.npu.explain(torch.abs, a)
    assert not opplugin_runtime._C.path_observers_active()
