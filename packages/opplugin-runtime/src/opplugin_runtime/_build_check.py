"""Import-time check that the installed torch is the one this build was compiled against.

The extension is compiled against one torch release (the label's pin): loaded into
another it would fail deep inside the dynamic loader with an undefined symbol, or
worse, load and misbehave (the C++ ABIs of releases differ). So the package compares
the torch it was built with (``_build_info.py``, written by setup.py) with the one
that is installed before it loads ``_C``, and says what to do.
"""

from __future__ import annotations

import re

import torch


def _major_minor(version: str) -> tuple[int, int]:
    numbers = re.findall(r"\d+", version.split("+")[0])
    return int(numbers[0]), int(numbers[1])


def label_of_torch(version: str, labels_by_torch: dict[tuple[int, int], str]) -> str | None:
    """``2.1.2+cu121`` -> ``v2.1``: the registry's label whose builds link against that torch
    (``labels_by_torch``: recorded from yaml/versions.yaml by the build), or None."""
    return labels_by_torch.get(_major_minor(version))


def mismatch_message(
    built_label: str, built_torch: str, running_torch: str, labels_by_torch: dict[tuple[int, int], str]
) -> str:
    """What a build for ``built_label`` says when imported with torch ``running_torch``."""
    wanted = label_of_torch(running_torch, labels_by_torch)
    if wanted is None:
        rebuild = (
            f"No label of yaml/versions.yaml pins torch {running_torch.split('+')[0]}: install a torch "
            f"that a label pins ({', '.join(sorted(labels_by_torch.values(), key=_major_minor))}), or add "
            "a label for this one"
        )
    else:
        rebuild = (
            f"Rebuild it for this torch with `nox -s generate build -- {wanted}` (its wheels go to "
            f"dist/{wanted}/ and build/venvs/{wanted})"
        )
    return (
        f"opplugin_runtime was built for {built_label} against torch {built_torch}, but this environment "
        f"has torch {running_torch}: a build links against exactly one torch release and cannot load "
        f"into another. {rebuild}, or run with the {built_label} environment "
        f"(build/venvs/{built_label}, torch {built_torch})."
    )


def check_build() -> None:
    try:
        from . import _build_info
    except ImportError as error:  # a source checkout that was never built
        raise ImportError(
            "opplugin_runtime is not built (no _build_info.py): install the wheel, or build in place with "
            "NPU_GENERATED_DIR=... python setup.py build_ext --inplace"
        ) from error
    built = tuple(_build_info.TORCH_MAJOR_MINOR)
    if built != _major_minor(torch.__version__):
        labels = getattr(_build_info, "LABELS_BY_TORCH", {})
        raise ImportError(mismatch_message(_build_info.LABEL, _build_info.TORCH_VERSION, torch.__version__, labels))
    cxx11_abi = bool(torch.compiled_with_cxx11_abi())
    if getattr(_build_info, "CXX11_ABI", cxx11_abi) != cxx11_abi:
        raise ImportError(
            f"opplugin_runtime was built for {_build_info.LABEL} against a torch {_build_info.TORCH_VERSION} "
            f"with _GLIBCXX_USE_CXX11_ABI={int(_build_info.CXX11_ABI)}, but this torch {torch.__version__} uses "
            f"_GLIBCXX_USE_CXX11_ABI={int(cxx11_abi)} (a different wheel of the same release): rebuild with "
            f"`nox -s generate build -- {_build_info.LABEL}` in this environment"
        )
