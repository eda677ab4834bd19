# arqlab — two commands on a fresh machine:
#   make demo   set up .venv, build the extension (release), run the main job
#   make test   set up (or reuse) .venv, build, run cargo test and pytest
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.deps-stamp
# PROFILE=dev-opt builds the extension without LTO (minutes faster; same results).
PROFILE ?= release
BUILD_STAMP := $(VENV)/.build-stamp
RUST_SOURCES := $(shell find crates -name '*.rs' -o -name Cargo.toml) Cargo.lock
PY_SOURCES := $(shell find python -name '*.py' -o -name '*.pyi') pyproject.toml
export CARGO_TERM_COLOR ?= never

.PHONY: demo test venv build rust-test py-test bench bench-vs-bare bench-models bench-report bench-startup reproduce mutants mutants-rust mutants-python clean docs-figures

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
	VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(VENV))/bin:$$PATH $(VENV)/bin/maturin develop --profile $(PROFILE) --locked --quiet
	touch $(BUILD_STAMP)

build: $(BUILD_STAMP)

# Property tests draw their cases from a fixed seed, so a red `make test` is reproducible
# (same cases on every machine). `make rust-test PROPTEST_RNG_SEED=<n>` explores other
# cases; a failure found that way is a model question (docs/guide/testing.md).
PROPTEST_RNG_SEED ?= 20261123
rust-test:
	PROPTEST_RNG_SEED=$(PROPTEST_RNG_SEED) cargo test --workspace --exclude arqlab-py --locked -q

py-test: build
	$(VENV)/bin/mypy
	$(VENV)/bin/python -m mypy.stubtest arqlab._core
	$(VENV)/bin/pytest -q

bench: build
	cargo bench -p arqlab --bench engine
	$(PY) benches/report.py

# arqlab against the bare hand-written loop of the reference model, alternated runs
# (benches/vs_bare.py): VS_BARE="SIMULATED_SECONDS ROUNDS".
VS_BARE ?= 100000 9
bench-vs-bare:
	cargo build --release --locked -q -p arqlab --example run --example bare_loop
	python3 benches/vs_bare.py target/release/examples/run target/release/examples/bare_loop $(VS_BARE)

# Events per CPU-second (and with --instructions, instructions per event) of each study
# model, fresh processes of the `run` example (benches/models.py).
MODELS_ARGS ?= --repeat 3
bench-models:
	cargo build --release --locked -q -p arqlab --example run
	python3 benches/models.py target/release/examples/run $(MODELS_ARGS)

# Generated documentation figures (the HDLC ladder diagrams in docs/models/img/).
docs-figures: build
	$(PY) docs/figures.py

bench-startup: build
	$(VENV)/bin/pytest -q benches/test_startup.py --benchmark-only

bench-report: build
	$(PY) benches/report.py

# All five studies at full precision into reproduce-out/<study>/, two studies at a time
# (each with a pool of one worker per core, the longest first), so both cores stay busy
# across studies and points; prints each study's and the total CPU at the end.
# REPRODUCE_ARGS="--jobs N --workers N --quick --no-store STUDY ..." (see
# python/arqlab/studies/reproduce_all.py).
REPRODUCE_ARGS ?=
reproduce: build
	$(PY) -m arqlab.studies.reproduce_all --out reproduce-out $(REPRODUCE_ARGS)

# Mutation score (a benchmark, not a CI step; see docs/guide/testing.md). The Rust scope is
# every protocol family, `channel/`, `traffic/dialogue.rs`, `protocol/seq.rs` and `stats/`,
# cut into families: each family mutates its files and builds only the suites that guard
# them (its unit tests and the integration suites that run it). `--test golden` is in no
# family: a mutant only a golden fingerprint notices counts as missed (issue 31).
# MUTANTS_FAMILIES="x25 hf" picks families; MUTANTS_FILES / MUTANTS_TESTS override one
# family's files or suites; MUTANTS_TIMEOUT widens the per-mutant limit.
MUTANTS_FAMILIES ?= textbook hdlc llc2 x25 tcp tp4 hf ip common channel dialogue
MUTANTS_FILES_textbook := -f 'crates/arqlab/src/protocol/textbook/*.rs' -f crates/arqlab/src/protocol/seq.rs -f 'crates/arqlab/src/stats/*.rs'
MUTANTS_TESTS_textbook := -C --lib -C --test=textbook_liveness -C --test=safety_net
MUTANTS_FILES_hdlc := -f 'crates/arqlab/src/protocol/hdlc/*.rs'
MUTANTS_TESTS_hdlc := -C --lib -C --test=hdlc_properties -C --test=terminating -C --test=window_boundaries
MUTANTS_FILES_llc2 := -f 'crates/arqlab/src/protocol/llc2/*.rs'
MUTANTS_TESTS_llc2 := -C --lib -C --test=llc2_properties -C --test=biersack
MUTANTS_FILES_x25 := -f 'crates/arqlab/src/protocol/x25/*.rs'
MUTANTS_TESTS_x25 := -C --lib -C --test=comer_korb
MUTANTS_FILES_tcp := -f 'crates/arqlab/src/protocol/tcp/*.rs' -f 'crates/arqlab/src/protocol/tcp/endpoint/*.rs'
MUTANTS_TESTS_tcp := -C --lib -C --test=dialogue -C --test=johnson_dialogue -C --test=terminating
MUTANTS_FILES_tp4 := -f 'crates/arqlab/src/protocol/tp4/*.rs'
MUTANTS_TESTS_tp4 := -C --lib -C --test=tp4 -C --test=tp4_peers
MUTANTS_FILES_hf := -f 'crates/arqlab/src/protocol/hf/*.rs'
MUTANTS_TESTS_hf := -C --lib -C --test=hf -C --test=johnson_dialogue
MUTANTS_FILES_ip := -f 'crates/arqlab/src/protocol/ip/*.rs' -f crates/arqlab/src/protocol/ip_header.rs
MUTANTS_TESTS_ip := -C --lib -C --test=compose -C --test=compose_links -C --test=routes
# The shared layers: composition, multiplexing, the network window, the registry.
MUTANTS_FILES_common := $(foreach f,any composed datagram frame layer mux netwindow registry service stacked,-f crates/arqlab/src/protocol/$(f).rs)
MUTANTS_TESTS_common := -C --lib -C --test=compose -C --test=compose_links -C --test=topologies -C --test=tp4_peers
MUTANTS_FILES_channel := -f 'crates/arqlab/src/channel/*.rs'
MUTANTS_TESTS_channel := -C --lib -C --test=token_ring -C --test=topologies -C --test=routes -C --test=compose_links -C --test=biersack -C --test=hf -C --test=reorder_hazard
MUTANTS_FILES_dialogue := -f crates/arqlab/src/traffic/dialogue.rs
MUTANTS_TESTS_dialogue := -C --lib -C --test=dialogue -C --test=johnson_dialogue
# A suite takes ~10-60 s on two busy cores; a mutant that makes a proptest or a run spin
# is cut off at the timeout, so keep it a small multiple of that.
MUTANTS_TIMEOUT ?= 120
# 5,234 mutants in this scope (cargo-mutants 27.1.0 --list; per family in
# docs/guide/testing.md), 10-60 s each on two shared cores: the default runs one
# deterministic eighth of each family; MUTANTS_SHARD=k/8 for k = 0..7 covers all of them.
MUTANTS_SHARD ?= 0/8
mutants: mutants-rust mutants-python

mutants-rust:
	command -v cargo-mutants >/dev/null || cargo install cargo-mutants --version 27.1.0 --locked
	$(foreach fam,$(MUTANTS_FAMILIES),$(if $(MUTANTS_FILES_$(fam)),,$(error unknown mutants family '$(fam)'; expected one of textbook hdlc llc2 x25 tcp tp4 hf ip common channel dialogue)) \
	  nice -n 15 cargo mutants -p arqlab $(or $(MUTANTS_FILES),$(MUTANTS_FILES_$(fam))) --jobs 1 --shard $(MUTANTS_SHARD) \
	    --timeout $(MUTANTS_TIMEOUT) --output mutants-out/$(fam) $(or $(MUTANTS_TESTS),$(MUTANTS_TESTS_$(fam))) &&) true

mutants-python: build
	tools/mutants-python.sh

clean:
	rm -rf $(VENV) target demo-out mutants mutants-out mutants-python
