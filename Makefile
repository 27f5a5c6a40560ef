# The two commands for a fresh machine: `make run` and `make test`. Each installs what it needs first.
.PHONY: deps run test bench typecheck deps-check doctor install pi-check echo-room capture-soak

# `make run` keeps its state (database, Whisper model) here, so it needs no root; the Pi install uses /var/lib/hark.
STATE ?= $(CURDIR)/.hark
MODEL ?= base.en-q5_1

deps:
	bash scripts/dev-deps.sh

run: deps
	@mkdir -p $(STATE)/models
	@test -f $(STATE)/models/ggml-$(MODEL).bin || node bin/hark.js model fetch $(MODEL) --dir $(STATE)/models
	@# the same malloc settings as the systemd unit: Whisper's per-inference buffers go back after each segment
	MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=65536 MALLOC_TRIM_THRESHOLD_=131072 \
	  node bin/hark.js run --db $(STATE)/hark.db --model $(STATE)/models/ggml-$(MODEL).bin $(ARGS)

test: deps
	npm run -s typecheck
	@# the layer rules (docs/architecture.md): no import circle, no import from a lower layer up
	npm run -s deps:check
	@mkdir -p test-output
	npx vitest run --reporter=default --reporter=json --outputFile.json=test-output/vitest-results.json; \
	  status=$$?; node scripts/test-summary.mjs test-output/vitest-results.json; exit $$status

bench: deps
	npx vitest bench --run

typecheck: deps
	npm run -s typecheck

deps-check: deps
	npm run -s deps:check

doctor: deps
	node bin/hark.js doctor $(ARGS)

# On the Pi: install hark as a service (see README, "Installing on a Raspberry Pi").
install:
	sudo bash scripts/install.sh $(ARGS)

# hark on Debian trixie arm64 (Raspberry Pi OS) under qemu: the real installer, whisper.cpp for a Pi 5
# and a Pi 4, and hark's own checks in the emulated root (README, "What pi-check proves"). Slow (most
# of an hour the first time); not part of `make test` or CI. Needs root (chroot).
pi-check:
	$(if $(filter 0,$(shell id -u)),,sudo) bash scripts/pi-check.sh

# hark in simulated kitchens with the echo canceller (README, echo notes): the real `hark run`, the
# room's aplay/arecord on PATH, ~140 s a room. ROOMS picks them (test/support/room-spec.ts; default the
# three RT60s at 80 ms), e.g. `make echo-room ROOMS=tuned,tiled-kitchen`. Its counts move with the
# machine's load: run it alone. Not part of `make test` or CI. CLOCKS=1 runs `hark clocks` in the room
# first, as an install does, so hark starts from the speaker's clock measured.
echo-room: deps
	npm run -s build
	HARK_ECHO_E2E=1 $(if $(ROOMS),HARK_ECHO_ROOMS=$(ROOMS)) $(if $(CLOCKS),HARK_ECHO_CLOCKS=1) npx vitest run test/e2e/echo-room.test.ts

# The loud room through hark's own capture path: the real `hark run` on a fake arecord
# playing MINUTES of talk SPEED times real time, echo canceller in force; RSS at each STEP minutes,
# segments stored, commands acted on, CPU seconds per minute of talk. QUOTA=25: in 25 % of one core
# (cgroup v1, as root). Real time takes MINUTES of wall time: run it alone. Not part of `make test`.
MINUTES ?= 10
SPEED ?= 1
STEP ?= 5
capture-soak: deps
	npm run -s build
	SOAK_MINUTES=$(MINUTES) SOAK_SPEED=$(SPEED) SOAK_STEP_MIN=$(STEP) SOAK_QUOTA=$(QUOTA) npx vitest bench --run test/bench/capture-soak.bench.ts
