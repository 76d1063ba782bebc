"""NPUStructuredNativeFunctions.h / .cpp: the structured kernel classes (seed section 4.2).

For each structured group the header declares, with torchgen's own declaration step
(``torchgen.dest.native_functions.gen_structured``)::

    struct structured_clamp_min_out : public at::meta::structured_clamp_min {
    void impl(const at::Tensor & self, const at::Scalar & min, const at::Tensor & out);
    };

and the .cpp defines ``impl`` as a forward to the op-plugin out= kernel.  The classes
that allocate the outputs (``set_output_*`` on npu, ``c10_npu::OptionalNPUGuard``) and the
wrappers live in the RegisterNPU shards (register.py).
"""

from __future__ import annotations

from typing import Sequence

import torchgen.api.structured as structured_api
from torchgen.api.translate import translate
from torchgen.api.types import ArrayRefCType, BaseCType, Expr, NamedCType, intArrayRefT, longT
from torchgen.context import native_function_manager
from torchgen.dest.native_functions import gen_structured

from . import templating
from .compat import cpp_spelling
from .errors import InputError
from .ops import StructuredGroup
from .register import STRUCTURED_NAMESPACE, kernel_signature, make_register_dispatch_key

__all__ = ["STRUCTURED_HEADER", "STRUCTURED_SOURCE", "render_structured_files"]

STRUCTURED_HEADER = "NPUStructuredNativeFunctions.h"
STRUCTURED_SOURCE = "NPUStructuredNativeFunctions.cpp"


def _impl_definition(group: StructuredGroup) -> str:
    g = group.g
    with native_function_manager(g.out):
        if g.out.precomputed:
            raise InputError(
                f"structured kernel '{g.out.func.name}' uses precomputed meta values, which torchnpugen "
                "cannot forward to an op-plugin out= kernel yet",
                group.out.source,
            )
        impl_args = structured_api.impl_arguments(g)
        outs = {a.name for a in g.out.func.arguments.out}
        kernel_args = kernel_signature(group.out).arguments()
        # impl() takes a SymInt[] argument as at::ArrayRef<int64_t>, the kernel as at::IntArrayRef:
        # the same C++ type, which translate() knows under the second name only.
        context: list = list(impl_args)
        context += [
            Expr(expr=b.name, type=NamedCType(b.nctype.name, BaseCType(intArrayRefT)))
            for b in impl_args
            if b.nctype.type == ArrayRefCType(BaseCType(longT))
        ]
        inputs = iter(translate(context, [b for b in kernel_args if b.name not in outs], method=False))
        # impl() sees its outputs as const Tensor&; the op-plugin kernel writes them.
        exprs = [
            f"const_cast<at::Tensor&>({b.name})" if b.name in outs else cpp_spelling(next(inputs).expr)
            for b in kernel_args
        ]
        params = ", ".join(cpp_spelling(a.decl()) for a in impl_args)
        return (
            f"// {g.out.func.name}  {group.out.provenance}  ({group.out.source_file})\n"
            f"void structured_{group.kernel}::impl({params}) {{\n"
            f"  {group.out.qualified_kernel}({', '.join(exprs)});\n"
            "}\n"
        )


def render_structured_files(groups: Sequence[StructuredGroup], *, banner: str) -> dict[str, str]:
    index = make_register_dispatch_key([], None, groups).backend_index  # type: ignore[arg-type]
    declarations = []
    headers = set()
    for group in groups:
        headers.add(f"ATen/ops/{group.g.out.root_name}_meta.h")
        declarations.append(f"// {group.g.out.func.name}  ({group.out.source_file})")
        declarations += [cpp_spelling(text) for text in gen_structured(group.g, index)]
    header = templating.render(
        "NPUStructuredNativeFunctions.h.j2",
        banner=banner,
        cpp_namespace=STRUCTURED_NAMESPACE,
        meta_headers=sorted(headers),
        declarations=declarations,
    )
    source = templating.render(
        "NPUStructuredNativeFunctions.cpp.j2",
        banner=banner,
        cpp_namespace=STRUCTURED_NAMESPACE,
        structured_header=STRUCTURED_HEADER,
        family_headers=sorted({h for group in groups if (h := group.out.op_plugin_header) is not None}),
        definitions=[_impl_definition(group) for group in groups],
    )
    return {STRUCTURED_HEADER: header, STRUCTURED_SOURCE: source}
