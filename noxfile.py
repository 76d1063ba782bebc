"""Sessions for the whole loop: generate, build, test, demo, lint.

Every session takes version labels as positional arguments after `--`
(`nox -s generate build test -- v2.13`); with none it uses the registry's
default label. Each label gets one virtualenv under build/venvs/<label> that
holds the label's pinned torch; it is created once and shared by all sessions.
Anything after the labels that is not a label is passed on (to pytest for
`test`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
YAML_DIR = ROOT / "yaml"
BUILD = ROOT / "build"
PACKAGES = ROOT / "packages"
# Build order matters: the runtime links against the kernels package and
# compiles what the two generators wrote.
WHEEL_PACKAGES = ("ascendc-kernels", "opplugin-codegen", "torchnpugen", "opplugin-runtime")
GENERATOR_SRC = [PACKAGES / "opplugin-codegen" / "src", PACKAGES / "torchnpugen" / "src"]
# Test and build tools installed next to torch in every label's virtualenv.
VENV_TOOLS = ["numpy", "expecttest", "pytest", "hypothesis", "pyyaml", "ninja", "cmake", "setuptools", "wheel", "nox"]
LABEL_RE = re.compile(r"^v\d+\.\d+$")

nox.options.sessions = ["generate", "build", "test"]
nox.options.reuse_existing_virtualenvs = True
# A failed generate must not build stale sources, a failed build must not test old wheels.
nox.options.stop_on_first_error = True


def load_registry() -> tuple[dict[str, str], str]:
    """Labels -> torch pins, and the default label, from yaml/versions.yaml.

    The noxfile must run with nothing but nox installed, so this reads the
    registry's fixed line format instead of importing PyYAML; a test checks
    that it agrees with opplugin-codegen's loader.
    """
    pins: dict[str, str] = {}
    default = ""
    for line in (YAML_DIR / "versions.yaml").read_text().splitlines():
        entry = re.match(r'^\s+(v\d+\.\d+):\s*\{\s*torch:\s*"([^"]+)"\s*\}\s*$', line)
        if entry:
            pins[entry.group(1)] = entry.group(2)
        elif line.startswith("default:"):
            default = line.split(":", 1)[1].strip()
    if not pins or default not in pins:
        raise RuntimeError(f"{YAML_DIR / 'versions.yaml'}: no labels or bad default {default!r}")
    return pins, default


def split_posargs(session: nox.Session) -> tuple[list[str], list[str]]:
    """Version labels named after `--` (validated), and the remaining arguments."""
    pins, default = load_registry()
    labels = [a for a in session.posargs if LABEL_RE.match(a)]
    rest = [a for a in session.posargs if not LABEL_RE.match(a)]
    unknown = [label for label in labels if label not in pins]
    if unknown:
        session.error(f"unknown version label(s) {', '.join(unknown)}; known labels: {', '.join(pins)}")
    return labels or [default], rest


def venv_python(label: str) -> Path:
    return BUILD / "venvs" / label / "bin" / "python"


def ensure_venv(session: nox.Session, label: str) -> Path:
    """The label's virtualenv with its pinned torch; created once, then reused."""
    pins, _ = load_registry()
    venv = BUILD / "venvs" / label
    stamp = venv / ".npu-venv.json"
    wanted = {"torch": pins[label], "tools": VENV_TOOLS}
    have = json.loads(stamp.read_text()) if stamp.exists() and venv_python(label).exists() else {}
    if have == wanted:
        return venv_python(label)
    py = str(venv_python(label))
    if have.get("torch") == pins[label]:
        session.log(f"{venv}: adding tools {sorted(set(VENV_TOOLS) - set(have.get('tools', [])))}")
        session.run(py, "-m", "pip", "install", "-q", *VENV_TOOLS, external=True)
    else:
        session.log(f"creating {venv} with torch=={pins[label]} (once per label)")
        if venv.exists():
            shutil.rmtree(venv)
        session.run(sys.executable, "-m", "venv", str(venv), external=True)
        session.run(py, "-m", "pip", "install", "-q", "--upgrade", "pip", external=True)
        session.run(py, "-m", "pip", "install", "-q", f"torch=={pins[label]}", *VENV_TOOLS, external=True)
    stamp.write_text(json.dumps(wanted))
    return venv_python(label)


def generated_dir(label: str) -> Path:
    return BUILD / "generated" / label


def run_in_venv(session: nox.Session, label: str, *args: str, env: dict[str, str] | None = None) -> None:
    """Runs the label's python with its bin/ first on PATH (ninja and cmake come from there)."""
    path = os.pathsep.join([str(venv_python(label).parent), os.environ.get("PATH", "")])
    # CCACHE_BASEDIR makes ccache hits independent of where the checkout lives.
    base = {"PATH": path, "CCACHE_BASEDIR": str(ROOT)}
    session.run(str(venv_python(label)), *args, external=True, env={**base, **(env or {})})


@nox.session(venv_backend="none")
def generate(session: nox.Session) -> None:
    """Run both generators for each label into build/generated/<label>/ (writes only changed files)."""
    labels, _ = split_posargs(session)
    env = {"PYTHONPATH": os.pathsep.join(str(p) for p in GENERATOR_SRC)}
    for label in labels:
        ensure_venv(session, label)
        out = str(generated_dir(label))
        run_in_venv(session, label, "-m", "opplugin_codegen", "generate", "--label", label,
                    "--yaml-dir", str(YAML_DIR), "--out", out, env=env)
        run_in_venv(session, label, "-m", "torchnpugen", "generate", "--label", label,
                    "--yaml-dir", str(YAML_DIR), "--out", out, env=env)


@nox.session(venv_backend="none")
def build(session: nox.Session) -> None:
    """Build the four wheels into dist/<label>/ and install them into the label's virtualenv."""
    labels, _ = split_posargs(session)
    for label in labels:
        ensure_venv(session, label)
        gen = generated_dir(label)
        if not (gen / "manifest.json").exists() and not (gen / "op_plugin").exists():
            session.error(f"{gen} is empty: run `nox -s generate -- {label}` first")
        dist = ROOT / "dist" / label
        dist.mkdir(parents=True, exist_ok=True)
        env = {
            "NPU_GENERATED_DIR": str(gen),
            "NPU_BUILD_LABEL": label,
            "NPU_EXT_BUILD_DIR": str(BUILD / "ext" / label),
            "ASCENDC_KERNELS_BUILD_DIR": str(BUILD / "cmake" / "ascendc-kernels"),
        }
        for package in WHEEL_PACKAGES:
            for old in dist.glob(f"{package.replace('-', '_')}-*.whl"):
                old.unlink()
            run_in_venv(session, label, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps",
                        "-w", str(dist), str(PACKAGES / package), env=env)
            wheel = next(dist.glob(f"{package.replace('-', '_')}-*.whl"))
            # Installed one by one: the runtime's build imports the kernels package.
            run_in_venv(session, label, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall",
                        str(wheel), env=env)


def pytest_args(rest: list[str]) -> list[str]:
    wants_slow = "--slow" in rest
    rest = [a for a in rest if a != "--slow"]
    return ([] if wants_slow else ["-m", "not slow"]) + rest


@nox.session(venv_backend="none")
def test(session: nox.Session) -> None:
    """Run every package's tests and the cross-package tests against the installed wheels.

    Slow tests are skipped unless `--slow` follows the labels.
    """
    labels, rest = split_posargs(session)
    for label in labels:
        ensure_venv(session, label)
        env = {"NPU_GENERATED_DIR": str(generated_dir(label)), "NPU_TEST_LABEL": label}
        run_in_venv(session, label, "-m", "pytest", "-q", *pytest_args(rest),
                    *[str(PACKAGES / p / "tests") for p in WHEEL_PACKAGES], str(ROOT / "tests"), env=env)


@nox.session(venv_backend="none")
def demo(session: nox.Session) -> None:
    """A short run on `npu`: results next to CPU, and the path each op took."""
    labels, _ = split_posargs(session)
    for label in labels:
        ensure_venv(session, label)
        run_in_venv(session, label, str(ROOT / "examples" / "demo.py"))


@nox.session(venv_backend="none")
def matrix(session: nox.Session) -> None:
    """Write the support matrix (operator x label x path) to build/support_matrix.{md,json}."""
    labels, _ = split_posargs(session)
    ensure_venv(session, labels[0])
    env = {"PYTHONPATH": str(PACKAGES / "opplugin-codegen" / "src")}
    run_in_venv(session, labels[0], "-m", "opplugin_codegen", "matrix", "--yaml-dir", str(YAML_DIR),
                "--out", str(BUILD), env=env)


@nox.session(venv_backend="none")
def lint(session: nox.Session) -> None:
    """ruff over the Python sources."""
    session.run(sys.executable, "-m", "pip", "install", "-q", "ruff", external=True)
    session.run(sys.executable, "-m", "ruff", "check", str(ROOT), external=True)

