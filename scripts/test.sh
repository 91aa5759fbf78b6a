#!/usr/bin/env bash
# The whole test suite: unit tests (*Test) and integration tests (*IT) against throwaway mariadbd servers,
# then `systemd-analyze verify` of the systemd unit where that tool exists.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mvn -B -ntp verify "$@"
scripts/verify-unit.sh
