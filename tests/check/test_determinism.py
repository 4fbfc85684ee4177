"""Same inputs, same bytes: across runs, hash seeds, and reorderings of the spec.

Reviewers read generated diffs, so an emitted byte that depends on set iteration
order, on dict order in the spec, or on the process would show up as noise.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers.generate import CLI, build, example_target, read_folder
from helpers.paths import ERSATZTV_V1, EXAMPLE_SPEC, ersatztv, shared
from toolcat.jsonio import loads
from toolcat.pipeline import build_catalog, render_files

SEEDS = ("0", "1", "12345")
LICHESS = ("corpus", "lichess", "doc", "specs", "lichess-api.yaml")


def test_twice_in_one_process() -> None:
    first = render_files(build_catalog(example_target()))
    second = render_files(build_catalog(example_target()))
    assert first == second


def _generate_under_seeds(specs: dict[str, Path], tmp_path: Path) -> dict[str, list[dict[
        str, bytes]]]:
    """Run the CLI once per (spec, seed), all at once: 2 cores, mostly start-up time."""
    runs = []
    for label, spec in specs.items():
        for seed in SEEDS:
            out = tmp_path / seed / label
            env = {**os.environ, "PYTHONHASHSEED": seed}
            proc = subprocess.Popen([*CLI, "generate", "--spec", str(spec), "--out", str(out)],
                                    env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
            runs.append((label, seed, out, proc))
    results: dict[str, list[dict[str, bytes]]] = {}
    for label, seed, out, proc in runs:
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, f"{label} with PYTHONHASHSEED={seed}: {stderr}{stdout}"
        results.setdefault(label, []).append(read_folder(out))
    return results


def _assert_all_equal(results: dict[str, list[dict[str, bytes]]]) -> None:
    for label, outputs in results.items():
        assert outputs[0], f"{label}: nothing generated"
        for seed, other in zip(SEEDS[1:], outputs[1:], strict=True):
            differing = sorted(n for n in set(outputs[0]) | set(other)
                               if outputs[0].get(n) != other.get(n))
            assert not differing, (f"{label}: PYTHONHASHSEED={SEEDS[0]} and {seed} differ "
                                   f"in {differing}")


def test_hash_seeds(tmp_path: Path) -> None:
    specs = {"example": EXAMPLE_SPEC, "ersatztv": ersatztv(ERSATZTV_V1)}
    _assert_all_equal(_generate_under_seeds(specs, tmp_path))


def test_hash_seeds_multi_file(tmp_path: Path) -> None:
    """lichess: 500 files, 1,080 cross-file $refs, names assigned while bundling."""
    _assert_all_equal(_generate_under_seeds({"lichess": shared(*LICHESS)}, tmp_path))


# -- reordering -------------------------------------------------------------------------

# Lists keep their order (parameters, required, enum, allOf): their order is the
# author's. Every mapping is shuffled: paths, operations, properties, components.
def _shuffled(node: Any, rng: random.Random) -> Any:
    if isinstance(node, dict):
        keys = list(node)
        rng.shuffle(keys)
        return {k: _shuffled(node[k], rng) for k in keys}
    if isinstance(node, list):
        return [_shuffled(v, rng) for v in node]
    return node


def _without_source(catalog: bytes) -> dict[str, Any]:
    data: dict[str, Any] = loads(catalog)
    data.pop("source")
    return data


@pytest.mark.parametrize("which", ["example", "ersatztv"])
@pytest.mark.parametrize("seed", [7, 2024])
def test_reordered_spec(tmp_path: Path, which: str, seed: int) -> None:
    spec = EXAMPLE_SPEC if which == "example" else ersatztv(ERSATZTV_V1)
    document = json.loads(spec.read_bytes())
    reordered = _shuffled(document, random.Random(seed))
    assert list(reordered["paths"]) != list(document["paths"]), "shuffle changed nothing"
    copy = tmp_path / spec.name
    copy.write_text(json.dumps(reordered, indent=2))

    original, shuffled = build(spec, which), build(copy, which)

    assert [t.name for t in shuffled.tools] == [t.name for t in original.tools]
    before, after = render_files(original), render_files(shuffled)
    assert set(after) == set(before)
    assert loads(after["catalog.json"])["source"]["sha256"] != loads(
        before["catalog.json"])["source"]["sha256"], "the spec digest ignored the change"
    assert _without_source(after["catalog.json"]) == _without_source(before["catalog.json"])
    # Parsed equality can hide a key order difference; the bytes must agree too.
    strip = b'"sha256": "sha256:'
    assert [line for line in after["catalog.json"].splitlines() if strip not in line] == [
        line for line in before["catalog.json"].splitlines() if strip not in line]
    for name in set(after) - {"catalog.json"}:
        assert after[name] == before[name], name
