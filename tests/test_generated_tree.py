"""The generated tree of the label is complete, untouched by hand, and is what
the installed runtime was compiled from."""

import hashlib
import json
from pathlib import Path

import pytest

OWNERS = ("opplugin-codegen", "torchnpugen")


def _manifest(generated_dir: Path) -> dict:
    path = generated_dir / "manifest.json"
    assert path.is_file(), f"{path} is missing: run `nox -s generate`"
    return json.loads(path.read_text())


def test_both_generators_wrote_their_part(generated_dir: Path) -> None:
    generators = _manifest(generated_dir)["generators"]
    for owner in OWNERS:
        assert generators.get(owner, {}).get("files"), f"no files recorded for {owner}"


@pytest.mark.parametrize("owner", OWNERS)
def test_every_generated_file_exists_with_its_digest(generated_dir: Path, owner: str) -> None:
    files = _manifest(generated_dir)["generators"][owner]["files"]
    for name, digest in sorted(files.items()):
        path = generated_dir / name
        assert path.is_file(), f"{path} is listed in manifest.json but missing: rerun `nox -s generate`"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, f"{path} was changed by hand"


def test_the_installed_runtime_was_built_from_this_tree(generated_dir: Path, label: str) -> None:
    from opplugin_runtime import _build_info

    assert _build_info.LABEL == label
    manifest = (generated_dir / "manifest.json").read_bytes()
    assert _build_info.GENERATED_MANIFEST_SHA256 == hashlib.sha256(manifest).hexdigest(), (
        "the runtime was compiled from another generated tree: rerun `nox -s build`"
    )
