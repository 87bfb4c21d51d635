#!/usr/bin/env bash
# Installs KiCad 10 (Debian unstable) into a minimal sid root beside the system, and mounts what
# pcbnew needs there: proc, dev, sys, and /tmp shared, so the X socket and KiCad's API socket are
# the same paths inside and out. The sid URI is the machine's own Debian source entry's URI.
# Run as root (or with sudo). Idempotent: a second run only checks and re-mounts.
#   TRACEMAKER_KICAD10_ROOT   where the root goes (default /opt/tracemaker-kicad10)
set -euo pipefail

root="${TRACEMAKER_KICAD10_ROOT:-/opt/tracemaker-kicad10}"
want="10.0"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

mount_all() {
  for d in proc sys dev dev/pts tmp; do
    $SUDO mkdir -p "$root/$d"
    mountpoint -q "$root/$d" && continue
    case "$d" in
      proc) $SUDO mount -t proc proc "$root/proc" ;;
      *) $SUDO mount --bind "/$d" "$root/$d" ;;
    esac
  done
}

have_kicad10() {
  [ -x "$root/usr/bin/kicad-cli" ] && $SUDO chroot "$root" kicad-cli version 2>/dev/null | grep -q "^${want}"
}

if [ -f "$root/.tracemaker-complete" ]; then
  mount_all
  if have_kicad10; then
    echo "install-kicad10: KiCad $($SUDO chroot "$root" kicad-cli version) in $root"
    exit 0
  fi
fi

uri=""
for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  # The first deb822 stanza that names a plain Debian suite (not -security): its first URI.
  uri=$(awk -v RS='' '/Suites:[^\n]*(bookworm|trixie|sid)( |\n|$)/ && !/security/ { print; exit }' "$f" \
    | sed -nE 's/^URIs:[[:space:]]*([^[:space:]]+).*/\1/p' | head -1)
  [ -n "$uri" ] && break
done
if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
  uri=$(grep -E '^deb [^ ]+ (bookworm|trixie|sid) ' /etc/apt/sources.list | head -1 | awk '{print $2}')
fi
if [ -z "$uri" ]; then
  echo "install-kicad10: no Debian source entry found to take the archive's URI from" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
command -v debootstrap >/dev/null || { $SUDO apt-get update -qq; $SUDO apt-get install -y -qq --no-install-recommends debootstrap >/dev/null; }

if [ ! -x "$root/usr/bin/apt-get" ]; then
  $SUDO rm -rf "$root"
  $SUDO mkdir -p "$root"
  echo "install-kicad10: debootstrap sid into $root"
  $SUDO debootstrap --variant=minbase sid "$root" "$uri" >/dev/null
fi
mount_all
# The archive serves a dated snapshot whose sid Release file has expired.
apt_in=(chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Check-Valid-Until=false -y -qq)
$SUDO "${apt_in[@]}" update >/dev/null
$SUDO "${apt_in[@]}" install --no-install-recommends kicad kicad-demos python3 python3-venv nodejs xauth xvfb xdotool >/dev/null
have_kicad10 || { echo "install-kicad10: kicad-cli in $root is not KiCad ${want}" >&2; exit 1; }
$SUDO touch "$root/.tracemaker-complete"
echo "install-kicad10: KiCad $($SUDO chroot "$root" kicad-cli version) in $root"
