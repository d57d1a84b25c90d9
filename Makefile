# Quick start: `make run` (`epdle play`, the helper in the terminal, on the simulated
# board) and `make test` (every test, C and Python). Both set up .venv themselves.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST_BUILD := build/host
SIM_LIB := $(abspath $(HOST_BUILD)/firmware/libepdle_sim.so)
KERNEL_LIB := $(abspath $(HOST_BUILD)/host/native/libepdle_buckets.so)
FUZZ_SECONDS ?= 30
export EPDLE_SIM_LIB := $(SIM_LIB)

.PHONY: run test test-c test-py native venv bootstrap size pic pic-test fuzz soak lint format golden bench \
	clean hardware flash

# tools/setup/bootstrap.sh: what the target needs (installed with apt-get, or named), and a
# copied checkout's stale .venv / CMake cache removed. `make run` needs no test tools,
# builds without the C tests and says little.
BOOTSTRAP_FOR ?= test
NATIVE_TESTS ?= ON
NATIVE_QUIET ?=

run: BOOTSTRAP_FOR = run
run: NATIVE_TESTS = OFF
run: NATIVE_QUIET = quiet
run: venv native
	$(VENV)/bin/epdle play

test: test-c test-py

bootstrap:
	@bash tools/setup/bootstrap.sh $(BOOTSTRAP_FOR)

# `make run` (or `make`) alone installs the package, its runtime dependencies and the web
# page's (`epdle web`); any
# other goal the dev tools as well (a superset, so it stamps both). Chosen from the goals:
# a target-specific value would not reach a prerequisite list.
VENV_FOR := $(if $(filter-out run,$(MAKECMDGOALS)),test,run)
venv: bootstrap $(VENV)/.stamp-$(VENV_FOR)

# The install builds the native libraries too: reinstall when what they are made of changes.
INSTALL_INPUTS := pyproject.toml CMakeLists.txt host/native/CMakeLists.txt

$(VENV)/.stamp-run: $(INSTALL_INPUTS)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[web,plot]'
	touch $@

$(VENV)/.stamp-test: $(INSTALL_INPUTS)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,wordfreq]'
	touch $@ $(VENV)/.stamp-run

# The host build: simulated board library, the solver's kernel + C unit tests.
native: venv
	@bash tools/setup/build_native.sh $(HOST_BUILD) $(NATIVE_TESTS) $(NATIVE_QUIET)
	@# The editable install keeps its own copies of the libraries: refresh them, so that
	@# .venv/bin/epdle (without EPDLE_SIM_LIB) runs the firmware and kernel just built too.
	@installed="$$(env -u EPDLE_SIM_LIB $(PY) -c 'from epdle.sim import library_path; print(library_path())')"; \
	cmp -s $(SIM_LIB) "$$installed" || cp --remove-destination $(SIM_LIB) "$$installed"
	@installed="$$($(PY) -c 'from epdle.solver.ranking.pure.kernel import library_path; print(library_path() or "")')"; \
	[ -z "$$installed" ] || cmp -s $(KERNEL_LIB) "$$installed" || cp --remove-destination $(KERNEL_LIB) "$$installed"

test-c: native
	ctest --test-dir $(HOST_BUILD) --output-on-failure

test-py: venv native
	$(PY) -m pytest

# Program words, static RAM and stack of the PIC image, per module (make pic's report).
size: pic
	@cat build/pic/report.txt

# The firmware for the PIC16F18326 with SDCC pic14 + gputils (toolchain built
# once into ~/.cache/epdle), and the 16F1788 image gpsim runs; fails past the
# flash/RAM/stack limits. See firmware/toolchain/README.md.
pic: venv
	bash tools/pic/build.sh

# The firmware's own code on the instruction set, in gpsim (after make pic).
pic-test: venv
	$(PY) tests/firmware/pic/gpsim_test.py --write-doc
	$(PY) tests/firmware/pic/p16f18326/model_test.py
	$(PY) tests/firmware/pic/p16f18326/image_test.py --write-doc

# The schematic (hardware/kicad/, written by tools/hardware/gen_schematic.py) through
# KiCad's ERC, and the netlist, BOM and drawing exported from it compared with the
# committed ones. Needs kicad-cli (KiCad >= 7: bash tools/setup/bootstrap.sh ci).
hardware:
	$(PYTHON) tools/hardware/check_hardware.py

# Program a device with MPLAB IPE's ipecmd and a PICkit 4/5 or MPLAB Snap on J2 (HEX=, TOOL=,
# POWER=: see tools/hardware/flash.sh and hardware/flashing.md).
flash:
	bash tools/hardware/flash.sh

# Bounded fuzzing of the C packet parser and frame decoder (clang, libFuzzer).
fuzz:
	bash tools/setup/fuzz.sh $(FUZZ_SECONDS)

# The link's fault campaign at length (tests/link/link_campaign.py; make test runs 24
# rounds): SOAK_ROUNDS rounds from seed SOAK_SEED.
SOAK_ROUNDS ?= 1000
SOAK_SEED ?= 1
soak: venv native
	EPDLE_CAMPAIGN_ROUNDS=$(SOAK_ROUNDS) EPDLE_CAMPAIGN_SEED=$(SOAK_SEED) \
		$(PY) -m pytest -q -s tests/link/test_link_campaign.py

lint: venv
	$(VENV)/bin/ruff check host tests tools
	$(VENV)/bin/ruff format --check host tests tools
	$(VENV)/bin/mypy
	clang-format --dry-run --Werror $$(git ls-files 'firmware/*.[ch]' 'host/*.[ch]' 'tests/*.[ch]')

format: venv
	$(VENV)/bin/ruff format host tests tools
	$(VENV)/bin/ruff check --fix host tests tools
	clang-format -i $$(git ls-files 'firmware/*.[ch]' 'host/*.[ch]' 'tests/*.[ch]')

# Regenerate golden images after an intended design change.
golden: venv
	$(PY) tools/gen/regen_golden.py

bench: venv
	$(VENV)/bin/epdle bench --strategy best

clean:
	rm -rf build $(VENV)
