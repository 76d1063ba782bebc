"""One version registry: the noxfile (which runs with nothing but nox installed), both
generators and the runtime's build read yaml/versions.yaml with one reader
(opplugin_codegen.registry_file)."""

from pathlib import Path

import project_noxfile  # loaded by tests/conftest.py
import pytest
from opplugin_codegen.errors import Diagnostics
from opplugin_codegen.versions import load_registry

REPO = Path(__file__).resolve().parent.parent


def _noxfile():
    return project_noxfile


def test_noxfile_and_codegen_read_the_same_registry() -> None:
    diags = Diagnostics()
    registry = load_registry(REPO / "yaml" / "versions.yaml", "yaml/versions.yaml", diags)
    assert not diags and registry is not None
    pins, default = _noxfile().load_registry()
    assert list(pins) == list(registry.labels)
    assert list(pins.values()) == list(registry.torch)
    assert default == registry.default
    entries, _ = _noxfile().load_registry_entries()
    assert {label: extra for label, (_pin, extra) in entries.items()} == {
        label: registry.extra_requirements(label) for label in registry.labels
    }


def test_torch_2_1_gets_numpy_1() -> None:
    """torch 2.1 wheels are built against numpy 1: its environment pins numpy<2."""
    entries, _ = _noxfile().load_registry_entries()
    assert entries["v2.1"] == ("2.1.2", ("numpy<2",))
    assert entries["v2.13"] == ("2.13.0", ())


def test_the_noxfile_reads_extra_pins_and_rejects_what_it_cannot_parse(tmp_path: Path, monkeypatch) -> None:
    nox_module = _noxfile()
    (tmp_path / "versions.yaml").write_text(
        "default: v2.2\nversions:\n"
        '  v2.1: {torch: "2.1.2", extra: ["numpy<2", "sympy==1.12"]}  # why\n'
        '  v2.2: {torch: "2.2.2"}\n'
    )
    monkeypatch.setattr(nox_module, "YAML_DIR", tmp_path)
    entries, default = nox_module.load_registry_entries()
    assert entries == {"v2.1": ("2.1.2", ("numpy<2", "sympy==1.12")), "v2.2": ("2.2.2", ())}
    assert default == "v2.2"
    (tmp_path / "versions.yaml").write_text('default: v2.1\nversions:\n  v2.1: {torch: 2.1.2}\n')
    with pytest.raises(RuntimeError, match=r"versions.yaml:3: torch pin of 'v2.1' must be a quoted"):
        nox_module.load_registry_entries()


def test_the_one_reader_needs_nothing_but_the_standard_library() -> None:
    """What nox imports: registry_file (and the package it is in) without PyYAML or torch."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['yaml'] = sys.modules['torch'] = None\n"
        f"sys.path.insert(0, {str(REPO / 'packages' / 'opplugin-codegen' / 'src')!r})\n"
        "from pathlib import Path\n"
        "from opplugin_codegen.registry_file import read_registry\n"
        f"print(read_registry(Path({str(REPO / 'yaml' / 'versions.yaml')!r})).default)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == _noxfile().load_registry()[1]


def test_every_layout_but_the_one_line_format_is_refused_at_its_line(tmp_path: Path) -> None:
    """Block mappings are YAML too, but one reader means one format: nox, the generators and
    the runtime's build would otherwise disagree about what the file says."""
    path = tmp_path / "versions.yaml"
    path.write_text('default: v2.1\nversions:\n  v2.1:\n    torch: "2.1.2"\n')
    diags = Diagnostics()
    assert load_registry(path, "yaml/versions.yaml", diags) is None
    errors = [str(d) for d in diags.items]
    assert errors[0].startswith("yaml/versions.yaml:3: 'v2.1' needs a mapping")
    assert errors[1].startswith("yaml/versions.yaml:4: expected")


def test_the_registry_pins_the_labels_the_issue_names() -> None:
    pins, default = _noxfile().load_registry()
    assert default == "v2.13"
    assert (pins["v2.1"], pins["v2.13"], pins["v2.14"]) == ("2.1.2", "2.13.0", "2.14.1")


def test_an_unknown_label_fails_at_once_listing_the_known_ones(tmp_path: Path) -> None:
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "nox", "-f", str(REPO / "noxfile.py"), "-s", "generate",
                             "--", "v9.9"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode != 0
    assert "unknown version label(s) v9.9; known labels: v2.1, v2.2" in result.stderr + result.stdout
    assert not (REPO / "build" / "venvs" / "v9.9").exists()


@pytest.mark.parametrize("session", ["venv", "generate", "build", "test", "demo", "matrix", "lint", "check-schemas"])
def test_nox_lists_and_describes_every_session(session: str) -> None:
    import subprocess
    import sys

    listing = subprocess.run([sys.executable, "-m", "nox", "-f", str(REPO / "noxfile.py"), "-l"],
                             capture_output=True, text=True, check=True).stdout
    line = next((ln for ln in listing.splitlines() if f" {session} -> " in ln), "")
    assert len(line.split("->", 1)[-1].strip()) > 10, f"session {session} has no description:\n{listing}"


def test_label_environments_install_from_a_wheelhouse(monkeypatch, tmp_path: Path) -> None:
    """pip's HTTP cache keeps nothing behind this machine's proxy, so each label's wheels
    are kept in ~/.cache/npu-sim/wheelhouse/<label> (NPU_WHEELHOUSE moves it or turns it off)."""
    nox_module = _noxfile()
    monkeypatch.delenv("NPU_WHEELHOUSE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert nox_module.wheelhouse() == tmp_path / "npu-sim" / "wheelhouse"
    monkeypatch.setenv("NPU_WHEELHOUSE", str(tmp_path / "house"))
    assert nox_module.wheelhouse() == tmp_path / "house"
    monkeypatch.setenv("NPU_WHEELHOUSE", "off")
    assert nox_module.wheelhouse() is None


def test_several_labels_in_one_call_run_one_after_another(tmp_path: Path) -> None:
    """`nox -s <session> -- v2.1 v2.13` runs the session for each label, in order (dry run:
    the matrix session is cheap, so use the unknown-label check for the order of validation)."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "nox", "-f", str(REPO / "noxfile.py"), "-s", "generate",
                             "--", "v2.1", "v9.8", "v9.9"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode != 0
    assert "unknown version label(s) v9.8, v9.9" in result.stderr + result.stdout
    split = _noxfile().split_posargs

    class FakeSession:
        posargs = ["v2.13", "v2.1", "-k", "device"]

        def error(self, message: str) -> None:
            raise AssertionError(message)

    assert split(FakeSession()) == (["v2.13", "v2.1"], ["-k", "device"])
