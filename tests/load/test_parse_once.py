"""An ad hoc run parses its spec once: the tree read for the catalog's name is lent
to the bundle through the run's ``Inputs`` (parse/reader.py, ``glance_document``),
never shared, and never kept outside the run.

Stripe's 4 MB of YAML was parsed twice by ``generate --spec`` without ``--name`` and
no cache (0.7 s each). The lent tree goes to exactly one reader, only for the same
file, bytes and repeats policy; anything else parses afresh, as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.inprocess import RunCli
from toolcat.errors import ToolcatError
from toolcat.parse import reader
from toolcat.parse.duplicates import Repeats
from toolcat.parse.inputs import Inputs
from toolcat.parse.limits import read_bounded
from toolcat.parse.reader import glance_document, read_document

SPEC = """openapi: 3.0.3
info: {title: Pet Store, version: '1'}
paths:
  /pets:
    get:
      operationId: listPets
      description: first
      description: second
      responses: {'200': {description: ok}}
"""


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "openapi.yaml"
    path.write_text(SPEC)
    return path


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    seen: list[Path] = []
    parse = reader.parse_bytes

    def counting(data: bytes, path: Path, repeats: Repeats | None = None,
                 *walk: Any) -> Any:
        seen.append(Path(path).resolve())
        return parse(data, path, repeats, *walk)

    monkeypatch.setattr(reader, "parse_bytes", counting)
    return seen


def test_ad_hoc_generate_parses_the_spec_once(spec: Path, parses: list[Path], toolcat: RunCli,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCAT_CACHE", "off")
    run = toolcat("generate", "-q", "--validation", "warn", "--spec", spec,
                  "--out", spec.parent / "out")
    assert run.returncode == 0, run.stderr
    count = parses.count(spec.resolve())
    assert count == 1, f"the spec was parsed {count} times"
    assert "pet_store" in (spec.parent / "out" / "__init__.py").read_text()
    # the key written twice, found while naming the catalog, is still warned about
    assert "'description' is written twice" in run.stderr, run.stderr


def test_the_lent_tree_has_one_holder(spec: Path, parses: list[Path]) -> None:
    run = Inputs()
    glanced = glance_document(spec, Repeats(str(spec), keep=True), run)
    taken, _ = read_document(spec, Repeats(str(spec), keep=True), run)
    again, _ = read_document(spec, Repeats(str(spec), keep=True), run)
    assert taken is glanced
    assert again is not glanced, "a lent tree went to two readers"
    assert again == glanced
    assert len(parses) == 2


def test_the_taker_gets_what_the_glance_found(spec: Path, parses: list[Path]) -> None:
    run = Inputs()
    glance_document(spec, Repeats(str(spec), keep=True), run)
    taker = Repeats(str(spec), keep=True)
    read_document(spec, taker, run)
    assert len(parses) == 1, "the glance lent nothing"
    fresh = Repeats(str(spec), keep=True)
    read_document(spec, fresh)
    assert taker.found == fresh.found
    assert len(fresh.found) == 1


class _Unremembering(Inputs):
    """A run's Inputs that reads the file again each time (a real run never does):
    the glance's loan is held while the bytes change."""

    def read(self, path: Path) -> bytes:
        return read_bounded(path)

    __call__ = read


def test_changed_bytes_are_parsed_again(spec: Path) -> None:
    run = _Unremembering()
    glance_document(spec, Repeats(str(spec), keep=True), run)
    spec.write_text(SPEC.replace("Pet Store", "Zoo"))
    tree, _ = read_document(spec, Repeats(str(spec), keep=True), run)
    assert tree["info"]["title"] == "Zoo"


def test_another_repeats_policy_parses_again(spec: Path) -> None:
    run = Inputs()
    glance_document(spec, Repeats(str(spec), keep=True), run)
    with pytest.raises(ToolcatError, match="description"):
        read_document(spec, Repeats(str(spec)), run)   # refuses a key written twice


def test_no_loan_outlives_its_run(spec: Path, parses: list[Path]) -> None:
    glance_document(spec, Repeats(str(spec), keep=True), Inputs())
    read_document(spec, Repeats(str(spec), keep=True), Inputs())
    glance_document(spec, Repeats(str(spec), keep=True))   # a bare reader: lends nothing
    read_document(spec, Repeats(str(spec), keep=True))
    assert len(parses) == 4, "a tree was lent past its run"
