# Two commands do all the set-up on a fresh machine (see README):
#   make lab    -- install into .venv and open the tutorials in JupyterLab
#   make test   -- install into .venv (and Chromium for the browser tests) and run every test
#   make docs   -- build the documentation site into build/docs/html (make test builds it too)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# the docs extra (Sphinx, myst-nb) has a stamp of its own: make lab does not need it, make
# test does (the docs-site tests and the site build)
DOCS_STAMP := $(VENV)/.installed-docs

.PHONY: lab test setup test-setup browser lint bench clean docs check py310 compiled pure-tests

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# make lab installs what the tutorials need (the [lab] extra: JupyterLab and Voila);
# make test adds the test tools, the dask cluster and the docs tools on top.
$(STAMP): pyproject.toml | $(BIN)/python
	@echo "installing tavrei_lab and JupyterLab into $(VENV) (the [lab] extra)..."
	$(BIN)/python -m pip install --quiet --progress-bar on -e ".[lab]"
	touch $(STAMP)

TEST_STAMP := $(VENV)/.installed-test
$(TEST_STAMP): pyproject.toml | $(STAMP)
	@echo "installing the test tools into $(VENV) (the [test] and [cluster] extras)..."
	$(BIN)/python -m pip install --quiet -e ".[lab,test,cluster]"
	touch $(TEST_STAMP)

setup: $(STAMP)
test-setup: $(TEST_STAMP)

# LAB_ARGS: extra JupyterLab options (the tests pass a port and a token). Root, as on
# these machines and in containers, needs --allow-root.
LAB_ARGS ?=
# Jupyter's news and update pop-up covers the board's corner in class: switched off for
# this environment only, by a settings-overrides file in the venv's JupyterLab settings
# directory (the user's ~/.jupyter is not touched).
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.d/tavrei-lab.json
$(LAB_OVERRIDES): etc/jupyterlab-overrides.json | $(STAMP)
	mkdir -p $(dir $@)
	cp $< $@

# idle kernels culled (Voila's outlive their pages): binder/postBuild installs etc/classroom-kernels.json
CLASSROOM := $(VENV)/etc/jupyter/voila.json
$(CLASSROOM): etc/classroom-kernels.json binder/postBuild | $(STAMP)
	PREFIX=$(VENV) sh binder/postBuild

lab: setup compiled $(LAB_OVERRIDES) $(CLASSROOM)
	$(BIN)/jupyter lab $$([ "$$(id -u)" = 0 ] && echo --allow-root) $(LAB_ARGS) notebooks/00_quick_start.ipynb

# Debian's Chromium for the real-browser tests (a test tool's own browser download
# cannot reach its host here), and Debian's Stockfish, the strength benchmark's chess
# yardstick (its UCI driver's test; never a dependency of the package). Needs root, as CI is.
browser:
	@{ command -v chromium >/dev/null 2>&1 && test -x /usr/games/stockfish; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium stockfish >/dev/null; \
	  else echo "chromium or stockfish missing: run 'sudo apt-get install chromium stockfish' for the browser and strength tests"; fi; }

# The whole suite runs on the compiled build (make compiled), then the rules, perft and
# recorded-game tests once more on the pure Python (TAVREI_PURE=1: what Pyodide and a
# machine without a C compiler run). The doctests and the docs read the pure source.
# --durations: the log names the slowest tests (CI should stay near ten minutes).
test: test-setup browser $(DOCS_STAMP) compiled
	$(BIN)/ruff check tavrei_lab tests benchmarks
	$(BIN)/lint-imports
	$(BIN)/mypy
	TAVREI_EXPECT_COMPILED=1 $(BIN)/python -m pytest -q --durations=25 tests
	$(MAKE) --no-print-directory pure-tests
	TAVREI_PURE=1 $(BIN)/python -m pytest -q --doctest-modules tavrei_lab -p no:nbmake
	TAVREI_PURE=1 $(MAKE) --no-print-directory docs

# The optional compiled build in this checkout (docs/compiled.md): Cython compiles the hot
# modules (tavrei_lab/builds.py) beside their sources. An edited source is never shadowed:
# a compiled module whose source changed since is not used (with a warning). `make clean`
# removes the build. `pip install -e` itself never compiles: make lab and make test end with
# this step, which prints a line per module (about five minutes of CPU, halved on 2 cores).
BUILD_STAMP := $(VENV)/.installed-build
$(BUILD_STAMP): | $(STAMP)
	$(BIN)/python -m pip install --quiet "Cython>=3.0" "setuptools>=77"
	touch $@

compiled: setup $(BUILD_STAMP)
	@echo "compiling the engine (the pure Python runs wherever this fails: docs/compiled.md)..."
	$(BIN)/python setup.py -q build_ext --inplace --parallel $$(nproc 2>/dev/null || echo 2)

PURE_TESTS := tests/test_rules.py tests/test_orthodox.py tests/test_perft.py \
	tests/test_die_perft.py tests/test_legality_shortcuts.py tests/test_replays.py \
	tests/test_replay_resolve.py tests/test_rule_contract.py tests/test_plugins.py \
	tests/test_movegen_yardstick.py tests/test_compiled.py
pure-tests: test-setup
	TAVREI_PURE=1 $(BIN)/python -m pytest -q $(PURE_TESTS)

# The documentation site (Sphinx + myst-nb, docs/conf.py): the rules, the tutorials run
# while it is built, the API reference from the docstrings, the CLI reference from the
# parser. Warnings are errors. Its tools are the "docs" extra, kept out of `make lab`.
$(DOCS_STAMP): pyproject.toml | $(TEST_STAMP)
	$(BIN)/python -m pip install --quiet -e ".[lab,test,cluster,docs]"
	touch $@

docs: $(DOCS_STAMP)
	$(BIN)/python -m sphinx -W --keep-going -q -b html -c docs -d build/docs/doctrees . build/docs/html
	@echo "documentation: build/docs/html/docs/index.html"

# The fast loop (CONTRIBUTING.md): the linters and the tests that need no browser, no
# notebook run and no site build -- under two minutes on a laptop.
FAST_TESTS := tests/test_game_edges.py tests/test_notation.py tests/test_rules.py \
	tests/test_chess_habits.py tests/test_render.py tests/test_tree.py tests/test_variants.py \
	tests/test_architecture.py tests/test_exercises.py tests/test_die.py tests/test_orthodox.py \
	tests/test_plugins.py tests/test_rule_contract.py tests/test_cli_bounds.py
check: test-setup
	$(BIN)/ruff check tavrei_lab tests benchmarks
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -m "not slow and not browser and not lite" $(FAST_TESTS)

# The oldest Python claimed (requires-python >= 3.10): the built wheel in a 3.10 venv
# (pyenv's, or TAVREI_PYTHON310=/path/to/python3.10); `make test` runs it too.
py310: test-setup
	$(BIN)/python -m pytest -q tests/test_packaging.py -k oldest_python

lint: test-setup
	$(BIN)/ruff check tavrei_lab tests benchmarks
	$(BIN)/lint-imports
	$(BIN)/mypy

bench: test-setup
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build dist *.egg-info _site .jupyterlite.doit.db test-artifacts
	find tavrei_lab -name '*.so' -delete; rm -f tavrei_lab/_compiled.json

# -- Zero-install classroom: the tutorials as an offline JupyterLite site --------------------
# `make site` builds _site/ from a clean state: tavrei_lab's own wheel, its pure-Python
# dependencies and the Pyodide runtime are all served from that folder, the notebooks/
# are its contents. Needs npm and a Python >= 3.12 (found on PATH or under pyenv, or set
# LITE_PYTHON=/path/to/python3.12); the build tools go into build/lite/venv. The offline
# browser test (tests/test_lite_site.py) builds the same way inside `make test`.
.PHONY: site
site:
	$(PYTHON) scripts/build_site.py --output _site
