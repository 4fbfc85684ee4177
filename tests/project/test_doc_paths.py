"""Every file of the repository a docs page names still exists where the page says.

Tests move into room folders and modules move between rooms; a page that still names the
old place sends its reader nowhere. Pages write the package's modules as
`generator/<room>/<module>.py` (short for `generator/toolcat/...`).
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers.paths import REPO

# A repository path ending in a file name: tests/..., scripts/..., generator/..., templates/...
_PATH = re.compile(r"(?<![\w./-])((?:generator|scripts|tests|templates)/[\w./-]+"
                   r"\.(?:py|json|yaml|jinja))")


def missing_paths(text: str, root: Path) -> list[str]:
    """The paths `text` names that are not files under `root`."""
    def exists(path: str) -> bool:
        short = path.removeprefix("generator/")
        return (root / path).is_file() or (root / "generator" / "toolcat" / short).is_file()

    return sorted({path for path in _PATH.findall(text) if not exists(path)})


def test_every_path_a_page_names_exists() -> None:
    pages = [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]
    stale = {page.name: found for page in pages
             if (found := missing_paths(page.read_text(encoding="utf-8"), REPO))}
    assert not stale, f"docs name files that are not there: {stale}"


def test_a_moved_test_file_is_found() -> None:
    text = ("`tests/test_path_dot_segments.py`, `tests/runtime/test_path_dot_segments.py`, "
            "`generator/parse/limits.py`, `generator/parse/nowhere.py`, `tests/test_<case>.py`")
    assert missing_paths(text, REPO) == ["generator/parse/nowhere.py",
                                         "tests/test_path_dot_segments.py"]
