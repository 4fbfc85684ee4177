"""Templates are read through the run's Inputs (a user's refused in a template's words),
each read and compiled once a render."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2
import pytest
from toolcat.errors import ToolcatError
from toolcat.model.types import Catalog
from toolcat.parse.inputs import Inputs
from toolcat.render.python_module import TEMPLATE, render_python
from toolcat.text.template_files import folder_digest, read_template


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_a_fifo_template_is_refused_saying_what_a_template_is(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "summary.md.jinja")
    for read in (lambda: read_template(tmp_path / "summary.md.jinja", Inputs().read),
                 lambda: folder_digest(tmp_path, Inputs().read)):
        with pytest.raises(ToolcatError) as caught:
            read()
        (problem,) = caught.value.problems
        assert problem.file == str(tmp_path / "summary.md.jinja")
        assert problem.fix == "a template is a regular UTF-8 file within toolcat's size limit"


def test_the_digest_reads_through_the_runs_inputs(tmp_path: Path) -> None:
    (tmp_path / "summary.md.jinja").write_text("# {{ name | code }}\n")
    inputs = Inputs()
    before = folder_digest(tmp_path, inputs.read)
    (tmp_path / "summary.md.jinja").write_text("# changed\n")
    assert folder_digest(tmp_path, inputs.read) == before   # the bytes this run read
    assert folder_digest(tmp_path) != before


def test_the_module_template_is_read_and_compiled_once(example_catalog: Catalog,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The black-style render reuses the usual render's compiled template (a second
    environment read the file again and compiled it again: 6 ms on every generate)."""
    compiled: list[str | None] = []
    compile_template = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: str, name: str | None = None,
                 *args: Any, **kwargs: Any) -> Any:
        compiled.append(name)
        return compile_template(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    reads: list[Path] = []
    inputs = Inputs()

    def read(path: Path) -> bytes:
        reads.append(path)
        return inputs.read(path)

    def no_black(text: str) -> str:
        raise AssertionError("black ran: the module was not rendered in its style")

    assert render_python(example_catalog, formatter=no_black, read=read)
    assert compiled == [TEMPLATE], f"compiled {compiled}"
    assert [p.name for p in reads] == [TEMPLATE], f"read {reads}"
