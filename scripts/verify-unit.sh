#!/usr/bin/env bash
# Checks config/binlog-applier@.service with `systemd-analyze verify`, unchanged: the unit is placed
# in a throwaway root directory (/tmp) together with the system's own units and the launcher at
# /opt/binlog-applier/bin/binlog-applier, and an instance of it is verified there. Any message
# (systemd only warns about unknown keys or unparsable values) counts as a failure.
# Prints "skipped" and exits 0 where systemd-analyze is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."

unit=config/binlog-applier@.service
launcher=applier-server/src/main/dist/bin/binlog-applier

if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "verify-unit: skipped (no systemd-analyze)"
  exit 0
fi
units=""
for d in /usr/lib/systemd/system /lib/systemd/system; do
  if [ -f "$d/sysinit.target" ]; then units=$d; break; fi
done
if [ -z "$units" ]; then
  echo "verify-unit: skipped (no systemd unit directory to verify against)"
  exit 0
fi

root=$(mktemp -d /tmp/verify-unit.XXXXXX)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/lib/systemd" "$root/etc/systemd/system" "$root/opt/binlog-applier/bin"
cp -r "$units" "$root/usr/lib/systemd/system"
cp "$unit" "$root/etc/systemd/system/"
cp "$launcher" "$root/opt/binlog-applier/bin/binlog-applier"
chmod 0755 "$root/opt/binlog-applier/bin/binlog-applier"

status=0
out=$(systemd-analyze verify --man=no --root="$root" binlog-applier@verify.service 2>&1) || status=$?
if [ "$status" -ne 0 ] || [ -n "$out" ]; then
  printf '%s\n' "$out"
  echo "verify-unit: $unit FAILED (systemd-analyze verify exit $status)"
  exit 1
fi
echo "verify-unit: $unit OK ($(systemd-analyze --version | head -n 1))"
# The hardening score, for information (systemd 250 and later can analyse a unit offline).
if systemd-analyze security --offline=yes --root="$root" binlog-applier@verify.service >"$root/security" 2>&1; then
  grep 'Overall exposure level' "$root/security" || true
fi
