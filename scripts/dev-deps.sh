#!/usr/bin/env bash
# Installs what building and testing hark needs on a Debian/Raspberry Pi OS machine:
# the apt packages (only those missing), the npm dependencies (only when the lockfile changed) and
# whisper.cpp built for this CPU (only when not yet done: scripts/build-whisper.sh).
# Used by `make run`, `make test` and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(alsa-utils sox libsox-fmt-all espeak-ng pocketsphinx-testdata build-essential python3 chromium mosquitto mosquitto-clients)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "dev-deps: installing apt packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("hark needs Node >= 20.19, this is "+process.version); process.exit(1) }'

stamp=node_modules/.hark-lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "dev-deps: npm ci"
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
else
  npm run -s build
fi

# whisper.cpp for this CPU (-march=native / -mcpu=native, -O3, NDEBUG): npm ci builds it without, and
# it then runs several times slower. Does nothing when already done (a stamp keyed on the CPU).
bash scripts/build-whisper.sh
