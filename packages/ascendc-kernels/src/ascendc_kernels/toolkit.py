"""The simulator laid out as an installed CANN toolkit, for clients that look for one.

Upstream's torch_npu (and CANN's own tools) find the toolkit through the variables CANN's
``set_env.sh`` exports: ``ASCEND_HOME_PATH`` (an install with ``lib64/``, ``runtime/``,
``compiler/`` and an ``ascend_*_install.info`` naming the version), ``ASCEND_OPP_PATH`` (the
operator package) and ``LD_LIBRARY_PATH``. ``environment()`` makes such an install from this
package (its ``lib64`` links the package's libraries; the version is the one ``libascendcl``
reports, so ``NPU_SIM_CANN_VERSION`` changes both) and returns the variables::

    python -m ascendc_kernels.toolkit            # prints the exports, as set_env.sh would
    eval "$(python -m ascendc_kernels.toolkit)"  # and sets them in a shell
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import os
import shlex
import sys
from pathlib import Path

from . import get_library_dir, library_path

# The directories a CANN install holds that clients check for.
_INSTALL_DIRS = ("lib64", "runtime", "compiler", "opp")
# CANN's aclsysGetVersionStr writes at most this many bytes (ACL_PKG_VERSION_MAX_SIZE).
_VERSION_MAX_SIZE = 128


def cann_version() -> str:
    """The CANN version libascendcl reports (``aclsysGetVersionStr("CANN")``)."""
    acl = ctypes.CDLL(library_path("ascendcl"))
    acl.aclsysGetVersionStr.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    acl.aclsysGetVersionStr.restype = ctypes.c_int
    version = ctypes.create_string_buffer(_VERSION_MAX_SIZE)
    status = acl.aclsysGetVersionStr(b"CANN", version)
    if status != 0:
        raise RuntimeError(f"aclsysGetVersionStr(\"CANN\") failed with status {status}")
    return version.value.decode()


def default_root() -> Path:
    """Where the install is made: a folder of the user's cache, one per library directory."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    key = hashlib.sha256(get_library_dir().encode()).hexdigest()[:12]
    return cache / "npu-sim" / "ascend-toolkit" / key


def install_tree(root: Path | None = None) -> Path:
    """Makes (or brings up to date) the install at ``root`` and returns it."""
    root = (root or default_root()).resolve()
    for name in _INSTALL_DIRS:
        (root / name).mkdir(parents=True, exist_ok=True)
    libraries = Path(get_library_dir())
    wanted = {lib.name: lib for lib in libraries.glob("*.so")}
    for link in (root / "lib64").iterdir():
        if link.name not in wanted or not link.is_symlink() or Path(os.readlink(link)) != wanted[link.name]:
            link.unlink()
    for name, target in wanted.items():
        link = root / "lib64" / name
        if not link.is_symlink():
            link.symlink_to(target)
    info = root / "ascend_toolkit_install.info"
    text = f"package_name=Ascend-cann-toolkit\nversion={cann_version()}\narch={os.uname().machine}\n"
    if not info.is_file() or info.read_text() != text:
        info.write_text(text)
    return root


def environment(root: Path | None = None, base: dict[str, str] | None = None) -> dict[str, str]:
    """The variables of ``base`` (default: this process's environment) with the toolkit's set:
    ``ASCEND_HOME_PATH``, ``ASCEND_TOOLKIT_HOME``, ``ASCEND_OPP_PATH`` and the libraries first on
    ``LD_LIBRARY_PATH``."""
    home = install_tree(root)
    env = dict(os.environ if base is None else base)
    library_dirs = [str(home / "lib64")] + [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p]
    env.update({
        "ASCEND_HOME_PATH": str(home),
        "ASCEND_TOOLKIT_HOME": str(home),
        "ASCEND_OPP_PATH": str(home / "opp"),
        "LD_LIBRARY_PATH": ":".join(dict.fromkeys(library_dirs)),
    })
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ascendc_kernels.toolkit", description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, help="where to make the install (default: the user's cache)")
    args = parser.parse_args(argv)
    env = environment(args.root, base={"LD_LIBRARY_PATH": os.environ.get("LD_LIBRARY_PATH", "")})
    for name in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH", "LD_LIBRARY_PATH"):
        print(f"export {name}={shlex.quote(env[name])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
