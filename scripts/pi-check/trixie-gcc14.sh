#!/usr/bin/env bash
# Builds a smart-whisper package with Debian trixie's GCC 14 in a trixie root of this machine's own
# architecture (natively, so in a minute or two), the way `npm ci` does: `npm install <tarball>`, which
# runs the package's own `node-gyp rebuild` with no CFLAGS of ours. Then loads the addon.
#
#   scripts/pi-check/trixie-gcc14.sh [TARBALL]     default: the vendored vendor/smart-whisper-*.tgz
#   scripts/pi-check/trixie-gcc14.sh --expect-fail TARBALL
#                                                  pass only if the build fails with GCC 14's
#                                                  "implicit declaration of function" error (the
#                                                  unpatched smart-whisper 0.8.1 from the registry)
#
# The root: HARK_TRIXIE_HOST_ROOT (default .pi-check/trixie-<arch>), debootstrapped when missing.
# Needs root (chroot, mount). Used by scripts/pi-check.sh as its first step.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO="$(pwd)"
. scripts/pi-check/chroot-lib.sh

EXPECT=ok
if [ "${1:-}" = --expect-fail ]; then EXPECT=fail; shift; fi
TARBALL="${1:-$(ls vendor/smart-whisper-*.tgz | head -n1)}"
[ -f "$TARBALL" ] || { echo "trixie-gcc14: no tarball $TARBALL" >&2; exit 2; }
TARBALL="$(cd "$(dirname "$TARBALL")" && pwd)/$(basename "$TARBALL")"
[ "$(id -u)" = 0 ] || { echo "trixie-gcc14: needs root (chroot); run it with sudo" >&2; exit 2; }

arch="$(dpkg --print-architecture)"
R="${HARK_TRIXIE_HOST_ROOT:-$REPO/.pi-check/trixie-$arch}"
if [ ! -x "$R/usr/bin/apt-get" ]; then
  bash scripts/pi-check/make-root.sh "$R" "$arch"
fi
mount_root "$R"
trap 'umount_root "$R"' EXIT
if ! in_root "$R" 'command -v g++ && command -v npm && command -v python3' >/dev/null; then
  in_root "$R" 'apt-get update -qq && apt-get install -y -qq --no-install-recommends build-essential python3 nodejs npm ca-certificates' >/dev/null
fi
echo "trixie-gcc14: $(in_root "$R" 'gcc --version | head -n1; echo node $(node --version), npm $(npm --version)' | tr '\n' ' ')"

W="$R/tmp/gcc14-check"
rm -rf "$W"; mkdir -p "$W"
cp "$TARBALL" "$W/smart-whisper.tgz"
printf '{"name":"gcc14-check","version":"1.0.0","private":true}\n' >"$W/package.json"
set +e
in_root "$R" 'cd /tmp/gcc14-check && JOBS=2 npm install --no-audit --no-fund --foreground-scripts ./smart-whisper.tgz && node -e "require(\"./node_modules/smart-whisper/build/Release/smart-whisper.node\"); console.log(\"addon loads\")"' >"$W.log" 2>&1
status=$?
set -e
if [ "$EXPECT" = fail ]; then
  if [ $status -ne 0 ] && grep -q "error: implicit declaration of function" "$W.log"; then
    echo "trixie-gcc14: $(basename "$TARBALL") fails as expected under GCC 14:"
    grep -m3 "error: implicit declaration of function" "$W.log" | sed 's/^/    /'
    exit 0
  fi
  echo "trixie-gcc14: expected $(basename "$TARBALL") to fail with an implicit declaration error (status $status); log: $W.log" >&2
  exit 1
fi
if [ $status -eq 0 ]; then
  echo "trixie-gcc14: $(basename "$TARBALL") builds under GCC 14 and its addon loads"
  exit 0
fi
grep -m5 "error:" "$W.log" >&2 || tail -n 30 "$W.log" >&2
echo "trixie-gcc14: $(basename "$TARBALL") does not build under GCC 14 (log: $W.log)" >&2
exit 1
