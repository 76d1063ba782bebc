"""Everything that depends on which torch (and so which torchgen) is installed.

torchnpugen always runs against the torchgen of the interpreter's own torch: the
generated C++ is tied to that release (torchgen output of 2.1 does not compile
against 2.13 headers and vice versa), so it is generated at build time per label
and never committed.  Code elsewhere in the package asks this module instead of
testing versions itself, so a new torch release means editing this one file.

Known differences between torch 2.1.2 and 2.13.0 for the torchgen APIs used here
(checked on 2.13.0 in this tree, 2.1.2 from /work/shared/reference/torch-versions.md;
to be re-checked when the v2.1 venv exists):

* ``torchgen.gen_backend_stubs.run`` on 2.1 assumes a PyTorch source checkout for
  ``tags.yaml``; we never call it and always read ``torchgen/packaged/ATen/native``
  (present in both wheels), see :func:`packaged_yaml_paths`.
* ``torchgen.api.cpp.JIT_TO_CPP_DEFAULT``: 2.1 maps ``None`` to ``c10::nullopt`` and
  ``contiguous_format`` to the unqualified ``MemoryFormat::Contiguous`` (which does
  not resolve outside ``namespace at``); 2.13 gives ``::std::nullopt`` and
  ``c10::MemoryFormat::Contiguous``.  :func:`cpp_default` maps both to one spelling,
  so no patch of that dict is needed.
* ``OptionalCType.cpp_type()`` is ``c10::optional<T>`` on 2.1 and
  ``::std::optional<T>`` on 2.13.  :func:`cpp_spelling` writes ``c10::optional``
  everywhere (contracts.md section 2); on 2.13 it is an alias of ``std::optional``.
* Same parameter names on both (only annotations differ, ``Optional[List[X]]`` vs
  ``list[X] | None``; the patch table compares names only): ``RegisterDispatchKey``
  and its fields, ``gen_unstructured(self, f, g)``, the static
  ``gen_device_check(type, args, method_name)``, ``StructuredRegisterDispatchKey``
  (``gen_class``, ``gen_class_set_output_body``, ``gen_one``),
  ``compute_native_function_declaration``, ``native.arguments(func, *, symint)``.
  Assumed identical but not yet checked on 2.1 (the patch table and the tests will
  say): ``wrapper_kernel_sig(self, f)``, ``DispatcherSignature.from_schema(func, *,
  prefix, symint)``, ``NativeSignature``, ``translate``, ``native_function_manager``
  (and its ``use_ilistref_for_tensor_lists`` parametrisation), ``NativeFunction.tags``
  / ``is_view_op``, ``parse_native_yaml(path, tags_yaml_path, ...)``.
* ``torchgen.gen.parse_tags_yaml`` is ``functools.cache``-decorated on 2.13.
* native_functions.yaml: 2.13 removed the named-tensor (Dimname) overloads; op names
  valid on one label may be unknown on another (reported with the YAML file:line).
* ``torch.utils.cpp_extension`` compiles with ``-std=c++17`` on 2.1 and
  ``-std=c++20`` on 2.13 (2.13 headers warn under C++17); :func:`cxx_std_flag`
  reads it from the installed module instead of hard-coding either.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
from pathlib import Path

__all__ = [
    "cpp_default",
    "cpp_spelling",
    "cxx_std_flag",
    "packaged_yaml_paths",
    "release_tuple",
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
