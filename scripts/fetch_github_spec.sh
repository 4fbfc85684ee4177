#!/bin/sh
# Fetch the 13 MB GitHub REST description used by `make bench` into .bench/ (git-ignored).
# It is too big to commit and the corpus copy is an old 2.9 MB one, so the benchmark takes
# the current one from the npm package that publishes it, at a pinned version so numbers
# stay comparable. Idempotent: does nothing when the file is already there.
# The only network access in the project, and only to the npm registry.
set -eu

VERSION="23.0.2"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/.bench"
TARGET="$DEST/api.github.com.json"

if [ -s "$TARGET" ]; then
    echo "present: $TARGET"
    exit 0
fi

mkdir -p "$DEST"
WORK="$(mktemp -d "$DEST/.fetch.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

(cd "$WORK" && npm pack --loglevel=error "@octokit/openapi@$VERSION" >/dev/null)
tar -xzf "$WORK"/octokit-openapi-"$VERSION".tgz -C "$WORK" package/generated/api.github.com.json
# Rename into place only when complete, so an interrupted fetch is retried next time.
mv "$WORK/package/generated/api.github.com.json" "$TARGET.part"
mv "$TARGET.part" "$TARGET"
echo "fetched: $TARGET ($(wc -c <"$TARGET") bytes, @octokit/openapi@$VERSION)"
