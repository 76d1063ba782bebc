"""A runtime built for one label, imported under another torch, fails at import with a
message naming both versions and the command that rebuilds it, never with an undefined
symbol from the dynamic loader. Its wheel names and pins the torch release it was built
for, so that installing it into another label's environment fails at install.

The check runs before ``opplugin_runtime._C`` is loaded. CI builds v2.13 and v2.1, so each
label's test run imports the other label's build for real; the second test fakes a
mismatch in any environment.
"""

from __future__ import annotations

import email.message
import email.parser
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import opplugin_runtime
import pytest
import torch

REPO = Path(__file__).resolve().parent.parent
IMPORT = "import torch, opplugin_runtime"


def _label_of(version: str) -> str:
    major, minor = re.findall(r"\d+", version)[:2]
    return f"v{major}.{minor}"


def _site_packages_of(venv: Path) -> Path | None:
    found = sorted(venv.glob("lib/python*/site-packages/opplugin_runtime/_build_info.py"))
    return found[0].parent.parent if found else None


def _other_label_builds() -> list[tuple[str, Path]]:
    """(label, site-packages) of the label environments whose runtime was built against
    another torch release than the running one."""
    running = _label_of(torch.__version__)
    builds = []
    for venv in sorted((REPO / "build" / "venvs").glob("v*")):
        site = _site_packages_of(venv)
        # Label environments only (not e.g. v2.13-asan of `nox -s sanitize`).
        if site is None or venv.name == running or not re.fullmatch(r"v\d+\.\d+", venv.name):
            continue
        info = (site / "opplugin_runtime" / "_build_info.py").read_text()
        built = re.search(r"TORCH_MAJOR_MINOR = \((\d+), (\d+)\)", info)
        if built and f"v{built.group(1)}.{built.group(2)}" != running:
            builds.append((venv.name, site))
    return builds


def _import_with(path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", IMPORT], capture_output=True, text=True, env=env, timeout=300)


def _expect_mismatch(result: subprocess.CompletedProcess[str], built_label: str, built_torch: str) -> None:
    running = torch.__version__
    assert result.returncode != 0
    assert "undefined symbol" not in result.stderr
    assert "ImportError: opplugin_runtime was built for " in result.stderr
    assert f"built for {built_label} against torch {built_torch}" in result.stderr
    assert f"this environment has torch {running}" in result.stderr
    assert f"`nox -s generate build -- {_label_of(running)}`" in result.stderr


@pytest.mark.parametrize(
    "other",
    _other_label_builds()
    or [
        pytest.param(
            None, marks=pytest.mark.skip(reason="no other label's runtime is built here (CI builds v2.13 and v2.1)")
        )
    ],
)
def test_the_runtime_of_another_label_refuses_to_import(other, tmp_path: Path) -> None:
    label, site = other
    # Only the other label's packages: this interpreter's torch stays the running one.
    for package in ("opplugin_runtime", "ascendc_kernels"):
        (tmp_path / package).symlink_to(site / package)
    built_torch = re.search(r"TORCH_VERSION = '([^']+)'", (site / "opplugin_runtime" / "_build_info.py").read_text())
    _expect_mismatch(_import_with(tmp_path), label, built_torch.group(1))


def test_a_build_for_another_torch_fails_before_loading_the_extension(tmp_path: Path) -> None:
    installed = Path(opplugin_runtime.__file__).parent
    copy = tmp_path / "opplugin_runtime"
    shutil.copytree(installed, copy, symlinks=True)
    info = copy / "_build_info.py"
    text = info.read_text()
    text = re.sub(r"LABEL = '[^']+'", "LABEL = 'v2.99'", text)
    text = re.sub(r"TORCH_VERSION = '[^']+'", "TORCH_VERSION = '2.99.0'", text)
    text = re.sub(r"TORCH_MAJOR_MINOR = \(\d+, \d+\)", "TORCH_MAJOR_MINOR = (2, 99)", text)
    info.write_text(text)
    for so in copy.glob("_C*.so"):  # a library that cannot load: the check must come first
        so.write_bytes(b"not an ELF file")
    _expect_mismatch(_import_with(tmp_path), "v2.99", "2.99.0")


def test_the_message_names_both_versions_and_the_rebuild_command() -> None:
    from opplugin_runtime import _build_info
    from opplugin_runtime._build_check import label_of_torch, mismatch_message

    labels = _build_info.LABELS_BY_TORCH  # recorded from yaml/versions.yaml by the build
    assert label_of_torch("2.1.2+cu121", labels) == "v2.1"
    assert label_of_torch("2.13.0+cpu", labels) == "v2.13"
    message = mismatch_message("v2.13", "2.13.0+cpu", "2.1.2+cu121", labels)
    assert message.startswith(
        "opplugin_runtime was built for v2.13 against torch 2.13.0+cpu, but this environment has torch 2.1.2+cu121"
    )
    assert "`nox -s generate build -- v2.1`" in message
    assert "build/venvs/v2.13" in message


def test_a_torch_no_label_pins_is_told_so_not_given_a_label_that_does_not_exist() -> None:
    from opplugin_runtime import _build_info
    from opplugin_runtime._build_check import label_of_torch, mismatch_message

    assert label_of_torch("2.0.1", _build_info.LABELS_BY_TORCH) is None
    message = mismatch_message("v2.13", "2.13.0+cpu", "2.0.1", _build_info.LABELS_BY_TORCH)
    assert "No label of yaml/versions.yaml pins torch 2.0.1" in message
    assert "v2.0" not in message and "v2.1, v2.2" in message


def _label_wheel() -> Path:
    label = os.environ.get("NPU_TEST_LABEL", _label_of(torch.__version__))
    wheels = sorted((REPO / "dist" / label).glob("opplugin_runtime-*.whl"))
    if not wheels:
        pytest.skip(f"no runtime wheel in dist/{label} (nox -s build -- {label})")
    return wheels[-1]


def _metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.parser.Parser().parsestr(archive.read(name).decode())


def _wheel_for_torch(tmp_path: Path, major: int, minor: int) -> Path:
    """A runtime wheel (metadata only) as a build for torch <major>.<minor> would name and pin it."""
    version = f"{opplugin_runtime.__version__}+torch{major}.{minor}"
    info = f"opplugin_runtime-{version}.dist-info"
    wheel = tmp_path / f"opplugin_runtime-{version}-py3-none-any.whl"
    files = {
        f"{info}/METADATA": (f"Metadata-Version: 2.1\nName: opplugin-runtime\nVersion: {version}\n"
                             f"Requires-Dist: torch=={major}.{minor}.*\nRequires-Dist: ascendc-kernels\n"),
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    files[f"{info}/RECORD"] = "".join(f"{name},,\n" for name in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return wheel


def test_the_runtime_wheel_carries_and_pins_its_torch_release() -> None:
    wheel = _label_wheel()
    major, minor = re.findall(r"\d+", torch.__version__)[:2]
    fields = _metadata(wheel)
    assert fields["Version"] == f"{opplugin_runtime.__version__}+torch{major}.{minor}"
    assert f"+torch{major}.{minor}-" in wheel.name  # the two labels' wheels differ in name
    assert f"torch=={major}.{minor}.*" in fields.get_all("Requires-Dist")


def test_installing_another_labels_runtime_fails_at_install_naming_both(tmp_path: Path) -> None:
    sys.path.insert(0, str(REPO))
    try:
        import noxfile  # the installer of `nox -s build`
    finally:
        sys.path.remove(str(REPO))
    major, minor = (int(x) for x in re.findall(r"\d+", torch.__version__)[:2])
    other = _wheel_for_torch(tmp_path, major, minor + 1 if minor < 99 else minor - 1)
    problem = noxfile.check_wheel_fits(Path(sys.executable), other)
    assert problem is not None
    assert f"requires torch=={major}.{minor + 1 if minor < 99 else minor - 1}.*" in problem
    # the distribution's version, which a build's torch.__version__ may extend (2.1.2 vs 2.1.2+cu121)
    assert f"has torch {importlib.metadata.version('torch')}" in problem
    assert noxfile.check_wheel_fits(Path(sys.executable), _wheel_for_torch(tmp_path, major, minor)) is None
    # pip itself refuses it where it cannot replace the environment's torch (no index)
    empty = tmp_path / "empty"
    empty.mkdir()
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-index", "--find-links",
                             str(empty), str(other)], capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    assert "opplugin-runtime" in result.stdout + result.stderr and "torch==" in result.stdout + result.stderr
