#!/usr/bin/env bash
# Start-up cost (not part of CI): what a short catch-up pays before the applier runs at full speed.
# Generates a short sysbench binlog on a throwaway source, then applies it REPEAT times into a fresh
# target with the plain JVM and REPEAT times with a class-data sharing archive (made by one untimed
# training run, as the launcher does on a first run), and reports per run: the wall time, when the
# first unit committed (the applier logs it, in ms after the process started), and the CPU time the
# JIT compilers spent (-XX:+CITime, C1 and C2).
#
# Knobs (environment): WORKLOAD (oltp_write_only), TABLES (4), TABLE_SIZE (10000), THREADS (16),
# LOAD_SECONDS (5), REPEAT (3), MODE (optimistic), WORKERS (4), METHOD (binlog), FLUSH (2),
# VARIANTS ("plain cds"; more as name:java-options with commas for spaces, e.g.
# "plain cds c1only:-XX:TieredStopAtLevel=1").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/lib.sh

WORKLOAD=${WORKLOAD:-oltp_write_only}
TABLES=${TABLES:-4}
TABLE_SIZE=${TABLE_SIZE:-10000}
THREADS=${THREADS:-16}
LOAD_SECONDS=${LOAD_SECONDS:-5}
REPEAT=${REPEAT:-3}
MODE=${MODE:-optimistic}
WORKERS=${WORKERS:-4}
METHOD=${METHOD:-binlog}
FLUSH=${FLUSH:-2}
VARIANTS=${VARIANTS:-plain cds}
JAVA_OPTS=$(launcher_java_opts)

mvn -B -q -ntp -DskipTests package
WORK=$(mktemp -d /tmp/binlog-applier-startup.XXXXXX)
JAR=$WORK/binlog-applier.jar
cp applier-server/target/binlog-applier.jar "$JAR"
trap 'stop_servers; rm -rf "$WORK"' EXIT

SRC=$(free_port)
start_server source "$SRC" 1 --log-bin=mysql-bin --binlog-format=ROW --innodb-flush-log-at-trx-commit=2 --sync-binlog=0
read -r START_FILE START_POS < <(sql "$SRC" "SHOW MASTER STATUS" | awk '{print $1, $2}')
sql "$SRC" "CREATE DATABASE sbtest"
sb=(sysbench "$WORKLOAD" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$SRC" --mysql-user=root
    --mysql-db=sbtest --tables="$TABLES" --table-size="$TABLE_SIZE")
"${sb[@]}" --threads="$TABLES" prepare >/dev/null
"${sb[@]}" --threads="$THREADS" --time="$LOAD_SECONDS" run >/dev/null
COMMITS=$(sql "$SRC" "SHOW GLOBAL STATUS LIKE 'Binlog_commits'" | awk '{print $2}')

fresh_target() {
  local dir="$WORK/target"
  [ -f "$dir/mysqld.pid" ] && kill "$(cat "$dir/mysqld.pid")" 2>/dev/null || true
  for _ in $(seq 1 200); do [ -f "$dir/mysqld.pid" ] && sleep 0.1 || break; done
  rm -rf "$dir"
  TGT=$(free_port)
  start_server target "$TGT" 2 --innodb-flush-log-at-trx-commit="$FLUSH" --sync-binlog=0
}

run_once() { # run_once EXTRA_JAVA_OPTS -> "seconds first_commit_ms c1_s c2_s"
  cat >"$WORK/run.yml" <<YAML
name: startup
source: {host: 127.0.0.1, port: $SRC, user: root, password: "", server_id: 4242, start: "$START_FILE:$START_POS"}
target: {host: 127.0.0.1, port: $TGT, user: root, password: ""}
apply: {mode: $MODE, workers: $WORKERS, method: $METHOD}
durability: {mode: unchanged}
metrics: {listen: "off"}
YAML
  local t0 t1
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  java $JAVA_OPTS -XX:+UnlockDiagnosticVMOptions -XX:+CITime $1 -jar "$JAR" run --config "$WORK/run.yml" \
    --until current >"$WORK/run.log" 2>&1
  t1=$(date +%s.%N)
  local first c1 c2
  first=$(sed -n 's/.*first unit committed \([0-9]*\) ms after the process started.*/\1/p' "$WORK/run.log" | head -1)
  c1=$(sed -n 's/^ *C1 Compile Time: *\([0-9.]*\) s.*/\1/p' "$WORK/run.log" | head -1)
  c2=$(sed -n 's/^ *C2 Compile Time: *\([0-9.]*\) s.*/\1/p' "$WORK/run.log" | head -1)
  echo "$(echo "$t1 - $t0" | bc) ${first:-?} ${c1:-?} ${c2:-?}"
}

echo "== $WORKLOAD: $COMMITS transactions; $MODE $WORKERS workers, method $METHOD, flush=$FLUSH; JVM: $JAVA_OPTS"
printf '%-8s %-4s %10s %18s %8s %8s\n' variant run seconds first_commit_ms C1_s C2_s
for v in $VARIANTS; do
  name=${v%%:*}
  opts=""
  case $v in
    plain) ;;
    cds)
      fresh_target
      run_once "-XX:ArchiveClassesAtExit=$WORK/app.jsa" >/dev/null
      echo "(archive: $(du -h "$WORK/app.jsa" | cut -f1), made by one untimed run)"
      opts="-XX:SharedArchiveFile=$WORK/app.jsa -Xshare:auto" ;;
    *:*) opts=${v#*:}; opts=${opts//,/ } ;;
  esac
  for i in $(seq 1 "$REPEAT"); do
    fresh_target
    # shellcheck disable=SC2046
    printf '%-8s %-4s %10s %18s %8s %8s\n' "$name" "$i" $(run_once "$opts")
  done
done
