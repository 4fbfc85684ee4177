"""Where the project's own inputs and the shared real specs live.

The shared specs are read in place (never copied into the repo); a test that
needs one skips, naming the path it looked in, when the folder is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
ERSATZTV = SHARED / "specs" / "ersatztv"
CORPUS = SHARED / "corpus"
CONFIG = REPO / "specs" / "toolcat.yaml"
EXAMPLE_SPEC = REPO / "specs" / "broadcast" / "v1.json"
EXAMPLE_OUTPUT = REPO / "generated" / "broadcast"
FIXTURES = REPO / "tests" / "fixtures"

# The ErsatzTV documents and what each one is (see ../shared/specs/ersatztv/README.md).
ERSATZTV_V1 = "v1.json"                  # 3.1.1, 18 operations
ERSATZTV_V1_30 = "v1-453737a5.json"      # the same API in 3.0.1
ERSATZTV_SCRIPTED = "scripted-schedule.json"
ERSATZTV_PR = "v1-pr2735-89e78ffe.json"  # 215 operations; invalid component names upstream


def shared(*parts: str) -> Path:
    """A file under ../shared, or skip the test saying where it was looked for."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared test data absent: {path}")
    return path


def ersatztv(name: str) -> Path:
    return shared("specs", "ersatztv", name)


# Documents whose relative $refs leave the spec's own folder: the folder they may
# reach (toolcat's ref_root setting), relative to the spec's folder.
REF_ROOTS = {"corpus/oai-examples/v2.0/yaml/petstore-separate/spec/swagger.yaml": ".."}


def ref_root_for(path: Path) -> Path | None:
    """The ref_root a real document under SHARED needs, or None (its own folder)."""
    try:
        doc = path.resolve().relative_to(SHARED.resolve()).as_posix()
    except ValueError:
        return None
    extra = REF_ROOTS.get(doc)
    return None if extra is None else path.parent / extra
