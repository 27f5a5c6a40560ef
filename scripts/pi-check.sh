#!/usr/bin/env bash
# make pi-check: hark installed, built and run on Debian trixie arm64 (what Raspberry Pi OS is now),
# emulated with qemu-user on this machine. Slow (most of an hour the first time, whisper.cpp is
# compiled three times under emulation); not part of `make test` or CI.
#
#   sudo make pi-check                    every step; prints a table (step, pass/fail, seconds)
#   sudo PI_CHECK_ONLY="segment run" scripts/pi-check.sh    only these steps (the root as it is)
#
# Steps, in order:
#   gcc14-registry-fails  smart-whisper 0.8.1 from the registry does not build with trixie's GCC 14
#   gcc14-vendored-builds hark's vendored smart-whisper does (both in a native trixie root: minutes)
#   arm64-root            the arm64 trixie root exists (made by debootstrap when missing)
#   copy-tree             this working tree (no node_modules, dist, .git) into the root
#   install               the real scripts/install.sh, as an image is baked: HARK_CPU=cortex-a76,
#                         no systemd running, no /boot/firmware
#   addon-a76             the installed addon carries dotprod (SDOT/UDOT) and fp16 code (Pi 5)
#   doctor                hark doctor --json on a Pi 5's /proc/cpuinfo: only hardware checks fail,
#                         and the whisper build check names cortex-a76
#   moved-card            the Pi 5 addon on a Pi 4's /proc/cpuinfo: doctor fails naming the rebuild
#                         command, and hark transcribe refuses to load it (no SIGILL)
#   segment               hark segment on jfk.wav and generated kitchen recordings: the same
#                         segments, to the sample, as this machine's (x86) hark
#   model                 the installer's model step (hark model fetch, sha256 checked) from a
#                         local server with the test model (Hugging Face is out of reach here)
#   transcribe            hark transcribe jfk.wav with the test model (whisper.cpp's NEON code runs)
#   run                   hark run --input ... --exit-at-end --json: store rows, /healthz answers,
#                         the fleet client online on the root's Mosquitto
#   addon-a72             HARK_CPU=cortex-a72 build-whisper.sh (started in the background after
#                         install): NEON, no dotprod, no fp16 (Pi 4)
#   echo-speed            the echo canceller (hark-aec's speexdsp + hark's delay tracking) on arm64:
#                         it finds the delay and converges, with one clock and with the speaker
#                         100 ppm off (the skew followed, the resampler in use); CPU per 32 ms frame
#   unit-tests            the browser-free unit tests (see PI_TESTS below) under arm64
#
# Environment: HARK_PI_ROOT (default .pi-check/trixie-arm64), HARK_TRIXIE_HOST_ROOT (the native
# trixie root for the GCC 14 steps, default .pi-check/trixie-<this arch>), JOBS (default 2),
# PI_CHECK_ONLY (space-separated step names). Needs root: chroot, mount, debootstrap.
set -uo pipefail
cd "$(dirname "$0")/.."
REPO="$(pwd)"
. scripts/pi-check/chroot-lib.sh

R="${HARK_PI_ROOT:-$REPO/.pi-check/trixie-arm64}"
CACHE="$REPO/.pi-check/cache"
LOGS="$REPO/.pi-check/logs"
JOBS="${JOBS:-2}"
SHARED="${HARK_SHARED:-$REPO/../shared}"
FIX="$REPO/scripts/pi-check/fixtures"
# Unit tests that need no browser, no hardware and no network, and finish under emulation in minutes:
# the pure logic and the real-process tests of the parts whose arm64 build is in question (SQLite
# through better-sqlite3, Silero through onnxruntime's arm64 binary and the fvad WASM, whisper.cpp's
# addon reading, the build scripts). Left out: the Chromium (e2e, debug page) tests (no arm64
# Chromium download), benchmarks (timings under qemu mean nothing), the disk-full tests (they mount
# small filesystems), the Ollama suites (a fake server per test: long under emulation, nothing
# arm64-specific) and the long daemon suites (the real `hark run` above covers that path).
PI_TESTS="${PI_TESTS:-test/stt/whisper-cpu-features.test.ts test/stt/whisper-addon-elf.test.ts test/doctor/whisper-build.test.ts test/install/build-whisper.test.ts test/install/target.test.ts test/install/smart-whisper-vendor.test.ts test/store/store.test.ts test/store/durability.test.ts test/store/corrupt.test.ts test/store/retention.test.ts test/vad test/config test/intent/rules.test.ts test/intent/numbers-duration.test.ts test/echo/echo-stage.test.ts}"

[ "$(id -u)" = 0 ] || { echo "pi-check: needs root (chroot, mount, debootstrap): sudo make pi-check" >&2; exit 2; }
mkdir -p "$CACHE" "$LOGS"

NAMES=() RESULTS=() SECS=()
FAILED=0
INSTALL_FAILED=0
# Steps that need the installed hark: not run (and counted as failures) when the install failed.
NEEDS_INSTALL=" model addon-a76 doctor moved-card segment transcribe run addon-a72 echo-speed unit-tests "
# step NAME FUNCTION: runs it with its output in .pi-check/logs/NAME.log, records pass/fail and time.
step() {
  local name="$1" fn="$2" t0 rc
  if [ -n "${PI_CHECK_ONLY:-}" ] && [[ " $PI_CHECK_ONLY " != *" $name "* ]]; then return 0; fi
  if [ "$INSTALL_FAILED" = 1 ] && [[ "$NEEDS_INSTALL" == *" $name "* ]]; then
    NAMES+=("$name"); SECS+=(0); RESULTS+=("not run"); FAILED=1; echo "pi-check: $name not run (the install failed)"; return 0
  fi
  printf 'pi-check: %-22s ... ' "$name"
  t0=$(date +%s)
  "$fn" >"$LOGS/$name.log" 2>&1
  rc=$?
  NAMES+=("$name"); SECS+=("$(( $(date +%s) - t0 ))")
  if [ $rc -eq 0 ]; then RESULTS+=(pass); echo "pass (${SECS[-1]} s)"; else
    RESULTS+=(FAIL); FAILED=1; [ "$name" != install ] || INSTALL_FAILED=1; echo "FAIL (${SECS[-1]} s; log: $LOGS/$name.log)"; tail -n 15 "$LOGS/$name.log" | sed 's/^/    /'
  fi
}

# Commands in the arm64 root. ccache (in the root) keeps repeated whisper.cpp builds from compiling
# again under emulation; the npm cache and apt's archives stay in the root between runs.
# prefer-offline: a re-run takes package metadata from that cache instead of asking the registry
# again (the first run spent minutes on metadata requests under emulation).
# Under emulation on a busy machine npm's default 5-minute socket timeout was hit (the first run
# failed there): longer timeouts, more retries, fewer sockets at once.
PI_EXTRA_ENV="JOBS=$JOBS npm_config_prefer_offline=true npm_config_fetch_timeout=1800000 npm_config_fetch_retries=5 npm_config_maxsockets=4 CC=/usr/lib/ccache/gcc CXX=/usr/lib/ccache/g++ CCACHE_DIR=/var/cache/hark-ccache CCACHE_BASEDIR=/ CCACHE_NOHASHDIR=1"
pi() { in_root "$R" "$@"; }
# Inside the root, as the hark user would run it (the installed copy, the installed config).
HARK="node /opt/hark/bin/hark.js"

s_gcc14_registry() {
  local t="$CACHE/smart-whisper-0.8.1.tgz"
  [ -f "$t" ] || (cd "$CACHE" && npm pack smart-whisper@0.8.1 >/dev/null) || return 1
  bash scripts/pi-check/trixie-gcc14.sh --expect-fail "$t"
}
s_gcc14_vendored() { bash scripts/pi-check/trixie-gcc14.sh; }

s_root() {
  if [ ! -x "$R/usr/bin/apt-get" ]; then bash scripts/pi-check/make-root.sh "$R" arm64 || return 1; fi
  mount_root "$R"
  [ "$(pi 'uname -m')" = aarch64 ] || { echo "the root does not run as aarch64"; return 1; }
  # What the checks use beyond the installer's own packages: ccache, Mosquitto, curl, and the
  # recordings the VAD tests read (pocketsphinx-testdata, as on the development machine).
  local need=""
  for p in ccache mosquitto mosquitto-clients curl ca-certificates pocketsphinx-testdata; do
    pi "dpkg-query -W -f='\${Status}' $p 2>/dev/null | grep -q 'install ok installed'" || need="$need $p"
  done
  if [ -n "$need" ]; then pi "apt-get -o DPkg::Lock::Timeout=1200 update -qq && apt-get -o DPkg::Lock::Timeout=1200 install -y -qq --no-install-recommends $need" || return 1; fi
  pi 'cat /etc/debian_version; gcc --version | head -n1 || true; uname -m'
}

s_copy() {
  # Seed the root's npm cache with this machine's (the same tarballs, by integrity): under emulation
  # every download is slow; only what this machine never fetched (the arm64 binaries) comes from the
  # registry then.
  local host_cache
  host_cache="$(npm config get cache 2>/dev/null)/_cacache"
  if [ -d "$host_cache" ]; then mkdir -p "$R/root/.npm/_cacache" && cp -rn "$host_cache/." "$R/root/.npm/_cacache/" 2>/dev/null || true; fi
  rm -rf "$R/root/hark-src"; mkdir -p "$R/root/hark-src"
  tar -C "$REPO" --exclude=./node_modules --exclude=./.git --exclude=./dist --exclude=./test-output \
    --exclude=./.pi-check --exclude=./.hark -cf - . | tar -C "$R/root/hark-src" -xf -
  mkdir -p "$R/root/shared/models" "$R/root/shared/audio"
  cp "$SHARED/audio/jfk.wav" "$R/root/shared/audio/"
  cp "$SHARED/models/for-tests-ggml-tiny.en.bin" "$SHARED/models/for-tests-silero-v6.2.0-ggml.bin" "$R/root/shared/models/" 2>/dev/null || true
  du -sh "$R/root/hark-src"
}

TEST_MODEL_SHA256=dd6b7796204a1cdf7164666423034e6e1a7a3e9f5c22327b4b7974c4584bd82d
s_install() {
  # The image-baking way: a chroot, no systemd, no /boot/firmware; the card is for a Pi 5. The model
  # step is run on its own below (--no-model): this machine cannot reach Hugging Face.
  pi "HARK_CPU=cortex-a76 bash /root/hark-src/scripts/install.sh --no-model" | tee "$LOGS/install.out" || return 1
  grep -q "skipped, systemd is not running" "$LOGS/install.out" || { echo "the installer did not say what it skipped"; return 1; }
  [ "$(readlink "$R/etc/systemd/system/multi-user.target.wants/hark.service")" = /etc/systemd/system/hark.service ] || { echo "hark.service not enabled offline"; return 1; }
  pi 'id hark && test -f /etc/hark/hark.yaml && grep "^target " /opt/hark/node_modules/.hark-whisper-stamp'
}

s_model() {
  # The installer's model step (`hark model fetch`: download, resume, sha256), from a local server
  # holding the test model, since Hugging Face is out of reach here.
  mkdir -p "$R/root/model-server"
  cp "$SHARED/models/for-tests-ggml-tiny.en.bin" "$R/root/model-server/ggml-for-tests-tiny.en.bin"
  pi "cd /root/model-server && (python3 -m http.server 18090 --bind 127.0.0.1 >/tmp/model-server.log 2>&1 & echo \$! >/tmp/model-server.pid)
      sleep 2; rc=0
      $HARK model fetch for-tests-tiny.en --sha256 $TEST_MODEL_SHA256 --base-url http://127.0.0.1:18090 --dir /var/lib/hark/models || rc=1
      kill \$(cat /tmp/model-server.pid); ls -l /var/lib/hark/models; exit \$rc"
}

# What an addon carries, read from the file (hark's own ELF reader: the same one hark doctor uses).
features() {
  mkdir -p "$R/root/pi-check" && cp scripts/pi-check/*.mjs "$R/root/pi-check/"
  pi "cd /opt/hark && node /root/pi-check/addon-features.mjs $1"
}

s_addon_a76() {
  features /opt/hark/node_modules/smart-whisper/build/Release/smart-whisper.node | tee "$LOGS/addon-a76.json" || return 1
  node scripts/pi-check/expect-features.mjs "$LOGS/addon-a76.json" NEON=1 DOTPROD=1 FP16_VA=1
}

# The Pi 4 build runs in a copy of the installed tree, in the background while the other checks run
# (it is a whole whisper.cpp compile under emulation); its step waits for it.
A72_PID=""
start_a72() {
  [ -z "${PI_CHECK_ONLY:-}" ] || [[ " $PI_CHECK_ONLY " == *" addon-a72 "* ]] || return 0
  pi 'rm -rf /root/hark-a72 && cp -a /opt/hark /root/hark-a72 && cd /root/hark-a72 && HARK_CPU=cortex-a72 bash scripts/build-whisper.sh && grep "^target \|^cflags " node_modules/.hark-whisper-stamp' >"$LOGS/addon-a72-build.log" 2>&1 &
  A72_PID=$!
}
s_addon_a72() {
  [ -n "$A72_PID" ] || start_a72
  wait "$A72_PID"; local rc=$?
  cat "$LOGS/addon-a72-build.log"
  [ $rc -eq 0 ] || return 1
  features /root/hark-a72/node_modules/smart-whisper/build/Release/smart-whisper.node | tee "$LOGS/addon-a72.json" || return 1
  node scripts/pi-check/expect-features.mjs "$LOGS/addon-a72.json" NEON=1 DOTPROD=0 FP16_VA=0
}

s_doctor() {
  cp "$FIX"/cpuinfo-pi5.txt "$FIX"/cpuinfo-pi4.txt "$R/root/"
  # Under qemu-user /proc/cpuinfo is the x86 host's: a Pi 5's stands in for it.
  cp "$FIX/doctor.yaml" "$R/root/doctor.yaml"
  pi "HARK_CPUINFO=/root/cpuinfo-pi5.txt $HARK doctor --json -c /root/doctor.yaml" >"$LOGS/doctor.json"
  node scripts/pi-check/expect-doctor.mjs "$LOGS/doctor.json"
}

s_moved_card() {
  local out rc
  # A card baked for a Pi 5, booted in a Pi 4: doctor names the rebuild, hark refuses the addon.
  out="$(pi "HARK_CPUINFO=/root/cpuinfo-pi4.txt $HARK doctor whisper" 2>&1)"; rc=$?
  echo "$out"
  [ $rc -eq 1 ] || { echo "doctor whisper exited $rc, expected 1"; return 1; }
  echo "$out" | grep -q "illegal instruction" && echo "$out" | grep -q "build-whisper.sh" || { echo "no illegal-instruction warning with the rebuild command"; return 1; }
  out="$(pi "HARK_CPUINFO=/root/cpuinfo-pi4.txt $HARK transcribe /root/shared/audio/jfk.wav --stt-mode local-only --model /root/shared/models/for-tests-ggml-tiny.en.bin" 2>&1)"; rc=$?
  echo "$out" | tail -n 5
  [ $rc -ne 0 ] && [ $rc -ne 132 ] || { echo "hark transcribe exited $rc (132: SIGILL), expected a refusal"; return 1; }
  echo "$out" | grep -q "refusing to load" || { echo "no refusal message"; return 1; }
}

recordings() {
  # Kitchen recordings, made once on this machine (espeak-ng + sox), copied into the root; both
  # sides segment the same files.
  if [ ! -f "$CACHE/kitchen-3.wav" ]; then bash scripts/pi-check/kitchen-recordings.sh "$CACHE" || return 1; fi
  mkdir -p "$R/root/recordings"
  cp "$SHARED/audio/jfk.wav" "$CACHE"/kitchen-*.wav "$R/root/recordings/"
}

s_segment() {
  recordings || return 1
  [ -f dist/cli.js ] || npm run -s build || return 1
  mkdir -p "$R/root/pi-check" && cp scripts/pi-check/*.mjs "$R/root/pi-check/"
  local f bad=0 out="$LOGS/segment"
  rm -rf "$out" "$R/tmp/segments"; mkdir -p "$out"
  for f in "$R"/root/recordings/*.wav; do
    f="$(basename "$f" .wav)"
    # x86: this machine's own hark, the same config file, the same recording.
    node bin/hark.js segment --json -c config/hark.yaml --out-dir "$out/x86-$f" "$R/root/recordings/$f.wav" >"$out/x86-$f.jsonl" || return 1
    pi "$HARK segment --json -c /etc/hark/hark.yaml --out-dir /tmp/segments/$f /root/recordings/$f.wav" >"$out/arm64-$f.jsonl" || return 1
    printf '%s: ' "$f"
    node scripts/pi-check/compare-segments.mjs "$out/x86-$f.jsonl" "$out/arm64-$f.jsonl" "$out/x86-$f" "$R/tmp/segments/$f" || bad=1
  done
  return $bad
}

s_transcribe() {
  cp "$FIX/run.yaml" "$R/root/run.yaml"
  # The test model has no weights (empty text), but whisper.cpp's whole NEON/dotprod path runs: every
  # segment answered by whisper, none failed or past its deadline.
  pi "$HARK transcribe --json --model /var/lib/hark/models/ggml-for-tests-tiny.en.bin -c /root/run.yaml /root/shared/audio/jfk.wav" | tee "$LOGS/transcribe.jsonl" || return 1
  [ "$(grep -c '"attempts":\[{"engine":"whisper","outcome":"ok"' "$LOGS/transcribe.jsonl")" -ge 2 ] && ! grep -q '"outcome":"failed"' "$LOGS/transcribe.jsonl" || { echo "whisper.cpp did not answer every segment"; return 1; }
}

s_run() {
  recordings || return 1
  cp "$FIX/run.yaml" "$R/root/run.yaml"
  cp scripts/pi-check/run-inside.sh "$R/root/run-inside.sh"
  pi "bash /root/run-inside.sh"
}

s_echo_speed() {
  # The canceller's cost on the Pi's instruction set (under qemu: an upper bound).
  mkdir -p "$R/root/pi-check" && cp scripts/pi-check/*.mjs "$R/root/pi-check/"
  pi "cd /opt/hark && node /root/pi-check/aec-speed.mjs /opt/hark" | tee "$LOGS/echo-speed.json" || return 1
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); if (!r.ok || !r.converged || Math.abs(r.delayMs - 50) > 2) { console.log("the canceller did not find the 50 ms echo and converge on arm64"); process.exit(1); } const d = r.drifted; if (!d || !d.converged || Math.abs(d.followedPpm - d.ppm) > 2) { console.log("the canceller did not follow the speaker skew on arm64"); process.exit(1); }' "$LOGS/echo-speed.json"
}

s_unit_tests() {
  # Under qemu-user /proc/cpuinfo is the host's: the tests that read the CPU (build-whisper.sh's
  # target, hark doctor whisper) see a Pi 5's instead, as the doctor step does. Every spawn of node
  # takes seconds under emulation: longer timeouts than on the development machine.
  cp "$FIX"/cpuinfo-pi5.txt "$R/root/"
  # The installed copy has no dev dependencies (pruned): a test copy gets them without building
  # anything again (--ignore-scripts), then takes the native addons the installer built.
  pi "set -e; rm -rf /root/hark-test; cp -a /root/hark-src /root/hark-test; cd /root/hark-test
      npm ci --ignore-scripts --no-audit --no-fund
      # hark-aec (file:native/hark-aec): npm 9 (trixie's) installs it as a copy in node_modules,
      # npm 10 and later as a link to native/hark-aec; node_modules/hark-aec/build is right for both.
      for p in smart-whisper better-sqlite3 epoll hark-aec; do rm -rf node_modules/\$p/build; cp -a /opt/hark/node_modules/\$p/build node_modules/\$p/; done
      cp /opt/hark/node_modules/.hark-whisper-stamp node_modules/
      cp -a /opt/hark/dist ./dist
      HARK_SHARED=/root/shared HARK_CPUINFO=/root/cpuinfo-pi5.txt npx vitest run --testTimeout=180000 --hookTimeout=180000 $PI_TESTS"
}

if [ -z "${PI_CHECK_ONLY:-}" ] || [[ " $PI_CHECK_ONLY " == *" arm64-root "* ]] || [ -x "$R/usr/bin/apt-get" ]; then
  trap 'umount_root "$R"' EXIT
fi
started=$(date +%s)
step gcc14-registry-fails s_gcc14_registry
step gcc14-vendored-builds s_gcc14_vendored
step arm64-root s_root
[ -x "$R/usr/bin/apt-get" ] && mount_root "$R"
step copy-tree s_copy
step install s_install
start_a72
step model s_model
step addon-a76 s_addon_a76
step doctor s_doctor
step moved-card s_moved_card
step segment s_segment
step transcribe s_transcribe
step run s_run
step addon-a72 s_addon_a72
step echo-speed s_echo_speed
step unit-tests s_unit_tests

echo
printf '%-24s %-8s %8s\n' step result seconds
for i in "${!NAMES[@]}"; do printf "%-24s %-8s %8s\n" "${NAMES[$i]}" "${RESULTS[$i]}" "${SECS[$i]}"; done
printf '%-24s %-8s %8s\n' total "$([ $FAILED = 0 ] && echo pass || echo FAIL)" "$(( $(date +%s) - started ))"
echo "logs: $LOGS   root: $R"
exit $FAILED
