# Entry points. The quick start is `make demo` and `make test`.
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip
BUILD_DIR ?= build/dev
PYTEST_ARGS ?=

.PHONY: demo test install install-test dev clean test-tiktoken-suite sanitize

# Builds and installs the package, exports a tokenizer, encodes and decodes
# real text, and prints a short speed comparison with the installed peers.
demo: install
	$(PYTHON) bench/demo.py

# Installs the test dependencies and the package, then runs every test.
test: install-test
	$(PYTHON) -m pytest $(PYTEST_ARGS)

install:
	$(PIP) install --quiet .

# valgrind counts instructions for the worst-case tests (from Debian, as
# root; elsewhere those tests skip and say why).
install-test:
	@command -v valgrind >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; } || \
		echo "valgrind is not installed: tests/hostile/test_worst_case_work.py will skip"
	$(PIP) install --quiet ".[test]"

# In-place build for development: compiles the extension into src/mtok/.
# Use with PYTHONPATH=src. The unit tests' hook module (mtok_testing) is
# built too but stays in $(BUILD_DIR), where tests/hooks_module.py finds it.
dev:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DMTOK_PYTHON=ON -DMTOK_TEST_HOOKS=ON \
		-DPython_EXECUTABLE=$$(which $(PYTHON)) >/dev/null
	cmake --build $(BUILD_DIR) -j2
	@# Copy then rename: a process that has the old module mapped keeps it intact.
	for f in $(BUILD_DIR)/_native*.so $(BUILD_DIR)/_native.pyi; do \
		cp "$$f" "src/mtok/.$$(basename $$f).tmp" && mv "src/mtok/.$$(basename $$f).tmp" "src/mtok/$$(basename $$f)"; done

clean:
	rm -rf build src/mtok/_native*.so src/mtok/_native.pyi

# Runs openai/tiktoken's own tests with `import tiktoken` resolving to
# mtok.tiktoken. TIKTOKEN_TESTS is the tests/ folder of a tiktoken checkout,
# for example: git -C /work/.mirror/openai+tiktoken/repo archive HEAD tests | tar -x -C /tmp/tiktoken
test-tiktoken-suite:
	@test -n "$(TIKTOKEN_TESTS)" || { echo "set TIKTOKEN_TESTS=/path/to/tiktoken/tests"; exit 2; }
	cd "$(TIKTOKEN_TESTS)/.." && PYTHONPATH="$(CURDIR)/tests/tiktoken_shim:$(CURDIR)/src$${PYTHONPATH:+:$$PYTHONPATH}" \
		$(PYTHON) -m pytest -p mtok_tiktoken_alias -p no:cacheprovider -q "$(TIKTOKEN_TESTS)" $(PYTEST_ARGS)

# ASan + UBSan: builds the extension into $(ASAN_DIR) (never src/mtok), stages
# a private copy of the package there, and runs the unit, format and hostile
# tests plus a small parity subset under the sanitizers. tests/capi builds
# libmtok, the C API's test programs and the examples with the sanitizers
# too (MTOK_CAPI_SANITIZE=1, in build/capi-asan) and runs them with leak
# checking on, against the sanitized extension. Python itself is not
# instrumented, so libasan is preloaded (with libstdc++, or ASan cannot
# intercept C++ throws from the extension) and leak checking is off.
ASAN_DIR ?= build/asan
# Everything is several times slower under ASan (Python's allocations too):
# the default set is the format and input tests, the regex unit and budget
# tests and the tiktoken parity subset; pass SANITIZE_TESTS=tests for
# everything.
SANITIZE_TESTS ?= tests/format tests/hostile/test_input_limits.py tests/hostile/test_regex_stages.py \
	tests/unit/test_regex.py tests/parity/test_tiktoken.py tests/capi
sanitize:
	cmake -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMTOK_SANITIZE=ON -DMTOK_PYTHON=ON -DMTOK_TEST_HOOKS=ON \
		-DPython_EXECUTABLE=$$(which $(PYTHON)) >/dev/null
	cmake --build $(ASAN_DIR) -j2
	rm -rf $(ASAN_DIR)/site && mkdir -p $(ASAN_DIR)/site/mtok
	for f in src/mtok/*; do case $$f in *_native*) ;; *) ln -s "$$(realpath $$f)" $(ASAN_DIR)/site/mtok/ ;; esac; done
	cp $(ASAN_DIR)/_native*.so $(ASAN_DIR)/site/mtok/
	LD_PRELOAD="$$($${CXX:-g++} -print-file-name=libasan.so) $$($${CXX:-g++} -print-file-name=libstdc++.so)" \
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	PYTHONPATH=$(ASAN_DIR)/site:tests MTOK_CACHE_DIR=$(ASAN_DIR)/cache MTOK_TEST_HOOKS_DIR=$(ASAN_DIR) MTOK_CAPI_SANITIZE=1 \
		$(PYTHON) -m pytest -q -p no:cacheprovider $(SANITIZE_TESTS) -k "not 100_mb" $(PYTEST_ARGS)
