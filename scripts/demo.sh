#!/usr/bin/env bash
# Demo of the main job: throwaway source and target servers, a sysbench write workload on the source,
# binlog-applier catching the target up, and a source-versus-target checksum verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/lib.sh

TABLES=${TABLES:-4}
TABLE_SIZE=${TABLE_SIZE:-10000}
THREADS=${THREADS:-16}
SECONDS_OF_LOAD=${SECONDS_OF_LOAD:-10}
WORKERS=${WORKERS:-4}
MODE=${MODE:-optimistic}
METHOD=${METHOD:-binlog}

echo "== building binlog-applier"
mvn -B -q -ntp -DskipTests package
JAR=applier-server/target/binlog-applier.jar
JAVA_OPTS=$(launcher_java_opts)

WORK=$(mktemp -d /tmp/binlog-applier-demo.XXXXXX)
trap 'stop_servers; rm -rf "$WORK"' EXIT
SRC=$(free_port); TGT=$(free_port)
while [ "$TGT" = "$SRC" ]; do TGT=$(free_port); done
echo "== starting a source (port $SRC, binlog ROW) and a target (port $TGT)"
start_server source "$SRC" 1 --log-bin=mysql-bin --binlog-format=ROW --innodb-flush-log-at-trx-commit=2 --sync-binlog=0
start_server target "$TGT" 2

START=$(sql "$SRC" "SHOW MASTER STATUS" | awk '{print $1 ":" $2}')
sql "$SRC" "CREATE DATABASE sbtest"
echo "== sysbench oltp_write_only on the source: $TABLES tables x $TABLE_SIZE rows, $THREADS threads, ${SECONDS_OF_LOAD}s"
sysbench oltp_write_only --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$SRC" --mysql-user=root \
  --mysql-db=sbtest --tables="$TABLES" --table-size="$TABLE_SIZE" prepare >/dev/null
sysbench oltp_write_only --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$SRC" --mysql-user=root \
  --mysql-db=sbtest --tables="$TABLES" --table-size="$TABLE_SIZE" --threads="$THREADS" --time="$SECONDS_OF_LOAD" \
  run | grep -E "transactions:|queries:" || true

cat >"$WORK/demo.yml" <<YAML
name: demo
source:
  host: 127.0.0.1
  port: $SRC
  user: root
  password: ""
  server_id: 4242
  start: "$START"
target:
  host: 127.0.0.1
  port: $TGT
  user: root
  password: ""
apply:
  mode: $MODE
  workers: $WORKERS
  method: $METHOD
YAML

echo "== binlog-applier run --until current ($MODE, $WORKERS workers, method $METHOD)"
# shellcheck disable=SC2086 # the options are a list of words
java $JAVA_OPTS -jar "$JAR" run --config "$WORK/demo.yml" --until current 2>&1 | tee "$WORK/applier.log" | grep -v " INFO BinlogReader" || true
summary=$(grep "applied .* transactions" "$WORK/applier.log" || true)

echo "== source versus target"
verdict=IDENTICAL
for t in $(sql "$SRC" "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbtest' ORDER BY 1"); do
  s=$(sql "$SRC" "CHECKSUM TABLE sbtest.$t" | awk '{print $2}')
  d=$(sql "$TGT" "CHECKSUM TABLE sbtest.$t" 2>/dev/null | awk '{print $2}' || echo missing)
  if [ "$s" = "$d" ]; then mark=same; else mark=DIFFERENT; verdict=DIFFERENT; fi
  printf '  sbtest.%-10s source %-12s target %-12s %s\n' "$t" "$s" "$d" "$mark"
done
echo "${summary#*binlog-applier - }"
echo "verdict: $verdict"
[ "$verdict" = IDENTICAL ]
