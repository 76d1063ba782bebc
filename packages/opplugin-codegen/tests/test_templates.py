"""The templates of the generated files (templates/*.j2): every one is used by a generator and
renders; a variable a generator does not pass is an error, never empty text; the cache key
holds the templates; and writing a tree from the cache never imports jinja2 (nor torch,
which the generator never imports)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import jinja2
import jinja2.meta
import pytest

from opplugin_codegen import expr_helpers, load_model, render_label, templating
from opplugin_codegen.gen_matrix import render_matrix
from opplugin_codegen_testing import PROJECT_YAML, RICH_YAML, SRC, snapshot, subprocess_env


def _template_names() -> set[str]:
    return {p.name for p in templating.TEMPLATE_DIR.glob(f"*{templating.TEMPLATE_SUFFIX}")}


def test_every_template_is_used_by_a_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rendering every label of the rich YAML (sparse, dvm, gen_opapi, custom ops, meta,
    derivatives) and the project's, and the support matrix, loads every template: each
    file's own, and the ones they include or extend."""
    environment = templating.environment()
    loaded: set[str] = set()
    real = environment.get_template

    def spy(name, *args, **kwargs):  # type: ignore[no-untyped-def]
        loaded.add(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(environment, "get_template", spy)
    for yaml_dir in (RICH_YAML, PROJECT_YAML):
        model = load_model(yaml_dir)
        for label in model.registry.labels:
            render_label(model, label)
        render_matrix(model)
    assert _template_names(), templating.TEMPLATE_DIR
    assert loaded == _template_names()


@pytest.mark.parametrize("name", sorted(_template_names()))
def test_every_template_compiles(name: str) -> None:
    template = templating.environment().get_template(name)
    assert template.filename == str(templating.TEMPLATE_DIR / name)


def test_no_template_variable_is_a_name_jinja_defines() -> None:
    """A variable named like one of jinja's globals (``namespace``, ``range``, ``dict``...)
    that a generator forgot to pass would render that global, not raise."""
    environment = templating.environment()
    builtin = set(jinja2.Environment().globals)
    for name in sorted(_template_names()):
        source = (templating.TEMPLATE_DIR / name).read_text()
        variables = jinja2.meta.find_undeclared_variables(environment.parse(source))
        assert not variables & builtin, name


def test_a_variable_the_generator_does_not_pass_is_an_error() -> None:
    context = {"source": "yaml/op_plugin_functions.yaml", "label": "v2.13", "torch": "2.13.0"}
    context |= {"k": 0, "shards": 4, "includes": ['"npu/a.h"'], "definitions": ["int f();\n"]}
    text = templating.render("OpInterface.cpp.j2", **context)
    assert text.endswith("}  // namespace op_plugin\n")  # the template's last newline kept
    assert "shard 0 of 4" in text and '#include "npu/a.h"\n' in text
    del context["label"]
    with pytest.raises(jinja2.UndefinedError, match="'label' is undefined"):
        templating.render("OpInterface.cpp.j2", **context)


def test_text_is_not_escaped() -> None:
    text = templating.render(
        "DvmOpsInterface.h.j2",
        source="yaml/op_plugin_functions.yaml",
        label="v2.13",
        torch="2.13.0",
        includes=["<ATen/core/Tensor.h>"],
        declarations='at::Tensor & f(const char* s = "<&>");  // f\n',
    )
    assert "#include <ATen/core/Tensor.h>\n" in text
    assert 'const char* s = "<&>"' in text


def test_the_helper_lines_open_the_namespaces_expressions_may_call_unqualified() -> None:
    text = templating.render("expression_helpers.j2")
    opened = re.findall(r"^using namespace ([\w:]+);$", text, re.M)
    assert sorted(opened) == sorted(expr_helpers._UNQUALIFIED)


# Runs the command line with a meta-path finder that refuses the named top-level modules.
_BLOCKING_RUNNER = textwrap.dedent(
    """\
    import sys

    BLOCKED = set(sys.argv[1].split(","))

    class Refuse:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"{name} is blocked by the test", name=name)
            return None

    sys.meta_path.insert(0, Refuse())
    from opplugin_codegen.cli import main

    sys.exit(main(sys.argv[2:]))
    """
)


def _generate(
    tmp_path: Path, out: Path, blocked: str, src: Path = SRC, yaml_dir: Path = RICH_YAML
) -> subprocess.CompletedProcess[str]:
    runner = tmp_path / "blocking_runner.py"
    runner.write_text(_BLOCKING_RUNNER)
    args = ["generate", "--label", "v2.13", "--yaml-dir", str(yaml_dir), "--out", str(out), "-q"]
    env = subprocess_env(OPPLUGIN_CODEGEN_CACHE=str(tmp_path / "cache"))
    env["PYTHONPATH"] = str(src)
    return subprocess.run(
        [sys.executable, str(runner), blocked, *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_a_tree_written_from_the_cache_never_imports_jinja2(tmp_path: Path) -> None:
    cold = _generate(tmp_path, tmp_path / "cold", "torch,torchgen")
    assert cold.returncode == 0, cold.stderr
    warm = _generate(tmp_path, tmp_path / "warm", "jinja2,torch,torchgen")
    assert warm.returncode == 0, warm.stderr
    files = {name: data for name, (data, _mtime) in snapshot(tmp_path / "cold").items()}
    assert {name: data for name, (data, _mtime) in snapshot(tmp_path / "warm").items()} == files
    assert len(files) > 50


def test_rendering_without_jinja2_fails_so_the_check_above_can_fail(tmp_path: Path) -> None:
    result = _generate(tmp_path, tmp_path / "out", "jinja2")  # nothing cached: it must render
    assert result.returncode == 3, result.stderr  # the internal error of a missing dependency
    assert "jinja2 is blocked by the test" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_changed_template_renders_again_from_a_filled_cache(tmp_path: Path) -> None:
    src = Path(shutil.copytree(SRC, tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__")))
    assert _generate(tmp_path, tmp_path / "first", "", src).returncode == 0
    banner = src / "opplugin_codegen" / "templates" / "banner.j2"
    banner.write_text(banner.read_text().replace("Do not edit:", "Never edit:"))
    result = _generate(tmp_path, tmp_path / "second", "", src)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "second" / "npu" / "version.h").read_text()
    assert "// Never edit: change the YAML and regenerate." in text
