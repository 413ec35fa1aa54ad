# The two commands of README.md. CMake does the real work; this file only
# chains install, configure, build and run.
BUILD      ?= build
ASAN_BUILD ?= build-asan
# make test also builds the library as a user does (build-release below):
# RELEASE_BUILD-gcc and RELEASE_BUILD-clang (RELWITHDEBINFO_BUILD-* when the
# loop there is given a RelWithDebInfo build).
RELEASE_BUILD ?= build-release
RELWITHDEBINFO_BUILD ?= build-relwithdebinfo
# make test first checks the style of src/, include/ and cli/
# (scripts/check-format.sh) and the naming rule of src/'s functions
# (scripts/check-names.sh); SERVAL_CHECK_FORMAT=0 leaves both out.
SERVAL_CHECK_FORMAT ?= 1
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
EXAMPLE    ?= examples/player.godot3
# Seconds per fuzz target: a short fixed budget in make test (and so in CI),
# a longer one in make fuzz.
FUZZ_TEST_SECONDS ?= 2
FUZZ_SECONDS      ?= 600

# Where make install puts things: PREFIX/bin/serval, PREFIX/lib, PREFIX/include,
# PREFIX/share/man/man1/serval.1, PREFIX/share/doc/serval, the shell
# completions; DESTDIR is put in front of every path (for packaging).
PREFIX     ?= /usr/local
DESTDIR    ?=

.PHONY: run run-demo test deps deps-test check-format build build-asan build-release bench clean install install-only fuzz fuzz-short web python

# Builds only the library and the command (no tests, benchmark or fuzz
# replays), then runs the demo.
run: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSERVAL_TESTS=OFF -DSERVAL_BENCH=OFF -DSERVAL_EXAMPLES=OFF >/dev/null
	cmake --build $(BUILD) -j$(JOBS) --target serval serval_shared
	@$(MAKE) --no-print-directory run-demo

# An installable wheel of the Python module of bindings/python/, with the C
# extension serval._native compiled against BUILD's libserval, into
# BUILD/python/dist/ (pip install BUILD/python/dist/serval-*.whl). Built by the
# module's own standard-library build backend: no pip, no network.
python: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD) -j$(JOBS) --target serval_shared
	mkdir -p $(BUILD)/python/dist
	cd bindings/python && SERVAL_BUILD=$(abspath $(BUILD)) python3 -c 'import sys; \
	  sys.path.insert(0, "_build"); import serval_build; \
	  print(sys.argv[1] + "/" + serval_build.build_wheel(sys.argv[1]))' $(abspath $(BUILD))/python/dist

# The demo of make run, with the serval BUILD holds: dumps a save game Godot 3
# wrote with store_var, then raises the player's gold with jq and writes the
# save back. Each command is echoed as it is run, so it can be pasted into a
# shell in this directory (tests/docs/make-run.sh checks that it can).
DEMO_DUMP = $(BUILD)/serval dump --from godot3 -O framing=prefixed $(EXAMPLE)
DEMO_EDIT = $(DEMO_DUMP) | jq '."$$map".player.gold = 9999' | $(BUILD)/serval conv -o $(BUILD)/edited.godot3
DEMO_SHOW = $(BUILD)/serval dump --from godot3 -O framing=prefixed $(BUILD)/edited.godot3 \
  | jq '."$$map".player.gold'
# $(call demo,COMMAND): prints "$ COMMAND" (quoted for the shell as it is),
# then runs it.
demo = printf '$$ %s\n' '$(subst ','\'',$(1))' && $(1)

run-demo:
	@$(call demo,$(DEMO_DUMP))
	@$(call demo,$(DEMO_EDIT))
	@$(call demo,$(DEMO_SHOW))
	@echo 'The command is $(BUILD)/serval; "make install" puts it in $(PREFIX)/bin.'

test: deps-test check-format build build-asan build-release
	@bash scripts/install-web-deps.sh
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j$(JOBS)
	$(MAKE) --no-print-directory fuzz-short

# Every libFuzzer target for FUZZ_TEST_SECONDS (decode-only and round-trip,
# per format; scripts/fuzz.sh).
fuzz-short: deps-test
	FUZZ_SEED=1 bash scripts/fuzz.sh $(FUZZ_TEST_SECONDS)

fuzz: deps-test
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

deps:
	@bash scripts/install-deps.sh build

deps-test:
	@bash scripts/install-deps.sh test

build: deps-test
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSERVAL_WERROR=ON \
	  -DSERVAL_TESTS=ON -DSERVAL_BENCH=ON -DSERVAL_EXAMPLES=ON -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

# The sanitizer pass is built with clang, so both gcc and clang compile every
# file with -Wall -Wextra -Werror on each run of make test.
build-asan: deps-test
	CC=clang cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSERVAL_SANITIZE=ON -DSERVAL_WERROR=ON \
	  -DSERVAL_BENCH=OFF >/dev/null
	cmake --build $(ASAN_BUILD) -j$(JOBS)

# The style checks of make test: clang-format 14 over src/, include/ and
# cli/, and public sv_ / internal sv__<module>_ names (CONTRIBUTING.md).
check-format: deps-test
ifeq ($(SERVAL_CHECK_FORMAT),1)
	bash scripts/check-format.sh
	bash scripts/check-names.sh
else
	@echo "check-format: left out (SERVAL_CHECK_FORMAT=$(SERVAL_CHECK_FORMAT))"
endif

# The builds a user makes: plain CMake (no -Werror: a new compiler's new
# warning must not break a user's build), Release (-O3) and RelWithDebInfo
# (-O2 -g), with gcc and with clang. Warnings are errors in the main gcc build
# (build) and the clang sanitizer build (build-asan); these show that the
# library builds without the project's CI options, and print any warning the
# other optimisation levels bring (gcc's -Wmaybe-uninitialized sees more after
# -O3's inlining). Nothing is run. Each compiler builds the command and the
# library in Release, the configuration the CI builds do not use; the
# RelWithDebInfo builds are left out to keep CI time down (gcc's is the main
# build's own configuration, with -Werror; clang's sits between its Debug
# sanitizer build and this Release one).
build-release: deps-test
	@set -e; for b in gcc:Release:serval clang:Release:serval; do \
	  cc=$${b%%:*}; rest=$${b#*:}; type=$${rest%%:*}; cli=$${rest#*:}; \
	  case $$type in Release) dir=$(RELEASE_BUILD)-$$cc;; *) dir=$(RELWITHDEBINFO_BUILD)-$$cc;; esac; \
	  echo "$$type build with $$cc, as a user builds: $$dir ($$cli serval_shared)"; \
	  CC=$$cc cmake -S . -B $$dir -DCMAKE_BUILD_TYPE=$$type >/dev/null; \
	  cmake --build $$dir -j$(JOBS) --target $$cli serval_shared; \
	done

# The npm peers (bench/node/) are installed from the lock file; the benchmark
# skips them with a message when Node.js is missing.
bench: build
	@bash scripts/install-deps.sh bench
	cd bench/node && npm ci --no-audit --no-fund --silent
	./$(BUILD)/bench/serval-bench

# The browser viewer (web/): build-web/serval-viewer.html, one page that
# opens from the disk. emscripten is installed by scripts/install-web-deps.sh;
# Debian's emscripten finds its acorn module through NODE_PATH. The libraries
# of resonite and kingsisle come from the prefix the script builds them in.
web:
	@bash scripts/install-web-deps.sh
	export NODE_PATH=/usr/share/nodejs && emcmake cmake -S web -B build-web -Wno-dev \
	  -DSERVAL_WEB_DEPS="$$(bash scripts/install-web-deps.sh --prefix)" >/dev/null && \
	  cmake --build build-web -j$(JOBS)

install: run
	cmake -S . -B $(BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD) -j$(JOBS)
	$(MAKE) --no-print-directory install-only

# Installs what BUILD holds, as it is.
install-only:
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(RELEASE_BUILD)-gcc $(RELEASE_BUILD)-clang \
	  $(RELWITHDEBINFO_BUILD)-gcc $(RELWITHDEBINFO_BUILD)-clang build-fuzz
