"""The Jinja2 templates of the generated files: each file's skeleton (banner, includes,
namespaces, registration blocks) is one template in the ``templates/`` folder of the
generator that writes it; the text of each operator is rendered in Python and passed in.

Each package compiles its templates once per process, with one environment built on first
use. jinja2 is imported then and not before: writing a tree that an earlier run rendered
(rendered.py, the command line's warm path) never renders a template and never imports it.
torchnpugen builds its environment with :func:`make_environment` too (one foundation).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cppfile import LINE_WIDTH, c_string, wrap_words

if TYPE_CHECKING:
    import jinja2

#: Where this package's templates live (package data: see pyproject.toml).
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"
TEMPLATE_SUFFIX = ".j2"


def make_environment(
    directory: Path,
    filters: Mapping[str, Callable[..., Any]] | None = None,
    constants: Mapping[str, Any] | None = None,
) -> jinja2.Environment:
    """An environment over the templates of ``directory``: output kept byte for byte as
    written (no escaping, the final newline kept, block tags on their own lines leave no
    line behind), and a variable the caller did not pass is an error, never empty text."""
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory),
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,  # templates are package data: they do not change during a run
    )
    environment.filters.update(filters or {})
    environment.globals.update(constants or {})
    return environment


@cache
def environment() -> jinja2.Environment:
    """opplugin-codegen's environment: ``wrap_words`` wraps a banner's text to ``LINE_WIDTH``,
    ``c_string`` quotes a C++ string literal."""
    return make_environment(
        TEMPLATE_DIR, {"wrap_words": wrap_words, "c_string": c_string}, {"LINE_WIDTH": LINE_WIDTH}
    )


def render(name: str, **context: Any) -> str:
    """The text of template ``name`` (``templates/<name>``) with ``context``."""
    return environment().get_template(name).render(context)
