#!/usr/bin/env bash
# Creates a minimal Debian trixie root for ARCH in DIR with debootstrap (--variant=minbase), from the
# Debian mirror this machine's own apt uses. For a foreign ARCH (arm64 on x86) it first makes sure
# qemu-user-static and binfmt_misc can run that architecture's programs.
#
#   scripts/pi-check/make-root.sh DIR ARCH      e.g. .pi-check/trixie-arm64 arm64
set -euo pipefail
DIR="${1:?usage: make-root.sh DIR ARCH}"; ARCH="${2:?usage: make-root.sh DIR ARCH}"
[ "$(id -u)" = 0 ] || { echo "make-root.sh: needs root (debootstrap, mount); run it with sudo" >&2; exit 2; }
say() { printf 'make-root: %s\n' "$*"; }

need=(debootstrap)
foreign=0
if [ "$ARCH" != "$(dpkg --print-architecture)" ]; then foreign=1; need+=(qemu-user-static binfmt-support); fi
missing=()
for p in "${need[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]} on this machine"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ "$foreign" = 1 ]; then
  mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  qemu_name="qemu-$(case "$ARCH" in arm64) echo aarch64 ;; armhf) echo arm ;; *) echo "$ARCH" ;; esac)"
  if [ ! -e "/proc/sys/fs/binfmt_misc/$qemu_name" ]; then
    update-binfmts --enable "$qemu_name" 2>/dev/null || systemctl restart systemd-binfmt 2>/dev/null || true
  fi
  [ -e "/proc/sys/fs/binfmt_misc/$qemu_name" ] || { echo "make-root.sh: binfmt_misc has no $qemu_name entry: $ARCH programs cannot run here" >&2; exit 1; }
fi

# The mirror apt itself uses here (deb822 .sources first, then one-line lists), default deb.debian.org.
mirror="$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1 || true)"
[ -n "$mirror" ] || mirror="$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}' | grep -v security | head -n1 || true)"
mirror="${HARK_DEBIAN_MIRROR:-${mirror:-http://deb.debian.org/debian}}"

say "debootstrap --arch=$ARCH --variant=minbase trixie $DIR $mirror (a few minutes; longer when emulated)"
mkdir -p "$DIR"
rm -rf "$DIR.partial"
debootstrap --arch="$ARCH" --variant=minbase trixie "$DIR.partial" "$mirror" >"$DIR.debootstrap.log" 2>&1 || {
  tail -n 20 "$DIR.debootstrap.log" >&2; echo "make-root.sh: debootstrap failed (log: $DIR.debootstrap.log)" >&2; exit 1; }
rmdir "$DIR" 2>/dev/null || true
mv "$DIR.partial" "$DIR"
say "root ready in $DIR"
