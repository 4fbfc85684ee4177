"""Fixtures shared across test files: the example catalog, built once per worker."""

from __future__ import annotations

import pytest
from helpers.generate import example_target

from generator.model.types import Catalog
from generator.output.files import Files
from generator.pipeline import build_catalog, render_files


@pytest.fixture(scope="session")
def example_catalog() -> Catalog:
    return build_catalog(example_target())


@pytest.fixture(scope="session")
def example_files(example_catalog: Catalog) -> Files:
    return render_files(example_catalog)
