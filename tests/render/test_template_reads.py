"""A user's template read through the run's Inputs is refused in a template's words."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from toolcat.errors import ToolcatError
from toolcat.parse.inputs import Inputs
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
