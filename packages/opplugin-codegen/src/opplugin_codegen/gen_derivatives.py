"""The per-label derivatives.yaml: ``backward`` entries whose ``version`` contains the
label, with ``version`` dropped, as a bare list (the form torchnpugen's autograd step
reads, like upstream's)."""

from __future__ import annotations

from . import templating, yamlout
from .projection import LabelView

DERIVATIVES_YAML = "op_plugin/config/derivatives.yaml"


def render_derivatives(view: LabelView) -> str:
    return templating.render(
        "derivatives.yaml.j2",
        source=view.model.derivatives_file,
        label=view.label,
        torch=view.torch,
        lines=yamlout.dump_lines([dict(d.fields) for d in view.derivatives]),
    )
