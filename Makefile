# arqlab — two commands on a fresh machine:
#   make demo   set up .venv, build the extension (release), run the main job
#   make test   set up (or reuse) .venv, build, run cargo test and pytest
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.deps-stamp
BUILD_STAMP := $(VENV)/.build-stamp
RUST_SOURCES := $(shell find crates -name '*.rs' -o -name Cargo.toml) Cargo.lock
PY_SOURCES := $(shell find python -name '*.py' -o -name '*.pyi') pyproject.toml
export CARGO_TERM_COLOR ?= never

.PHONY: demo test venv build rust-test py-test bench bench-report bench-startup reproduce clean

demo: build
	$(PY) -m arqlab.demo --out demo-out

test: build rust-test py-test

$(STAMP): requirements.lock
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements.lock
	touch $(STAMP)

venv: $(STAMP)

$(BUILD_STAMP): $(STAMP) $(RUST_SOURCES) $(PY_SOURCES)
	VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(VENV))/bin:$$PATH $(VENV)/bin/maturin develop --release --locked --quiet
	touch $(BUILD_STAMP)

build: $(BUILD_STAMP)

rust-test:
	cargo test --workspace --exclude arqlab-py --locked -q

py-test: build
	$(VENV)/bin/mypy
	$(VENV)/bin/python -m mypy.stubtest arqlab._core
	$(VENV)/bin/pytest -q

bench: build
	cargo bench -p arqlab --bench engine
	$(PY) benches/report.py

bench-startup: build
	$(VENV)/bin/pytest -q benches/test_startup.py --benchmark-only

bench-report: build
	$(PY) benches/report.py

reproduce: build
	$(VENV)/bin/arqlab reproduce bux1982 --out reproduce-out

clean:
	rm -rf $(VENV) target demo-out
