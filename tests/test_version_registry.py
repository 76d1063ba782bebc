"""One version registry: the noxfile (which runs with nothing but nox installed)
reads yaml/versions.yaml exactly as opplugin-codegen does."""

import functools
import importlib.util
from pathlib import Path

import pytest
from opplugin_codegen.errors import Diagnostics
from opplugin_codegen.versions import load_registry

REPO = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=None)
def _noxfile():
    """The noxfile as a module, loaded once (it registers its sessions on import)."""
    spec = importlib.util.spec_from_file_location("project_noxfile", REPO / "noxfile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_noxfile_and_codegen_read_the_same_registry() -> None:
    diags = Diagnostics()
    registry = load_registry(REPO / "yaml" / "versions.yaml", "yaml/versions.yaml", diags)
    assert not diags and registry is not None
    pins, default = _noxfile().load_registry()
    assert list(pins) == list(registry.labels)
    assert list(pins.values()) == list(registry.torch)
    assert default == registry.default


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


@pytest.mark.parametrize("session", ["generate", "build", "test", "demo", "matrix", "lint"])
def test_nox_lists_and_describes_every_session(session: str) -> None:
    import subprocess
    import sys

    listing = subprocess.run([sys.executable, "-m", "nox", "-f", str(REPO / "noxfile.py"), "-l"],
                             capture_output=True, text=True, check=True).stdout
    line = next((ln for ln in listing.splitlines() if f" {session} -> " in ln), "")
    assert len(line.split("->", 1)[-1].strip()) > 10, f"session {session} has no description:\n{listing}"
