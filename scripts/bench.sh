#!/usr/bin/env bash
# Benchmark (not part of CI), seed 003's method: generate a binlog on a source with sysbench, then for
# each contender start a fresh target from the same empty state and time it from start to caught up.
# Contenders: MariaDB's native replica (serial, conservative, optimistic at several thread counts) and
# binlog-applier (both modes, several worker counts), with the target at innodb_flush_log_at_trx_commit
# 2 and 1. Every contender's target must match the source afterwards (CHECKSUM TABLE of every table).
# Prints one table and writes it as Markdown and CSV under bench-results/.
#
# Knobs (environment): WORKLOADS, TABLES, TABLE_SIZE, THREADS, LOAD_SECONDS, FLUSH, NATIVE, OURS, REPEAT,
# BENCH_JAVA_OPTS (default: the launcher's default JVM options), BENCH_APPLY_EXTRA (e.g. ", unit_max_transactions: 100"), BENCH_METRICS_LISTEN (default off,
# e.g. 127.0.0.1:9104 to time the applier with its metrics endpoint), OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/lib.sh

WORKLOADS=${WORKLOADS:-"oltp_write_only oltp_insert"}
TABLES=${TABLES:-10}
TABLE_SIZE=${TABLE_SIZE:-20000}
THREADS=${THREADS:-16}
LOAD_SECONDS=${LOAD_SECONDS:-60}
FLUSH=${FLUSH:-"2 1"}
# native contenders: threads:mode (threads 0 = serial SQL thread)
NATIVE=${NATIVE:-"0:conservative 4:conservative 8:conservative 16:conservative 4:optimistic 8:optimistic 16:optimistic"}
# binlog-applier contenders: mode:workers:method[:java options, comma-separated] (added to BENCH_JAVA_OPTS)
OURS=${OURS:-"conservative:1:binlog conservative:4:binlog conservative:8:binlog conservative:16:binlog optimistic:1:binlog optimistic:4:binlog optimistic:8:binlog optimistic:16:binlog conservative:1:sql optimistic:4:sql"}
# every contender runs REPEAT times; the table shows the median
REPEAT=${REPEAT:-1}
BENCH_JAVA_OPTS=${BENCH_JAVA_OPTS:-$(launcher_java_opts)}
BENCH_APPLY_EXTRA=${BENCH_APPLY_EXTRA:-}
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=${OUT:-bench-results/$STAMP}
TIMEOUT=${TIMEOUT:-1800}

mvn -B -q -ntp -DskipTests package
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/binlog-applier-bench.XXXXXX)
# a copy, so that a build during the benchmark does not change the contender
JAR=$WORK/binlog-applier.jar
cp applier-server/target/binlog-applier.jar "$JAR"
trap 'stop_servers; rm -rf "$WORK"' EXIT

now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds_since() { echo "$(now) - $1" | bc; }

verify() { # verify TARGET_PORT -> prints "ok" or "DIFFERENT"
  local t s d
  for t in $(sql "$SRC" "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbtest' ORDER BY 1"); do
    s=$(sql "$SRC" "CHECKSUM TABLE sbtest.$t" | awk '{print $2}')
    d=$(sql "$1" "CHECKSUM TABLE sbtest.$t" 2>/dev/null | awk '{print $2}' || true)
    if [ "$s" != "$d" ]; then echo DIFFERENT; return; fi
  done
  echo ok
}

fresh_target() { # fresh_target FLUSH -> starts "target" on $TGT from the template
  local dir="$WORK/target"
  [ -f "$dir/mysqld.pid" ] && kill "$(cat "$dir/mysqld.pid")" 2>/dev/null || true
  for _ in $(seq 1 200); do [ -f "$dir/mysqld.pid" ] && sleep 0.1 || break; done
  rm -rf "$dir"
  TGT=$(free_port)
  start_server target "$TGT" 2 --innodb-flush-log-at-trx-commit="$1" --sync-binlog=0 --relay-log=relay-bin \
    --skip-slave-start
}

run_native() { # run_native THREADS MODE -> seconds
  sql "$TGT" "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$SRC, MASTER_USER='root', MASTER_PASSWORD='',
    MASTER_LOG_FILE='$START_FILE', MASTER_LOG_POS=$START_POS;
    SET GLOBAL slave_parallel_threads=$1; SET GLOBAL slave_parallel_mode='$2'"
  local t0; t0=$(now)
  sql "$TGT" "START SLAVE"
  local r; r=$(sql "$TGT" "SELECT MASTER_POS_WAIT('$END_FILE', $END_POS, $TIMEOUT)")
  local dt; dt=$(seconds_since "$t0")
  sql "$TGT" "STOP SLAVE"
  if [ "$r" = "-1" ] || [ "$r" = "NULL" ]; then echo "timeout"; else echo "$dt"; fi
}

run_ours() { # run_ours MODE WORKERS METHOD [JAVA_OPTS] -> seconds
  cat >"$WORK/bench.yml" <<YAML
name: bench
source: {host: 127.0.0.1, port: $SRC, user: root, password: "", server_id: 4242, start: "$START_FILE:$START_POS"}
target: {host: 127.0.0.1, port: $TGT, user: root, password: ""}
apply: {mode: $1, workers: $2, method: $3 $BENCH_APPLY_EXTRA}
# the target's flush setting is the workload's (as for the native replica); metrics off unless asked for
durability: {mode: unchanged}
metrics: {listen: ${BENCH_METRICS_LISTEN:-off}}
YAML
  local t0; t0=$(now)
  if ! timeout "$TIMEOUT" java $BENCH_JAVA_OPTS ${4:-} -jar "$JAR" run --config "$WORK/bench.yml" --until current >"$WORK/ours.log" 2>&1; then
    RUN_NO=$(date +%s%N); cp "$WORK/ours.log" "$OUT/failed-$RUN_NO.log"
    echo "failed"; grep -v '^\s*at \|^\s*\.\.\. [0-9]* more' "$WORK/ours.log" | tail -3 >&2
    echo "   (log: $OUT/failed-$RUN_NO.log)" >&2; return
  fi
  seconds_since "$t0"
}

CSV="$OUT/results.csv"
echo "workload,transactions,flush,contender,seconds,transactions_per_second,ratio_to_best_native,verdict" >"$CSV"
for workload in $WORKLOADS; do
  rm -rf "$WORK/source"
  SRC=$(free_port)
  echo "== $workload: generating the binlog ($TABLES tables x $TABLE_SIZE rows, $THREADS threads, ${LOAD_SECONDS}s)"
  start_server source "$SRC" 1 --log-bin=mysql-bin --binlog-format=ROW --innodb-flush-log-at-trx-commit=2 \
    --sync-binlog=0 --max-binlog-size=1G
  read -r START_FILE START_POS < <(sql "$SRC" "SHOW MASTER STATUS" | awk '{print $1, $2}')
  sql "$SRC" "CREATE DATABASE sbtest"
  sb=(sysbench "$workload" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$SRC" --mysql-user=root
      --mysql-db=sbtest --tables="$TABLES" --table-size="$TABLE_SIZE")
  "${sb[@]}" --threads="$TABLES" prepare >/dev/null
  "${sb[@]}" --threads="$THREADS" --time="$LOAD_SECONDS" run >"$OUT/sysbench-$workload.txt"
  read -r END_FILE END_POS < <(sql "$SRC" "SHOW MASTER STATUS" | awk '{print $1, $2}')
  COMMITS=$(sql "$SRC" "SHOW GLOBAL STATUS LIKE 'Binlog_commits'" | awk '{print $2}')
  GROUP_COMMITS=$(sql "$SRC" "SHOW GLOBAL STATUS LIKE 'Binlog_group_commits'" | awk '{print $2}')
  echo "   $COMMITS binlog commits in $GROUP_COMMITS group commits; binlog $START_FILE:$START_POS .. $END_FILE:$END_POS"
  for flush in $FLUSH; do
    declare -A secs=()
    best=""
    for c in $NATIVE; do
      runs=()
      v=ok
      for _ in $(seq 1 "$REPEAT"); do
        fresh_target "$flush"
        runs+=("$(run_native "${c%%:*}" "${c##*:}")")
        [ "$(verify "$TGT")" = ok ] || v=DIFFERENT
      done
      s=$(median "${runs[@]}")
      name="native ${c##*:} ${c%%:*} threads"; [ "${c%%:*}" = 0 ] && name="native serial"
      secs[$name]=$s
      echo "   flush=$flush  $name: $s s ($v)"
      echo "$workload,$COMMITS,$flush,$name,$s,,,$v" >>"$CSV.tmp"
      if [ "$v" = ok ] && [[ "$s" =~ ^[0-9.]+$ ]]; then
        if [ -z "$best" ] || (( $(echo "$s < $best" | bc) )); then best=$s; fi
      fi
    done
    for c in $OURS; do
      IFS=: read -r mode workers method jopts <<<"$c"
      jopts=${jopts//,/ }
      runs=()
      v=ok
      for _ in $(seq 1 "$REPEAT"); do
        fresh_target "$flush"
        runs+=("$(run_ours "$mode" "$workers" "$method" "$jopts")")
        if [ "$(verify "$TGT")" != ok ]; then
          v=DIFFERENT; cp "$WORK/ours.log" "$OUT/different-$(date +%s%N).log"
        fi
      done
      s=$(median "${runs[@]}")
      name="binlog-applier $mode $workers workers $method${jopts:+ ($jopts)}"
      echo "   flush=$flush  $name: $s s ($v)"
      echo "$workload,$COMMITS,$flush,$name,$s,,,$v" >>"$CSV.tmp"
    done
    # ratios against the best native row of this workload and flush setting
    while IFS=, read -r w n f name s _ _ v; do
      if [[ "$s" =~ ^[0-9.]+$ ]]; then
        tps=$(echo "$n / $s" | bc)
        ratio=$( [ -n "$best" ] && printf '%.2f' "$(echo "scale=4; $s / $best" | bc)" || echo "")
      else tps=""; ratio=""; fi
      echo "$w,$n,$f,$name,$s,$tps,$ratio,$v" >>"$CSV"
    done <"$CSV.tmp"
    rm -f "$CSV.tmp"
    unset secs
  done
  kill "$(cat "$WORK/source/mysqld.pid")" 2>/dev/null || true
  sleep 2
done

{
  echo "# binlog-applier benchmark $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; MariaDB $(mariadbd --version | awk '{print $3}')."
  echo "Load: sysbench, $TABLES tables x $TABLE_SIZE rows, $THREADS threads, ${LOAD_SECONDS}s. Time = start to caught up"
  echo "(native: START SLAVE to MASTER_POS_WAIT; binlog-applier: process start to exit of run --until current)."
  echo "binlog-applier JVM options: $BENCH_JAVA_OPTS."
  echo "ratio = seconds / seconds of the best native configuration of the same workload and flush setting (lower is better)."
  echo
  echo "| workload | transactions | flush | contender | seconds | tx/s | ratio | target = source |"
  echo "|---|---|---|---|---|---|---|---|"
  tail -n +2 "$CSV" | while IFS=, read -r w n f name s tps ratio v; do
    echo "| $w | $n | $f | $name | $s | $tps | $ratio | $v |"
  done
} >"$OUT/results.md"
cat "$OUT/results.md"
