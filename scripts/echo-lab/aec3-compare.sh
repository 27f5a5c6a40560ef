#!/bin/bash
# WebRTC AEC3 over the rooms the echo matrix wrote out, for a comparison with speexdsp.
#
# AEC3 is in webrtc-audio-processing 1.x: Debian trixie (Raspberry Pi OS) has it, bookworm (these
# machines) has 0.3, the legacy AEC. So it runs in a native trixie root, through chroot:
#
#   sudo scripts/echo-lab/aec3-compare.sh --make-root        # once: debootstrap trixie, g++, the dev package
#   HARK_ECHO_DUMP=/work/aec3-root/lab/rooms npx vitest bench --run test/bench/echo-matrix.bench.ts
#   sudo scripts/echo-lab/aec3-compare.sh                     # builds aec3.cc there, runs it on every room
#   HARK_AEC3_DIR=/work/aec3-root/lab/rooms npx vitest bench --run test/bench/echo-aec3.bench.ts
#
# The last step scores AEC3's output with hark's own VAD and segmenter here, as the matrix scores
# speexdsp. AEC3_ROOT (default /work/aec3-root) is the root; the rooms must lie inside it.
set -euo pipefail
ROOT=${AEC3_ROOT:-/work/aec3-root}
HERE=$(cd "$(dirname "$0")" && pwd)

[ "$(id -u)" = 0 ] || { echo "aec3-compare: needs root (debootstrap, chroot)" >&2; exit 1; }

if [ "${1:-}" = "--make-root" ]; then
  # The mirror apt uses here (FACTS.md: no other way out of this machine).
  mirror=$(grep -hoE '^URIs: *http[^ ]*/debian/?$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | sed 's/^URIs: *//')
  [ -n "$mirror" ] || mirror=$(grep -hoE '^deb +http[^ ]*/debian/? ' /etc/apt/sources.list 2>/dev/null | head -1 | awk '{print $2}')
  [ -n "$mirror" ] || { echo "aec3-compare: no Debian mirror found in /etc/apt" >&2; exit 1; }
  debootstrap --variant=minbase trixie "$ROOT" "$mirror"
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
  chroot "$ROOT" apt-get update
  # trixie's AEC3 package: libwebrtc-audio-processing-dev (webrtc-audio-processing-1, 1.3).
  chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends g++ pkg-config libwebrtc-audio-processing-dev
  exit 0
fi

[ -d "$ROOT/usr/include/webrtc-audio-processing-1" ] || { echo "aec3-compare: $ROOT has no webrtc-audio-processing-1 headers; run with --make-root first" >&2; exit 1; }
ROOMS=${1:-$ROOT/lab/rooms}
case "$(realpath "$ROOMS")" in "$(realpath "$ROOT")"/*) ;; *) echo "aec3-compare: $ROOMS must lie inside $ROOT (the chroot reads it)" >&2; exit 1 ;; esac
inside=${ROOMS#"$ROOT"}

mkdir -p "$ROOT/lab"
cp "$HERE/aec3.cc" "$ROOT/lab/aec3.cc"
chroot "$ROOT" sh -c 'cd /lab && g++ -O2 -std=c++17 aec3.cc -o aec3 $(pkg-config --cflags --libs webrtc-audio-processing-1)'

# Two variants: AEC3 alone (its linear filter and its own suppressor), and with WebRTC's noise suppression.
for room in "$ROOMS"/*/; do
  name=$(basename "$room")
  [ -f "$room/meta.json" ] || continue
  delay=$(sed -n 's/^ *"delayMs": *\([0-9.]*\).*/\1/p' "$room/meta.json" | head -1)
  : > "$room/aec3.json"
  for variant in aec3 aec3-ns; do
    ns=off
    [ "$variant" = aec3-ns ] && ns=moderate
    for run in quiet-mic quiet-echo stop-mic; do
      ref=${run%%-*}-ref.wav
      line=$(chroot "$ROOT" /lab/aec3 "$inside/$name/$ref" "$inside/$name/$run.wav" "$inside/$name/$variant-$run.wav" --ns "$ns" --delay-ms "${delay%.*}")
      echo "{\"variant\":\"$variant\",\"run\":\"$run\",\"stats\":$line}" >> "$room/aec3.json"
    done
  done
  echo "aec3-compare: $name done"
done
