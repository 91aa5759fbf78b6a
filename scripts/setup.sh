#!/usr/bin/env bash
# Installs what binlog-applier's build, tests and demo need, when missing:
# a JDK 17+, Maven, MariaDB server and client (the tests start their own throwaway servers), sysbench,
# Prometheus (promtool checks monitoring/; a test scrapes a running applier with it) and jq.
# Runs apt-get as root (or through sudo); otherwise prints what to install and fails.
set -euo pipefail

missing=()
java_ok() {
  command -v javac >/dev/null 2>&1 || return 1
  local v
  v=$(javac -version 2>&1 | sed -E 's/^javac ([0-9]+).*/\1/')
  [[ "$v" =~ ^[0-9]+$ ]] && (( v >= 17 ))
}
java_ok || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
{ command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; } || missing+=(mariadb-server)
command -v mariadb >/dev/null 2>&1 || missing+=(mariadb-client)
command -v sysbench >/dev/null 2>&1 || missing+=(sysbench)
command -v bc >/dev/null 2>&1 || missing+=(bc)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
command -v jq >/dev/null 2>&1 || missing+=(jq)

if (( ${#missing[@]} == 0 )); then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  apt_get=(apt-get)
elif command -v sudo >/dev/null 2>&1; then
  apt_get=(sudo apt-get)
else
  echo "setup: missing ${missing[*]}: install them (apt-get install ${missing[*]}) or run this as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${apt_get[@]}" update -qq
"${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}"
