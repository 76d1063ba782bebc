"""The extension module, for the submodules of torch.npu."""

from opplugin_runtime import _C as C  # noqa: F401
