"""Which implementation runs: op_api by default, acl_op with jit_compile=True,
compat when the aclnn symbol is missing, an error on an aclnn-only device."""

import torch


def test_add_defaults_to_op_api(ledger, assert_same):
    assert torch.npu.is_jit_compile_false()
    a, b = torch.randn(3), torch.randn(3)
    assert_same(a.npu() + b.npu(), a + b)
    assert ledger()["add.Tensor"] == {"op_api": 1, "acl_op": 0, "compat": 0, "cpu_fallback": 0, "dvm": 0}


def test_jit_compile_selects_acl_op(ledger, assert_same):
    torch.npu.set_compile_mode(jit_compile=True)
    assert not torch.npu.is_jit_compile_false()
    a, b = torch.randn(3), torch.randn(3)
    assert_same(torch.add(a.npu(), b.npu(), alpha=2), torch.add(a, b, alpha=2))
    assert ledger()["add.Tensor"] == {"op_api": 0, "acl_op": 1, "compat": 0, "cpu_fallback": 0, "dvm": 0}
    torch.npu.set_compile_mode(jit_compile=False)
    _ = a.npu() + b.npu()
    assert ledger()["add.Tensor"]["op_api"] == 1


def test_missing_aclnn_symbol_falls_back_to_acl_op(run_python):
    result = run_python(
        """
        import warnings
        import torch, opplugin_runtime
        a, b = torch.randn(4), torch.randn(4)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r1 = torch.add(a.npu(), b.npu(), alpha=3)
            r2 = torch.add(a.npu(), b.npu())
        torch.testing.assert_close(r1.cpu(), torch.add(a, b, alpha=3))
        torch.testing.assert_close(r2.cpu(), a + b)
        print(torch.npu.path_ledger()["add.Tensor"])
        print(sum("aclnnAdd" in str(w.message) for w in caught))
        """,
        env={"NPU_HIDE_ACLNN_SYMBOLS": "aclnnAdd"},
    )
    assert result.returncode == 0, result.stderr
    ledger_line, warnings_line = result.stdout.strip().splitlines()[-2:]
    assert ledger_line == "{'op_api': 2, 'acl_op': 0, 'compat': 2, 'cpu_fallback': 0, 'dvm': 0}"
    assert warnings_line == "1"  # warned once per call site


def test_aclnn_only_device_rejects_acl_op_path(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        a = torch.randn(4).npu()
        print((a + a).cpu().shape)          # op_api works on an aclnn-only device
        torch.npu.set_compile_mode(jit_compile=True)
        try:
            torch.add(a, a)
        except RuntimeError as error:
            print("ERROR:", str(error).splitlines()[0])
        """,
        env={"NPU_ACLNN_ONLY": "1"},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "torch.Size([4])"
    assert lines[1].startswith("ERROR: add.Tensor:") and "aclnn-only" in lines[1]


def test_aclnn_only_device_with_missing_symbol_raises(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        a = torch.randn(4).npu()
        try:
            torch.add(a, a)
        except RuntimeError as error:
            print("ERROR:", str(error).splitlines()[0])
        """,
        env={"NPU_ACLNN_ONLY": "1", "NPU_HIDE_ACLNN_SYMBOLS": "aclnnAdd"},
    )
    assert result.returncode == 0, result.stderr
    assert "aclnnAdd is not available" in result.stdout and "aclnn-only" in result.stdout


def test_force_aclnn_op_list_overrides_jit_compile(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        torch.npu.set_compile_mode(jit_compile=True)
        a = torch.randn(4).npu()
        _ = a + a
        _ = a * a
        ledger = torch.npu.path_ledger()
        print(ledger["add.Tensor"]["op_api"], ledger["mul.Tensor"]["acl_op"])
        """,
        env={"FORCE_ACLNN_OP_LIST": "add"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "1 1"


def test_reset_path_ledger(ledger):
    _ = torch.ones(2, device="npu") + 1
    assert "add.Tensor" in ledger()
    torch.npu.reset_path_ledger()
    assert "add.Tensor" not in ledger()
