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
#   scripts/build-whisper.sh --print-target  print the target, where it came from, and its flag
#
# The target on a Pi comes from the Pi, never from -mcpu=native alone: an image baked under qemu, in a
# cross build or on another board would otherwise get the build machine's CPU. In order:
#   HARK_CPU=cortex-a76 | cortex-a72 | cortex-a53 | native   explicit (image builds: the card's Pi)
#   /proc/device-tree/model: Raspberry Pi 5 -> cortex-a76 (dotprod, fp16); Pi 4/400/CM4 -> cortex-a72;
#                            Pi 3 / Zero 2 -> cortex-a53
#   /proc/cpuinfo's CPU part: 0xd0b -> cortex-a76, 0xd08 -> cortex-a72, 0xd03 -> cortex-a53
#   any other arm64 CPU that /proc/cpuinfo describes: -mcpu=native; x86: -march=native
# An arm64 build whose /proc/cpuinfo is not an arm CPU's (qemu-user shows the host's) stops and asks
# for HARK_CPU. The target goes into the stamp; `hark doctor whisper` compares it with the CPU.
#
# Environment: HARK_CPU as above; HARK_WHISPER_CFLAGS replaces the flags; JOBS sets make's
# parallelism (default: the cores, fewer when memory is short); CC/CXX as usual. For tests:
# HARK_CPUINFO, HARK_DT_MODEL (paths standing in for the /proc files), HARK_MACHINE (for uname -m).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"

MODE=build
case "${1:-}" in
  "") ;;
  --force) MODE=force ;;
  --check) MODE=check ;;
  --print-flags) MODE=flags ;;
  --print-target) MODE=target ;;
  -h|--help) sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "build-whisper.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
esac

say() { printf 'build-whisper: %s\n' "$*"; }

# The target: which CPU whisper.cpp is compiled for (see the top of this file). -mcpu=cortex-a76
# turns on dotprod and fp16 (a Pi 5), cortex-a72 neither (a Pi 4); -march=native / -mcpu=native let
# gcc ask the CPU it runs on.
MACHINE="${HARK_MACHINE:-$(uname -m)}"
CPUINFO="${HARK_CPUINFO:-/proc/cpuinfo}"
DT_MODEL="${HARK_DT_MODEL:-/proc/device-tree/model}"
pi_core() { # a Pi's board name or CPU part -> its -mcpu target
  case "$1" in
    *"Raspberry Pi 5"*|*"Compute Module 5"*|*"Raspberry Pi 500"*|0xd0b) echo cortex-a76 ;;
    *"Raspberry Pi 4"*|*"Compute Module 4"*|*"Raspberry Pi 400"*|0xd08) echo cortex-a72 ;;
    *"Raspberry Pi 3"*|*"Zero 2"*|*"Compute Module 3"*|0xd03) echo cortex-a53 ;;
  esac
}
TARGET="" TARGET_FROM=""
if [ -n "${HARK_CPU:-}" ]; then
  case "$HARK_CPU" in
    cortex-a76|cortex-a72|cortex-a53|native) TARGET="$HARK_CPU"; TARGET_FROM="HARK_CPU" ;;
    *) echo "build-whisper.sh: HARK_CPU=$HARK_CPU is not a target this script knows: cortex-a76 (Pi 5), cortex-a72 (Pi 4), cortex-a53 (Pi 3, Zero 2) or native" >&2; exit 2 ;;
  esac
fi
case "$MACHINE" in
  aarch64|arm64)
    if [ -z "$TARGET" ] && [ -r "$DT_MODEL" ]; then
      board="$(tr -d '\0' <"$DT_MODEL")"
      TARGET="$(pi_core "$board")"; [ -z "$TARGET" ] || TARGET_FROM="device-tree model: $board"
    fi
    if [ -z "$TARGET" ]; then
      part="$(sed -n 's/^CPU part[[:space:]]*:[[:space:]]*//p' "$CPUINFO" 2>/dev/null | head -n1 | tr 'A-F' 'a-f')"
      if [ -n "$part" ]; then
        TARGET="$(pi_core "$part")"; [ -z "$TARGET" ] || TARGET_FROM="cpuinfo CPU part $part"
        [ -n "$TARGET" ] || { TARGET=native; TARGET_FROM="cpuinfo CPU part $part (not a Pi's core)"; }
      elif [ "$MODE" != target ] && [ "$MODE" != flags ] && [ -z "${HARK_WHISPER_CFLAGS:-}" ]; then
        echo "build-whisper.sh: $CPUINFO does not describe an arm CPU (an emulated build? qemu-user shows the host's): cannot tell which Pi this is for. Set HARK_CPU=cortex-a76 for a Pi 5 or HARK_CPU=cortex-a72 for a Pi 4." >&2
        exit 2
      else
        TARGET=unknown; TARGET_FROM="$CPUINFO does not describe an arm CPU"
      fi
    fi
    case "$TARGET" in native|unknown) arch_flag="-mcpu=native" ;; *) arch_flag="-mcpu=$TARGET" ;; esac
    ;;
  x86_64|amd64|i?86)
    case "$TARGET" in ""|native) TARGET=native; TARGET_FROM="${TARGET_FROM:-this CPU}"; arch_flag="-march=native" ;;
      *) echo "build-whisper.sh: HARK_CPU=$TARGET is an arm target, but this is $MACHINE (cross builds are not supported)" >&2; exit 2 ;; esac
    ;;
  armv6l|armv7l|armv8l) TARGET="${TARGET:-native}"; TARGET_FROM="${TARGET_FROM:-this CPU}"; arch_flag="-mcpu=native" ;;
  *) TARGET="${TARGET:-none}"; TARGET_FROM="${TARGET_FROM:-$MACHINE}"; arch_flag="" ;;
esac
if [ "$MODE" = target ]; then printf 'target %s\nfrom %s\nflag %s\n' "$TARGET" "$TARGET_FROM" "${arch_flag:-none}"; exit 0; fi
CC="${CC:-cc}"
# The test program goes in as a here-string, not through `echo |`: under pipefail, a compiler that
# exits without reading all of stdin (one that refuses the flag at once) would make echo die of
# SIGPIPE now and then, and the check fail or pass by a race.
if [ "$MODE" != flags ] && [ -n "$arch_flag" ] && [ -z "${HARK_WHISPER_CFLAGS:-}" ] && ! "$CC" $arch_flag -x c -c -o /dev/null - 2>/dev/null <<<'int main(void) { return 0; }'; then
  case "$TARGET" in
    native|unknown|none) say "warning: $CC does not accept $arch_flag; building without CPU-specific flags" >&2; arch_flag="" ;;
    *) echo "build-whisper.sh: $CC does not accept $arch_flag (target $TARGET from $TARGET_FROM)" >&2; exit 1 ;;
  esac
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
cpu_line="$(grep -m1 -E '^(flags|Features)[[:space:]]*:' "$CPUINFO" 2>/dev/null || echo unknown)"
want="$(
  printf 'smart-whisper %s\n' "$(node -p "require('./$SW/package.json').version")"
  printf 'node-abi %s\n' "$(node -p 'process.versions.modules')"
  printf 'machine %s\n' "$(uname -m)"
  printf 'target %s\n' "$TARGET"
  printf 'cflags %s\n' "$FLAGS"
  printf 'compiler %s\n' "$("$CC" --version 2>/dev/null | head -n1)"
  # -march/-mcpu=native build for the CPU here, so its features are part of what was built; a named
  # target (a Pi's core) does not depend on the machine that builds it (an image baked elsewhere).
  case "$TARGET" in native|unknown) printf 'cpu-flags-sha256 %s\n' "$(printf '%s' "$cpu_line" | sha256sum | cut -d' ' -f1)" ;; esac
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
say "building whisper.cpp for $TARGET ($TARGET_FROM): $FLAGS, $JOBS jobs (a minute or two here, a few on a Pi); log in $LOG"
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
