"""Everything that depends on which torch (and so which torchgen) is installed.

torchnpugen always runs against the torchgen of the interpreter's own torch: the
generated C++ is tied to that release (torchgen output of 2.1 does not compile
against 2.13 headers and vice versa), so it is generated at build time per label
and never committed.  Code elsewhere in the package asks this module instead of
testing versions itself, so a new torch release means editing this one file.

The differences between the supported torch releases (measured on 2.1.2, 2.13.0
and 2.14.1) are the rows of :data:`TORCHGEN_DIFFERENCES`: each names the releases it
applies to and detects itself on the installed torchgen (feature detection, never a
version comparison), so ``python -m torchnpugen compat`` says which of them the running
torch has.  The spellings are normalised in one place (:func:`cpp_spelling`,
:func:`cpp_default`); a missing torchgen module turns its output off
(:func:`has_aoti_c_shim`) and the patch table skips its rows (``TorchgenPatch.requires``).

Identical on every supported release (only annotations differ, ``Optional[List[X]]`` vs
``list[X] | None``; the patch table compares parameter names and checks them at start):
``RegisterDispatchKey`` and its fields, ``gen_unstructured``, ``wrapper_kernel_sig``,
the static ``gen_device_check``, ``StructuredRegisterDispatchKey``,
``compute_native_function_declaration``, ``native.arguments(func, *, symint)``,
``DispatcherSignature``, ``NativeSignature``, ``translate``,
``native_function_manager``, the functionalization helpers, ``load_derivatives``,
``parse_native_yaml`` on the packaged yaml (``gen_backend_stubs.run`` is never called:
on 2.1 it assumes a PyTorch source checkout for ``tags.yaml``).
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

__all__ = [
    "TORCHGEN_DIFFERENCES",
    "TorchgenDifference",
    "cpp_default",
    "cpp_spelling",
    "cxx_std_flag",
    "detected_differences",
    "difference",
    "difference_of_tag",
    "has_aoti_c_shim",
    "packaged_yaml_paths",
    "release_tuple",
    "structured_set_output_takes_names",
    "tags_for_installed_torch",
    "torch_dir",
    "torch_include_dirs",
    "torch_version",
    "torchgen_dir",
]


def torch_version() -> str:
    """Version of the installed torch (read from its metadata: no ``import torch``)."""
    try:
        return importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def release_tuple(version: str) -> tuple[int, ...]:
    """``"2.13.0+cpu"`` -> ``(2, 13, 0)``; unparsable parts are dropped."""
    head = re.split(r"[+\-a-zA-Z]", version, maxsplit=1)[0]
    parts = []
    for piece in head.split("."):
        if not piece.isdigit():
            break
        parts.append(int(piece))
    return tuple(parts)


def torchgen_dir() -> Path:
    import torchgen

    return Path(torchgen.__file__).resolve().parent


def packaged_yaml_paths() -> tuple[Path, Path]:
    """(native_functions.yaml, tags.yaml) shipped inside the installed torchgen."""
    native = torchgen_dir() / "packaged" / "ATen" / "native"
    return native / "native_functions.yaml", native / "tags.yaml"


# Spellings that differ between releases, mapped to the one contracts.md fixes.
_SPELLINGS = (
    (re.compile(r"(?<![\w:])::std::optional<"), "c10::optional<"),
    (re.compile(r"(?<![\w:])std::optional<"), "c10::optional<"),
    (re.compile(r"(?<![\w:])::std::nullopt\b"), "c10::nullopt"),
    (re.compile(r"(?<![\w:])std::nullopt\b"), "c10::nullopt"),
    # translate's SymInt -> int narrowing (see "symint-narrowing" below).
    (re.compile(r"(\.|->)expect_int\(\)"), r"\1guard_int(__FILE__, __LINE__)"),
)


def cpp_spelling(text: str) -> str:
    """Normalise a C++ type or signature emitted by torchgen to contract spelling."""
    for pattern, replacement in _SPELLINGS:
        text = pattern.sub(replacement, text)
    return text


def cpp_default(default: str) -> str:
    """A C++ default argument from torchgen, spelled so it resolves in any namespace."""
    if default == "MemoryFormat::Contiguous":  # torch 2.1 JIT_TO_CPP_DEFAULT
        return "c10::MemoryFormat::Contiguous"
    return cpp_spelling(default)


def torch_dir() -> Path:
    """Directory of the installed torch package, found without importing torch."""
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        raise ImportError("torch is not installed in this interpreter")
    return Path(spec.origin).resolve().parent


def torch_include_dirs() -> list[Path]:
    """What torch.utils.cpp_extension.include_paths() gives for CPU builds."""
    include = torch_dir() / "include"
    return [include, include / "torch" / "csrc" / "api" / "include"]


def cxx_std_flag() -> str:
    """The ``-std=`` flag torch.utils.cpp_extension uses for C++ on this torch."""
    source = (torch_dir() / "utils" / "cpp_extension.py").read_text(encoding="utf-8")
    found = re.findall(r"-std=c\+\+(\d+)", source)
    if not found:
        return "-std=c++17"
    return f"-std=c++{max(int(v) for v in found)}"


# --------------------------------------------------------------------------- differences


def has_aoti_c_shim() -> bool:
    """Whether the installed torchgen can generate AOTInductor C shims."""
    return importlib.util.find_spec("torchgen.gen_aoti_c_shim") is not None


def _aoti_shim_parameters() -> list[str]:
    from torchgen.gen_aoti_c_shim import gen_declaration_and_definition

    return list(inspect.signature(gen_declaration_and_definition).parameters)


def _jit_default(key: str) -> str:
    from torchgen.api.cpp import JIT_TO_CPP_DEFAULT

    return JIT_TO_CPP_DEFAULT.get(key, "")


def _optional_type_spelling() -> str:
    from torchgen.api.types import BaseCType, OptionalCType, longT

    return OptionalCType(BaseCType(longT)).cpp_type()


def _translate_narrows_with_expect_int() -> bool:
    from torchgen.api import translate

    return "expect_int()" in inspect.getsource(translate)


def _tags_of_installed_torch() -> set[str]:
    from torchgen.gen import parse_tags_yaml

    return set(parse_tags_yaml(str(packaged_yaml_paths()[1])))


#: Tags that torch releases added after the oldest supported one -> their difference row.
_LATER_TAGS = {"pt2_compliant_tag": "pt2-compliant-tag"}


def tags_for_installed_torch(tags: tuple[str, ...], valid_tags: set[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(tags to use, tags dropped): a tag that only later releases know is dropped where the
    installed tags.yaml lacks it; every other tag is kept (and validated by the caller)."""
    dropped = tuple(t for t in tags if t not in valid_tags and t in _LATER_TAGS)
    return tuple(t for t in tags if t not in dropped), dropped


def difference_of_tag(tag: str) -> TorchgenDifference:
    return difference(_LATER_TAGS[tag])


def structured_set_output_takes_names() -> bool:
    """Whether the structured kernels' set_output_strided/raw_strided end in a DimnameList
    (named tensors: torch 2.1; gone from 2.13 on), as torchgen's own class writes them."""
    from torchgen.dest.register_dispatch_key import StructuredRegisterDispatchKey

    return "DimnameList names" in inspect.getsource(StructuredRegisterDispatchKey.gen_class_set_output_functions)


def _named_tensor_overloads() -> bool:
    native_yaml, _ = packaged_yaml_paths()
    return "Dimname" in native_yaml.read_text(encoding="utf-8")


@dataclass(frozen=True)
class TorchgenDifference:
    """One way torchgen (or torch's build tooling) differs between supported releases."""

    name: str
    releases: str  # which releases behave which way
    handling: str  # what torchnpugen does about it
    detect: Callable[[], bool]  # true where the installed torch shows the first behaviour in ``releases``
    #: (first, last) release whose torchgen shows the first behaviour, measured on every label of the
    #: registry (2.1-2.15); the tests check detection against it on the label they run for.
    measured: tuple[str, str]

    def measured_on(self, release: tuple[int, ...]) -> bool:
        first, last = (release_tuple(v)[:2] for v in self.measured)
        return first <= tuple(release[:2]) <= last


TORCHGEN_DIFFERENCES: tuple[TorchgenDifference, ...] = (
    TorchgenDifference(
        "optional-spelling",
        "OptionalCType.cpp_type() is c10::optional<T> on 2.1-2.3, ::std::optional<T> from 2.4",
        "cpp_spelling writes c10::optional<T> everywhere (an alias of std::optional on 2.13+)",
        lambda: _optional_type_spelling().startswith("c10::optional"),
        measured=("2.1", "2.3"),
    ),
    TorchgenDifference(
        "nullopt-default",
        "JIT_TO_CPP_DEFAULT['None'] is c10::nullopt on 2.1-2.3, ::std::nullopt from 2.4",
        "cpp_spelling / cpp_default write c10::nullopt",
        lambda: _jit_default("None") == "c10::nullopt",
        measured=("2.1", "2.3"),
    ),
    TorchgenDifference(
        "contiguous-format-default",
        "JIT_TO_CPP_DEFAULT['contiguous_format'] is the unqualified MemoryFormat::Contiguous "
        "on 2.1-2.4 (does not resolve outside namespace at), c10::MemoryFormat::Contiguous from 2.5",
        "cpp_default qualifies it; the patch table sets the qualified entry while applied",
        lambda: _jit_default("contiguous_format") == "MemoryFormat::Contiguous",
        measured=("2.1", "2.4"),
    ),
    TorchgenDifference(
        "symint-narrowing",
        "translate narrows SymInt to int with .expect_int() on 2.1, .guard_int(__FILE__, __LINE__) from 2.2",
        "cpp_spelling writes guard_int (present on 2.1 too; it guards instead of failing on a symbol)",
        _translate_narrows_with_expect_int,
        measured=("2.1", "2.1"),
    ),
    TorchgenDifference(
        "no-aoti-c-shim",
        "torchgen.gen_aoti_c_shim is absent on 2.1 and 2.2, present from 2.3",
        "no c_shim_npu.h/.cpp for such a label (a note says so); the patch table skips its row",
        lambda: not has_aoti_c_shim(),
        measured=("2.1", "2.2"),
    ),
    TorchgenDifference(
        "aoti-c-shim-arguments",
        "gen_aoti_c_shim.gen_declaration_and_definition takes (schema, device, backend_call) on 2.3-2.7, "
        "a fourth version_info on 2.8-2.12, a fourth op_metadata from 2.13",
        "aoti.py passes an empty fourth argument only where there is one; the patch table accepts each list",
        lambda: has_aoti_c_shim() and _aoti_shim_parameters()[3:] != ["op_metadata"],
        measured=("2.3", "2.12"),
    ),
    TorchgenDifference(
        "pt2-compliant-tag",
        "tags.yaml has no pt2_compliant_tag on 2.1; it has from 2.2",
        "custom operators declared with it are registered without it (a note names them); "
        "any other unknown tag stays an error",
        lambda: "pt2_compliant_tag" not in _tags_of_installed_torch(),
        measured=("2.1", "2.1"),
    ),
    TorchgenDifference(
        "structured-set-output-names",
        "the structured kernels' set_output_strided/set_output_raw_strided take a trailing "
        "DimnameList names on 2.1-2.12; 2.13 dropped it with named tensors",
        "NPUStructuredRegisterDispatchKey.gen_class writes the signature, the names propagation and "
        "the parent call the installed torchgen writes",
        structured_set_output_takes_names,
        measured=("2.1", "2.12"),
    ),
    TorchgenDifference(
        "named-tensor-overloads",
        "native_functions.yaml has the Dimname overloads on 2.1-2.12; 2.13 removed them",
        "an op valid on one label may be unknown on another: reported with the YAML file:line",
        _named_tensor_overloads,
        measured=("2.1", "2.12"),
    ),
    TorchgenDifference(
        "cxx-standard",
        "torch.utils.cpp_extension compiles with -std=c++17 at most on 2.1-2.6, -std=c++20 from 2.7 "
        "(2.14's headers need concepts)",
        "cxx_std_flag reads the flag from the installed module",
        lambda: cxx_std_flag() == "-std=c++17",
        measured=("2.1", "2.6"),
    ),
)


@functools.lru_cache(maxsize=None)
def detected_differences() -> tuple[TorchgenDifference, ...]:
    """The differences whose first behaviour the installed torch shows."""
    return tuple(d for d in TORCHGEN_DIFFERENCES if d.detect())


def difference(name: str) -> TorchgenDifference:
    for d in TORCHGEN_DIFFERENCES:
        if d.name == name:
            return d
    raise KeyError(f"no torchgen difference named {name!r}")
