# Every target sets itself up: a fresh machine needs only python3.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test docs lint typecheck pytest test-slow test-loop soak bench fleet-bench key-contrast translations clean sim
.PHONY: install uninstall service-test pi-userland pi-userland-all test-trixie provision-test
.PHONY: cafe-demo cafe-service-test cafe-flood-bench touch-rule-rates

# Every module compiled once and kept: with PYTHONDONTWRITEBYTECODE set, each test worker, mypy
# and the site would compile the same modules again, and pytest rewrite every test file again.
unexport PYTHONDONTWRITEBYTECODE

# The venv: pip puts uv in it (the machine's pip where there is one, so the venv needs no pip of
# its own), and uv resolves and installs `.[test]` in a few CPU seconds where pip takes over a
# minute; its downloads stay in ~/.cache/uv for the next clone. It leaves the bytecode to be
# compiled at the first import, of only the modules imported (compiling all, as pip does, costs
# more than the whole install); pip is installed too, for the scripts that run `pip freeze`.
UV := $(VENV)/bin/uv
UV_INSTALL := $(UV) pip install --quiet --native-tls --python $(PY)
PIP_INSTALL := install --quiet --disable-pip-version-check
$(STAMP): pyproject.toml
	test -x $(UV) || { python3 -m pip --version >/dev/null 2>&1 && python3 -m venv --without-pip $(VENV) \
		&& python3 -m pip --python $(PY) $(PIP_INSTALL) uv; } \
		|| { python3 -m venv $(VENV) && $(PY) -m pip $(PIP_INSTALL) uv; }
	$(UV_INSTALL) -e '.[test]' pip
	touch $@

# The four checks at once, once the venv is there, each one's output printed whole as it ends:
# on 2 cores the type check, the lint and the site fill the gaps of the tests' waits.
test: $(STAMP)
	@$(MAKE) --no-print-directory -j4 --output-sync=target lint typecheck pytest docs

# The guides as one site in site/ (MkDocs, strict: a broken link, an unknown anchor or a page
# left out of the navigation fails it).
docs: $(STAMP)
	$(PY) -m tools.build_docs

# The desktop simulation in this terminal; options go in SIM_ARGS, e.g. SIM_ARGS="--lang it".
sim: $(STAMP)
	$(VENV)/bin/codenames-table sim $(SIM_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# One worker per core and one more (pytest-xdist): many tests spend part of their time waiting
# on a timer or a Textual app's idle, and the extra worker fills those gaps. A worker that runs
# out of tests takes some of the others', so a core is not left idle behind a long test.
# PYTEST_ARGS= runs in one process.
# `make pytest` leaves out the tests marked slow (real processes, brokers, a browser: the list is
# in tests/conftest.py), which `make test-slow` runs and CI runs after `make test`;
# PYTEST_MARK= runs every test, as `make test-trixie` does.
# Each worker collects every test itself: one collection in one process first leaves the test
# files rewritten for pytest's asserts and every module compiled, which the workers then only
# load, where from a fresh clone each would do it all again. Its errors are the run's own, so
# the run that follows reports them.
PYTEST_ARGS ?= -n $(shell echo $$(( $$(nproc) + 1 ))) --dist worksteal
PYTEST_MARK ?= not slow
COLLECT_FIRST = $(if $(findstring -n ,$(PYTEST_ARGS)),$(VENV)/bin/pytest -qq --collect-only -m "$(1)" >/dev/null || true)
pytest: $(STAMP)
	$(call COLLECT_FIRST,$(PYTEST_MARK))
	$(VENV)/bin/pytest -q $(PYTEST_ARGS) -m "$(PYTEST_MARK)"

test-slow: $(STAMP)
	$(call COLLECT_FIRST,slow)
	$(VENV)/bin/pytest -q $(PYTEST_ARGS) -m slow

# The flake check (long: TEST_LOOP_RUNS times the suite, 10 by default): `make pytest` run again
# and again with two other copies of it running beside it, each run's result printed as it ends
# (tools/test_loop.py); exits 1 if any run failed. TEST_LOOP_ARGS="--beside 1" eases the load.
TEST_LOOP_RUNS ?= 10
test-loop: $(STAMP)
	$(PY) -m tools.test_loop --runs $(TEST_LOOP_RUNS) $(TEST_LOOP_ARGS)

# The power-cut soak (about 20 s): the table killed with SIGKILL at 50 random moments, where
# `make test` kills it 12 times; each run draws a new seed and prints it, SOAK_SEED=N plays that
# run again. CI runs it after `make test`.
SOAK_KILLS ?= 50
soak: $(STAMP)
	SOAK_KILLS=$(SOAK_KILLS) SOAK_SEED=$(SOAK_SEED) $(VENV)/bin/pytest -q -rP \
		tests/table/test_robustness.py -k test_sigkill_at_random_moments

# Measure the table on virtual hardware in real time (about two minutes, and as long again for
# the touches with a fleet's broker down and slow): one JSON object on standard output, the
# comparison with the budgets on standard error.
bench: $(STAMP)
	@$(PY) -m tools.bench

# The finger's rule over many chip noise seeds (about 12 min on 2 cores): hands counted and
# fingers seen on the capacitive pads' physical model, read regularly and by a starved driver,
# each with its 95 % interval, as one JSON object. Options in TOUCH_RULE_RATES_ARGS, e.g.
# TOUCH_RULE_RATES_ARGS="--seeds 60:120 --reads regular".
touch-rule-rates: $(STAMP)
	@$(PY) -m tools.touch_rule_rates $(TOUCH_RULE_RATES_ARGS)

# The café fleet at scale (about 40 s): 50 headless tables through one Mosquitto into one café
# view; action-to-view latency, messages a second, CPU and memory, as one JSON object.
# A chain of cafés: TABLES=500 BRIDGED=1 (light tables, two café brokers bridged to a chain's),
# and RESTART=1 to restart a café broker mid-run.
fleet-bench: $(STAMP)
	@$(PY) -m tools.fleet_bench $(if $(TABLES),--tables $(TABLES)) \
		$(if $(BRIDGED),--bridged --light --workers 4) $(if $(RESTART),--restart) $(FLEET_BENCH_ARGS)

# A café on this machine: a Mosquitto on loopback, four virtual tables playing in real time and
# the café view's page on http://127.0.0.1:8080/, until Ctrl-C stops them all. Options go in
# CAFE_DEMO_ARGS, e.g. CAFE_DEMO_ARGS="--tables 3 --lang it --http 0.0.0.0:8080".
cafe-demo: $(STAMP)
	@$(PY) -m tools.cafe_demo $(CAFE_DEMO_ARGS)

# The café view under a flood (about 1 min): 10,000 tables' retained messages and 1,000 messages
# a second into `cafe --no-terminal --http`; news-to-page delay, memory, drops, SIGTERM's stop.
cafe-flood-bench: $(STAMP)
	@$(PY) -m tools.cafe_flood_bench $(CAFE_FLOOD_BENCH_ARGS)

# The LED key's contrast: the hardest pair of cell states to tell apart at each brightness level,
# in CIEDE2000 units, also as colour-blind spymasters see it; exits 1 when one is under 12.
key-contrast: $(STAMP)
	@$(PY) -m tools.key_contrast

# The hardware from its sources (hardware/README.md): the schematic's netlists, BOM and connector
# list, the drawings and the cut files; exits 1 on an electrical rules error, a wire that does not
# follow pinout.toml, or a simulated value outside the firmware's assumptions (needs ngspice).
.PHONY: hardware
HARDWARE_STAMP := $(VENV)/.hardware-installed
$(HARDWARE_STAMP): pyproject.toml $(STAMP)
	$(UV_INSTALL) -e '.[hardware]'
	touch $@
hardware: $(HARDWARE_STAMP)
	$(PY) hardware/make_hardware.py

# Recompile the gettext catalogs after editing a firmware/table/locale/*/LC_MESSAGES/table.po file.
translations: $(STAMP)
	for lang in en es pt it; do \
		$(VENV)/bin/pybabel compile -D table -d firmware/table/locale -l $$lang || exit 1; \
	done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis

# On a Raspberry Pi, as root (`sudo make install`): the service, its user and its own venv in
# /opt/codenames-table; run again to update. `systemd/install.sh --check` only reports what is
# missing. Neither target needs the development .venv.
install:
	sh systemd/install.sh

# Removes all that `install` put in place but the saved games (/var/lib/codenames-table).
uninstall:
	sh systemd/uninstall.sh

# Not part of `make test` (minutes under qemu), as root on Debian or Ubuntu: run install.sh in an
# arm64 Debian root as on a fresh 64-bit Raspberry Pi OS, faking a Pi, and import the hardware
# libraries of its LED backend from the venv it installs (systemd/pi_userland.sh). PI_RELEASE is
# bookworm (Python 3.11) or trixie (3.13), PI_MODEL pi4 (rpi-ws281x, compiled) or pi5
# (neopixel-spi, no compiler). The roots are cached machine-wide in $(ROOT_CACHE) (override with
# CODENAMES_ROOT_CACHE). PI_USERLAND_ARGS=--refresh-constraints rewrites
# systemd/pi-constraints.txt. pi-userland-all runs every release with the models CI proves.
PI_RELEASE ?= bookworm
PI_MODEL ?= pi4
ROOT_CACHE := $(or $(CODENAMES_ROOT_CACHE),/var/cache/codenames-table)
pi-userland:
	sh systemd/pi_userland.sh --release $(PI_RELEASE) --model $(PI_MODEL) $(PI_USERLAND_ARGS)

pi-userland-all:
	sh systemd/pi_userland.sh --release bookworm --model pi4
	sh systemd/pi_userland.sh --release trixie --model pi5
	sh systemd/pi_userland.sh --release trixie --model pi4

# The service under a real systemd, in a container, as root, on each Raspberry Pi OS release's
# Debian: Bookworm (systemd 252, a faked Pi 4) and Trixie (systemd 257, a faked Pi 5); only one
# with SERVICE_TEST_RELEASES=trixie. install.sh, then readiness, saving, the watchdog, restarts,
# a config error, a clean stop, the sandbox and the security score (README: The service under
# systemd). The roots are cached in $(ROOT_CACHE). Skips, saying why, where no container can
# boot; CI runs it.
SERVICE_TEST_RELEASES ?= bookworm trixie
service-test:
	python3 -m tools.service_test $(SERVICE_TEST_RELEASES)

# The whole test suite under Debian Trixie's own Python 3.13 (the Pi's, not the desktop's), in a
# Trixie root run with systemd-nspawn, as root (tools/release_suite.py); cached in $(ROOT_CACHE).
test-trixie:
	python3 -m tools.release_suite trixie

# The café's counter machine under a real systemd, in the same container as service-test, as
# root: a broker recipe, install-cafe.sh, then Mosquitto with TLS and passwords, the café view's
# page, a table on virtual hardware on it, the view's sandbox and score. Skips where no
# container can boot.
cafe-service-test: $(STAMP)
	$(PY) -m tools.cafe_service_test

# A table set up the café's way (docs/staff.md), as root: a Debian Trixie root booted with
# its own systemd and cloud-init, seeded with `codenames-table provision`'s files for a broker
# recipe's Mosquitto on the host; the first boot must install the table, start it and report to
# the broker as its own user, the second change nothing; then `codenames-table update` must move
# it to a new version only once the game in play is over, and `--previous` back. The root is
# cached in /var/cache/codenames-table. PROVISION_SUITE=bookworm boots Debian 12 instead. Skips,
# saying why, where no container can boot.
provision-test: $(STAMP)
	$(VENV)/bin/python -m tools.provision_test $(PROVISION_SUITE)
