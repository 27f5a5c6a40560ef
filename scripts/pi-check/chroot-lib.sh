# Shared by scripts/pi-check.sh and scripts/pi-check/trixie-gcc14.sh: mount what a chroot needs
# (proc, dev, the host's CA bundle and resolver) and run commands in it. Sourced, not run.

# Mount /proc, /sys, /dev (bind) and /dev/pts in the root $1 unless already mounted; umount_root undoes it.
mount_root() {
  local r="$1"
  mountpoint -q "$r/proc" || mount -t proc proc "$r/proc"
  # /sys with a Pi's CPU lists (four cores), not the host's: without the lists onnxruntime's cpuinfo
  # prints "failed to parse the list of possible processors" to stderr at every start (a CLI test
  # wants one clear line there), and with the x86 host's sysfs it crashes under qemu-user: every
  # `node hark.js` died of SIGSEGV at onnxruntime-node's import (1.30.0; a Pi has its own sysfs).
  mkdir -p "$r/sys"
  if ! mountpoint -q "$r/sys"; then
    mount -t tmpfs -o size=1m,mode=0755 hark-sys "$r/sys"
    mkdir -p "$r/sys/devices/system/cpu"
    echo 0-3 >"$r/sys/devices/system/cpu/present"; echo 0-3 >"$r/sys/devices/system/cpu/possible"
    for c in 0 1 2 3; do mkdir -p "$r/sys/devices/system/cpu/cpu$c"; done
  fi
  mountpoint -q "$r/dev" || mount --bind /dev "$r/dev"
  mkdir -p "$r/dev/pts"; mountpoint -q "$r/dev/pts" || mount --bind /dev/pts "$r/dev/pts" 2>/dev/null || true
  # The host's resolver and CA bundle: apt uses http, but npm and the model fetch use https.
  cp -L /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
  mkdir -p "$r/etc/ssl/certs"
  [ -f /etc/ssl/certs/ca-certificates.crt ] && cp -L /etc/ssl/certs/ca-certificates.crt "$r/etc/ssl/hark-host-ca.crt"
  # dpkg without fsync: unpacking under emulation is several times faster (a root being built, not a
  # running system that could lose power).
  mkdir -p "$r/etc/dpkg/dpkg.cfg.d"; echo force-unsafe-io >"$r/etc/dpkg/dpkg.cfg.d/hark-unsafe-io"
  # No daemon may start from a package's postinst inside the chroot (mosquitto, for one).
  printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d"; chmod 0755 "$r/usr/sbin/policy-rc.d"
}
umount_root() {
  local r="$1" m
  for m in dev/pts dev sys proc; do mountpoint -q "$r/$m" && umount -l "$r/$m"; done
  rm -f "$r/usr/sbin/policy-rc.d"
  return 0
}
# Run a bash command line in root $1 as root, with npm/node pointed at the host's CA bundle.
in_root() {
  local r="$1"; shift
  chroot "$r" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive TERM=dumb \
    NODE_EXTRA_CA_CERTS=/etc/ssl/hark-host-ca.crt npm_config_cafile=/etc/ssl/hark-host-ca.crt \
    npm_config_update_notifier=false ${PI_EXTRA_ENV:-} /bin/bash -c "$*"
}
