#!/usr/bin/env bash
# Installs hark on Raspberry Pi OS (64-bit): packages, the app in /opt/hark, its user, config,
# the Whisper model, the Pi's boot/ALSA/udev configuration and the systemd unit. Idempotent: a second
# run changes nothing that is already right, never overwrites an edited config, and backs up any
# system file it replaces.
#
#   sudo scripts/install.sh              install and start
#   scripts/install.sh --dry-run         print the plan, change nothing
#   scripts/install.sh --root DIR        install into DIR (a directory tree, for tests); system
#                                        commands (apt, useradd, systemctl, udevadm) are skipped
#
# Baking an SD-card image (in a chroot, as pi-gen does; scripts/pi-check.sh does it in an arm64 root):
# with no systemd running, every step that can be done is done — apt, the user, npm ci, whisper.cpp
# (set HARK_CPU=cortex-a76 for a Pi 5 or cortex-a72 for a Pi 4: the build machine's CPU says nothing
# about the Pi's), the config, the model — and the unit is enabled offline (the symlink `systemctl
# enable` makes); starting it, reloading udev and the boot config are left to the first boot, and
# the installer says so.
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
ROOT=""
DRY=0
WITH_NPM=auto
MODEL="${HARK_MODEL:-base.en-q5_1}"
APT_PACKAGES=(nodejs npm alsa-utils sox libsox-fmt-mp3 espeak-ng build-essential python3)

usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  cat <<USAGE
options:
  --dry-run          print what would be done; change nothing
  --root DIR         install into DIR instead of /
  --model NAME       Whisper model to fetch (default $MODEL); --no-model to skip
  --no-npm           do not run npm ci in the installed copy (default under --root)
  --with-npm         run npm ci even under --root
USAGE
}

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY=1 ;;
    --root) ROOT="${2:?--root needs a directory}"; shift ;;
    --root=*) ROOT="${1#--root=}" ;;
    --model) MODEL="${2:?--model needs a name}"; shift ;;
    --no-model) MODEL="" ;;
    --no-npm) WITH_NPM=0 ;;
    --with-npm) WITH_NPM=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if [ -n "$ROOT" ]; then
  mkdir -p "$ROOT"
  ROOT="$(cd "$ROOT" && pwd)"
  [ "$WITH_NPM" = auto ] && WITH_NPM=0
fi
[ "$WITH_NPM" = auto ] && WITH_NPM=1

PREFIX="$ROOT/opt/hark"
ETC="$ROOT/etc/hark"
STATE="$ROOT/var/lib/hark"
UNIT="$ROOT/etc/systemd/system/hark.service"
UDEV_RULE="$ROOT/etc/udev/rules.d/99-hark-usb-mic.rules"
ASOUND="$ROOT/etc/asound.conf"
STAMP="$(date +%Y%m%d-%H%M%S)"
CHANGED=0
# Is systemd running this machine (sd_booted())? Not in a chroot, a container build or under --root:
# then nothing is started or reloaded, and the unit is enabled offline.
BOOTED=0
[ -z "$ROOT" ] && [ -d /run/systemd/system ] && BOOTED=1

say() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }

# A command that changes the running system (not files under ROOT): skipped under --root.
sys() {
  if [ -n "$ROOT" ]; then note "skipped under --root: $*"; return 0; fi
  if [ "$DRY" = 1 ]; then note "would run: $*"; return 0; fi
  "$@"
}

# A command that talks to a running systemd or udev: skipped, and said so, when none is running.
live() {
  if [ "$BOOTED" = 0 ]; then
    if [ -n "$ROOT" ]; then note "skipped under --root: $*"; else note "skipped, systemd is not running (chroot or image build; done at first boot): $*"; fi
    return 0
  fi
  sys "$@"
}

# A command that writes under ROOT.
do_() {
  if [ "$DRY" = 1 ]; then note "would run: $*"; return 0; fi
  "$@"
}

# Install $2 from the content of file $1 with mode $3. Unchanged content is left alone; a different
# existing file is kept as <file>.hark-backup-<time> (when $4 is "backup").
put_file() {
  local src="$1" dest="$2" mode="$3" policy="${4:-replace}"
  if [ -f "$dest" ] && cmp -s "$src" "$dest"; then note "unchanged: ${dest#"$ROOT"}"; return 0; fi
  CHANGED=1
  if [ -f "$dest" ] && [ "$policy" = backup ]; then
    note "$([ "$DRY" = 1 ] && echo "would back up" || echo "backing up") ${dest#"$ROOT"} to ${dest#"$ROOT"}.hark-backup-$STAMP"
    do_ cp -p "$dest" "$dest.hark-backup-$STAMP"
  fi
  note "$([ "$DRY" = 1 ] && echo "would write" || echo "writing") ${dest#"$ROOT"}"
  do_ install -D -m "$mode" "$src" "$dest"
}

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

say "hark installer (source $SRC, target ${ROOT:-/})$([ "$DRY" = 1 ] && echo ', dry run: nothing will change')"

# 1. Platform
arch="$(uname -m)"
[ "$arch" = aarch64 ] || note "warning: this is $arch; hark is built for 64-bit Raspberry Pi OS (aarch64) but runs here too"
[ -f /etc/debian_version ] || { echo "install.sh: needs a Debian-based OS (Raspberry Pi OS)" >&2; exit 1; }

# 2. Packages
say "apt packages"
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then note "all present: ${APT_PACKAGES[*]}"; else
  sys apt-get update -qq
  sys env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

# 3. Node version
say "Node.js >= 20.19"
if command -v node >/dev/null; then
  if node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)'; then
    note "node $(node --version)"
  else
    echo "install.sh: hark needs Node >= 20.19, found $(node --version); install a newer nodejs first" >&2
    exit 1
  fi
else
  [ "$DRY" = 1 ] || [ -n "$ROOT" ] || { echo "install.sh: node is not installed (apt-get install nodejs)" >&2; exit 1; }
  note "node will come from the nodejs package"
fi

# 4. User and groups
say "user hark (groups audio, gpio)"
if id hark >/dev/null 2>&1; then note "user hark exists"; else
  getent group gpio >/dev/null || sys groupadd --system gpio
  sys useradd --system --home-dir /var/lib/hark --no-create-home --shell /usr/sbin/nologin --groups audio,gpio hark
fi
id -nG hark 2>/dev/null | grep -qw audio && id -nG hark 2>/dev/null | grep -qw gpio || sys usermod -aG audio,gpio hark

# 5. The application
say "hark in /opt/hark"
if [ "$SRC" != "$PREFIX" ]; then
  do_ mkdir -p "$PREFIX"
  if [ "$DRY" = 1 ]; then note "would copy $SRC to ${PREFIX#"$ROOT"} (without node_modules, .git, dist, test-output and the tests, whose data is never shipped)"; else
    tar -C "$SRC" --exclude=./node_modules --exclude=./.git --exclude=./dist --exclude=./test-output --exclude=./.pi-check --exclude=./.hark --exclude=./test -cf - . | tar -C "$PREFIX" -xf -
    note "copied to ${PREFIX#"$ROOT"}"
  fi
fi
if [ "$WITH_NPM" = 1 ]; then
  # Full install first: the TypeScript compiler (a dev dependency) builds dist/; the dev dependencies
  # are pruned afterwards so the Pi keeps only what runs. whisper.cpp is compiled once, for the Pi:
  # a plain npm ci would compile it with no CPU flags (ggml's scalar code) and build-whisper.sh again
  # with them — minutes each on a Pi 4. So npm ci runs without install scripts, the other native
  # packages are built right after (npm rebuild: better-sqlite3, epoll, ...), then whisper.cpp for
  # this Pi (its model decides: dotprod and fp16 on a Pi 5; HARK_CPU when an image is baked
  # elsewhere), then hark's own build (what `prepare` does).
  do_ bash -c "cd '$PREFIX' && npm ci --no-audit --no-fund --ignore-scripts"
  native="$(node -e '
    const lock = require(process.argv[1]);
    const names = new Set();
    const pkgs = lock.packages || {};
    for (const [path, p] of Object.entries(pkgs)) {
      if (!path.includes("node_modules/") || p.dev) continue;
      // hark-aec is a local package (file:native/hark-aec): its lock entry is a link to the folder.
      const built = p.link ? pkgs[p.resolved] : p;
      if (built && built.hasInstallScript) names.add(path.slice(path.lastIndexOf("node_modules/") + 13));
    }
    names.delete("smart-whisper");
    console.log([...names].sort().join(" "));' "$SRC/package-lock.json")"
  [ -z "$native" ] || do_ bash -c "cd '$PREFIX' && npm rebuild --foreground-scripts $native"
  [ -z "${HARK_CPU:-}" ] || note "whisper.cpp target from HARK_CPU: $HARK_CPU"
  do_ bash "$PREFIX/scripts/build-whisper.sh"
  do_ bash -c "cd '$PREFIX' && npm run -s build"
  do_ bash -c "cd '$PREFIX' && npm prune --omit=dev --no-audit --no-fund"
else
  note "npm ci and the whisper.cpp build for this CPU (scripts/build-whisper.sh) skipped (--no-npm or --root)"
fi

# 6. Config (never overwrite an edited one)
say "config in /etc/hark"
do_ mkdir -p "$ETC"
if [ ! -f "$ETC/hark.yaml" ]; then
  put_file "$SRC/config/hark.yaml" "$ETC/hark.yaml" 0644
elif cmp -s "$SRC/config/hark.yaml" "$ETC/hark.yaml"; then
  note "unchanged: /etc/hark/hark.yaml"
else
  note "kept your edited /etc/hark/hark.yaml; the shipped one is at /etc/hark/hark.yaml.dist"
  put_file "$SRC/config/hark.yaml" "$ETC/hark.yaml.dist" 0644
fi
if [ ! -f "$ETC/hark.env" ]; then
  printf '# Secrets for hark, read by systemd (EnvironmentFile). Mode 0640, root:hark.\n#DEEPGRAM_API_KEY=\n#HARK_DEBUG_TOKEN=\n' >"$TMP/hark.env"
  put_file "$TMP/hark.env" "$ETC/hark.env" 0640
else
  note "kept /etc/hark/hark.env"
fi
sys chgrp hark /etc/hark/hark.env

# 7. Whisper model, checksum verified
say "Whisper model"
if [ -z "$MODEL" ]; then note "skipped (--no-model)"
elif [ "$WITH_NPM" = 1 ]; then
  do_ node "$PREFIX/bin/hark.js" model fetch "$MODEL" --dir "$STATE/models"
else
  note "would fetch $MODEL into /var/lib/hark/models once npm ci has run (skipped: --no-npm or --root)"
fi

# 8. Boot config, ALSA, udev
say "firmware (boot config, ALSA, udev)"
BOOT_CFG="$ROOT/boot/firmware/config.txt"
[ -f "$BOOT_CFG" ] || [ ! -f "$ROOT/boot/config.txt" ] || BOOT_CFG="$ROOT/boot/config.txt"
if [ -f "$BOOT_CFG" ]; then
  # Replace hark's block (between its markers) with the shipped one, leave every other line alone.
  awk '/^# >>> hark/{skip=1} !skip{print} /^# <<< hark/{skip=0}' "$BOOT_CFG" >"$TMP/config.txt"
  cat "$SRC/firmware/config.txt" >>"$TMP/config.txt"
  put_file "$TMP/config.txt" "$BOOT_CFG" 0644 backup
elif [ "$BOOTED" = 0 ] && [ -z "$ROOT" ]; then
  note "skipped, no /boot/firmware/config.txt (image build: the boot partition is not mounted here); add firmware/config.txt's block to it, or run the installer again on the Pi"
else
  note "no ${BOOT_CFG#"$ROOT"} (not a Pi?): boot config left alone"
fi
put_file "$SRC/firmware/asound.conf" "$ASOUND" 0644 backup
vendor="${HARK_MIC_VENDOR:-}"; product="${HARK_MIC_PRODUCT:-}"
if [ -z "$vendor" ]; then
  for f in /proc/asound/card*/usbid; do
    [ -f "$f" ] || continue
    id="$(cat "$f")"; vendor="${id%%:*}"; product="${id##*:}"; break
  done
fi
if [ -n "$vendor" ] && [ -n "$product" ]; then
  sed -e "s/@VENDOR@/$vendor/" -e "s/@PRODUCT@/$product/" "$SRC/firmware/99-hark-usb-mic.rules" >"$TMP/rules"
  note "USB microphone $vendor:$product will be named harkmic"
else
  # Without ids the rule is written commented out, so it matches nothing instead of something wrong.
  sed -e 's/^SUBSYSTEM/# SUBSYSTEM/' "$SRC/firmware/99-hark-usb-mic.rules" >"$TMP/rules"
  note "warning: no USB sound card found; plug the mic in and run the installer again (or set HARK_MIC_VENDOR/HARK_MIC_PRODUCT)"
fi
put_file "$TMP/rules" "$UDEV_RULE" 0644 backup
live udevadm control --reload-rules

# 9. systemd
say "systemd unit"
put_file "$SRC/systemd/hark.service" "$UNIT" 0644 backup
live systemctl daemon-reload
if [ "$BOOTED" = 1 ]; then
  sys systemctl enable hark.service
else
  # Offline enable, as image builds do: the symlink `systemctl enable` would make, for each WantedBy=.
  for target in $(sed -n 's/^WantedBy=//p' "$SRC/systemd/hark.service"); do
    link="$ROOT/etc/systemd/system/$target.wants/hark.service"
    if [ "$(readlink "$link" 2>/dev/null)" = /etc/systemd/system/hark.service ]; then
      note "enabled: ${link#"$ROOT"}"
    else
      CHANGED=1
      note "$([ "$DRY" = 1 ] && echo "would enable" || echo "enabling") hark.service offline: ${link#"$ROOT"} -> /etc/systemd/system/hark.service"
      do_ mkdir -p "$(dirname "$link")"
      do_ ln -sfn /etc/systemd/system/hark.service "$link"
    fi
  done
fi
live systemctl restart hark.service

if [ "$CHANGED" = 1 ]; then say "done$([ "$DRY" = 1 ] && echo ' (dry run: nothing was changed)')"; else say "done: everything was already in place"; fi
[ -n "$ROOT" ] || [ "$DRY" = 1 ] || [ "$BOOTED" = 0 ] || note "check it with: hark doctor   and follow it with: journalctl -u hark -f"
[ "$BOOTED" = 1 ] || [ -n "$ROOT" ] || [ "$DRY" = 1 ] || note "image build: hark starts at the first boot; there, check it with: hark doctor"
