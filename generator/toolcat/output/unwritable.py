"""A located refusal when the disk says no.

A read-only or impossible output folder (``--out`` under a regular file, a
read-only mount) ended in an internal error. An operating-system error while
writing now becomes exit 2 naming the folder, the path the system refused and
why. (Two runs for one folder take turns: ``files.parent_locked``.)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import ToolcatError, fail


@contextmanager
def refused_when_unwritable(out: Path) -> Iterator[None]:
    """Turn an OSError raised while writing ``out`` into a located refusal."""
    try:
        yield
    except OSError as exc:
        raise _refusal(out, exc) from None


def _refusal(out: Path, exc: OSError) -> ToolcatError:
    where = exc.filename if isinstance(exc.filename, str) else str(out)
    return fail(str(out), f"writing {where}", f"cannot write the catalog folder: "
                f"{exc.strerror or type(exc).__name__}",
                "make the folder and its parent writable, or choose another --out/output")
