"""Digest of every catalog toolcat emits for the shared corpus: one line per emitted file.

Run before and after a change that must not alter output (a refactor, a speed-up) and
compare the two listings: any difference names the document and the file. The record
(``.toolcat-inputs.json``) is left out, since it names toolcat's own digest, which a
refactor changes by design.

    python scripts/corpus_digests.py > before.txt   # ... change ...
    python scripts/corpus_digests.py > after.txt && diff before.txt after.txt
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
RECORD = ".toolcat-inputs.json"
DOCUMENTS = (
    "cloudflare/openapi.json", "digitalocean/specification/DigitalOcean-public.v2.yaml",
    "discord/openapi.json", "github/api.github.com.json", "jellyfin/openapi.json",
    "kratos/api.json", "kubernetes/swagger.json.unprocessed",
    "lichess/doc/specs/lichess-api.yaml", "museum/openapi.yaml", "openai/openapi.yaml",
    "overseerr/overseerr-api.yml", "plex/plex-api-spec.yaml", "sonarr/openapi.json",
    "stripe/spec3.yaml", "swagger-petstore/master/src/main/resources/openapi.yaml",
    "train-travel/openapi.yaml", "oai-examples/v3.0/petstore-expanded.json",
    "oai-examples/v2.0/yaml/petstore-separate/spec/swagger.yaml",
)


def digests(document: str, scratch: Path) -> list[str]:
    out = scratch / document.replace("/", "_")
    env = dict(os.environ, TOOLCAT_CACHE="off")
    run = subprocess.run(
        [sys.executable, "-m", "toolcat", "generate", "-q", "--validation", "warn",
         "--spec", str(CORPUS / document), "--out", str(out), "--name", "corpus"],
        cwd=scratch, env=env, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        return [f"{document} exit {run.returncode}: {run.stderr.strip().splitlines()[-1:]}"]
    return [f"{document} {path.relative_to(out).as_posix()} "
            f"{hashlib.sha256(path.read_bytes()).hexdigest()[:16]}"
            for path in sorted(out.rglob("*")) if path.is_file() and path.name != RECORD
            and "__pycache__" not in path.parts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="corpus paths (default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        for document in args.only or DOCUMENTS:
            for line in digests(document, Path(scratch)):
                print(line, flush=True)


if __name__ == "__main__":
    main()
