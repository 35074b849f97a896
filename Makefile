# Thin wrapper over meson + ninja: the build itself is described in meson.build.
#   make                 build everything (into build/)
#   make deps            install what is missing from Debian's archive (idempotent)
#   make demo            build and run the demo
#   make test            build (plain, ASan+UBSan, TSan) and run every test
#   make fuzz            run each fuzz target for FUZZ_SECONDS (clang + libFuzzer)
#   make bench           run the benchmarks (make bench-deps installs the peers)
#   make install PREFIX=DIR
# WERROR=1 turns warnings into errors (CI does this).

BUILD       ?= build
PREFIX      ?= /usr/local
WERROR      ?= 0
FUZZ_SECONDS ?= 30
MESON_FLAGS := -Dwerror=$(if $(filter 1,$(WERROR)),true,false)

.PHONY: all deps demo test fuzz bench bench-deps install clean

all: $(BUILD)/build.ninja
	ninja -C $(BUILD)

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_FLAGS)

deps:
	tools/install-deps

demo: all
	examples/demo.sh $(BUILD)

test:
	WERROR=$(WERROR) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/run

fuzz:
	WERROR=$(WERROR) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/run --fuzz-only

bench: all
	bench/run $(BUILD)

bench-deps:
	tools/install-deps --bench

install: all
	meson configure $(BUILD) -Dprefix=$(abspath $(PREFIX)) -Dlibdir=lib
	meson install -C $(BUILD) --quiet

clean:
	rm -rf build build-asan build-tsan build-fuzz
