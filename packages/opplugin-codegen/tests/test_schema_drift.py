"""Schema drift: each YAML func against the native_functions.yaml of the labels in its range.

The releases here are synthetic native_functions.yaml files (a few ``- func:`` lines), so
every case, including a deliberately wrong range, is checked without installing torch.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from opplugin_codegen import load_model
from opplugin_codegen.schema_drift import (
    check_schemas,
    read_cache,
    read_release,
    releases_from,
    render_range,
    store_installed,
)
from opplugin_codegen_testing import PROJECT_YAML, SRC, line_of, make_yaml_dir

NEW_ADD = "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
OLD_ADD = "add.Tensor(Tensor self, Tensor other) -> Tensor"
ABS = "abs(Tensor self) -> Tensor"
MUL_OUT = "mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"

OPS = f"""\
official:
  - func: {ABS}
    op_api: all_version

  - func: {NEW_ADD}
    acl_op: all_version
    op_api: [v2.3, newest]

  - func: {MUL_OUT}
    op_api: [v2.5, newest]

custom:
  - func: npu_thing(Tensor self) -> Tensor
    op_api: all_version
"""


def native_functions(*funcs: str) -> str:
    """A native_functions.yaml in PyTorch's layout."""
    return "".join(f"- func: {f}\n  variants: function\n  dispatch:\n    CPU: k\n\n" for f in funcs)


def write_releases(root: Path, per_label: dict[str, tuple[str, ...]]) -> dict[str, Path]:
    root.mkdir(parents=True, exist_ok=True)
    paths = {}
    for label, funcs in per_label.items():
        paths[label] = root / f"{label}.yaml"
        paths[label].write_text(native_functions(*funcs))
    return paths


def labels(first: int, last: int) -> list[str]:
    return [f"v2.{i}" for i in range(first, last + 1)]


def test_matching_releases_report_nothing(tmp_path: Path, yaml_dir) -> None:  # type: ignore[no-untyped-def]
    model = load_model(yaml_dir(OPS))
    files = write_releases(
        tmp_path / "nf", dict.fromkeys(("v2.1", "v2.13"), (ABS, NEW_ADD, MUL_OUT))
    )
    releases = releases_from(model.registry, None, [], files)
    assert check_schemas(model, releases) == []


def test_a_deliberately_wrong_range_is_reported_with_the_label_of_the_change_and_the_split(
    tmp_path: Path,
    yaml_dir,  # type: ignore[no-untyped-def]
) -> None:
    """add.Tensor is declared with alpha for all_version, but torch 2.1-2.4 had no alpha."""
    ops_dir = yaml_dir(OPS)
    model = load_model(ops_dir)
    per_label = dict.fromkeys(labels(1, 4), (ABS, OLD_ADD, MUL_OUT))
    per_label.update(dict.fromkeys(labels(5, 15), (ABS, NEW_ADD, MUL_OUT)))
    releases = releases_from(model.registry, None, [], write_releases(tmp_path / "nf", per_label))
    drifts = check_schemas(model, releases)
    assert [d.subject for d in drifts] == ["add.Tensor"]
    line = line_of(ops_dir / "op_plugin_functions.yaml", f"- func: {NEW_ADD}")
    assert str(drifts[0].diagnostic()) == (
        f"yaml/op_plugin_functions.yaml:{line}: add.Tensor: schema differs in v2.1..v2.4 "
        f"(torch 2.1.2..2.4.1: {OLD_ADD}); the YAML's func matches v2.5..v2.15; "
        "split into [v2.1, v2.4] with the schema of torch 2.1.2..2.4.1 "
        "and [v2.5, newest] with the YAML's schema:\n"
        f"    - func: {OLD_ADD}\n"
        "      acl_op: [v2.1, v2.4]\n"
        "      op_api: [v2.3, v2.4]\n"
        f"    - func: {NEW_ADD}\n"
        "      acl_op: [v2.5, newest]\n"
        "      op_api: [v2.5, newest]"
    )
    assert drifts[0].wrong_labels == tuple(labels(1, 4))


def test_a_change_between_two_checked_labels_names_the_unchecked_ones(
    tmp_path: Path, yaml_dir
) -> None:  # type: ignore[no-untyped-def]
    model = load_model(yaml_dir(OPS))
    files = write_releases(
        tmp_path / "nf", {"v2.1": (ABS, OLD_ADD), "v2.13": (ABS, NEW_ADD, MUL_OUT)}
    )
    (drift,) = check_schemas(model, releases_from(model.registry, None, [], files))
    text = drift.message()
    assert text.startswith(
        f"schema differs in v2.1 (torch 2.1.2: {OLD_ADD}); the YAML's func matches v2.13; "
    )
    assert (
        "it changed after v2.1 and by v2.13 (not checked: v2.2..v2.12; the split assumes v2.13)"
        in text
    )
    assert (
        "split into [v2.1, v2.12] with the schema of torch 2.1.2 "
        "and [v2.13, newest] with the YAML's schema" in text
    )
    assert "      acl_op: [v2.1, v2.12]\n      op_api: [v2.3, v2.12]\n" in text


def test_an_operator_missing_from_a_release_in_range_is_reported(tmp_path: Path, yaml_dir) -> None:  # type: ignore[no-untyped-def]
    """mul.out declared for [v2.1, newest] but (synthetically) absent before v2.5."""
    ops = OPS.replace("op_api: [v2.5, newest]", "op_api: all_version")
    model = load_model(yaml_dir(ops))
    per_label = dict.fromkeys(labels(1, 4), (ABS, NEW_ADD))
    per_label.update(dict.fromkeys(labels(5, 15), (ABS, NEW_ADD, MUL_OUT)))
    (drift,) = check_schemas(
        model, releases_from(model.registry, None, [], write_releases(tmp_path / "nf", per_label))
    )
    assert drift.subject == "mul.out"
    assert drift.message().startswith("no such operator in v2.1..v2.4 (torch 2.1.2..2.4.1); ")
    assert (
        "split into drop [v2.1, v2.4] and [v2.5, newest] with the YAML's schema" in drift.message()
    )
    assert drift.fix_yaml() == f"    - func: {MUL_OUT}\n      op_api: [v2.5, newest]"


def test_only_labels_in_the_range_count_and_custom_ops_are_skipped(
    tmp_path: Path, yaml_dir
) -> None:  # type: ignore[no-untyped-def]
    """mul.out is declared for [v2.5, newest]: v2.1 lacking it is right, not drift."""
    model = load_model(yaml_dir(OPS))
    files = write_releases(
        tmp_path / "nf", {"v2.1": (ABS, NEW_ADD), "v2.13": (ABS, NEW_ADD, MUL_OUT)}
    )
    assert check_schemas(model, releases_from(model.registry, None, [], files)) == []


def test_whitespace_and_quoting_are_not_drift(tmp_path: Path, yaml_dir) -> None:  # type: ignore[no-untyped-def]
    model = load_model(yaml_dir(OPS))
    spaced = "add.Tensor(Tensor self,  Tensor other, *, Scalar alpha=1)  ->  Tensor"
    files = write_releases(tmp_path / "nf", {"v2.13": (f"'{ABS}'", spaced, MUL_OUT)})
    assert check_schemas(model, releases_from(model.registry, None, [], files)) == []


def test_aten_backward_entries_are_checked_too(tmp_path: Path) -> None:
    derivatives = f"""\
backward:
  - name: {NEW_ADD}
    version: all_version
    self: grad
  - name: npu_thing(Tensor self) -> Tensor
    version: all_version
    self: grad
"""
    ops_dir = make_yaml_dir(tmp_path, OPS, derivatives)
    model = load_model(ops_dir)
    files = write_releases(
        tmp_path / "nf", {"v2.1": (ABS, OLD_ADD), "v2.13": (ABS, NEW_ADD, MUL_OUT)}
    )
    drifts = check_schemas(model, releases_from(model.registry, None, [], files))
    assert [(d.subject, d.loc.file) for d in drifts] == [  # by file, then line
        ("add.Tensor", "yaml/derivatives.yaml"),
        ("add.Tensor", "yaml/op_plugin_functions.yaml"),
    ]
    assert "      version: [v2.1, v2.12]\n" in drifts[0].message()


def test_render_range_uses_the_yaml_grammar() -> None:
    reg = load_model(PROJECT_YAML).registry
    mask = lambda *ls: sum(1 << reg.index(lb) for lb in ls)  # noqa: E731
    assert render_range(reg.full_mask, reg) == "all_version"
    assert render_range(mask(*labels(5, 15)), reg) == "[v2.5, newest]"
    assert render_range(mask(*labels(1, 4)), reg) == "[v2.1, v2.4]"
    assert render_range(mask("v2.7"), reg) == "v2.7"
    assert render_range(mask("v2.1", "v2.3"), reg) == '"v2.1, v2.3"'


# -- the cache -------------------------------------------------------------------------


def test_missing_cache_files_name_the_command_that_fills_them(tmp_path: Path) -> None:
    reg = load_model(PROJECT_YAML).registry
    with pytest.raises(Exception) as info:
        read_cache(tmp_path, ["v2.1", "v2.13"], reg)
    assert (
        "has no native_functions.yaml for v2.1, v2.13: "
        "fill it with `nox -s check-schemas -- v2.1 v2.13`" in str(info.value)
    )


def test_a_cache_file_of_another_release_is_refused(tmp_path: Path) -> None:
    reg = load_model(PROJECT_YAML).registry
    path = tmp_path / "v2.1.yaml"
    path.write_text(
        "# opplugin-codegen: native_functions.yaml of torch 2.13.0 for v2.13 (from x)\n"
        + native_functions(ABS)
    )
    with pytest.raises(Exception) as info:
        read_release(path, "v2.1", reg)
    assert "holds the schemas of torch 2.13.0 (v2.13), not of v2.1 (torch 2.1.2)" in str(info.value)


def test_the_installed_torchgen_goes_into_the_cache(tmp_path: Path) -> None:
    if importlib.util.find_spec("torchgen") is None:
        pytest.skip("no torchgen in this interpreter")
    reg = load_model(PROJECT_YAML).registry
    label, path, written = store_installed(tmp_path, reg)
    assert written and path == tmp_path / f"{label}.yaml"
    assert path.read_text().startswith("# opplugin-codegen: native_functions.yaml of torch ")
    assert store_installed(tmp_path, reg)[2] is False  # unchanged: not rewritten
    release = read_cache(tmp_path, [label], reg)[label]
    # The line scan finds exactly the entries a YAML load finds.
    entries = yaml.load(path.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert len(release.funcs) == len(entries) > 1000
    other = next(lb for lb in reg.labels if lb != label)
    with pytest.raises(Exception, match=f"not the torch of {other}"):
        store_installed(tmp_path, reg, other)


def test_a_torch_wheel_goes_into_the_cache_without_being_installed(tmp_path: Path) -> None:
    import zipfile

    reg = load_model(PROJECT_YAML).registry
    wheel = tmp_path / "torch-2.4.1-cp311-cp311-manylinux1_x86_64.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(
            "torch-2.4.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.1\n"
        )
        archive.writestr(
            "torchgen/packaged/ATen/native/native_functions.yaml", native_functions(ABS)
        )
    label, path, written = store_installed(tmp_path / "cache", reg, "v2.4", wheel)
    assert (label, written) == ("v2.4", True)
    assert path.read_text().startswith(
        f"# opplugin-codegen: native_functions.yaml of torch 2.4.1 for v2.4 (from {wheel.name}:"
    )
    assert read_cache(tmp_path / "cache", ["v2.4"], reg)["v2.4"].funcs
    with pytest.raises(
        Exception, match=r"this wheel has torch 2\.4\.1 \(v2\.4\), not the torch of v2\.5"
    ):
        store_installed(tmp_path / "cache", reg, "v2.5", wheel)
    not_torch = tmp_path / "numpy-2.0-cp311-cp311-linux_x86_64.whl"
    with zipfile.ZipFile(not_torch, "w") as archive:
        archive.writestr("numpy-2.0.dist-info/METADATA", "Version: 2.0\n")
    with pytest.raises(Exception, match="is not a torch wheel"):
        store_installed(tmp_path / "cache", reg, None, not_torch)


def test_the_project_yaml_has_no_drift_against_the_installed_torch(tmp_path: Path) -> None:
    if importlib.util.find_spec("torchgen") is None:
        pytest.skip("no torchgen in this interpreter")
    model = load_model(PROJECT_YAML)
    label, _, _ = store_installed(tmp_path, model.registry)
    drifts = check_schemas(model, read_cache(tmp_path, [label], model.registry))
    assert drifts == [], "\n".join(str(d.diagnostic()) for d in drifts)


# -- the command line ------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-m", "opplugin_codegen", *args], capture_output=True, text=True, env=env
    )


def test_cli_exit_status_and_report(tmp_path: Path) -> None:
    ops_dir = make_yaml_dir(tmp_path, OPS)
    nf = write_releases(tmp_path / "nf", {"v2.1": (ABS, OLD_ADD), "v2.13": (ABS, NEW_ADD, MUL_OUT)})
    wrong = run_cli(
        "check-schemas", "--yaml-dir", str(ops_dir), "--cache-dir", str(tmp_path / "nf")
    )
    assert wrong.returncode == 1, wrong.stderr
    assert "3 aten entries checked against v2.1 (torch 2.1.2), v2.13 (torch 2.13.0)" in wrong.stdout
    line = line_of(ops_dir / "op_plugin_functions.yaml", f"- func: {NEW_ADD}")
    assert (
        f"yaml/op_plugin_functions.yaml:{line}: add.Tensor: schema differs in v2.1 (torch 2.1.2: "
        in wrong.stderr
    )
    assert wrong.stderr.rstrip().endswith("1 entry with a wrong range")
    right = run_cli(
        "check-schemas",
        "--yaml-dir",
        str(ops_dir),
        "--cache-dir",
        str(tmp_path / "nf"),
        "--label",
        "v2.13",
    )
    assert right.returncode == 0 and "no schema drift" in right.stdout
    explicit = run_cli(
        "check-schemas", "--yaml-dir", str(ops_dir), "--native-functions", f"v2.13={nf['v2.13']}"
    )
    assert explicit.returncode == 0, explicit.stderr
    usage = run_cli("check-schemas", "--yaml-dir", str(ops_dir), "--native-functions", "v2.13")
    assert usage.returncode == 2 and "expects LABEL=PATH" in usage.stderr
    empty = run_cli(
        "check-schemas", "--yaml-dir", str(ops_dir), "--cache-dir", str(tmp_path / "empty")
    )
    assert empty.returncode == 1 and "nothing to check" in empty.stderr
