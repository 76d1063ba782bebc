"""``torch_npu._C``: the runtime extension's bindings under upstream's module name.

Every name of ``opplugin_runtime._C`` (the compiled extension) is here.
"""

from __future__ import annotations

from opplugin_runtime import _C as _extension

globals().update({name: getattr(_extension, name) for name in dir(_extension) if not name.startswith("__")})
