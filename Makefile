# Every target creates and fills the virtualenv itself: on a fresh machine
# `make regen` and `make test` are all the set-up there is.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: regen check test lint bench fuzz clean serve-oracle

$(STAMP): pyproject.toml .ci/constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c .ci/constraints.txt -e '.[dev]'
	touch $(STAMP)

# The request oracle (tests/oracle) in a venv of its own: openapi-core 0.23.1 needs
# openapi-spec-validator < 0.9, which toolcat's pins exclude.
ORACLE_VENV := .venv-oracle
ORACLE_STAMP := $(ORACLE_VENV)/.installed-stamp

$(ORACLE_STAMP): tests/oracle/requirements.txt
	$(PYTHON) -m venv $(ORACLE_VENV)
	$(ORACLE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(ORACLE_VENV)/bin/python -m pip install --quiet --no-deps -r tests/oracle/requirements.txt
	touch $(ORACLE_STAMP)

# The fidelity oracle over every corpus document (issue 11); prints the README's table.
.PHONY: oracle
oracle: $(STAMP) $(ORACLE_STAMP)
	$(BIN)/python scripts/oracle_table.py --count 4

regen: $(STAMP)
	$(BIN)/toolcat generate

check: $(STAMP)
	$(BIN)/toolcat check

test: $(STAMP) $(ORACLE_STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

lint: $(STAMP)
	$(BIN)/ruff check generator tests scripts
	$(BIN)/mypy --strict generator
	@# The package installs as toolcat from the folder generator/ (an import hook mypy cannot
	@# follow): give mypy the same name through a link inside the ignored venv.
	mkdir -p $(VENV)/mypy-path && ln -sfn $(CURDIR)/generator $(VENV)/mypy-path/toolcat
	MYPYPATH=$(VENV)/mypy-path $(BIN)/mypy --strict generated

# Every corpus document: requests toolcat serve would send, judged offline by tests/oracle.
serve-oracle: $(STAMP) $(ORACLE_STAMP)
	nice -n 10 $(BIN)/python scripts/serve_oracle.py --count 2

bench: $(STAMP)
	$(BIN)/python scripts/bench.py --scaling
	$(BIN)/python scripts/bench_models.py

# 1,000 mutated real specs through generate: no crash, hang or unlocated refusal, and
# every catalog meta-valid, each case in both validation modes (make test runs a
# fixed-seed 60 of them).
fuzz: $(STAMP)
	$(BIN)/python scripts/runaway.py
	$(BIN)/python scripts/fuzz.py --cases 1000 --seed 1

# FastMCP beside toolcat; FastMCP lives in its own venv under .bench/, never in .venv.
.PHONY: bench-peers
bench-peers: $(STAMP)
	$(BIN)/python scripts/bench_peers.py

clean:
	rm -rf $(VENV) $(ORACLE_VENV) .bench .pytest_cache .mypy_cache .ruff_cache

# Model/inputSchema parity on a larger corpus sample with more drawn instances.
.PHONY: models-parity
models-parity: $(STAMP)
	TOOLCAT_PARITY_FULL=1 $(BIN)/python -m pytest -q -n 2 tests/test_models_parity.py
