"""The fidelity oracle on a small fixed-seed slice of real documents (issue 11).

Every tool of ErsatzTV's v1 document and of Redocly's museum example: drawn calls
must all be requests the original document accepts, and spec-valid responses must
all pass outputSchema. The whole corpus runs under ``make oracle``
(scripts/oracle_table.py), whose table is in the README.
"""

from __future__ import annotations

import pytest
from helpers.fixtures import real, real_catalog
from oracle.responses import check
from oracle.sample import run

SLICE = (("specs", "ersatztv", "v1.json"), ("corpus", "museum", "openapi.yaml"))


@pytest.mark.parametrize("parts", SLICE, ids="/".join)
def test_slice_is_fully_accepted(parts: tuple[str, ...]) -> None:
    spec = real(*parts)
    catalog = real_catalog(*parts)
    requests = run(spec, catalog, count=1, seed_value=11)
    assert requests.requests >= len(catalog["tools"])
    assert requests.undrawable == []
    assert [(n, v["errors"]) for n, _, v in requests.failures] == []
    responses = check(spec, catalog, count=1, seed_value=11)
    assert responses.instances > 0
    assert responses.failures == []
