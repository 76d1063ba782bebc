"""Build of opplugin-runtime: one torch C++ extension, opplugin_runtime._C.

The extension is compiled from this package's csrc/ plus every .cpp file of the
generated tree of one version label, except the test-only ones under test_only/:

    NPU_GENERATED_DIR   build/generated/<label> (required), written by
                        opplugin-codegen and torchnpugen
    NPU_BUILD_LABEL     the label, e.g. v2.13 (default: the generated dir's name)
    NPU_EXT_BUILD_DIR   persistent object directory for incremental rebuilds
                        (default: <repo>/build/ext/<label>)

It links libascendcl from the installed `ascendc-kernels` package, found at run
time through the rpath $ORIGIN/../ascendc_kernels/lib (both wheels install into
the same site-packages).

Generated files that reach the package besides the compiled .cpp files:
<generated>/npu/custom_ops.py (torchnpugen: Python entry points of the custom npu::
operators) becomes opplugin_runtime/custom_ops.py, and the generated public headers
(npu/aten/CustomFunctions.h, npu/inductor/c_shim_npu.h when the label's torchgen can
generate it, npu/version.h) join the runtime headers under
opplugin_runtime/include/ for user extensions.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

# The build must not autoload the installed opplugin_runtime (torch.backends entry point):
# it may be stale against the ascendc-kernels just installed.
os.environ.setdefault("TORCH_DEVICE_BACKEND_AUTOLOAD", "0")

import torch
from setuptools import setup
from setuptools.command.build_py import build_py
from torch.utils import cpp_extension

HERE = Path(__file__).resolve().parent
CSRC = HERE / "csrc"
PACKAGE = "opplugin_runtime"
REQUIRED_GENERATED = (
    "op_plugin/OpInterface.h",
    "op_plugin/OpApiInterface.h",
    "op_plugin/AclOpsInterface.h",
    "npu/aten/NPUNativeFunctions.h",
    "npu/custom_ops.py",
    "npu/version.h",
)
# Generated files copied into the package: (path under the generated dir, path in the package).
GENERATED_PACKAGE_FILES = (
    ("npu/custom_ops.py", "custom_ops.py"),
    ("npu/aten/CustomFunctions.h", "include/npu/aten/CustomFunctions.h"),
    ("npu/inductor/c_shim_npu.h", "include/npu/inductor/c_shim_npu.h"),
    # The label's version macros: npu/core/TorchCompat.h includes it.
    ("npu/version.h", "include/npu/version.h"),
)
# Generated sources that only tests compile (contracts.md section 1: the npu_meta_check
# operators, built by the repository's tests/conftest.py), left out of the extension.
GENERATED_TEST_ONLY_DIR = "test_only"
# Runtime headers shipped in the wheel for user extensions (NpuExtension); csrc/npu/README.md
# says what each folder holds. Not npu/aten: its headers are private to the runtime's kernels.
PUBLIC_HEADER_DIRS = (
    "npu/core",
    "npu/dispatch",
    "npu/op_api",
    "npu/acl_op",
    "npu/format",
    "npu/observe",
    "npu/op_common",
    "npu/op_infer",
)


def fail(message: str) -> None:
    sys.stderr.write(f"opplugin-runtime setup.py: error: {message}\n")
    raise SystemExit(2)


def repo_root() -> Path | None:
    root = HERE.parents[1] if len(HERE.parents) > 1 else None
    return root if root is not None and (root / "yaml").is_dir() else None


def generated_dir() -> Path:
    value = os.environ.get("NPU_GENERATED_DIR")
    if not value:
        fail(
            "NPU_GENERATED_DIR is not set. Point it at the generated tree of one version label, e.g.\n"
            "  NPU_GENERATED_DIR=build/generated/v2.13 (written by `python -m opplugin_codegen generate` and\n"
            "  `python -m torchnpugen generate`, see the repository README)."
        )
    # pip runs this file from the package directory: a relative path is taken
    # relative to the caller's directory ($PWD), else the repository root.
    raw = Path(value).expanduser()
    bases = [] if raw.is_absolute() else [Path(os.environ.get("PWD", ".")), repo_root() or HERE, HERE]
    candidates = [raw.resolve()] if raw.is_absolute() else [(base / raw).resolve() for base in bases]
    for path in candidates:
        if all((path / name).is_file() for name in REQUIRED_GENERATED):
            return path
    fail(
        f"NPU_GENERATED_DIR={value} (looked in {', '.join(map(str, dict.fromkeys(candidates)))}) lacks "
        f"{', '.join(REQUIRED_GENERATED)}; run both generators for the label first."
    )
    return None


def build_label(gen_dir: Path) -> str:
    label = os.environ.get("NPU_BUILD_LABEL") or gen_dir.name
    if not re.fullmatch(r"v\d+\.\d+", label):
        fail(f"NPU_BUILD_LABEL={label!r} is not a version label like v2.13")
    return label


def version_registry():  # type: ignore[no-untyped-def]
    """yaml/versions.yaml of the checkout, read by the project's one reader of the registry
    (opplugin-codegen's registry_file: installed in the label's environment, or from the
    source tree); None outside a checkout."""
    root = repo_root()
    path = root / "yaml" / "versions.yaml" if root else None
    if path is None or not path.is_file():
        return None
    try:
        from opplugin_codegen import registry_file
    except ImportError:
        sys.path.insert(0, str(root / "packages" / "opplugin-codegen" / "src"))
        from opplugin_codegen import registry_file
    try:
        return registry_file.read_registry(path, "yaml/versions.yaml")
    except registry_file.RegistryError as error:
        fail(str(error))


def check_torch_matches_label(label: str) -> None:
    """The label pins a torch release (yaml/versions.yaml); building against another one is an error."""
    registry = version_registry()
    if registry is None:
        return
    pins = {entry.name: entry.torch for entry in registry.labels}
    if label not in pins:
        fail(f"label {label} is not in yaml/versions.yaml (labels: {', '.join(pins)})")
    have = torch.__version__.split("+")[0]
    if pins[label].split(".")[:2] != have.split(".")[:2]:
        fail(f"label {label} builds against torch {pins[label]}, but this environment has torch {torch.__version__}")


def mirror_headers(source: Path, target: Path) -> Path:
    """A copy of `source`'s headers under `target` whose files change (and so get a new mtime)
    only when their content does: reinstalling the ascendc-kernels wheel rewrites every
    header in site-packages, and compiling against those would rebuild every object."""
    wanted = {header.relative_to(source) for header in source.rglob("*.h")}
    for relative in sorted(wanted):
        copy_if_changed(source / relative, target / relative)
    for stale in target.rglob("*.h"):
        if stale.relative_to(target) not in wanted:
            stale.unlink()
    return target


def ascendc_kernels_paths() -> tuple[str, str]:
    try:
        import ascendc_kernels
    except ImportError as error:
        fail(
            f"cannot import ascendc_kernels ({error}); install the ascendc-kernels wheel into this environment "
            "first (pip install --no-build-isolation --no-deps packages/ascendc-kernels)."
        )
    include_dir, library_dir = ascendc_kernels.get_include(), ascendc_kernels.get_library_dir()
    if not (Path(library_dir) / "libascendcl.so").is_file():
        fail(f"ascendc_kernels.get_library_dir()={library_dir} holds no libascendcl.so")
    return str(include_dir), str(library_dir)


def ext_build_dir(label: str) -> Path:
    value = os.environ.get("NPU_EXT_BUILD_DIR")
    if value:
        return Path(value).expanduser().resolve()
    root = repo_root() or HERE
    return root / "build" / "ext" / label


def build_info_source(label: str, gen_dir: Path) -> str:
    registry = version_registry()
    manifest = gen_dir / "manifest.json"
    digest = ""
    if manifest.is_file():
        import hashlib

        digest = hashlib.sha256(manifest.read_bytes()).hexdigest()
    info = {
        "LABEL": label,
        "TORCH_VERSION": torch.__version__,
        "TORCH_MAJOR_MINOR": tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2]),
        "CXX11_ABI": bool(torch.compiled_with_cxx11_abi()),
        "GENERATED_MANIFEST_SHA256": digest,
        # torch release -> label, from the registry: what the import check tells a user to build
        "LABELS_BY_TORCH": {
            entry.torch_major_minor: entry.name for entry in (registry.labels if registry else ())
        },
    }
    lines = ['"""Written by setup.py: what this build of opplugin_runtime was compiled against."""', ""]
    lines += [f"{key} = {value!r}" for key, value in info.items()]
    return "\n".join(lines) + "\n"


def torch_release() -> tuple[int, int]:
    major, minor = (int(part) for part in re.findall(r"\d+", torch.__version__)[:2])
    return major, minor


def wheel_version() -> str:
    """The package version with the torch release it is built for as local label, so that the
    wheels of two labels differ in name: 0.1.0+torch2.13."""
    match = re.search(r'^__version__ = "([^"]+)"', (HERE / "src" / PACKAGE / "__init__.py").read_text(), re.M)
    if match is None:
        fail(f"src/{PACKAGE}/__init__.py has no __version__ line")
    major, minor = torch_release()
    return f"{match.group(1)}+torch{major}.{minor}"


def requirements() -> list[str]:
    """The wheel runs only under the torch release it was compiled against."""
    major, minor = torch_release()
    return [f"torch=={major}.{minor}.*", "ascendc-kernels"]


def write_if_changed(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def copy_if_changed(source: Path, target: Path) -> None:
    if not target.is_file() or target.read_bytes() != source.read_bytes():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def cxx_standard() -> int:
    """The C++ standard torch's cpp_extension compiles extensions with (and so this runtime)."""
    return 20 if "-std=c++20" in Path(cpp_extension.__file__).read_text() else 17


def cmake_build_source(label: str) -> str:
    """share/cmake/torch_npu/torch_npuBuild.cmake: what torch_npuConfig.cmake hands to the
    extensions it configures."""
    facts = {
        "TORCH_NPU_LABEL": label,
        "TORCH_NPU_TORCH_VERSION": torch.__version__,
        "TORCH_NPU_CXX_STANDARD": cxx_standard(),
        "TORCH_NPU_CXX11_ABI": int(torch.compiled_with_cxx11_abi()),
        # the CUDA release of a CUDA build of torch, empty for a CPU build
        "TORCH_NPU_TORCH_CUDA": torch.version.cuda or "",
    }
    lines = ["# Written by setup.py: what this build of opplugin_runtime was compiled against."]
    lines += [f'set({key} "{value}")' for key, value in facts.items()]
    return "\n".join(lines) + "\n"


CMAKE_PACKAGE_DIR = Path("share") / "cmake" / "torch_npu"


def install_package_files(package_dir: Path) -> None:
    """_build_info.py, the generated Python module, the public headers and the CMake package
    into a built (or in-place) package directory."""
    write_if_changed(package_dir / "_build_info.py", BUILD_INFO)
    copy_if_changed(HERE / "cmake" / "torch_npuConfig.cmake", package_dir / CMAKE_PACKAGE_DIR / "torch_npuConfig.cmake")
    write_if_changed(package_dir / CMAKE_PACKAGE_DIR / "torch_npuBuild.cmake", cmake_build_source(LABEL))
    for relpath, target in GENERATED_PACKAGE_FILES:
        source = GEN_DIR / relpath
        if source.is_file():
            copy_if_changed(source, package_dir / target)
        elif (package_dir / target).is_file():  # not generated for this label (the C shim on v2.1)
            (package_dir / target).unlink()
    include_root = package_dir / "include"
    wanted = {package_dir / target for _, target in GENERATED_PACKAGE_FILES}
    for sub in PUBLIC_HEADER_DIRS:
        for header in sorted((CSRC / sub).glob("*.h")):
            copy_if_changed(header, include_root / sub / header.name)
            wanted.add(include_root / sub / header.name)
    # The build tree persists per label: a header moved or removed in csrc/ must not ship from an earlier build.
    for stale in sorted(include_root.rglob("*.h")):
        if stale not in wanted:
            stale.unlink()
    for folder in sorted(include_root.rglob("*"), reverse=True):  # deepest first
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        install_package_files(Path(self.build_lib) / PACKAGE)


class BuildExt(cpp_extension.BuildExtension):
    """torch's BuildExtension with a persistent per-label object dir and no -g."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.build_temp = str(EXT_BUILD_DIR)

    def build_extensions(self) -> None:
        # Python's sysconfig flags bring -g and -O3; the extension sets -O2 itself.
        dropped = {"-g", "-O3", "-O2", "-O1", "-O0"}
        self.compiler.compiler_so = [f for f in self.compiler.compiler_so if f not in dropped]
        for attribute in ("linker_so", "linker_so_cxx"):
            flags = getattr(self.compiler, attribute, None)
            if flags:
                setattr(self.compiler, attribute, [f for f in flags if f not in dropped])
        super().build_extensions()

    def run(self) -> None:
        super().run()
        if self.inplace:
            install_package_files(HERE / "src" / PACKAGE)


def sources(gen_dir: Path) -> list[str]:
    own = sorted(str(p) for p in CSRC.rglob("*.cpp"))
    generated = sorted(
        str(p) for p in gen_dir.rglob("*.cpp") if GENERATED_TEST_ONLY_DIR not in p.relative_to(gen_dir).parts
    )
    return own + generated


GEN_DIR = generated_dir()
LABEL = build_label(GEN_DIR)
check_torch_matches_label(LABEL)
EXT_BUILD_DIR = ext_build_dir(LABEL)
_INSTALLED_ACL_INCLUDE, ACL_LIBRARY = ascendc_kernels_paths()
ACL_INCLUDE = str(mirror_headers(Path(_INSTALLED_ACL_INCLUDE), EXT_BUILD_DIR / "ascendc-kernels-include"))
BUILD_INFO = build_info_source(LABEL, GEN_DIR)

def ccache_masquerade(build_dir: Path) -> str | None:
    """A `c++` that is ccache (its masquerade mode), for torch releases whose cpp_extension
    does not prepend ccache itself (no `_wrap_compiler`: 2.1). Those releases run
    `which $CXX`, so CXX cannot be "ccache c++"; a symlink named c++ works with every one."""
    ccache = shutil.which("ccache")
    if hasattr(cpp_extension, "_wrap_compiler") or not ccache or "CXX" in os.environ:
        return None
    link = build_dir / "ccache-bin" / "c++"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.is_symlink() or os.readlink(link) != ccache:
        link.unlink(missing_ok=True)
        link.symlink_to(ccache)
    return str(link)


CCACHE_CXX = ccache_masquerade(EXT_BUILD_DIR)
if CCACHE_CXX:
    os.environ["CXX"] = CCACHE_CXX

# kineto's public headers (2.13 and 2.14 ship them, 2.1 does not; the PrivateUse1 device-activity
# profiler, npu/observe/NPUActivityProfiler.cpp, includes them where torch has its registry).
KINETO_INCLUDE = [p for p in (Path(cpp_extension.include_paths()[0]) / "kineto",) if p.is_dir()]

# SANITIZE=1: AddressSanitizer + UBSan (nox -s sanitize builds into its own NPU_EXT_BUILD_DIR;
# the python host then needs LD_PRELOAD of libasan).
SANITIZE = os.environ.get("SANITIZE") == "1"
SANITIZE_FLAGS = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"] if SANITIZE else []

extension = cpp_extension.CppExtension(
    name=f"{PACKAGE}._C",
    sources=sources(GEN_DIR),
    include_dirs=[str(CSRC), str(GEN_DIR), ACL_INCLUDE, *map(str, KINETO_INCLUDE)],
    library_dirs=[ACL_LIBRARY],
    libraries=["ascendcl", "hccl"],
    # -O1 under the sanitizers (their usual level): a quicker build, and stack traces that follow the source.
    extra_compile_args={"cxx": ["-O1" if SANITIZE else "-O2", "-Wall", "-Wno-unused-function", *SANITIZE_FLAGS]},
    extra_link_args=["-Wl,-rpath,$ORIGIN/../ascendc_kernels/lib", "-ldl", *SANITIZE_FLAGS],
)

setup(
    version=wheel_version(),
    install_requires=requirements(),
    ext_modules=[extension],
    cmdclass={"build_ext": BuildExt.with_options(use_ninja=True), "build_py": BuildPy},
    # One setuptools build tree per label: build/lib of one label must not leak its
    # generated files into another label's wheel.
    options={"build": {"build_base": str(EXT_BUILD_DIR / "setuptools")}},
)
