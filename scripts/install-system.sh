#!/usr/bin/env bash
# Installs what the tests need from Debian: KiCad 9 (bookworm-backports), Xvfb, xdotool, Chromium, Wine
# (for the Windows smoke test, with the official Windows Node),
# then KiCad 10 (Debian unstable) in a root beside the system (install-kicad10.sh).
# The backports source is derived from the machine's own Debian source entry: same URIs, suite changed.
set -euo pipefail

want_kicad="9.0"
have_kicad() { command -v kicad-cli >/dev/null 2>&1 && kicad-cli version 2>/dev/null | grep -q "^${want_kicad}"; }
have_all() { have_kicad && [ -d /usr/share/kicad/demos ] && /usr/bin/python3 -c "import venv, ensurepip" 2>/dev/null && command -v Xvfb >/dev/null && command -v xdotool >/dev/null && command -v chromium >/dev/null && [ -x /usr/lib/wine/wine64 ]; }

here="$(cd "$(dirname "$0")" && pwd)"
if have_all; then
  echo "install-system: KiCad $(kicad-cli version), Xvfb, xdotool, chromium and wine64 already present"
  exec bash "$here/install-kicad10.sh"
fi

SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

backports=/etc/apt/sources.list.d/tracemaker-backports.sources
if [ ! -f "$backports" ]; then
  src=""
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    if grep -qE '^Suites:.*\bbookworm\b' "$f"; then src="$f"; break; fi
  done
  if [ -n "$src" ]; then
    # First deb822 stanza whose suites include plain "bookworm": keep its URIs, components and key.
    awk -v RS='' '/Suites:[^\n]*bookworm( |\n|$)/ && !done { print; done=1 }' "$src" \
      | sed -E 's/^Suites:.*/Suites: bookworm-backports/' | grep -v '^#' | $SUDO tee "$backports" >/dev/null
  elif [ -f /etc/apt/sources.list ] && grep -qE '^deb .* bookworm ' /etc/apt/sources.list; then
    backports=/etc/apt/sources.list.d/tracemaker-backports.list
    grep -E '^deb .* bookworm ' /etc/apt/sources.list | head -1 \
      | sed -E 's/ bookworm / bookworm-backports /' | $SUDO tee "$backports" >/dev/null
  else
    echo "install-system: no Debian bookworm source entry found to derive bookworm-backports from" >&2
    exit 1
  fi
  echo "install-system: added $backports"
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends -t bookworm-backports kicad kicad-demos >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends xvfb xdotool chromium xauth zip unzip python3-venv wine64 >/dev/null
kicad-cli version
bash "$here/install-kicad10.sh"
