"""``python -m torchnpugen``: help, exit codes, determinism across hash seeds."""

from __future__ import annotations

from torchnpugen_testlib import HAS_AOTI_C_SHIM, LABEL, OTHER_LABEL, make_workspace, run_cli


def _generate_args(ws, *extra):
    return ("generate", "--label", LABEL, "--yaml-dir", str(ws["yaml"]), "--out", str(ws["out"]), *extra)


def test_help_and_usage_exit_codes():
    top = run_cli("--help")
    assert top.returncode == 0 and "generate" in top.stdout and "Exit codes" in top.stdout
    sub = run_cli("generate", "--help")
    assert sub.returncode == 0
    for option in ("--label", "--yaml-dir", "--out", "--shards"):
        assert option in sub.stdout
    assert run_cli().returncode == 2
    assert run_cli("generate", "--label", LABEL).returncode == 2
    assert run_cli("frobnicate").returncode == 2


def test_bad_shard_count_is_a_usage_error(workspace):
    result = run_cli(*_generate_args(workspace, "--shards", "0"))
    assert result.returncode == 2
    assert "--shards" in result.stderr


def test_generate_succeeds(workspace):
    result = run_cli(*_generate_args(workspace, "--shards", "3"))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in workspace["aten"].iterdir()) == [
        "CustomFunctions.cpp", "CustomFunctions.h", "CustomRegisterSchema.cpp", "NPUNativeFunctions.h",
        "NPUStructuredNativeFunctions.cpp", "NPUStructuredNativeFunctions.h", "RegisterAutogradNPU.cpp",
        "RegisterFunctionalization.cpp", "RegisterNPU_0.cpp", "RegisterNPU_1.cpp", "RegisterNPU_2.cpp",
    ]  # fmt: skip
    shim = ["c_shim_npu.cpp", "c_shim_npu.h"] if HAS_AOTI_C_SHIM else []
    inductor = workspace["npu"] / "inductor"
    assert (sorted(p.name for p in inductor.iterdir()) if inductor.is_dir() else []) == shim
    assert (workspace["npu"] / "custom_ops.py").is_file()
    assert "36 ops" in result.stdout


def test_invalid_inputs_exit_1(workspace):
    unknown_label = run_cli(
        "generate", "--label", "v9.9", "--yaml-dir", str(workspace["yaml"]), "--out", str(workspace["out"])
    )
    assert unknown_label.returncode == 1 and "unknown label 'v9.9'" in unknown_label.stderr

    wrong_torch = run_cli(
        "generate", "--label", OTHER_LABEL, "--yaml-dir", str(workspace["yaml"]), "--out", str(workspace["out"])
    )
    assert wrong_torch.returncode == 1 and f"label {OTHER_LABEL} pins torch" in wrong_torch.stderr

    path = workspace["yaml"] / "npu_native_functions.yaml"
    lines = path.read_text().splitlines(keepends=True)
    line = lines.index("  - view\n") + 1
    lines[line - 1] = "  - viewww\n"
    path.write_text("".join(lines))
    bad_op = run_cli(*_generate_args(workspace))
    assert bad_op.returncode == 1
    assert f"yaml/npu_native_functions.yaml:{line}: unknown operator 'viewww'" in bad_op.stderr
    assert not workspace["aten"].exists()


def test_every_problem_is_a_line_of_its_own(workspace):
    path = workspace["yaml"] / "npu_native_functions.yaml"
    lines = path.read_text().splitlines(keepends=True)
    view, zero = lines.index("  - view\n") + 1, lines.index("  - zero_\n") + 1
    lines[view - 1], lines[zero - 1] = "  - viewww\n", "  - zerooo_\n"
    path.write_text("".join(lines))
    result = run_cli(*_generate_args(workspace))
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("torchnpugen: ")]
    assert errors[0].startswith(f"torchnpugen: error: yaml/npu_native_functions.yaml:{view}: unknown operator 'viewww'")
    assert errors[1].startswith(f"torchnpugen: error: yaml/npu_native_functions.yaml:{zero}: unknown operator 'zerooo_'")
    assert errors[2:] == ["torchnpugen: 2 errors"]
    assert not workspace["aten"].exists()


def test_missing_projection_exits_1(workspace):
    workspace["projection"].unlink()
    result = run_cli(*_generate_args(workspace))
    assert result.returncode == 1
    assert "op_plugin_functions.yaml" in result.stderr and "opplugin-codegen" in result.stderr


def test_output_is_byte_identical_across_hash_seeds(tmp_path):
    runs = []
    for seed in ("0", "4242"):
        ws = make_workspace(tmp_path / f"seed{seed}", "op_plugin_functions.shapes.yaml")
        result = run_cli(*_generate_args(ws), env={"PYTHONHASHSEED": seed})
        assert result.returncode == 0, result.stderr
        files = {p.relative_to(ws["npu"]).as_posix(): p.read_bytes() for p in ws["npu"].rglob("*") if p.is_file()}
        runs.append({**files, "../manifest.json": (ws["npu"].parent / "manifest.json").read_bytes()})
    assert sorted(runs[0]) == sorted(runs[1])
    # every artifact: shards, structured, custom, functionalization, autograd, shim (where generated), py,
    # and the label's manifest
    assert len(runs[0]) == (16 if HAS_AOTI_C_SHIM else 14)
    assert [name for name in runs[0] if runs[0][name] != runs[1][name]] == []
