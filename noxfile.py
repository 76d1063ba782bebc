"""Sessions for the whole loop: generate, build, test, demo, lint.

Every session takes version labels as positional arguments after `--`
(`nox -s generate build test -- v2.13`); with none it uses the registry's
default label. Each label gets one virtualenv under build/venvs/<label> that
holds the label's pinned torch; it is created once and shared by all sessions.
Anything after the labels that is not a label is passed on (to pytest for
`test`).
"""

from __future__ import annotations

import email.parser
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
YAML_DIR = ROOT / "yaml"
BUILD = ROOT / "build"
PACKAGES = ROOT / "packages"
# Build order matters: the runtime links against the kernels package and
# compiles what the two generators wrote.
WHEEL_PACKAGES = ("ascendc-kernels", "opplugin-codegen", "torchnpugen", "opplugin-runtime")
# Built by setuptools from pyproject.toml alone, staged in packages/<name>/build.
PURE_PYTHON_PACKAGES = ("opplugin-codegen", "torchnpugen")
GENERATOR_SRC = [PACKAGES / "opplugin-codegen" / "src", PACKAGES / "torchnpugen" / "src"]
# Test and build tools installed next to torch in every label's virtualenv.
# jinja2: the generators' templates (both generators run from the source trees in these environments).
VENV_TOOLS = ["numpy", "expecttest", "pytest", "hypothesis", "pyyaml", "jinja2", "ninja", "cmake", "setuptools",
              "wheel", "nox"]
LABEL_RE = re.compile(r"^v\d+\.\d+$")

nox.options.sessions = ["generate", "build", "test"]
nox.options.reuse_existing_virtualenvs = True
# A failed generate must not build stale sources, a failed build must not test old wheels.
nox.options.stop_on_first_error = True


def _registry_reader():  # type: ignore[no-untyped-def]
    """opplugin-codegen's reader of yaml/versions.yaml (registry_file), from the source tree:
    the noxfile runs with nothing but nox installed, and that module needs only the standard
    library, so every reader of the registry is this one."""
    source = str(PACKAGES / "opplugin-codegen" / "src")
    if source not in sys.path:
        sys.path.insert(0, source)
    from opplugin_codegen import registry_file

    return registry_file


def load_registry_entries() -> tuple[dict[str, tuple[str, tuple[str, ...]]], str]:
    """Labels -> (torch pin, extra pip requirements), and the default label, from yaml/versions.yaml."""
    reader = _registry_reader()
    try:
        registry = reader.read_registry(YAML_DIR / "versions.yaml")
    except reader.RegistryError as error:
        raise RuntimeError(str(error)) from None
    return {label.name: (label.torch, label.extra) for label in registry.labels}, registry.default


def load_registry() -> tuple[dict[str, str], str]:
    """Labels -> torch pins, and the default label, from yaml/versions.yaml."""
    entries, default = load_registry_entries()
    return {label: pin for label, (pin, _extra) in entries.items()}, default


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


def wheelhouse() -> Path | None:
    """Where the wheels of the label environments are kept between fresh clones.

    pip's own HTTP cache (~/.cache/pip/http-v2) stores nothing on a machine whose index
    responses carry no caching headers (measured here: behind the proxy every run
    downloaded torch 2.1.2 and its 2.6 GB of dependencies again), so environments are
    installed from a wheelhouse that `pip download` fills once. NPU_WHEELHOUSE=<dir>
    moves it, NPU_WHEELHOUSE=off installs straight from the index.
    """
    value = os.environ.get("NPU_WHEELHOUSE", "")
    if value.lower() == "off":
        return None
    if value:
        return Path(value).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "npu-sim" / "wheelhouse"


def pip_install_from_wheelhouse(session: nox.Session, label: str, py: str, requirements: list[str]) -> None:
    """Install `requirements` from the label's wheelhouse, downloading into it only what it lacks.

    One directory per label: an offline resolve must not pick another label's pins
    (v2.1's numpy<2 for v2.13's unpinned numpy)."""
    root = wheelhouse()
    if root is None:
        session.run(py, "-m", "pip", "install", "-q", *requirements, external=True)
        return
    house = root / label
    house.mkdir(parents=True, exist_ok=True)
    offline = [py, "-m", "pip", "install", "-q", "--no-index", "--find-links", str(house), *requirements]
    if subprocess.run(offline, capture_output=True).returncode == 0:
        session.log(f"installed {' '.join(requirements)} from {house}")
        return
    session.log(f"filling {house} (once per set of pins)")
    # --find-links first: a wheel already in the wheelhouse wins over the index's copy.
    session.run(py, "-m", "pip", "download", "-q", "--find-links", str(house), "-d", str(house), *requirements,
                external=True)
    session.run(*offline, external=True)


def ensure_venv(session: nox.Session, label: str) -> Path:
    """The label's virtualenv with its pinned torch (and the label's extra pins); created once, then reused."""
    entries, _ = load_registry_entries()
    pin, extra = entries[label]
    venv = BUILD / "venvs" / label
    stamp = venv / ".npu-venv.json"
    wanted: dict[str, object] = {"torch": pin, "tools": VENV_TOOLS}
    if extra:
        wanted["extra"] = list(extra)
    have = json.loads(stamp.read_text()) if stamp.exists() and venv_python(label).exists() else {}
    if have == wanted:
        return venv_python(label)
    py = str(venv_python(label))
    if have.get("torch") == pin:
        session.log(f"{venv}: updating tools {VENV_TOOLS} and extra pins {list(extra)}")
        session.run(py, "-m", "pip", "install", "-q", *VENV_TOOLS, *extra, external=True)
    else:
        session.log(f"creating {venv} with torch=={pin} {' '.join(extra)} (once per label)")
        if venv.exists():
            shutil.rmtree(venv)
        session.run(sys.executable, "-m", "venv", str(venv), external=True)
        session.run(py, "-m", "pip", "install", "-q", "--upgrade", "pip", external=True)
        # One resolve for torch, its extra pins and the tools, so a tool cannot pull a newer numpy past a pin.
        pip_install_from_wheelhouse(session, label, py, [f"torch=={pin}", *extra, *VENV_TOOLS])
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
def venv(session: nox.Session) -> None:
    """Create (once) each label's virtualenv build/venvs/<label> with its torch pin, extra pins and the tools."""
    labels, _ = split_posargs(session)
    for label in labels:
        session.log(f"{label}: {ensure_venv(session, label)}")


def generate_label(session: nox.Session, label: str) -> None:
    ensure_venv(session, label)
    env = {"PYTHONPATH": os.pathsep.join(str(p) for p in GENERATOR_SRC)}
    out = str(generated_dir(label))
    run_in_venv(session, label, "-m", "opplugin_codegen", "generate", "--label", label,
                "--yaml-dir", str(YAML_DIR), "--out", out, env=env)
    run_in_venv(session, label, "-m", "torchnpugen", "generate", "--label", label,
                "--yaml-dir", str(YAML_DIR), "--out", out, env=env)


@nox.session(venv_backend="none")
def generate(session: nox.Session) -> None:
    """Run both generators for each label into build/generated/<label>/ (writes only changed files)."""
    labels, _ = split_posargs(session)
    for label in labels:
        generate_label(session, label)


def build_label(session: nox.Session, label: str) -> None:
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
        # Installed one by one: the runtime's build imports the kernels package.
        wheel = build_wheel(session, label, venv_python(label), package, dist, env)
        install_wheel(session, label, venv_python(label), wheel, env)


@nox.session(venv_backend="none")
def build(session: nox.Session) -> None:
    """Build the four wheels into dist/<label>/ and install them into the label's virtualenv."""
    labels, _ = split_posargs(session)
    for label in labels:
        build_label(session, label)


def tool_env(python: Path, env: dict[str, str]) -> dict[str, str]:
    """The environment of a build step run with `python`: its bin/ first on PATH (ninja, cmake)."""
    path = os.pathsep.join([str(python.parent), os.environ.get("PATH", "")])
    return {**os.environ, "PATH": path, "CCACHE_BASEDIR": str(ROOT), **env}


# Ninja's progress lines: torch's cpp_extension prints the whole compiler command, CMake a sentence.
_NINJA_STEP_RE = re.compile(r"^\[(\d+)/(\d+)\] (.*)$")
_COMPILED_SOURCE_RE = re.compile(r"\s-c\s+(?:-c\s+)*(\S+)")
# What a build step says that a person must see: compiler diagnostics, ninja's and CMake's failures.
_DIAGNOSTIC_RE = re.compile(r":\d+(:\d+)?: (fatal error|error|warning):|^FAILED:|^ninja: error|^CMake Error")


def progress_line(line: str) -> str | None:
    """`[n/N] what` for a ninja step (the compiled source relative to the repository), else None."""
    step = _NINJA_STEP_RE.match(line)
    if step is None:
        return None
    what = step.group(3)
    source = _COMPILED_SOURCE_RE.search(what)
    if source is not None:
        path = Path(source.group(1))
        what = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    elif len(what) > 120:
        what = what[:117] + "..."
    return f"[{step.group(1)}/{step.group(2)}] {what}"


def build_wheel(session: nox.Session, label: str, python: Path, package: str, dist: Path,
                env: dict[str, str]) -> Path:
    """Builds the wheel of one package into `dist`, printing each compile step as ninja finishes it and
    the compilers' warnings and errors; the whole output goes to build/logs/<dist name>/<package>.log."""
    stem = package.replace("-", "_")
    for old in dist.glob(f"{stem}-*.whl"):
        old.unlink()
    if package in PURE_PYTHON_PACKAGES:
        # setuptools' staging directory keeps modules removed from src/ and would put them in the
        # wheel; restaging pure Python costs nothing.
        shutil.rmtree(PACKAGES / package / "build", ignore_errors=True)
    log_path = BUILD / "logs" / dist.name / f"{package}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    # The package's PEP 517 backend called straight (what `pip wheel --no-build-isolation` does), so that the
    # compilers' output reaches this process as it happens instead of when pip has finished.
    backend = re.search(r'^build-backend\s*=\s*"([\w.:]+)"', (PACKAGES / package / "pyproject.toml").read_text(),
                        re.M)
    if backend is None:
        session.error(f"packages/{package}/pyproject.toml names no build-backend")
    hook = f"import sys, {backend.group(1)} as backend; backend.build_wheel(sys.argv[1])"
    command = [str(python), "-u", "-c", hook, str(dist)]
    session.log(f"{label}: building {package} (log: {log_path.relative_to(ROOT)})")
    start = time.monotonic()
    steps = 0
    with log_path.open("w") as log, subprocess.Popen(command, cwd=PACKAGES / package, env=tool_env(python, env),
                                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                                      bufsize=1) as child:
        assert child.stdout is not None
        for line in child.stdout:
            log.write(line)
            progress = progress_line(line.rstrip("\n"))
            if progress is not None:
                steps += 1
                print(f"  {package} {progress}", flush=True)
            elif _DIAGNOSTIC_RE.search(line):
                print(f"  {package}: {line.rstrip()}", flush=True)
    if child.returncode != 0:
        tail = log_path.read_text().splitlines()[-60:]
        session.error(f"building {package} failed (exit {child.returncode}); the last lines of {log_path}:\n"
                      + "\n".join(tail))
    wheel = next(dist.glob(f"{stem}-*.whl"))
    session.log(f"{label}: {wheel.name} in {time.monotonic() - start:.1f} s ({steps} build steps)")
    return wheel


def wheel_digest(wheel: Path) -> str:
    """A digest of the wheel's files and their contents (not of the zip, whose timestamps differ per build)."""
    digest = hashlib.sha256()
    with zipfile.ZipFile(wheel) as archive:
        for name in sorted(archive.namelist()):
            digest.update(name.encode() + b"\0" + hashlib.sha256(archive.read(name)).digest())
    return digest.hexdigest()


def wheel_metadata(wheel: Path) -> tuple[str, str, list[str]]:
    """(name, version, Requires-Dist entries) from the wheel's METADATA."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        fields = email.parser.Parser().parsestr(archive.read(name).decode())
    return fields["Name"], fields["Version"], fields.get_all("Requires-Dist") or []


def installed_version(python: Path, distribution: str) -> str | None:
    """The version of `distribution` in the environment of `python` (None: not installed, or no such environment)."""
    if not python.exists():
        return None
    code = (f"import importlib.metadata as m\ntry: print(m.version({distribution!r}))\n"
            "except m.PackageNotFoundError: pass")
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    return out or None


def check_wheel_fits(python: Path, wheel: Path) -> str | None:
    """Why `wheel` cannot go into the environment of `python` (its torch pin names another torch), or None."""
    from packaging.requirements import Requirement

    _, version, requires = wheel_metadata(wheel)
    for text in requires:
        requirement = Requirement(text)
        if requirement.name != "torch":
            continue
        have = installed_version(python, "torch")
        if have is None or not requirement.specifier.contains(have.split("+")[0], prereleases=True):
            return (f"{wheel.name} (version {version}) requires {requirement}, but the environment of {python} "
                    f"has torch {have or '(none)'}; build the wheel for that environment's label")
    return None


def install_wheel(session: nox.Session, label: str, python: Path, wheel: Path, env: dict[str, str]) -> None:
    """Installs `wheel` into the environment of `python` unless that very content is installed already
    (a reinstall rewrites every file, and new mtimes on the kernels' headers would rebuild the runtime)."""
    problem = check_wheel_fits(python, wheel)
    if problem is not None:
        session.error(problem)
    name, version, _ = wheel_metadata(wheel)
    stamp = python.parent.parent / ".npu-installed-wheels.json"
    installed = json.loads(stamp.read_text()) if stamp.is_file() else {}
    digest = wheel_digest(wheel)
    if installed.get(name) == digest and installed_version(python, name) == version:
        session.log(f"{label}: {wheel.name} is installed already")
        return
    session.run(str(python), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel),
                external=True, env=tool_env(python, env))
    stamp.write_text(json.dumps({**installed, name: digest}, indent=1, sort_keys=True))


def pytest_args(rest: list[str]) -> list[str]:
    """pytest's arguments: the slow and differential tests are left out unless `--slow` /
    `--differential` ask for them."""
    left_out = [marker for marker in ("slow", "differential") if f"--{marker}" not in rest]
    rest = [a for a in rest if a not in ("--slow", "--differential")]
    return (["-m", " and ".join(f"not {marker}" for marker in left_out)] if left_out else []) + rest


# Each label's last test run: build/test-results/<label>.xml (pytest's JUnit report) and
# <label>.json (the record `nox -s matrix` keeps in docs/proven-labels.json).
TEST_RESULTS = BUILD / "test-results"
PROVEN_LABELS = ROOT / "docs" / "proven-labels.json"


def test_record(label: str, junit: Path, selection: str, seconds: float,
                commit: str | None = None) -> dict[str, object]:
    """What a test run of `label` proved: its torch, date, counts (from the JUnit report) and time."""
    import xml.etree.ElementTree as ElementTree

    counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0, "xfailed": 0}
    if junit.exists():
        for case in ElementTree.parse(junit).getroot().iter("testcase"):
            outcome = next((child for child in case if child.tag in ("failure", "error", "skipped")), None)
            if outcome is None:
                counts["passed"] += 1
            elif outcome.tag == "skipped":
                counts["xfailed" if outcome.get("type") == "pytest.xfail" else "skipped"] += 1
            else:
                counts["failed" if outcome.tag == "failure" else "errors"] += 1
    torch = installed_version(venv_python(label), "torch") or "none"
    proven = junit.exists() and counts["passed"] > 0 and not counts["failed"] and not counts["errors"]
    return {"label": label, "torch": torch, "date": time.strftime("%Y-%m-%d"),
            "commit": tree_commit() if commit is None else commit, **counts,
            "selection": selection, "minutes": round(seconds / 60, 1), "proven": proven}


def tree_commit() -> str:
    """The commit the tree is at (`+changes` when files differ from it), or "" outside a git checkout."""
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return ""
    changed = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                             capture_output=True, text=True).stdout.strip()
    return head.stdout.strip() + ("+changes" if changed else "")


def summary_line(record: dict[str, object]) -> str:
    state = "proven" if record["proven"] else "FAILED"
    commit = f" at {record['commit']}" if record.get("commit") else ""
    return (f"{record['label']:6} {state:6} torch {record['torch']:8} {record['date']}{commit}  "
            f"passed {record['passed']}, skipped {record['skipped']}, xfailed {record['xfailed']}, "
            f"failed {record['failed']}, errors {record['errors']}  ({record['minutes']} min)")


def test_label(session: nox.Session, label: str, rest: list[str]) -> dict[str, object]:
    """Runs the label's tests, records the run in build/test-results/<label>.json and returns the record."""
    ensure_venv(session, label)
    TEST_RESULTS.mkdir(parents=True, exist_ok=True)
    junit = TEST_RESULTS / f"{label}.xml"
    junit.unlink(missing_ok=True)
    args = pytest_args(rest)
    selection = " ".join(args) or "all"
    whole = not [a for a in rest if a not in ("--slow", "--differential")]  # no -k, -x, paths ...
    env = {"NPU_GENERATED_DIR": str(generated_dir(label)), "NPU_TEST_LABEL": label}
    start, commit = time.monotonic(), tree_commit()  # the tree the tests read, before any edit during the run
    try:
        run_in_venv(session, label, "-m", "pytest", "-q", f"--junitxml={junit}", *args,
                    *[str(PACKAGES / p / "tests") for p in WHEEL_PACKAGES], str(ROOT / "tests"), env=env)
    finally:
        record = {**test_record(label, junit, selection, time.monotonic() - start, commit), "whole": whole}
        (TEST_RESULTS / f"{label}.json").write_text(json.dumps(record, indent=1) + "\n")
        session.log(summary_line(record))
    return record


@nox.session(venv_backend="none")
def test(session: nox.Session) -> None:
    """Run every package's tests and the cross-package tests against the installed wheels.

    Slow tests are skipped unless `--slow` follows the labels, the differential test against upstream's
    torch_npu unless `--differential` does. Each label's run is recorded in build/test-results/<label>.json
    (torch release, date, counts), which `nox -s matrix` keeps.
    """
    labels, rest = split_posargs(session)
    for label in labels:
        test_label(session, label, rest)


def directory_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink()) if path.exists() else 0


@nox.session(venv_backend="none")
def prove(session: nox.Session) -> None:
    """Generate, build and test each label one after another (`-- all`: every label of the registry),
    printing one summary line per label and recording each run for `nox -s matrix`. A label that fails
    does not stop the next. `--prune` removes a proven label's virtualenv, wheelhouse and build directories
    after its run (a label's CUDA build of torch takes 2.6-5.5 GB)."""
    pins, _ = load_registry()
    wanted_all = "all" in session.posargs
    prune = "--prune" in session.posargs
    session.posargs[:] = [a for a in session.posargs if a not in ("all", "--prune")]
    labels, rest = split_posargs(session)
    if wanted_all:
        labels = list(pins)
    lines, failed = [], []
    for label in labels:
        start, started_at = time.monotonic(), time.time()
        proven = False
        try:
            generate_label(session, label)
            cache_label_schemas(session, label)  # so `check-schemas` can cover a pruned label
            build_label(session, label)
            record = test_label(session, label, rest)
            line, proven = summary_line(record), bool(record["proven"])
        except Exception as error:  # noqa: BLE001 (a label's failure is reported in its line)
            result = TEST_RESULTS / f"{label}.json"
            tested = result.exists() and result.stat().st_mtime >= started_at
            line = (summary_line(json.loads(result.read_text())) if tested
                    else f"{label:6} FAILED {type(error).__name__}: {str(error)[:200]}")
        disk = sum(directory_bytes(p) for p in label_directories(label))
        line += f"  [{(time.monotonic() - start) / 60:.0f} min in all, {disk / 2**30:.1f} GB on disk]"
        lines.append(line)
        session.log(line)
        if not proven:
            failed.append(label)
        elif prune:  # a label that failed keeps what is needed to look into it
            for path in label_directories(label):
                shutil.rmtree(path, ignore_errors=True)
    session.log("summary:\n" + "\n".join(lines))
    if failed:
        session.error(f"not proven: {' '.join(failed)}")


def label_directories(label: str) -> list[Path]:
    """What a label occupies on disk: its virtualenv, wheelhouse, wheels and build trees."""
    house = wheelhouse()
    return [BUILD / "venvs" / label, *([house / label] if house else []), ROOT / "dist" / label,
            BUILD / "ext" / label, generated_dir(label)]


def ensure_torch_npu_venv(session: nox.Session, label: str) -> Path:
    """build/venvs/<label>-torch-npu: the label's torch, upstream's torch-npu wheel of that release (from the
    package index, through the label's wheelhouse) and this tree's ascendc-kernels wheel; returns its python."""
    entries, _ = load_registry_entries()
    pin, extra = entries[label]
    wheels = sorted((ROOT / "dist" / label).glob("ascendc_kernels-*.whl"))
    if not wheels:
        session.error(f"dist/{label} has no ascendc-kernels wheel: run `nox -s generate build -- {label}` first")
    venv = BUILD / "venvs" / f"{label}-torch-npu"
    python = venv / "bin" / "python"
    stamp = venv / ".npu-venv.json"
    wanted = {"torch": pin, "torch-npu": pin}
    if not (python.exists() and stamp.is_file() and json.loads(stamp.read_text()) == wanted):
        session.log(f"creating {venv} with torch=={pin} and upstream's torch-npu=={pin} (once per label)")
        if venv.exists():
            shutil.rmtree(venv)
        session.run(sys.executable, "-m", "venv", str(venv), external=True)
        pip_install_from_wheelhouse(session, label, str(python), [f"torch=={pin}", *extra, "numpy", "pyyaml"])
        pip_install_from_wheelhouse(session, label, str(python), ["--no-deps", f"torch-npu=={pin}"])
        stamp.write_text(json.dumps(wanted))
    install_wheel(session, label, python, wheels[-1], {})
    return python


@nox.session(name="real-torch-npu", venv_backend="none")
def real_torch_npu(session: nox.Session) -> None:
    """Upstream's torch_npu on the simulator: a venv beside the label's with the real torch-npu wheel, a
    short demo in the simulator's CANN-style install, then the differential test against our runtime.

    Needs `nox -s generate build -- <label>` first; labels whose torch release has no torch-npu wheel of
    the same version on the package index fail at the download, naming it.
    """
    labels, rest = split_posargs(session)
    for label in labels:
        python = ensure_torch_npu_venv(session, label)
        toolkit = subprocess.run(
            [str(python), "-c", "import json; from ascendc_kernels.toolkit import environment; "
                                "print(json.dumps(environment()))"],
            capture_output=True, text=True, check=True)
        env = {**json.loads(toolkit.stdout), "TORCH_DEVICE_BACKEND_AUTOLOAD": "0"}
        session.log(f"{label}: upstream's torch_npu in {python.parent.parent}; to run your own script there:\n"
                    f'  eval "$({python} -m ascendc_kernels.toolkit)" && {python} your_script.py')
        session.run(str(python), str(ROOT / "examples" / "real_torch_npu.py"), external=True, env=env)
        test_env = {"NPU_GENERATED_DIR": str(generated_dir(label)), "NPU_TEST_LABEL": label}
        run_in_venv(session, label, "-m", "pytest", "-q", "-s", "-m", "differential",
                    str(ROOT / "tests" / "test_differential_torch_npu.py"), *rest, env=test_env)


@nox.session(venv_backend="none")
def demo(session: nox.Session) -> None:
    """A short run on `npu`: results next to CPU, and the path each op took."""
    labels, _ = split_posargs(session)
    for label in labels:
        ensure_venv(session, label)
        run_in_venv(session, label, str(ROOT / "examples" / "demo.py"))


def keep_proven_labels() -> list[dict[str, object]]:
    """docs/proven-labels.json updated with this machine's test runs (build/test-results/*.json):
    per label, its last run of the whole suite (one narrowed by -k, -x or paths is not kept)."""
    kept = {r["label"]: r for r in json.loads(PROVEN_LABELS.read_text())} if PROVEN_LABELS.exists() else {}
    for path in sorted(TEST_RESULTS.glob("*.json")):
        record = json.loads(path.read_text())
        if record.get("whole") and record.get("passed", 0) > 0:
            kept[record["label"]] = record
    pins, _ = load_registry()
    records = [kept[label] for label in pins if label in kept]
    PROVEN_LABELS.parent.mkdir(parents=True, exist_ok=True)
    PROVEN_LABELS.write_text(json.dumps(records, indent=1) + "\n")
    return records


@nox.session(venv_backend="none")
def matrix(session: nox.Session) -> None:
    """Write the support matrix (operator x label x path, and per label what its last test run proved)
    to build/support_matrix.{md,json}; the test runs are kept in docs/proven-labels.json."""
    labels, _ = split_posargs(session)
    records = keep_proven_labels()
    for record in records:
        session.log(summary_line(record))
    ensure_venv(session, labels[0])
    env = {"PYTHONPATH": str(PACKAGES / "opplugin-codegen" / "src")}
    run_in_venv(session, labels[0], "-m", "opplugin_codegen", "matrix", "--yaml-dir", str(YAML_DIR),
                "--out", str(BUILD), "--proven", str(PROVEN_LABELS.relative_to(ROOT)), env=env)


# The benchmarks of bench/ that run against a label's installed wheels, in order; each prints
# its ratios (npu vs CPU, ours vs stock torchgen) measured in one run and asserts nothing.
BENCHES = (
    ("npu_dispatch_latency.py",),
    ("torch_npu_dispatch_latency.py",),  # after `nox -s real-torch-npu`; says so and measures nothing before
    ("npu_sync_cost.py",),
    ("npu_allocator_overhead.py",),
    ("ascendc_kernels_speed.py",),
    ("torchnpugen_speed.py",),
    ("make_synthetic_yaml.py", "--out", str(BUILD / "bench" / "yaml")),
    ("opplugin_codegen_speed.py", "--yaml-dir", str(BUILD / "bench" / "yaml")),
    # --- models / examples ---
    ("npu_train_step.py",),
    ("npu_amp_step.py",),
    ("npu_compile_speed.py",),
    # --- operators through the whole runtime ---
    ("npu_ops_speed.py",),
    ("npu_conv_pool_speed.py",),
    ("npu_families_speed.py",),
    # --- collectives ---
    ("hccl_allreduce_speed.py",),
)


@nox.session(venv_backend="none")
def bench(session: nox.Session) -> None:
    """Run the benchmarks of bench/ for a label (after build); `-- v2.13 npu_sync_cost` runs the named ones only."""
    labels, rest = split_posargs(session)
    wanted = {Path(name).stem for name in rest}
    for label in labels:
        ensure_venv(session, label)
        for script, *args in BENCHES:
            needed_by = "opplugin_codegen_speed" if script.startswith("make_") else Path(script).stem
            if wanted and needed_by not in wanted:
                continue
            session.log(f"bench/{script} ({label})")
            run_in_venv(session, label, str(ROOT / "bench" / script), *args)


SCHEMA_CACHE = BUILD / "native_functions"
CODEGEN_ENV = {"PYTHONPATH": str(PACKAGES / "opplugin-codegen" / "src")}


def cached_schemas_release(label: str) -> str | None:
    """The torch release whose native_functions.yaml build/native_functions/<label>.yaml holds, if any."""
    path = SCHEMA_CACHE / f"{label}.yaml"
    if not path.is_file():
        return None
    with path.open(encoding="utf-8") as f:
        first = f.readline()
    found = re.match(r"# opplugin-codegen: native_functions\.yaml of torch (\S+) for ", first)
    return found.group(1) if found else None


def cache_label_schemas(session: nox.Session, label: str, runner: str | None = None) -> None:
    """Copy the label's native_functions.yaml into build/native_functions: from the label's environment
    where it exists, else out of the label's torch wheel (downloaded alone into its wheelhouse, not
    installed) by the environment of `runner`."""
    args = ["-m", "opplugin_codegen", "cache-schemas", "--yaml-dir", str(YAML_DIR), "--cache-dir", str(SCHEMA_CACHE),
            "--label", label]
    if venv_python(label).exists() or runner is None:
        ensure_venv(session, label)
        run_in_venv(session, label, *args, env=CODEGEN_ENV)
        return
    run_in_venv(session, runner, *args, "--wheel", str(label_torch_wheel(session, label, runner)), env=CODEGEN_ENV)


def label_torch_wheel(session: nox.Session, label: str, runner: str) -> Path:
    """The label's torch wheel in its wheelhouse, downloaded alone (no dependencies, nothing installed)
    by the environment of `runner` when the wheelhouse lacks it."""
    pins, _ = load_registry()
    house = (wheelhouse() or BUILD / "wheels") / label

    def torch_wheels() -> list[Path]:
        return sorted(w for w in house.glob("torch-*.whl") if w.name.split("-")[1].split("+")[0] == pins[label])

    wheels = torch_wheels()
    if not wheels:
        session.log(f"{label}: downloading the wheel of torch {pins[label]} alone (read, not installed)")
        house.mkdir(parents=True, exist_ok=True)
        run_in_venv(session, runner, "-m", "pip", "download", "-q", "--no-deps", "-d", str(house),
                    f"torch=={pins[label]}")
        wheels = torch_wheels()
    return wheels[-1]


@nox.session(name="check-schemas", venv_backend="none")
def check_schemas(session: nox.Session) -> None:
    """Schema drift: each aten entry's func against each label's native_functions.yaml (build/native_functions).

    A label whose pinned release is already in the cache (`nox -s prove` fills it before pruning) needs no
    environment, nor does one without an environment: its torch wheel is read, not installed. `-- all`
    checks every label of the registry."""
    pins, _ = load_registry()
    if "all" in session.posargs:
        session.posargs[:] = [a for a in session.posargs if a != "all"] + list(pins)
    labels, _ = split_posargs(session)
    checker = next((label for label in labels if venv_python(label).exists()), None) or labels[0]
    ensure_venv(session, checker)
    for label in labels:
        release = cached_schemas_release(label)
        if release is not None and release.split("+")[0] == pins[label]:
            session.log(f"{label}: schemas of torch {release} from {SCHEMA_CACHE}")
        else:
            cache_label_schemas(session, label, runner=checker)
    run_in_venv(session, checker, "-m", "opplugin_codegen", "check-schemas", "--yaml-dir", str(YAML_DIR),
                "--cache-dir", str(SCHEMA_CACHE), *[arg for label in labels for arg in ("--label", label)],
                env=CODEGEN_ENV)


def label_torch_headers(session: nox.Session, label: str, runner: str) -> Path:
    """The directory of the label's torch package, for its C++ headers and cpp_extension.py: the label's
    environment where it exists, else those files taken out of its torch wheel into build/torch-headers."""
    if venv_python(label).exists():
        found = sorted((BUILD / "venvs" / label / "lib").glob("python3*/site-packages/torch"))
        if found:
            return found[0]
    wheel = label_torch_wheel(session, label, runner)
    root = BUILD / "torch-headers" / wheel.stem
    if not (root / "torch" / "utils" / "cpp_extension.py").is_file():
        shutil.rmtree(root, ignore_errors=True)
        with zipfile.ZipFile(wheel) as archive:
            wanted = [n for n in archive.namelist()
                      if n.startswith("torch/include/") or n == "torch/utils/cpp_extension.py"]
            archive.extractall(root, wanted)
    return root / "torch"


def syntax_errors(sources: list[Path], torch_package: Path, include_dirs: list[Path]) -> list[str]:
    """g++ -fsyntax-only -Wall -Wextra of each source against a torch package's headers, with the -std= its
    cpp_extension.py uses: one "--- name\n<diagnostics>" per source that gives any diagnostic."""
    from concurrent.futures import ThreadPoolExecutor

    stds = re.findall(r"-std=c\+\+(\d+)", (torch_package / "utils" / "cpp_extension.py").read_text(encoding="utf-8"))
    include = torch_package / "include"
    command = [os.environ.get("CXX", "g++"), f"-std=c++{max(map(int, stds), default=17)}", "-fsyntax-only", "-Wall",
               "-Wextra", "-isystem", str(include), "-isystem", str(include / "torch" / "csrc" / "api" / "include"),
               *[arg for path in include_dirs for arg in ("-I", str(path))]]

    def one(source: Path) -> str | None:
        done = subprocess.run([*command, str(source)], capture_output=True, text=True, timeout=900)
        return f"--- {source.name}\n{done.stderr[-4000:]}" if done.returncode or done.stderr else None

    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        return [found for found in pool.map(one, sources) if found]


@nox.session(name="compile-upstream", venv_backend="none")
def compile_upstream(session: nox.Session) -> None:
    """What opplugin-codegen generates from upstream's own op-plugin files (`OPPLUGIN_UPSTREAM`, a checkout of
    Ascend/op-plugin, unmodified) compiled syntax-only against the runtime's headers and each label's torch:
    the dispatch shards, struct kernels and Meta functions. `-- all` covers every label; a label without an
    environment is compiled against the headers of its torch wheel (downloaded alone, not installed)."""
    config = Path(os.environ.get("OPPLUGIN_UPSTREAM", "/nonexistent")) / "op_plugin" / "config"
    if not (config / "op_plugin_functions.yaml").is_file():
        session.error("set OPPLUGIN_UPSTREAM to a checkout of Ascend/op-plugin")
    pins, _ = load_registry()
    if "all" in session.posargs:
        session.posargs[:] = [a for a in session.posargs if a != "all"] + list(pins)
    labels, _ = split_posargs(session)
    # any label's environment runs the generator and pip: a label of the run first, else one already made
    runner = next((label for label in [*labels, *pins] if venv_python(label).exists()), labels[0])
    ensure_venv(session, runner)
    work = BUILD / "compile-upstream"
    shutil.rmtree(work, ignore_errors=True)
    (work / "yaml").mkdir(parents=True)
    for name in ("op_plugin_functions.yaml", "deprecated.yaml"):
        shutil.copy(config / name, work / "yaml" / name)
    shutil.copy(YAML_DIR / "versions.yaml", work / "yaml" / "versions.yaml")
    runtime = [PACKAGES / "opplugin-runtime" / "csrc", PACKAGES / "ascendc-kernels" / "include"]
    lines, failed = [], []
    for label in labels:
        start = time.monotonic()
        torch_package = label_torch_headers(session, label, runner)
        tree = work / "generated" / label
        run_in_venv(session, runner, "-m", "opplugin_codegen", "generate", "--label", label,
                    "--yaml-dir", str(work / "yaml"), "--out", str(tree), env=CODEGEN_ENV)
        sources = sorted(p for pattern in ("op_plugin/OpInterface_*.cpp", "op_plugin/StructKernelNpuOpApi_*.cpp",
                                           "op_plugin/MetaFunctions_*.cpp", "test_only/MetaCheckFunctions_*.cpp")
                         for p in tree.glob(pattern))
        errors = syntax_errors(sources, torch_package, [tree, *runtime]) if sources else ["--- no sources generated"]
        for error in errors:
            session.log(f"{label}:\n{error}")
        lines.append(f"{label:6} {'FAILED' if errors else 'compiles'}: {len(sources) - len(errors)} of {len(sources)} "
                     f"files against torch {pins[label]} ({time.monotonic() - start:.0f} s)")
        session.log(lines[-1])
        if errors:
            failed.append(label)
    session.log("summary:\n" + "\n".join(lines))
    if failed:
        session.error(f"upstream's files do not compile for: {' '.join(failed)}")


@nox.session(venv_backend="none")
def lint(session: nox.Session) -> None:
    """ruff over the Python sources."""
    session.run(sys.executable, "-m", "pip", "install", "-q", "ruff", external=True)
    session.run(sys.executable, "-m", "ruff", "check", str(ROOT), external=True)



def sanitizer_preload() -> str:
    """LD_PRELOAD for a python host of sanitized libraries: the compiler's AddressSanitizer
    runtime (it must come first), then libstdc++, so that ASan's __cxa_throw interceptor
    finds the real one at start-up (python itself does not link libstdc++)."""
    compiler = os.environ.get("CXX", "g++")
    paths = []
    for name in ("libasan.so", "libstdc++.so"):
        out = subprocess.run([compiler, f"-print-file-name={name}"], capture_output=True, text=True, check=True)
        path = Path(out.stdout.strip())
        if not path.is_file():
            raise RuntimeError(f"{compiler} -print-file-name={name} gave {path}: not found")
        paths.append(str(path.resolve()))
    return " ".join(paths)


@nox.session(venv_backend="none")
def sanitize(session: nox.Session) -> None:
    """Build the simulator and the runtime with -fsanitize=address,undefined (SANITIZE=1, own build
    dirs) into build/venvs/<label>-asan and run the kernels and runtime test suites under them.

    The -asan venv holds only the two sanitized wheels; torch and the tools come from the label's
    venv through a .pth file. Python itself leaks by design, so ASAN_OPTIONS has detect_leaks=0.

    SANITIZE_RUNTIME=0 instruments the simulator only: the -asan venv gets the label's plain
    runtime wheel (built by `nox -s build` first), whose rpath then finds the sanitized
    libascendcl/libopapi, so both suites still drive every aclnn entry point through
    instrumented code, without the runtime's 15-minute instrumented build (what CI runs).
    """
    labels, rest = split_posargs(session)
    for label in labels:
        ensure_venv(session, label)
        base = venv_python(label)
        asan = BUILD / "venvs" / f"{label}-asan"
        py = asan / "bin" / "python"
        if not py.exists():
            session.run(str(base), "-m", "venv", str(asan), external=True)
        base_site = subprocess.run([str(base), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip()
        asan_site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip()
        (Path(asan_site) / "npu_label_venv.pth").write_text(base_site + "\n")
        path = os.pathsep.join([str(py.parent), str(base.parent), os.environ.get("PATH", "")])
        build_env = {
            "PATH": path,
            "CCACHE_BASEDIR": str(ROOT),
            "SANITIZE": "1",
            "NPU_GENERATED_DIR": str(generated_dir(label)),
            "NPU_BUILD_LABEL": label,
            "NPU_EXT_BUILD_DIR": str(BUILD / "ext" / f"{label}-asan"),
            "ASCENDC_KERNELS_BUILD_DIR": str(BUILD / "cmake" / "ascendc-kernels-asan"),
        }
        dist = ROOT / "dist" / f"{label}-asan"
        dist.mkdir(parents=True, exist_ok=True)
        wheel = build_wheel(session, label, py, "ascendc-kernels", dist, build_env)
        install_wheel(session, label, py, wheel, build_env)
        if os.environ.get("SANITIZE_RUNTIME", "1") == "0":
            plain = sorted((ROOT / "dist" / label).glob("opplugin_runtime-*.whl"))
            if not plain:
                session.error(f"SANITIZE_RUNTIME=0 takes the plain runtime wheel of dist/{label}: "
                              f"run `nox -s build -- {label}` first")
            install_wheel(session, label, py, plain[-1], build_env)
        else:
            wheel = build_wheel(session, label, py, "opplugin-runtime", dist, build_env)
            install_wheel(session, label, py, wheel, build_env)
        # The plain build copies its own libraries back into the source tree on its next run.
        test_env = {
            "PATH": path,
            "LD_PRELOAD": sanitizer_preload(),
            "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:halt_on_error=1",
            "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
            "NPU_GENERATED_DIR": str(generated_dir(label)),
            "NPU_TEST_LABEL": label,
        }
        # --capture=sys: a sanitizer report (written to fd 2 by the C runtime) reaches the log
        # instead of vanishing with pytest's fd capture when the process halts.
        session.run(str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--capture=sys", *pytest_args(rest),
                    str(PACKAGES / "ascendc-kernels" / "tests"), str(PACKAGES / "opplugin-runtime" / "tests"),
                    external=True, env=test_env)


# --- distributed training ---
DISTRIBUTED_RUNS = (("mlp", "ddp"), ("transformer", "ddp"), ("mlp", "fsdp"), ("transformer", "fsdp"))


@nox.session(venv_backend="none")
def distributed(session: nox.Session) -> None:
    """Train the example models with DDP and FSDP2 on 2 npu ranks through `torchrun` and the hccl
    backend (after build): each step's loss next to one process on the CPU."""
    labels, rest = split_posargs(session)
    for label in labels:
        ensure_venv(session, label)
        for model, how in DISTRIBUTED_RUNS:
            if rest and model not in rest and how not in rest:
                continue
            session.log(f"examples/distributed_train.py --model {model} --wrap {how} ({label}, 2 ranks)")
            run_in_venv(session, label, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2",
                        str(ROOT / "examples" / "distributed_train.py"), "--model", model, "--wrap", how)


# --- models / examples ---
MODEL_EXAMPLES = ("mlp_sgd.py", "mlp_adam.py", "cnn.py", "transformer.py")


@nox.session(venv_backend="none")
def examples(session: nox.Session) -> None:
    """Train the example models on `npu` (after build): losses next to CPU's, then the path ledger."""
    labels, rest = split_posargs(session)
    wanted = {Path(name).stem for name in rest}
    for label in labels:
        ensure_venv(session, label)
        for script in MODEL_EXAMPLES:
            if wanted and Path(script).stem not in wanted:
                continue
            session.log(f"examples/{script} ({label})")
            run_in_venv(session, label, str(ROOT / "examples" / script))
