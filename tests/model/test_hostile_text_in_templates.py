"""Hostile text in names and specs is escaped in every rendered file, by construction.

Issue 9 item 9: ``--name 'x\"\"\";__import__("os")...'`` or a spec file whose name
contains ``\"\"\"`` turned into statements in ``__init__.py``; CATALOG.md passed NUL
and U+202E to reviewers. Values now reach text only through the escaping filters of
``generator/toolcat/text/escape.py``, and the environment refuses any other string.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import jinja2
import pytest
from helpers.inprocess import RunCli
from toolcat.text.escape import code, markdown_cell, pydoc
from toolcat.text.templates import environment

INJECTION = 'x""";__import__("os").system("touch PWNED");"""'
SPOOFED = "/files/\u202egpj.exe/\u0000\u200b{id}"


def _spec(folder: Path, name: str = "spec.json", path: str = "/items/{id}") -> Path:
    doc = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
           "paths": {path: {"get": {
               "operationId": "getItem",
               "parameters": [{"name": "id", "in": "path", "required": True,
                               "schema": {"type": "string"}}],
               "responses": {"200": {"description": "ok"}}}}}}
    spec = folder / name
    spec.parent.mkdir(parents=True, exist_ok=True)
    spec.write_text(json.dumps(doc))
    return spec


def _only_expected_statements(module: str) -> None:
    """The module's top level is the template's, nothing more: no call was pasted in."""
    tree = ast.parse(module)
    docstring = ast.get_docstring(tree)
    assert docstring is not None
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Name) and n.func.id == "__import__"]
    assert not calls, "a call was pasted into the module"


def test_spec_file_name_with_triple_quotes_stays_in_the_docstring(tmp_path: Path,
                                                                  toolcat: RunCli) -> None:
    spec = _spec(tmp_path / "api", name=INJECTION.replace("/", "_") + ".json")
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", spec, "--out", out, "--name", "api")
    assert result.returncode == 0, result.stderr
    module = (out / "__init__.py").read_text()
    _only_expected_statements(module)
    tree = ast.parse(module)
    assert spec.name in (ast.get_docstring(tree) or ""), "the docstring lost the name"
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("name", [INJECTION, "../../x", "X", "1api", "a" * 65, "api-x", ""])
def test_hostile_catalog_name_is_refused(tmp_path: Path, name: str, toolcat: RunCli) -> None:
    spec = _spec(tmp_path / "api")
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", spec, "--out", out, "--name", name)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert "--name: catalog name" in result.stderr, result.stderr
    assert "fix: use a lower-case letter" in result.stderr
    assert not out.exists()


def test_catalog_md_shows_hidden_characters(tmp_path: Path, toolcat: RunCli) -> None:
    spec = _spec(tmp_path / "api", path=SPOOFED)
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", spec, "--out", out, "--name", "api")
    assert result.returncode == 0, result.stderr
    summary = (out / "CATALOG.md").read_text()
    for hidden in ("\u202e", "\u0000", "\u200b"):
        assert hidden not in summary, f"U+{ord(hidden):04X} reached CATALOG.md"
    assert "`/files/\\u202egpj.exe/\\u0000\\u200b{id}`" in summary, summary


def test_filters_escape_for_their_context() -> None:
    for text in (INJECTION, "a\\b\n\u202e", 'ends with "'):
        assert ast.literal_eval('"""' + pydoc(text) + '"""') == text
    assert code("a`b\u202e") == "``a`b\\u202e``"
    assert markdown_cell("a|b\n\u0000c") == "a\\|b \\u0000c"


def test_a_value_without_a_filter_does_not_render(tmp_path: Path) -> None:
    (tmp_path / "t.jinja").write_text("{{ text }} {{ count }}")
    template = environment(tmp_path).get_template("t.jinja")
    assert template.render(text=code("ok"), count=3) == "`ok` 3"
    with pytest.raises(TypeError, match="has no escaping filter"):
        template.render(text="raw", count=3)
    (tmp_path / "p.jinja").write_text("{{ value | pyrepr }}")
    with pytest.raises(TypeError, match="not a plain literal"):
        environment(tmp_path).get_template("p.jinja").render(value=object())
    assert isinstance(environment(tmp_path), jinja2.Environment)
