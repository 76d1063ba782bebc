"""The keys an operator entry carries from ``op_plugin_functions.yaml`` through the label's
projection to torchnpugen, each parsed by one function here.

opplugin-codegen checks them when it loads the YAML and copies them into the projection as
written; torchnpugen reads the projection (ours, or upstream's merged one) with the same
functions, so a value is accepted or refused, and spelt, the same way by both generators.
Every function returns what the value means, or a :class:`KeyProblem` saying what is wrong.
Standard library only: torchnpugen and the light paths import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import did_you_mean

__all__ = [
    "DEVICE_CHECK_VALUES",
    "DISPATCH_KEYS",
    "KeyProblem",
    "parse_device_check",
    "parse_dispatch",
    "parse_flag",
    "parse_impl_name",
    "parse_structured_delegate",
    "parse_tags",
    "split_names",
]

#: ``device_check:`` values (torchgen's DeviceCheckType names).
DEVICE_CHECK_VALUES = ("NoCheck", "ExactSame")

#: Dispatch keys an entry's ``dispatch:`` may name (torchgen's spelling).
DISPATCH_KEYS = (
    "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional",
    "CompositeImplicitAutograd",
    "CompositeImplicitAutogradNestedTensor",
    "PrivateUse1",
    "AutogradPrivateUse1",
    "SparsePrivateUse1",
    "SparseCsrPrivateUse1",
    "QuantizedPrivateUse1",
    "NestedTensorPrivateUse1",
    "AutocastPrivateUse1",
    "Meta",
    "CPU",
    "Autograd",
)

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
OP_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)?$")
QUALIFIED = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*::)*[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class KeyProblem:
    """Why a key's value was refused (the message names the key)."""

    message: str

    def __str__(self) -> str:
        return self.message


def parse_flag(key: str, value: Any) -> bool | KeyProblem:
    """``structured``, ``use_const_ref_for_mutable_tensors``, ``exposed``, ...: true or false."""
    if isinstance(value, bool):
        return value
    return KeyProblem(f"{key} must be true or false, got {value!r}")


def parse_impl_name(value: Any) -> str | KeyProblem:
    """``impl_name: <C++ identifier>``: the op_plugin:: function's name instead of the op's."""
    if isinstance(value, str) and IDENT.match(value):
        return value
    return KeyProblem(f"impl_name must be a C++ identifier, got {value!r}")


def parse_device_check(value: Any) -> str | KeyProblem:
    """``device_check: NoCheck | ExactSame`` -> the name."""
    if isinstance(value, str) and value in DEVICE_CHECK_VALUES:
        return value
    return KeyProblem(
        f"device_check must be {' or '.join(DEVICE_CHECK_VALUES)}, got {value!r}"
        f"{did_you_mean(str(value), DEVICE_CHECK_VALUES)}"
    )


def parse_structured_delegate(value: Any) -> str | KeyProblem:
    """``structured_delegate: name.overload`` -> the op name."""
    if isinstance(value, str) and OP_NAME.match(value.strip()):
        return value.strip()
    return KeyProblem(f"structured_delegate must name an op as name.overload, got {value!r}")


def split_names(value: Any) -> list[str] | None:
    """``a`` / ``"a, b"`` / ``[a, b]`` -> names; None when the shape is wrong."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",")]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value]
    return None


def parse_tags(value: Any) -> tuple[str, ...] | KeyProblem:
    """``tags: a`` / ``tags: "a, b"`` / ``tags: [a, b]`` (op-plugin's spellings) -> names."""
    names = split_names(value)
    if names is None:
        return KeyProblem(
            f"tags must be a tag name, a comma list or a list of tag names, got {value!r}"
        )
    bad = [t for t in names if t and not IDENT.match(t)]
    if bad:
        return KeyProblem(f"tags: '{bad[0]}' is not a tag name")
    return tuple(name for name in names if name)


def parse_dispatch(value: Any) -> tuple[tuple[tuple[str, ...], str], ...] | KeyProblem:
    """``dispatch: {<key>[, <key>]: <kernel>, ...}`` -> ((keys, kernel), ...), in file order."""
    if not isinstance(value, dict) or not value:
        return KeyProblem("dispatch must map dispatch keys to kernel names")
    parsed = []
    for keys, kernel in value.items():
        names = tuple(part.strip() for part in str(keys).split(","))
        for name in names:
            if name not in DISPATCH_KEYS:
                return KeyProblem(
                    f"dispatch: unknown dispatch key '{name}'{did_you_mean(name, DISPATCH_KEYS)}"
                )
        if not isinstance(kernel, str) or not QUALIFIED.match(kernel):
            return KeyProblem(
                f"dispatch: {keys}: the kernel must be a C++ function name, got {kernel!r}"
            )
        parsed.append((names, kernel))
    return tuple(parsed)
