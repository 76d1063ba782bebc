"""The templates of torchnpugen's files (templates/*.j2): every one is used by a generation and
renders, the environment is opplugin-codegen's kind (a variable not passed is an error, no
escaping), and the helpers a shard defines appear only where its wrappers call them."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import jinja2.meta
import pytest
from opplugin_codegen import templating as foundation

from torchnpugen import templating
from torchnpugen_testlib import HAS_AOTI_C_SHIM, generate, make_workspace

# Files of the generation a label without the AOTInductor C shim (torch 2.1) does not write.
C_SHIM_TEMPLATES = {"c_shim_npu.h.j2", "c_shim_npu.cpp.j2"}


def _template_names() -> set[str]:
    return {p.name for p in templating.TEMPLATE_DIR.glob(f"*{templating.TEMPLATE_SUFFIX}")}


def test_every_template_is_used_by_a_generation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment = templating.environment()
    loaded: set[str] = set()
    real = environment.get_template

    def spy(name, *args, **kwargs):  # type: ignore[no-untyped-def]
        loaded.add(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(environment, "get_template", spy)
    generate(make_workspace(tmp_path))
    expected = _template_names() if HAS_AOTI_C_SHIM else _template_names() - C_SHIM_TEMPLATES
    assert expected and loaded == expected


@pytest.mark.parametrize("name", sorted(_template_names()))
def test_every_template_compiles(name: str) -> None:
    assert templating.environment().get_template(name).filename == str(templating.TEMPLATE_DIR / name)


def test_the_environment_is_the_foundations_kind() -> None:
    environment = templating.environment()
    assert environment is templating.environment()  # built once per process
    assert environment is not foundation.environment()  # its own templates
    assert environment.undefined is jinja2.StrictUndefined and not environment.autoescape
    assert environment.keep_trailing_newline and environment.trim_blocks and environment.lstrip_blocks


def test_no_template_variable_is_a_name_jinja_defines() -> None:
    """A variable named like one of jinja's globals (``namespace``, ``range``...) that the
    generator forgot to pass would render that global, not raise."""
    environment = templating.environment()
    builtin = set(jinja2.Environment().globals)
    for name in sorted(_template_names()):
        source = (templating.TEMPLATE_DIR / name).read_text()
        assert not jinja2.meta.find_undeclared_variables(environment.parse(source)) & builtin, name


def test_a_variable_the_generator_does_not_pass_is_an_error() -> None:
    context = {
        "banner": "// banner",
        "custom_namespace": "npu",
        "ops": [{"name": "npu::f", "source": "yaml/x.yaml", "schema": 'f(str s="<&>") -> Tensor', "tags": ""}],
    }
    text = templating.render("CustomRegisterSchema.cpp.j2", **context)
    assert '  m.def("f(str s=\\"<&>\\") -> Tensor");\n}\n' in text  # C++-quoted, not HTML-escaped
    del context["custom_namespace"]
    with pytest.raises(jinja2.UndefinedError, match="'custom_namespace' is undefined"):
        templating.render("CustomRegisterSchema.cpp.j2", **context)


def test_shard_helpers_are_defined_only_where_wrappers_call_them(generated: dict[str, Path]) -> None:
    shards = sorted(generated["aten"].glob("RegisterNPU_*.cpp"))
    assert shards
    for shard in shards:
        text = shard.read_text()
        body = text.split("} // anonymous namespace", 1)[0]
        defined = "overlap_tensors(const Args&... args)" in body
        called = re.search(r"(?<!\w)overlap_tensors\((?!const Args)", body) is not None
        assert defined == called, shard.name
        defined = "at::Tensor create_out(" in body
        assert defined == ("= create_out(" in body), shard.name
