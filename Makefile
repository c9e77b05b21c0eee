# Vaha-Lite bot: setup, run, test, benchmark.
# Everything runs from a project-local virtualenv (.venv) that this Makefile creates itself.

PYTHON ?= python3
# The suite waits on processes, sockets and sleeps more than it computes: four workers keep
# two cores busy (make test WORKERS=1 for a serial run).
WORKERS ?= 4
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := test
.PHONY: run test test-soak bench bench-render bench-service bench-discord bench-selfplay venv clean wheel install
# A production install (docs/self-hosting.md): the wheel into its own virtualenv, without the
# dev tools; `vahalite` is then $(PREFIX)/bin/vahalite.
PREFIX  ?= /opt/vahalite
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
WHEEL   := dist/vahalite_bot-$(VERSION)-py3-none-any.whl

# Create the venv once; upgrade pip only at creation time.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip

# (Re)install the project with its dev extra only when pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
	touch $@

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/python bot.py

test: $(STAMP)
	$(BIN)/ruff check vahalite_bot tests benchmarks bot.py
	@# mypy checks the code while the suite runs; the target fails if either fails.
	$(BIN)/mypy & typing=$$!; \
	$(BIN)/python -m pytest -n $(WORKERS) --dist worksteal -m "not soak"; tests=$$?; \
	wait $$typing; typed=$$?; \
	[ $$typed -eq 0 ] && [ $$tests -eq 0 ]

# The soak runs (hundreds of SIGKILLs at random moments): alone, so that the kills land on
# processes at work rather than ones starved by the rest of the suite. CI runs them too.
test-soak: $(STAMP)
	$(BIN)/python -m pytest -m soak

bench: $(STAMP)
	$(BIN)/python -m vahalite_bot.selfplay --games 1000 --seed 1

bench-render: $(STAMP)
	$(BIN)/python -m benchmarks.render

bench-selfplay: $(STAMP)
	$(BIN)/python -m benchmarks.selfplay --markdown

bench-service: $(STAMP)
	$(BIN)/python -m benchmarks.service --games 200

bench-discord: $(STAMP)
	$(BIN)/python -m benchmarks.discord --games 50

wheel: $(WHEEL)

$(WHEEL): pyproject.toml setup.py $(shell find vahalite_bot migrations boards -type f -not -path '*/__pycache__/*')
	$(PYTHON) -m pip wheel --no-deps -w dist .

install: $(WHEEL)
	test -x $(PREFIX)/bin/python || $(PYTHON) -m venv $(PREFIX)
	$(PREFIX)/bin/python -m pip install --upgrade $(WHEEL)  # with its dependencies
	$(PREFIX)/bin/python -m pip install --force-reinstall --no-deps $(WHEEL)  # this very build

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis *.egg-info build dist
