"""The command line: subcommands, exit codes, --all-labels in one process, determinism."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from opplugin_codegen.cli import main
from opplugin_codegen_testing import (
    PROJECT_YAML,
    RICH_YAML,
    make_yaml_dir,
    snapshot,
    subprocess_env,
)


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "opplugin_codegen", *args],
        capture_output=True,
        text=True,
        env=subprocess_env(**env),
        check=False,
    )


def test_help() -> None:
    r = run("--help")
    assert r.returncode == 0
    assert "generate" in r.stdout
    r = run("generate", "--help")
    assert r.returncode == 0
    for flag in ("--label", "--all-labels", "--yaml-dir", "--out", "--shards", "--check"):
        assert flag in r.stdout


def test_generate_one_label(tmp_path: Path) -> None:
    out = tmp_path / "v2.13"
    r = run("generate", "--label", "v2.13", "--yaml-dir", str(PROJECT_YAML), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert (out / "op_plugin/OpInterface.h").exists()
    assert (out / "manifest.json").exists()
    assert "v2.13:" in r.stdout


def test_check_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["generate", "--check", "--yaml-dir", str(RICH_YAML), "--out", str(out)]) == 0
    assert main(["check", "--yaml-dir", str(RICH_YAML)]) == 0
    assert "ok:" in capsys.readouterr().out
    assert not out.exists()


def test_all_labels_in_one_process(tmp_path: Path) -> None:
    assert (
        main(
            [
                "generate",
                "--all-labels",
                "--yaml-dir",
                str(RICH_YAML),
                "--out-root",
                str(tmp_path),
                "-q",
            ]
        )
        == 0
    )
    labels = sorted(p.name for p in tmp_path.iterdir())
    assert len(labels) == 15 and "v2.1" in labels and "v2.15" in labels
    for label in labels:
        assert (tmp_path / label / "op_plugin/OpInterface.h").exists()


def test_default_label_and_out_root(tmp_path: Path) -> None:
    assert main(["generate", "--yaml-dir", str(RICH_YAML), "--out-root", str(tmp_path), "-q"]) == 0
    assert (tmp_path / "v2.13" / "manifest.json").exists()


def test_labels_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["labels", "--yaml-dir", str(RICH_YAML), "--default"]) == 0
    assert capsys.readouterr().out.strip() == "v2.13"


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "--shards", "0"],
        ["generate", "--label", "v9.9"],
        ["generate", "--all-labels", "--out", "x"],
        ["generate", "--label", "v2.1", "--all-labels"],
        ["frobnicate"],
        [],
        ["generate", "--yaml-dir", "/nonexistent/dir"],
    ],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    if "--yaml-dir" not in argv:
        argv = [*argv, "--yaml-dir", str(RICH_YAML)] if argv[:1] == ["generate"] else argv
    assert main(argv) == 2
    assert capsys.readouterr().err


def test_invalid_input_exits_1(tmp_path: Path) -> None:
    yaml_dir = make_yaml_dir(
        tmp_path, "official:\n  - func: abs(Tensor self) -> Tensor\n    op_apii: all_version\n"
    )
    r = run("generate", "--yaml-dir", str(yaml_dir), "--out-root", str(tmp_path / "out"))
    assert r.returncode == 1
    assert (
        "yaml/op_plugin_functions.yaml:3: abs: unknown key 'op_apii'; did you mean 'op_api'?"
    ) in r.stderr
    assert not (tmp_path / "out").exists()


def test_output_is_identical_across_hash_seeds(tmp_path: Path) -> None:
    trees = []
    for seed in ("0", "1", "4242"):
        root = tmp_path / f"seed{seed}"
        r = run(
            "generate",
            "--all-labels",
            "--yaml-dir",
            str(RICH_YAML),
            "--out-root",
            str(root),
            "-q",
            PYTHONHASHSEED=seed,
        )
        assert r.returncode == 0, r.stderr
        trees.append({k: v[0] for k, v in snapshot(root).items()})
    assert trees[0] == trees[1] == trees[2]
    # 24 files (with the sparse and DVM headers, npu/version.h, the 4 test-only Meta check
    # shards) + manifest, and one header per op family the YAML declares, in every label
    families = [k for k in trees[0] if "/op_plugin/ops/" in f"/{k}"]
    assert len(trees[0]) - len(families) == 15 * 25
    assert families and len(families) % 15 == 0
