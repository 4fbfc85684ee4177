"""Fixtures shared across test files: the example catalog, built once per worker.

The suite keeps toolcat's cache out of ~/.cache: every run (and every CLI
subprocess, which inherits the environment) uses a fresh temporary folder.
"""

from __future__ import annotations

import os
import tempfile

import pytest
from helpers.generate import example_target
from helpers.inprocess import toolcat  # noqa: F401 - a fixture, registered by importing it
from toolcat.model.types import Catalog
from toolcat.output.files import Files
from toolcat.pipeline import build_catalog, render_files

os.environ["TOOLCAT_CACHE_DIR"] = tempfile.mkdtemp(prefix="toolcat-test-cache-")


@pytest.fixture(scope="session")
def example_catalog() -> Catalog:
    return build_catalog(example_target())


@pytest.fixture(scope="session")
def example_files(example_catalog: Catalog) -> Files:
    target = example_target()
    return render_files(example_catalog, models=target.models, templates=target.templates)
