"""``torch_npu``: upstream torch_npu's import name, served by opplugin-runtime.

Scripts, tests and extensions written for torch_npu begin with ``import torch_npu``; here that
line loads the same backend as ``import opplugin_runtime`` (one device, one op registry, one
``torch.npu``), in either order, and with torch's autoload. The distribution is still
``opplugin-runtime``: ``torch_npu.__distribution__`` says so, and ``pip show torch-npu`` finds
nothing, so a user can tell this backend from upstream's wheel.

What it adds to the runtime is upstream's public names: ``torch_npu.npu`` (the module
``torch.npu``, importable as ``torch_npu.npu``), the exposed custom operators as functions
(``torch_npu.npu_format_cast(x, torch_npu.Format.NC1HWC0)``), ``torch_npu.Format`` and
``torch_npu._C`` (the extension's bindings).
"""

from __future__ import annotations

import sys

import opplugin_runtime as _runtime
from opplugin_runtime import custom_ops as _custom_ops
from opplugin_runtime import npu
from opplugin_runtime.custom_ops import *  # noqa: F403  (torch_npu.<custom op>, upstream's top-level ops)
from opplugin_runtime.npu.formats import Format, get_npu_format  # get_npu_format gives a Format, as upstream's

from . import (
                    _C,  # noqa: F401  (torch_npu._C)
                    utils,
)

# `import torch_npu.npu` and `from torch_npu.npu import ...` find the module torch.npu, and
# `import torch_npu.npu.utils` its submodule (not a second copy of it).
sys.modules[f"{__name__}.npu"] = npu
sys.modules.update({f"{__name__}.npu{name[len(npu.__name__):]}": module
                    for name, module in list(sys.modules.items()) if name.startswith(f"{npu.__name__}.")})

__version__ = _runtime.__version__
__distribution__ = "opplugin-runtime"

__all__ = ["Format", "__distribution__", "__version__", "get_npu_format", "npu", "utils", *_custom_ops.__all__]
