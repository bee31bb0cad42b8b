#!/usr/bin/env bash
# Install the Debian packages Runecodex needs, only those missing. Safe to run again.
set -euo pipefail
need=()
command -v dot >/dev/null 2>&1 || need+=(graphviz)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
[ -x /usr/bin/chromium ] || need+=(chromium)
dpkg -s libharfbuzz-subset0 >/dev/null 2>&1 || need+=(libharfbuzz-subset0)
dpkg -s libpango-1.0-0 >/dev/null 2>&1 || need+=(libpango-1.0-0 libpangoft2-1.0-0)
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || need+=(fonts-dejavu-core)
# The quick reference (engine/quickref.py) is set in DejaVu Sans Condensed, which is in -extra.
dpkg -s fonts-dejavu-extra >/dev/null 2>&1 || need+=(fonts-dejavu-extra)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
echo "system-deps: installing ${need[*]}"
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
