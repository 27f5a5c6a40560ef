#!/usr/bin/env bash
# Builds the whisper.cpp inside smart-whisper's addon for the CPU it runs on: -O3, the CPU's SIMD
# (-march=native on x86, -mcpu=native on ARM) and -DNDEBUG. npm ci builds it with -O3 alone: ggml
# then runs its scalar code (several times slower) and prints debug lines on stderr.
# Used by scripts/dev-deps.sh (make run, make test, CI) and scripts/install.sh (on the Pi itself).
#
# Idempotent and cheap when already done: node_modules/.hark-whisper-stamp records the CPU's flags,
# the compiler flags, the compiler, smart-whisper's version, Node's ABI and the built addon's sha256;
# it rebuilds only when one of them differs (npm ci rebuilds the addon, which changes its sha256).
# The build runs in a copy and the new addon replaces the old one in one rename: a failed build
# leaves the working addon in place, and nothing ever loads a half-built one.
#
#   scripts/build-whisper.sh              build if needed
#   scripts/build-whisper.sh --force      build even if the stamp says it is done
#   scripts/build-whisper.sh --check      exit 0 if up to date, 1 if a build is needed; change nothing
#   scripts/build-whisper.sh --print-flags   print the compiler flags for this machine
#
# Environment: HARK_WHISPER_CFLAGS replaces the flags; JOBS sets make's parallelism (default: the
# cores, fewer when memory is short); CC/CXX as usual.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"

MODE=build
case "${1:-}" in
  "") ;;
  --force) MODE=force ;;
  --check) MODE=check ;;
  --print-flags) MODE=flags ;;
  -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "build-whisper.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
esac

say() { printf 'build-whisper: %s\n' "$*"; }

# The compiler flags for this machine. -march=native / -mcpu=native let gcc ask the CPU what it has
# (AVX2/FMA/F16C/AVX-512 on x86; dotprod and fp16 on a Pi 5's Cortex-A76, neither on a Pi 4's A72).
arch_flag=""
case "$(uname -m)" in
  x86_64|amd64|i?86) arch_flag="-march=native" ;;
  aarch64|arm64|armv6l|armv7l|armv8l) arch_flag="-mcpu=native" ;;
esac
CC="${CC:-cc}"
if [ -n "$arch_flag" ] && ! echo 'int main(void) { return 0; }' | "$CC" $arch_flag -x c -c -o /dev/null - 2>/dev/null; then
  say "warning: $CC does not accept $arch_flag; building without CPU-specific flags" >&2
  arch_flag=""
fi
FLAGS="${HARK_WHISPER_CFLAGS:-"-O3${arch_flag:+ $arch_flag} -DNDEBUG"}"
if [ "$MODE" = flags ]; then echo "$FLAGS"; exit 0; fi

SW="node_modules/smart-whisper"
ADDON="$SW/build/Release/smart-whisper.node"
STAMP="node_modules/.hark-whisper-stamp"
if [ ! -f "$SW/package.json" ]; then
  echo "build-whisper.sh: $ROOT/$SW is missing: run npm ci first" >&2
  exit 1
fi

sha() { sha256sum "$1" | cut -d' ' -f1; }
cpu_line="$(grep -m1 -E '^(flags|Features)[[:space:]]*:' /proc/cpuinfo 2>/dev/null || echo unknown)"
want="$(
  printf 'smart-whisper %s\n' "$(node -p "require('./$SW/package.json').version")"
  printf 'node-abi %s\n' "$(node -p 'process.versions.modules')"
  printf 'machine %s\n' "$(uname -m)"
  printf 'cflags %s\n' "$FLAGS"
  printf 'compiler %s\n' "$("$CC" --version 2>/dev/null | head -n1)"
  printf 'cpu-flags-sha256 %s\n' "$(printf '%s' "$cpu_line" | sha256sum | cut -d' ' -f1)"
)"

up_to_date() {
  [ -f "$STAMP" ] && [ -f "$ADDON" ] || return 1
  [ "$(grep -v '^addon-sha256 ' "$STAMP")" = "$want" ] || return 1
  [ "$(grep '^addon-sha256 ' "$STAMP" | cut -d' ' -f2)" = "$(sha "$ADDON")" ]
}

if [ "$MODE" != force ] && up_to_date; then
  [ "$MODE" = check ] || say "whisper.cpp is already built for this CPU ($FLAGS)"
  exit 0
fi
if [ "$MODE" = check ]; then
  say "whisper.cpp needs building for this CPU ($FLAGS)"
  exit 1
fi

# Parallel jobs: the cores, but whisper.cpp at -O3 takes ~0.5 GB per compiler, so fewer on a small Pi.
if [ -z "${JOBS:-}" ]; then
  JOBS="$(nproc 2>/dev/null || echo 1)"
  avail_mb="$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo 2>/dev/null || echo 0)"
  if [ "${avail_mb:-0}" -gt 0 ] && [ $((avail_mb / 600)) -lt "$JOBS" ]; then JOBS=$((avail_mb / 600)); fi
  [ "$JOBS" -ge 1 ] || JOBS=1
fi

# Build in a copy of the package inside node_modules (so node-addon-api still resolves), through
# npm (so node-gyp gets npm's configuration: nodedir, headers, python), then swap the addon in.
rm -rf node_modules/.hark-whisper-work.*
WORK="$(mktemp -d "$ROOT/node_modules/.hark-whisper-work.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
tar -C "$SW" --exclude=./build -cf - . | tar -C "$WORK" -xf -
LOG="node_modules/.hark-whisper-build.log"
say "building whisper.cpp for this CPU: $FLAGS, $JOBS jobs (a minute or two here, a few on a Pi); log in $LOG"
started=$(date +%s)
if ! (cd "$WORK" && CFLAGS="$FLAGS" CXXFLAGS="$FLAGS" JOBS="$JOBS" npm run install --foreground-scripts --no-audit --no-fund) >"$LOG" 2>&1; then
  tail -n 40 "$LOG" >&2
  echo "build-whisper.sh: the build failed (full log: $ROOT/$LOG); the previous addon is left in place" >&2
  exit 1
fi
built="$WORK/build/Release/smart-whisper.node"
[ -f "$built" ] || { echo "build-whisper.sh: the build produced no $built (log: $ROOT/$LOG)" >&2; exit 1; }
mkdir -p "$(dirname "$ADDON")"
cp "$built" "$ADDON.new"
mv -f "$ADDON.new" "$ADDON"
{ printf '%s\n' "$want"; printf 'addon-sha256 %s\n' "$(sha "$ADDON")"; } >"$STAMP"
say "built in $(( $(date +%s) - started )) s"

# What was compiled in, read from the addon itself (the same check as hark doctor).
if [ -f dist/cli.js ]; then node bin/hark.js doctor whisper || true; fi
