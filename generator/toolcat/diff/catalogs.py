"""The sides of a diff at git revisions (a file or folder side is catalog.reader's
``read_catalog``): every committed catalog, paired by path."""

from __future__ import annotations

import fnmatch
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..catalog.reader import SIDE_FIX, CatalogView, parse_catalog
from ..config import load_config
from ..errors import fail
from ..parse.limits import MAX_FILE_BYTES, read_bounded
from ..vocab.files import CATALOG_FILE

GENERATED_GLOB = "generated/*/catalog.json"


@dataclass(frozen=True)
class Pair:
    """The same catalog on two sides; None where it does not exist."""

    label: str
    old: CatalogView | None
    new: CatalogView | None


# --- git ------------------------------------------------------------------------------

def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as exc:
        raise fail("git", "", f"cannot run git ({exc.strerror})",
                   "install git, or compare two files: toolcat diff OLD NEW") from None


def _repo_root(cwd: Path) -> Path:
    done = _git(["rev-parse", "--show-toplevel"], cwd)
    if done.returncode != 0:
        raise fail(str(cwd), "", "not inside a git repository",
                   "run from the project's clone, or compare two files: toolcat diff OLD NEW")
    return Path(done.stdout.decode().strip()).resolve()


def _verify(rev: str, cwd: Path) -> None:
    done = _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd)
    if done.returncode != 0:
        raise fail(f"--base {rev}", "", f"git knows no commit '{rev}'",
                   "fetch it first (in CI: actions/checkout with fetch-depth: 0, then "
                   "origin/<branch>), or name an existing commit")


def _at_revision(rev: str, rel: str, cwd: Path) -> bytes | None:
    """The file's bytes at ``rev`` (``git show REV:path``), None where it does not exist."""
    if _git(["cat-file", "-e", f"{rev}:{rel}"], cwd).returncode != 0:
        return None
    size = _git(["cat-file", "-s", f"{rev}:{rel}"], cwd).stdout.strip()
    if size.isdigit() and int(size) > MAX_FILE_BYTES:
        raise fail(f"{rev}:{rel}", "", f"the file is larger than toolcat's limit of "
                   f"{MAX_FILE_BYTES // (1024 * 1024)} MiB", "compare smaller catalogs")
    done = _git(["show", f"{rev}:{rel}"], cwd)
    if done.returncode != 0:
        raise fail(f"{rev}:{rel}", "", f"git show failed: {done.stderr.decode().strip()}",
                   "check the repository with `git fsck`")
    return done.stdout


def _listed_at_revision(rev: str, prefix: str, cwd: Path) -> set[str]:
    """Repository paths matching ``generated/*/catalog.json`` (under ``prefix``) at ``rev``."""
    pattern = f"{prefix}{GENERATED_GLOB}"
    done = _git(["ls-tree", "-r", "--name-only", rev, "--", f"{prefix}generated"], cwd)
    names = done.stdout.decode().splitlines() if done.returncode == 0 else []
    return {n for n in names if fnmatch.fnmatchcase(n, pattern) and n.count("/") ==
            pattern.count("/")}


def working_catalogs(config: Path, cwd: Path) -> set[Path]:
    """The catalogs the config names, and every generated/*/catalog.json, as absolute paths."""
    found = {p.resolve() for p in cwd.glob(GENERATED_GLOB)}
    config = config if config.is_absolute() else cwd / config
    if os.path.lexists(config):
        found |= {(t.output / CATALOG_FILE).resolve() for t in load_config(config)}
    return found


def revision_pairs(rev: str, config: Path, cwd: Path) -> list[Pair]:
    """Every catalog of the working tree beside the same path at ``rev``.

    A catalog present on one side only compares with nothing: all its tools
    are added (or removed).
    """
    root = _repo_root(cwd)
    _verify(rev, cwd)
    here = cwd.resolve()
    prefix = here.relative_to(root).as_posix() + "/" if here != root else ""
    rels: set[str] = set()
    for path in working_catalogs(config, here):
        if not path.is_relative_to(root):
            raise fail(str(path), "", "this catalog lies outside the git repository",
                       "move the catalog output inside the repository, or compare two "
                       "files: toolcat diff OLD NEW")
        rels.add(path.relative_to(root).as_posix())
    rels |= _listed_at_revision(rev, prefix, here)
    if not rels:
        raise fail(str(config), "", f"no catalogs found (neither the config nor "
                   f"{GENERATED_GLOB} names any)",
                   "run from the project root, or pass --config")
    pairs = []
    for rel in sorted(rels):
        label = Path(os.path.relpath(root / rel, here)).as_posix()
        old_bytes = _at_revision(rev, rel, here)
        new_file = root / rel
        old = parse_catalog(old_bytes, f"{rev}:{rel}") if old_bytes is not None else None
        new = (parse_catalog(read_bounded(new_file, fix=SIDE_FIX), label)
               if os.path.lexists(new_file) else None)
        pairs.append(Pair(label, old, new))
    return pairs
