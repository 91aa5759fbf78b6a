#!/usr/bin/env bash
# The whole test suite: unit tests (*Test) and integration tests (*IT) against throwaway mariadbd servers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec mvn -B -ntp verify "$@"
