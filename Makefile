# Entry points. The quick start is `make demo` and `make test`.
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip
BUILD_DIR ?= build/dev
PYTEST_ARGS ?=

.PHONY: demo test install install-test dev clean

# Builds and installs the package, exports a tokenizer, encodes and decodes
# real text, and prints a short speed comparison with the installed peers.
demo: install
	$(PYTHON) bench/demo.py

# Installs the test dependencies and the package, then runs every test.
test: install-test
	$(PYTHON) -m pytest $(PYTEST_ARGS)

install:
	$(PIP) install --quiet .

install-test:
	$(PIP) install --quiet ".[test]"

# In-place build for development: compiles the extension into src/mtok/.
# Use with PYTHONPATH=src.
dev:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=$$(which $(PYTHON)) >/dev/null
	cmake --build $(BUILD_DIR) -j2
	cp $(BUILD_DIR)/_native*.so src/mtok/

clean:
	rm -rf build src/mtok/_native*.so
