"""What a label's test run proves is recorded: the noxfile reads pytest's JUnit report into counts
(passed, skipped, xfailed, failed, errors) with the label's torch and the date, and `nox -s matrix`
keeps each label's last whole run in docs/proven-labels.json."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import project_noxfile  # loaded by tests/conftest.py
import pytest

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="6">
<testcase classname="a" name="passes" time="0.1"/>
<testcase classname="a" name="passes too" time="0.1"/>
<testcase classname="a" name="skips"><skipped type="pytest.skip" message="no"/></testcase>
<testcase classname="a" name="xfails"><skipped type="pytest.xfail" message="known"/></testcase>
<testcase classname="a" name="fails"><failure message="assert 1 == 2"/></testcase>
<testcase classname="a" name="errs"><error message="fixture"/></testcase>
</testsuite></testsuites>
"""


REPO = Path(__file__).resolve().parent.parent


def noxfile():
    return project_noxfile


def test_a_run_is_counted_from_its_junit_report(tmp_path: Path) -> None:
    junit = tmp_path / "v2.13.xml"
    junit.write_text(JUNIT)
    record = noxfile().test_record("v2.13", junit, "-m not slow", 90.0)
    assert {k: record[k] for k in ("passed", "skipped", "xfailed", "failed", "errors")} == {
        "passed": 2, "skipped": 1, "xfailed": 1, "failed": 1, "errors": 1}
    assert record["label"] == "v2.13" and record["minutes"] == 1.5 and record["proven"] is False
    assert len(record["date"]) == 10 and record["selection"] == "-m not slow"
    head = subprocess.run(["git", "log", "-1", "--format=%H"], cwd=REPO, capture_output=True, text=True).stdout
    if head:  # a git checkout: the run names the commit it tested
        assert record["commit"] and head.startswith(record["commit"].split("+")[0])
        assert f" at {record['commit']} " in noxfile().summary_line(record)
    assert "FAILED" in noxfile().summary_line(record)


def test_a_run_that_wrote_no_report_proves_nothing(tmp_path: Path) -> None:
    record = noxfile().test_record("v2.13", tmp_path / "missing.xml", "all", 1.0)
    assert record["passed"] == 0 and record["proven"] is False


def test_matrix_keeps_each_labels_last_whole_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = noxfile()
    results, proven = tmp_path / "results", tmp_path / "docs" / "proven-labels.json"
    results.mkdir()
    monkeypatch.setattr(module, "TEST_RESULTS", results)
    monkeypatch.setattr(module, "PROVEN_LABELS", proven)
    proven.parent.mkdir()
    old = {"label": "v2.1", "torch": "2.1.2", "date": "2026-11-01", "passed": 10, "whole": True}
    proven.write_text(json.dumps([old, {**old, "label": "v2.5", "torch": "2.5.1"}]))
    new = {**old, "date": "2026-12-06", "passed": 12}
    (results / "v2.1.json").write_text(json.dumps(new))
    narrowed = {**old, "label": "v2.5", "torch": "2.5.1", "date": "2026-12-06", "passed": 1, "whole": False}
    (results / "v2.5.json").write_text(json.dumps(narrowed))  # a -k run does not replace the kept one
    (results / "v2.15.json").write_text(json.dumps({**old, "label": "v2.15", "torch": "2.15.0"}))
    records = module.keep_proven_labels()
    assert [r["label"] for r in records] == ["v2.1", "v2.5", "v2.15"]  # registry order
    assert records[0]["date"] == "2026-12-06" and records[0]["passed"] == 12
    assert records[1]["date"] == "2026-11-01"
    assert json.loads(proven.read_text()) == records


def test_check_schemas_reads_the_release_a_cached_copy_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = noxfile()
    monkeypatch.setattr(module, "SCHEMA_CACHE", tmp_path)
    assert module.cached_schemas_release("v2.4") is None  # nothing cached: the label's environment fills it
    header = "# opplugin-codegen: native_functions.yaml of torch 2.4.1+cu121 for v2.4 (from /x/torchgen)\n"
    (tmp_path / "v2.4.yaml").write_text(header + "- func: abs(Tensor self) -> Tensor\n")
    assert module.cached_schemas_release("v2.4") == "2.4.1+cu121"
    (tmp_path / "v2.5.yaml").write_text("- func: abs(Tensor self) -> Tensor\n")  # a copy without the header
    assert module.cached_schemas_release("v2.5") is None


class _Session:
    def __init__(self, posargs: list[str]) -> None:
        self.posargs, self.lines = posargs, []

    def log(self, line: str) -> None:
        self.lines.append(line)

    def error(self, message: str) -> None:
        raise RuntimeError(message)


def test_prove_prunes_only_the_labels_it_proved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`prove --prune` removes a proven label's directories and keeps a failing one's for a look;
    each label gets its summary line and the session fails naming the labels not proven."""
    module = noxfile()
    monkeypatch.setattr(module, "TEST_RESULTS", tmp_path / "results")
    dirs = {label: tmp_path / label for label in ("v2.3", "v2.4")}
    for path in dirs.values():
        (path / "venv").mkdir(parents=True)
        (path / "venv" / "torch.whl").write_bytes(b"x" * 1024)
    monkeypatch.setattr(module, "label_directories", lambda label: [dirs[label]])
    monkeypatch.setattr(module, "generate_label", lambda session, label: None)
    monkeypatch.setattr(module, "cache_label_schemas", lambda session, label, runner=None: None)
    monkeypatch.setattr(module, "build_label", lambda session, label: None)
    record = {"torch": "2.3.1", "date": "2026-12-06", "commit": "abc", "passed": 5, "skipped": 0, "xfailed": 0,
              "failed": 0, "errors": 0, "minutes": 1.0, "proven": True}

    def test_label(session, label, rest):
        if label == "v2.4":
            raise RuntimeError("the tests failed")
        return {**record, "label": label}

    monkeypatch.setattr(module, "test_label", test_label)
    session = _Session(["v2.3", "v2.4", "--prune"])
    prove = getattr(module.prove, "func", module.prove)
    with pytest.raises(RuntimeError, match="not proven: v2.4"):
        prove(session)
    assert not dirs["v2.3"].exists() and (dirs["v2.4"] / "venv" / "torch.whl").exists()
    summary = session.lines[-1]
    assert "v2.3   proven torch 2.3.1" in summary and "v2.4   FAILED RuntimeError: the tests failed" in summary


def test_a_labels_torch_headers_come_out_of_its_wheel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`compile-upstream` needs only a torch release's headers and cpp_extension.py: for a label without
    an environment they are taken out of its torch wheel, and nothing else of the wheel is unpacked."""
    module = noxfile()
    monkeypatch.setattr(module, "BUILD", tmp_path / "build")
    wheel = tmp_path / "torch-2.3.1-cp311-cp311-linux_x86_64.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("torch/include/ATen/ATen.h", "#pragma once\n")
        archive.writestr("torch/utils/cpp_extension.py", "flags = ['-std=c++17']\n")
        archive.writestr("torch/lib/libtorch_cpu.so", b"\0" * 4096)
    monkeypatch.setattr(module, "label_torch_wheel", lambda session, label, runner: wheel)
    package = module.label_torch_headers(_Session([]), "v2.3", "v2.13")
    assert (package / "include" / "ATen" / "ATen.h").is_file()
    assert (package / "utils" / "cpp_extension.py").is_file()
    assert not (package / "lib").exists()


def test_a_syntax_check_reports_each_file_with_a_diagnostic(tmp_path: Path) -> None:
    """Any diagnostic counts, under the -std= the torch package's cpp_extension.py asks for (here
    C++20, the newest it names: `consteval` is an error under C++17)."""
    package = tmp_path / "torch"
    (package / "include").mkdir(parents=True)
    (package / "utils").mkdir()
    (package / "utils" / "cpp_extension.py").write_text("flags = ['-std=c++17', '-std=c++20']\n")
    clean, warns = tmp_path / "clean.cpp", tmp_path / "warns.cpp"
    clean.write_text("consteval int one() { return 1; }\nint f() { return one(); }\n")
    warns.write_text("int g() { int unused; return 0; }\n")
    errors = noxfile().syntax_errors([clean, warns], package, [])
    assert len(errors) == 1 and errors[0].startswith("--- warns.cpp") and "unused" in errors[0]
