"""torchnpugen's templates (templates/*.j2): the skeleton of each file it generates, named
after the file; the wrappers, declarations and kernels of each operator come from torchgen
and register.py and are passed in. The environment is opplugin-codegen's kind (one
foundation: make_environment), built once per process on first use."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from opplugin_codegen.cppfile import c_string
from opplugin_codegen.templating import TEMPLATE_SUFFIX, make_environment

if TYPE_CHECKING:
    import jinja2

__all__ = ["TEMPLATE_DIR", "TEMPLATE_SUFFIX", "environment", "render"]

#: Where torchnpugen's templates live (package data: see pyproject.toml).
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"


@cache
def environment() -> jinja2.Environment:
    """``c_string`` quotes a C++ string literal, ``repr`` a Python one."""
    return make_environment(TEMPLATE_DIR, {"c_string": c_string, "repr": repr})


def render(name: str, **context: Any) -> str:
    """The text of template ``name`` (``templates/<name>``) with ``context``."""
    return environment().get_template(name).render(context)
