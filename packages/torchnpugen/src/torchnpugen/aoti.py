"""c_shim_npu.h / c_shim_npu.cpp: the AOTInductor C shim of the declared operators.

One ``extern "C"`` function per registered operator (aten and custom), as torch's own
``c_shim_<device>`` files: ``AOTITorchError aoti_torch_npu_<op>(<C arguments>,
<C pointers to the results>)``.  Declarations and definitions come from torchgen's
``gen_aoti_c_shim.gen_declaration_and_definition`` (argument and return conversions,
exception to error code); the backend call goes through the dispatcher (``at::<op>`` for
aten ops, the C++ API ``at_npu::native::custom_ops::<op>`` for custom ones), so the npu
kernels, structured or not, run exactly as from eager.  Operators whose argument or
return types the shim cannot express (Storage, ...) are listed in a comment.
"""

from __future__ import annotations

import inspect
from typing import Sequence

from torchgen.api.types import CppSignature, CppSignatureGroup, DispatcherSignature
from torchgen.context import native_function_manager
from torchgen.gen_aoti_c_shim import gen_declaration_and_definition
from torchgen.model import ListType, NativeFunction, OptionalType, Type, Variant

from . import templating
from .custom import CUSTOM_FUNCTIONS_HEADER
from .ops import RegisteredOp

__all__ = ["SHIM_DEVICE", "SHIM_HEADER", "SHIM_SOURCE", "render_c_shim"]

SHIM_DEVICE = "npu"
SHIM_HEADER = "c_shim_npu.h"
SHIM_SOURCE = "c_shim_npu.cpp"


# torchgen's shim generator takes a fourth argument on some releases (version_info on 2.8-2.12,
# op_metadata from 2.13): the npu shim has no versioned functions and no metadata, so it is empty.
_EXTRA_ARGS: tuple[dict, ...] = ({},) if len(inspect.signature(gen_declaration_and_definition).parameters) > 3 else ()


def _cpp_signature(f: NativeFunction) -> CppSignature:
    """The C++ API function the shim calls: the SymInt overload where the schema has SymInts
    (as the shim passes them). Computed here rather than with gen_aoti_c_shim's helpers, whose
    parameters change between torch releases."""
    group = CppSignatureGroup.from_native_function(f, method=False, fallback_binding=False)
    symint = DispatcherSignature.from_schema(f.func).symint and f.func.has_symint()
    signature = group.symint_signature if symint else group.signature
    assert signature is not None, f"{f.func.name} has no C++ API function"
    return signature


def _backend_call(op: RegisteredOp) -> str:
    if op.namespace == "aten":
        if Variant.function not in op.f.variants and not op.f.func.is_out_fn():
            # Method-only ops (add_, copy_, set_) have no at:: function; their dispatcher
            # entry takes the arguments in schema order, as the shim passes them.
            return f"at::_ops::{op.f.func.name.unambiguous_name()}::call"
        return f"at::{_cpp_signature(op.f).name()}"
    return f"at_npu::native::custom_ops::{_cpp_signature(op.f).name()}"


def _is_optional_bool_array(t: Type) -> bool:
    """``bool[N]?``."""
    return isinstance(t, OptionalType) and isinstance(t.elem, ListType) and str(t.elem.elem) == "bool" and (
        t.elem.size is not None
    )


def render_c_shim(ops: Sequence[RegisteredOp], *, banner: str, header_path: str) -> dict[str, str]:
    """{"c_shim_npu.h": ..., "c_shim_npu.cpp": ...} for ``ops`` (aten then custom)."""
    declarations: list[str] = []
    definitions: list[str] = []
    headers: set[str] = set()
    skipped: list[str] = []
    custom = False
    for op in ops:
        optional_bool_arrays = [a.name for a in op.f.func.arguments.flat_all if _is_optional_bool_array(a.type)]
        if optional_bool_arrays:
            # torchgen's shim would pass an OptionalArrayRef<bool> where the kernel takes
            # std::optional<std::array<bool, N>> (it does not compile)
            skipped.append(f"{op.qualified_name} (optional fixed-size bool list {optional_bool_arrays[0]})")
            continue
        with native_function_manager(op.f):
            try:
                decl, defn = gen_declaration_and_definition(op.f.func, SHIM_DEVICE, _backend_call(op), *_EXTRA_ARGS)
            except NotImplementedError as e:
                skipped.append(f"{op.qualified_name} ({e})")
                continue
        if not decl.rstrip().endswith(";"):  # before torch 2.8 the caller completes the declaration
            decl = f"AOTI_TORCH_EXPORT {decl};"
        declarations.append(f"// {op.qualified_name}  ({op.source_file})\n{decl}")
        definitions.append(defn.strip("\n").replace("\t", "    "))
        if op.namespace == "aten":
            headers.add(f"ATen/ops/{op.f.root_name}.h")
        else:
            custom = True
    header = templating.render("c_shim_npu.h.j2", banner=banner, declarations=declarations, skipped=skipped)
    source = templating.render(
        "c_shim_npu.cpp.j2",
        banner=banner,
        header_path=header_path,
        aten_headers=sorted(headers),
        custom=custom,
        custom_functions_header=CUSTOM_FUNCTIONS_HEADER,
        definitions=definitions,
    )
    return {SHIM_HEADER: header, SHIM_SOURCE: source}
