"""The module rendered in black's style is byte for byte what black writes.

``render_python`` skips black when the built-in template renders in black's style
(render/python_module.py, ``_in_black_style``). Black still decides the bytes: for
the example API, for catalogs of real documents, and for drawn names, labels and
commands, black leaves the module unchanged and formats the usual render into the
same text; where the style is not known for sure, black runs.
"""

from __future__ import annotations

import dataclasses
import shutil
import string
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers.generate import adhoc_target
from helpers.paths import CORPUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolcat.identity import DEFAULT_TEMPLATES
from toolcat.model.types import Catalog, Source
from toolcat.pipeline import build_catalog
from toolcat.render import python_module
from toolcat.render.python_module import TEMPLATE, render_python
from toolcat.text.python_format import black_format
from toolcat.text.templates import environment

# Small real documents whose tool names sample the corpus' spellings.
SAMPLE = ("train-travel/openapi.yaml", "museum/openapi.yaml",
          "swagger-petstore/master/src/main/resources/openapi.yaml")


@pytest.fixture
def own_template(tmp_path: Path) -> Path:
    """A user's templates folder holding a copy of the built-in module template."""
    shutil.copy(DEFAULT_TEMPLATES / TEMPLATE, tmp_path / TEMPLATE)
    return tmp_path


def values(catalog: Catalog, regenerate: str = "", regenerate_from: str = "") -> dict[str, Any]:
    return {"name": catalog.name, "regenerate": regenerate or f"toolcat generate {catalog.name}",
            "regenerate_from": regenerate_from, "spec": catalog.source.spec,
            "tool_names": [t.name for t in catalog.tools]}


def assert_black_agrees(given_values: dict[str, Any]) -> None:
    """black leaves the styled module as it is, and writes it from the usual render."""
    template = environment().get_template(TEMPLATE)
    styled = python_module._in_black_style(template, given_values)
    assert styled is not None, f"not rendered in black's style: {given_values['tool_names'][:3]}"
    assert black_format(styled) == styled, "black changes the module rendered in its style"
    assert black_format(template.render(**given_values)) == styled, \
        "black formats the usual render differently"


def test_example_module_skips_black_and_equals_blacks(example_catalog: Catalog,
                                                      own_template: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    by_black = render_python(example_catalog, own_template)   # a user's template: black runs
    assert_black_agrees(values(example_catalog))
    with monkeypatch.context() as patch:
        patch.setattr(python_module, "black_format", _refuse)
        assert render_python(example_catalog) == by_black


def _refuse(text: str) -> str:
    raise AssertionError("black ran although the module was in black's style")


@pytest.mark.parametrize("document", SAMPLE)
def test_corpus_sample_module_equals_blacks(document: str) -> None:
    spec = CORPUS / document
    if not spec.exists():
        pytest.skip(f"no {spec}")
    target = replace(adhoc_target(spec, "corpus"), validation="warn")
    catalog = build_catalog(target)
    assert_black_agrees(values(catalog, "toolcat generate --spec x.yaml --out y", "."))


_NAME = st.text(string.ascii_letters + string.digits + "_-", min_size=1, max_size=64)
_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=120)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(_NAME, min_size=2, max_size=12, unique=True),
       name=st.from_regex(r"[a-z][a-z0-9_]{0,60}", fullmatch=True),
       spec=_TEXT, regenerate=_TEXT, regenerate_from=_TEXT)
def test_drawn_modules_equal_blacks(names: list[str], name: str, spec: str, regenerate: str,
                                    regenerate_from: str) -> None:
    """Tool names of the catalog alphabet, catalog names the rule admits, any label and
    command in the docstring: in black's style, and black agrees."""
    drawn = {"name": name, "regenerate": regenerate or "toolcat generate x",
             "regenerate_from": regenerate_from, "spec": spec, "tool_names": names}
    template = environment().get_template(TEMPLATE)
    styled = python_module._in_black_style(template, drawn)
    assert styled is not None, "black's style not known for a module of plain names"
    assert black_format(styled) == styled
    assert black_format(template.render(**drawn)) == styled


@pytest.mark.parametrize(("change", "why"), [
    ({"tool_names": ["only_one"]}, "black writes a one-name list on one line"),
    ({"tool_names": []}, "black writes an empty tuple on one line"),
    ({"name": "it's"}, "a quote: black's choice of quotes"),
    ({"tool_names": ["a\\b", "c"]}, "a backslash"),
    ({"tool_names": ["é", "c"]}, "not ASCII"),
    ({"name": "n" * 70}, "a line over 88 characters"),
])
def test_black_decides_outside_the_known_style(example_catalog: Catalog,
                                               change: dict[str, Any], why: str) -> None:
    template = environment().get_template(TEMPLATE)
    assert python_module._in_black_style(template, {**values(example_catalog), **change}) \
        is None, why


def test_a_users_template_is_formatted_by_black(example_catalog: Catalog,
                                                own_template: Path) -> None:
    calls = []

    def black(text: str) -> str:
        calls.append(text)
        return black_format(text)

    render_python(example_catalog, own_template, formatter=black)
    assert len(calls) == 1, "a user's template was not formatted by black"


def test_one_tool_is_formatted_by_black(example_catalog: Catalog) -> None:
    one = dataclasses.replace(example_catalog, tools=example_catalog.tools[:1],
                              source=Source("s.yaml", "sha256:0", "3.1.0", "v"))
    module = render_python(one).decode()
    assert f'ToolName = Literal["{one.tools[0].name}",]' in module, module[:800]
