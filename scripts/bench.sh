#!/usr/bin/env bash
# Benchmark (not part of CI), seed 003's method: generate a binlog on a source, then for each contender
# start a fresh, empty target and time it from start to caught up with that binlog. The I/O-bound
# workloads (io_*) start each target instead from a copy of the source taken after loading its tables,
# with a buffer pool several times smaller than the data.
# Contenders: MariaDB's native replica (serial, conservative, optimistic at several thread counts) and
# binlog-applier (modes, worker counts, apply methods), with the target at innodb_flush_log_at_trx_commit
# 2 and 1. Every contender's target must match the source afterwards (CHECKSUM TABLE of every table of
# every schema the source has). Prints one table and writes it as Markdown and CSV under bench-results/;
# a contender that fails is a row with verdict "error", and the run goes on.
#
# Knobs (environment):
#   WORKLOADS       which binlogs, in order (default: all of them):
#                     oltp_write_only oltp_insert oltp_update_index oltp_update_non_index
#                                        sysbench's scripts, TABLES x TABLE_SIZE, THREADS, LOAD_SECONDS
#                     oltp_delete_insert sysbench oltp_write_only with only its DELETE+INSERT pair (a
#                                        transaction deletes a row and inserts it back with new values,
#                                        so the tables keep their size; oltp_delete alone empties them)
#                     mixed              scripts/bench/mixed.lua: unique key, FK cascades, triggers and
#                                        a table without a primary key; TABLE_SIZE rows per table,
#                                        MIXED_THREADS sessions, MIXED_OPS, LOAD_SECONDS
#                     bigtx              single big transactions: INSERT...SELECT of BIGTX_ROWS rows,
#                                        UPDATE of all of them, DELETE of half, and an INSERT of
#                                        BIGTX_WIDE_ROWS rows of 1 KB
#                     ddl                DDL and account statements among small writes: DDL_TABLES tables,
#                                        then DDL_ROUNDS rounds of one statement (in turn GRANT, ALTER
#                                        TABLE ... ADD COLUMN, CREATE TABLE, ANALYZE TABLE) and a one-row
#                                        INSERT into each table, from one session
#                     savepoints         an ORM's nested transactions: SAVEPOINT_TRANSACTIONS transactions,
#                                        each an INSERT, SAVEPOINT, INSERT, RELEASE SAVEPOINT into one of
#                                        DDL_TABLES tables in turn, from one session
#                     io_update_non_index, io_write_only, io_mixed
#                                        I/O-bound: sysbench oltp_update_non_index / oltp_write_only with
#                                        uniformly random keys on IO_TABLES x IO_TABLE_SIZE rows (io_mixed:
#                                        mixed.lua on IO_MIXED_TABLE_SIZE rows per table, MIXED_THREADS); the
#                                        tables are prepared on the source, the source is shut down
#                                        cleanly and its data directory copied (the seed), and every
#                                        contender's target starts from a fresh copy of the seed with
#                                        innodb_buffer_pool_size=IO_BUFFER_POOL, O_DIRECT and no buffer
#                                        pool load at startup (equally cold); the binlog replayed is only
#                                        the IO_THREADS x IO_LOAD_SECONDS load
#   TABLES (10), TABLE_SIZE (20000), THREADS (16), LOAD_SECONDS (60)   the sysbench load
#   MIXED_THREADS (4), MIXED_OPS (4: statements per transaction, 1..MIXED_OPS), MIXED_GROUPS
#                   (uq,fk,trg,nopk: which of mixed.lua's tables the transactions change; "orders" adds
#                   customers, orders and order_items, a chain of two foreign keys, e.g. MIXED_GROUPS=orders)
#   BIGTX_ROWS (1000000), BIGTX_WIDE_ROWS (300000; 0 leaves that transaction out)
#   DDL_TABLES (100), DDL_ROUNDS (1000), SAVEPOINT_TRANSACTIONS (30000)
#   IO_TABLES (8), IO_TABLE_SIZE (300000), IO_MIXED_TABLE_SIZE (1000000), IO_THREADS (16),
#                   IO_LOAD_SECONDS (30), IO_BUFFER_POOL (32M:
#                   the targets' pool; the data should be several times that, the run says how many),
#                   IO_SOURCE_BUFFER_POOL (2G: the source's, so the load itself is not I/O-bound),
#                   IO_TARGET_OPTS (more mariadbd options for the io_* targets, e.g. --innodb-io-capacity=2000),
#                   IO_METRICS (0; 1: the io_* targets start with every InnoDB monitor counter on, and each
#                   run's page reads and writes by page type and its purge and undo counters go to
#                   innodb-metrics.csv; the counters cost the target CPU, so time such runs apart),
#                   IO_PURGE_WAIT (0; 1: after each io_* run, the seconds until the target's purge caught up too,
#                   Innodb_history_list_length 0, polled every 0.5 s for at most 600 s, go to purge.csv)
#   FLUSH ("2 1")   the target's innodb_flush_log_at_trx_commit, each a separate set of runs
#   NATIVE          native contenders, THREADS:MODE (threads 0 = the serial SQL thread)
#   OURS            binlog-applier contenders, [BUILD@]MODE:WORKERS:METHOD[+KEY=VALUE...][:java options,
#                   comma-separated]; the word "default" for MODE, WORKERS or METHOD leaves that apply key
#                   out of the configuration (default:default:default is the configuration with no apply
#                   keys); METHOD is written as given, so auto (apply.method: auto) is a contender too;
#                   each +KEY=VALUE adds "KEY: VALUE" to that contender's apply section (e.g.
#                   optimistic:16:binlog+net_effect=false); SECTION.KEY=VALUE sets a key of a nested
#                   section (optimistic:1:binlog+read_ahead.enabled=true+read_ahead.connections=4); BUILD
#                   names a jar of BENCH_JARS
#   IO_OURS         the binlog-applier contenders of the io_* workloads (default: no apply keys, and both
#                   modes at 1, 4 and 16 workers with each method)
#   IO_DIRECT       thread counts ("16 32"; default none) of a reference row for io_update_non_index and
#                   io_write_only: sysbench's own load, as many transactions as the binlog holds, run
#                   directly on a fresh target by that many client sessions, one commit per transaction:
#                   about the best a replica that commits each transaction on its own can do (other random
#                   keys than the source's, so its target is not compared: "n/a")
#   BENCH_JARS      other builds to run as contenders, "NAME=PATH ..." (e.g. base=/tmp/base/binlog-applier.jar
#                   and OURS="base@optimistic:4:binlog optimistic:4:binlog"); without BUILD@ a contender
#                   runs the jar built from this tree
#   REPEAT (1)      runs per contender; the table shows the median (an error in any run: error)
#   BENCH_ORDER (interleaved)  with REPEAT above 1: round by round (every contender's first run, then every
#                   second run...); grouped: each contender's runs one after the other
#   TIMEOUT (1800)  seconds a contender may take
#   BENCH_CDS (launcher)  class-data sharing as the launcher does it (bin/binlog-applier): the first run of
#                   each build writes an archive of the classes it loaded at its exit, every later run maps
#                   them from it; off: no archive (every run is a first start after install). A contender
#                   whose java options name -Xshare (e.g. default:default:default:-Xshare:auto, the JVM's
#                   own default) gets no archive either: a first start, in the same run
#   BENCH_JAVA_OPTS (default: the launcher's default JVM options), BENCH_APPLY_EXTRA (more apply
#   keys, e.g. "unit_max_transactions: 100"), BENCH_METRICS_LISTEN (default off, e.g. 127.0.0.1:9104
#   to time the applier with its metrics endpoint), BENCH_KEEP_LOGS (1: keep every binlog-applier run's
#   log under OUT; failed runs' logs are always kept), OUT (default bench-results/<UTC time>).
#   BENCH_TLS (0; 1: both servers serve TLS with certificates made here by openssl, and binlog-applier
#   connects to both with tls mode verify_identity; both: the same servers, each binlog-applier contender
#   run twice, with tls mode disabled and with verify_identity; the native replica stays without MASTER_SSL)
# Smoke run, e.g.:
#   TABLES=2 TABLE_SIZE=1000 LOAD_SECONDS=3 FLUSH=2 NATIVE=0:conservative OURS=optimistic:4:binlog \
#     WORKLOADS=mixed scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/lib.sh

WORKLOADS=${WORKLOADS:-"oltp_write_only oltp_insert oltp_update_index oltp_update_non_index oltp_delete_insert mixed bigtx ddl savepoints"}
TABLES=${TABLES:-10}
TABLE_SIZE=${TABLE_SIZE:-20000}
THREADS=${THREADS:-16}
LOAD_SECONDS=${LOAD_SECONDS:-60}
MIXED_THREADS=${MIXED_THREADS:-4}
MIXED_OPS=${MIXED_OPS:-4}
MIXED_GROUPS=${MIXED_GROUPS:-uq,fk,trg,nopk}
BIGTX_ROWS=${BIGTX_ROWS:-1000000}
BIGTX_WIDE_ROWS=${BIGTX_WIDE_ROWS:-300000}
DDL_TABLES=${DDL_TABLES:-100}
DDL_ROUNDS=${DDL_ROUNDS:-1000}
SAVEPOINT_TRANSACTIONS=${SAVEPOINT_TRANSACTIONS:-30000}
FLUSH=${FLUSH:-"2 1"}
NATIVE=${NATIVE:-"0:conservative 4:conservative 8:conservative 16:conservative 4:optimistic 8:optimistic 16:optimistic"}
# the configuration with no apply keys (what a user gets first), and each method at a few sizes
OURS=${OURS:-"default:default:default conservative:4:sql optimistic:4:sql optimistic:1:binlog conservative:4:binlog optimistic:4:binlog optimistic:16:binlog"}
IO_DIRECT=${IO_DIRECT:-}
IO_OURS=${IO_OURS:-"default:default:default $(for m in conservative optimistic; do for w in 1 4 16; do
  printf '%s ' "$m:$w:sql" "$m:$w:binlog"; done; done)"}
IO_TABLES=${IO_TABLES:-8}
IO_TABLE_SIZE=${IO_TABLE_SIZE:-300000}
IO_MIXED_TABLE_SIZE=${IO_MIXED_TABLE_SIZE:-1000000}
IO_THREADS=${IO_THREADS:-16}
IO_LOAD_SECONDS=${IO_LOAD_SECONDS:-30}
IO_BUFFER_POOL=${IO_BUFFER_POOL:-32M}
IO_SOURCE_BUFFER_POOL=${IO_SOURCE_BUFFER_POOL:-2G}
IO_TARGET_OPTS=${IO_TARGET_OPTS:-}
IO_METRICS=${IO_METRICS:-0}
IO_PURGE_WAIT=${IO_PURGE_WAIT:-0}
BENCH_JARS=${BENCH_JARS:-}
REPEAT=${REPEAT:-1}
BENCH_ORDER=${BENCH_ORDER:-interleaved}
case $BENCH_ORDER in interleaved|grouped) ;; *) echo "bench: BENCH_ORDER is interleaved or grouped, not '$BENCH_ORDER'" >&2; exit 2 ;; esac
BENCH_JAVA_OPTS=${BENCH_JAVA_OPTS:-$(launcher_java_opts)}
BENCH_CDS=${BENCH_CDS:-launcher}
case $BENCH_CDS in launcher|off) ;; *) echo "bench: BENCH_CDS is launcher or off, not '$BENCH_CDS'" >&2; exit 2 ;; esac
BENCH_APPLY_EXTRA=${BENCH_APPLY_EXTRA:-}
BENCH_KEEP_LOGS=${BENCH_KEEP_LOGS:-0}
BENCH_TLS=${BENCH_TLS:-0}
BENCH_APPLY_EXTRA=$(sed -E 's/^[ ,]+//' <<<"$BENCH_APPLY_EXTRA") # the old form began with ", "
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=${OUT:-bench-results/$STAMP}
TIMEOUT=${TIMEOUT:-1800}

for workload in $WORKLOADS; do
  case $workload in
    oltp_write_only|oltp_insert|oltp_update_index|oltp_update_non_index|oltp_delete_insert|mixed|bigtx|ddl|savepoints) ;;
    io_update_non_index|io_write_only|io_mixed) ;;
    *) echo "bench: unknown workload '$workload' (see the knobs at the top of $0)" >&2; exit 2 ;;
  esac
done

mvn -B -q -ntp -DskipTests package
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/binlog-applier-bench.XXXXXX)
TLS_OPTS=()
TLS_YAML=""
if [ "$BENCH_TLS" != 0 ]; then # a CA and a server certificate for 127.0.0.1 (docs/tls.md, "Making certificates")
  C="$WORK/certs"; mkdir -p "$C"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=bench CA" -keyout "$C/ca-key.pem" -out "$C/ca.pem" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$C/server-key.pem" -out "$C/server.csr" 2>/dev/null
  echo "subjectAltName=IP:127.0.0.1,DNS:localhost" >"$C/server.ext"
  openssl x509 -req -in "$C/server.csr" -CA "$C/ca.pem" -CAkey "$C/ca-key.pem" -CAcreateserial -days 2 \
    -extfile "$C/server.ext" -out "$C/server.pem" 2>/dev/null
  chmod 600 "$C"/*-key.pem
  TLS_OPTS=(--ssl-ca="$C/ca.pem" --ssl-cert="$C/server.pem" --ssl-key="$C/server-key.pem")
fi
case $BENCH_TLS in 0) TLS_VARIANTS=default ;; 1) TLS_VARIANTS=verify ;; *) TLS_VARIANTS="disabled verify" ;; esac
set_tls() { # set_tls default|disabled|verify -> TLS_YAML (both sides' tls key), TLS_LABEL (name suffix)
  case $1 in
    default) TLS_YAML="" TLS_LABEL="" ;;
    disabled) TLS_YAML=", tls: {mode: disabled}" TLS_LABEL=" (no TLS)" ;;
    verify) TLS_YAML=", tls: {mode: verify_identity, ca_file: $C/ca.pem}" TLS_LABEL=" (TLS verify_identity)" ;;
  esac
}
# a copy, so that a build during the benchmark does not change the contender
JAR=$WORK/binlog-applier.jar
cp applier-server/target/binlog-applier.jar "$JAR"
declare -A JARS=()
for j in $BENCH_JARS; do
  [ -f "${j#*=}" ] || { echo "bench: BENCH_JARS: no such jar '${j#*=}' (for ${j%%=*})" >&2; exit 2; }
  cp "${j#*=}" "$WORK/build-${j%%=*}.jar"
  JARS[${j%%=*}]=$WORK/build-${j%%=*}.jar
done
trap 'stop_servers; rm -rf "$WORK"' EXIT

now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds_since() { echo "$(now) - $1" | bc; }
is_number() { [[ "$1" =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]]; } # bc writes .5 for 0.5

# every base table of every schema the source has, as schema.table
source_tables() {
  sql "$SRC" "SELECT CONCAT('\`', TABLE_SCHEMA, '\`.\`', TABLE_NAME, '\`') FROM information_schema.TABLES
    WHERE TABLE_TYPE = 'BASE TABLE'
      AND TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')
    ORDER BY TABLE_SCHEMA, TABLE_NAME"
}

verify() { # verify TARGET_PORT -> prints "ok" or "DIFFERENT"
  local t s d
  for t in $TABLES_TO_VERIFY; do
    s=$(sql "$SRC" "CHECKSUM TABLE $t" | awk '{print $NF}')
    d=$(sql "$1" "CHECKSUM TABLE $t" 2>/dev/null | awk '{print $NF}' || true)
    if [ "$s" != "$d" ] || [ "$d" = NULL ]; then echo DIFFERENT; return; fi
  done
  echo ok
}

fresh_target() { # fresh_target FLUSH -> starts "target" on $TGT: empty, or a copy of $SEED (io_* workloads)
  local dir="$WORK/target" opts=()
  stop_server target || true
  rm -rf "$dir"
  if [ -n "$SEED" ]; then
    mkdir -p "$dir"
    cp -a "$SEED" "$dir/data"
    sync # written out now, not while the contender's reads bypass the page cache
    # cold and small: the pool holds a fraction of the data, reads bypass the page cache, and nothing
    # (ib_buffer_pool is not in the seed) warms the pool at startup
    opts=(--innodb-buffer-pool-size="$IO_BUFFER_POOL" --innodb-flush-method=O_DIRECT
      --innodb-buffer-pool-load-at-startup=OFF --innodb-buffer-pool-dump-at-shutdown=OFF $IO_TARGET_OPTS)
    [ "$IO_METRICS" != 1 ] || opts+=(--innodb-monitor-enable=all)
  fi
  TGT=$(free_port)
  start_server target "$TGT" 2 --innodb-flush-log-at-trx-commit="$1" --sync-binlog=0 --relay-log=relay-bin \
    --skip-slave-start "${TLS_OPTS[@]}" "${opts[@]}"
}

# take_seed: the source's tables as they are now, for the io_* targets. A clean shutdown (so the copy
# needs no crash recovery), a copy of the data directory without the source's binlogs, its buffer pool
# dump and any replica state, then the source runs again on the same port and data. START is the
# binlog position after the restart: nothing was written between the copy and it.
take_seed() {
  stop_server source
  SEED=$WORK/seed
  rm -rf "$SEED"
  rsync -a --exclude='mysql-bin.*' --exclude='relay-bin.*' --exclude=ib_buffer_pool --exclude='*.info' \
    --exclude=auto.cnf --exclude='*.pid' --exclude='*.err' "$WORK/source/data/" "$SEED/"
  start_source
  read -r START_FILE START_POS < <(sql "$SRC" "SHOW MASTER STATUS" | awk '{print $1, $2}')
}

start_source() {
  local opts=()
  case $workload in io_*) opts=(--innodb-buffer-pool-size="$IO_SOURCE_BUFFER_POOL") ;; esac
  start_server source "$SRC" 1 --log-bin=mysql-bin --binlog-format=ROW --innodb-flush-log-at-trx-commit=2 \
    --sync-binlog=0 --max-binlog-size=1G "${TLS_OPTS[@]}" "${opts[@]}"
}

run_native() { # run_native THREADS MODE -> seconds, or "timeout" / "error"
  # (runs in a command substitution under ||, where set -e does not apply: each step is checked)
  if ! sql "$TGT" "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$SRC, MASTER_USER='root', MASTER_PASSWORD='',
      MASTER_LOG_FILE='$START_FILE', MASTER_LOG_POS=$START_POS;
      SET GLOBAL slave_parallel_threads=$1; SET GLOBAL slave_parallel_mode='$2'" 2>"$WORK/native.err"; then
    grep -m1 '^ERROR' "$WORK/native.err" >"$WORK/run.error" || cp "$WORK/native.err" "$WORK/run.error"
    sed 's/^/   /' "$WORK/run.error" >&2
    echo error; return
  fi
  local t0 r; t0=$(now)
  sql "$TGT" "START SLAVE" && r=$(sql "$TGT" "SELECT MASTER_POS_WAIT('$END_FILE', $END_POS, $TIMEOUT)") || r=NULL
  local dt; dt=$(seconds_since "$t0")
  if [ "$r" = "NULL" ]; then # a replication thread stopped on an error
    sql "$TGT" "SHOW SLAVE STATUS\G" | grep -E 'Last_(IO|SQL)_Error: .' | head -1 | sed 's/^ *//' >"$WORK/run.error" || true
    sed 's/^/   /' "$WORK/run.error" >&2
  fi
  sql "$TGT" "STOP SLAVE" || true
  case $r in -1) echo timeout ;; NULL) echo error ;; *) echo "$dt" ;; esac
}

run_direct() { # run_direct THREADS -> seconds: the io_* load itself, IO_TX transactions, on the target
  local t0 rc=0; t0=$(now)
  sysbench "oltp_${workload#io_}" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$TGT" --mysql-user=root \
    --mysql-db=sbtest --tables="$IO_TABLES" --table-size="$IO_TABLE_SIZE" --rand-type=uniform --threads="$1" \
    --events="$IO_TX" --time=0 run >"$WORK/direct.out" 2>&1 || rc=$?
  local dt; dt=$(seconds_since "$t0")
  if [ "$rc" != 0 ]; then
    grep -i -m1 -E 'fatal|error' "$WORK/direct.out" >"$WORK/run.error" || echo "sysbench exit $rc" >"$WORK/run.error"
    sed 's/^/   /' "$WORK/run.error" >&2
    echo error; return
  fi
  echo "$dt"
}

ours_config() { # ours_config MODE WORKERS METHOD EXTRA -> bench.yml; "default" leaves a key out
  local keys=() apply kv
  [ "$1" = default ] || keys+=("mode: $1")
  [ "$2" = default ] || keys+=("workers: $2")
  [ "$3" = default ] || keys+=("method: $3")
  local k v parents=() p
  declare -A nested=()
  for kv in ${4//+/ }; do
    k=${kv%%=*} v=${kv#*=}
    case $k in
      *.*) # a key of a nested section: read_ahead.enabled=true+read_ahead.rows=500 is "read_ahead: {enabled: true, rows: 500}"
        p=${k%%.*}
        [ -n "${nested[$p]:-}" ] || parents+=("$p")
        nested[$p]+="${nested[$p]:+, }${k#*.}: $v" ;;
      *) keys+=("$k: $v") ;;
    esac
  done
  for p in "${parents[@]}"; do keys+=("$p: {${nested[$p]}}"); done
  [ -z "$BENCH_APPLY_EXTRA" ] || keys+=("$BENCH_APPLY_EXTRA")
  apply=$(printf '%s, ' "${keys[@]}"); apply=${apply%, }
  cat >"$WORK/bench.yml" <<YAML
name: bench
source: {host: 127.0.0.1, port: $SRC, user: root, password: "", server_id: 4242, start: "$START_FILE:$START_POS"$TLS_YAML}
target: {host: 127.0.0.1, port: $TGT, user: root, password: ""$TLS_YAML}
apply: {$apply}
# the target's flush setting is the workload's (as for the native replica); metrics off unless asked for
durability: {mode: unchanged}
metrics: {listen: ${BENCH_METRICS_LISTEN:-off}}
YAML
}

run_ours() { # run_ours BUILD MODE WORKERS METHOD EXTRA [JAVA_OPTS] -> seconds, or "error" / "timeout"
  local jar=$JAR
  [ -z "$1" ] || jar=${JARS[$1]}
  ours_config "$2" "$3" "$4" "$5"
  local cds=""
  if [ "$BENCH_CDS" = launcher ] && [[ "${6:-}" != *-Xshare* ]]; then # as bin/binlog-applier: write the archive once, then map it
    if [ -f "$jar.jsa" ]; then cds="-XX:SharedArchiveFile=$jar.jsa -Xshare:auto -Xlog:cds=off,cds+dynamic=off"
    else cds="-XX:ArchiveClassesAtExit=$jar.jsa -Xlog:cds=off,cds+dynamic=off"; fi
  fi
  local t0 rc=0; t0=$(now)
  # the applier's CPU seconds (user + system, its JIT and GC threads included) go to ours.cpu
  local TIMEFORMAT='%3U %3S'
  { time timeout "$TIMEOUT" java $BENCH_JAVA_OPTS ${6:-} $cds -jar "$jar" run --config "$WORK/bench.yml" --until current \
    >"$WORK/ours.log" 2>&1 || rc=$?; } 2>"$WORK/ours.time"
  awk '{ printf "%.2f", $1 + $2 }' "$WORK/ours.time" >"$WORK/ours.cpu" 2>/dev/null || true
  if [ "$rc" != 0 ]; then
    local log; log="$OUT/failed-$(date +%s%N).log"
    cp "$WORK/ours.log" "$log"
    # the last line that is not a stack frame names the cause (exit codes: docs/operations.md, "Exit codes")
    echo "exit $rc: $(grep -v '^\s*at \|^\s*\.\.\. [0-9]* more' "$WORK/ours.log" | tail -1) (log: $log)" \
      >"$WORK/run.error"
    sed 's/^/   /' "$WORK/run.error" >&2
    if [ "$rc" = 124 ]; then echo timeout; else echo error; fi
    return
  fi
  seconds_since "$t0"
}

sysbench_base() { # sysbench_base SCHEMA -> the connection options
  echo "--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$SRC --mysql-user=root --mysql-db=$1"
}

load_failed() { # load_failed WORKLOAD: the load generator stopped; say why and stop the benchmark
  echo "bench: the $1 load failed on the source:" >&2
  grep -i -E 'fatal|error' "$OUT/sysbench-$1.txt" | head -5 >&2
  exit 1
}

io_ratio() { # io_ratio SCHEMA: IO_DATA (bytes of the schema's tables), IO_RATIO (to the targets' pool); warns when small
  local pool
  IO_DATA=$(sql "$SRC" "SELECT SUM(DATA_LENGTH + INDEX_LENGTH) FROM information_schema.TABLES
    WHERE TABLE_SCHEMA = '$1'")
  pool=$(numfmt --from=iec "$IO_BUFFER_POOL")
  IO_RATIO=$(echo "scale=1; $IO_DATA / $pool" | bc)
  if (( $(echo "$IO_RATIO < 4" | bc) )); then
    echo "   WARNING: the data is only ${IO_RATIO}x the targets' buffer pool: not I/O-bound" \
      "(raise IO_TABLE_SIZE or IO_TABLES, IO_MIXED_TABLE_SIZE for io_mixed, or lower IO_BUFFER_POOL)" >&2
  fi
}

# small_tables_sql: the CREATE TABLE statements of the ddl and savepoints workloads' DDL_TABLES tables t1, t2, …
small_tables_sql() {
  local t
  for t in $(seq 1 "$DDL_TABLES"); do echo "CREATE TABLE t$t (id INT AUTO_INCREMENT PRIMARY KEY, v INT, KEY (v));"; done
}

generate() { # generate WORKLOAD: writes the binlog on $SRC; sets LOAD (one line describing it)
  local sb
  case $1 in
    oltp_*)
      local script=$1 extra=()
      if [ "$1" = oltp_delete_insert ]; then
        script=oltp_write_only; extra=(--index_updates=0 --non_index_updates=0 --delete_inserts=1)
      fi
      sql "$SRC" "CREATE DATABASE sbtest"
      sb=(sysbench "$script" $(sysbench_base sbtest) --tables="$TABLES" --table-size="$TABLE_SIZE" "${extra[@]}")
      "${sb[@]}" --threads="$TABLES" prepare >/dev/null
      "${sb[@]}" --threads="$THREADS" --time="$LOAD_SECONDS" run >"$OUT/sysbench-$1.txt" || load_failed "$1"
      LOAD="sysbench $script${extra[*]:+ ${extra[*]}}, $TABLES tables x $TABLE_SIZE rows, $THREADS threads, ${LOAD_SECONDS}s"
      ;;
    mixed|io_mixed)
      local size=$TABLE_SIZE seconds=$LOAD_SECONDS
      [ "$1" = mixed ] || { size=$IO_MIXED_TABLE_SIZE; seconds=$IO_LOAD_SECONDS; }
      sql "$SRC" "CREATE DATABASE mixed"
      sb=(sysbench scripts/bench/mixed.lua $(sysbench_base mixed) --table-size="$size" --ops="$MIXED_OPS"
          --groups="$MIXED_GROUPS")
      "${sb[@]}" prepare >/dev/null
      if [ "$1" = io_mixed ]; then
        take_seed
        io_ratio mixed
      fi
      # 1467: a deadlock while INSERT...SELECT waits for the AUTO-INC lock, reported as "Failed to read
      # auto-increment value"; InnoDB has rolled the transaction back, as for 1213
      "${sb[@]}" --threads="$MIXED_THREADS" --time="$seconds" --mysql-ignore-errors=1213,1205,1020,1467 \
        run >"$OUT/sysbench-$1.txt" || load_failed "$1"
      LOAD="scripts/bench/mixed.lua, $size rows per table"
      if [ "$1" = io_mixed ]; then
        LOAD+=" ($((IO_DATA >> 20)) MB, ${IO_RATIO}x the targets' innodb_buffer_pool_size=$IO_BUFFER_POOL, O_DIRECT;"
        LOAD+=" each target a copy of the source after prepare)"
      fi
      LOAD+=", $MIXED_THREADS threads, 1..$MIXED_OPS statements per transaction on $MIXED_GROUPS, ${seconds}s"
      ;;
    io_*)
      local script=oltp_${1#io_} sb
      sql "$SRC" "CREATE DATABASE sbtest"
      # uniformly random keys: sysbench's default (special) sends most changes to a few hot rows, which
      # a small buffer pool holds as well as a large one
      sb=(sysbench "$script" $(sysbench_base sbtest) --tables="$IO_TABLES" --table-size="$IO_TABLE_SIZE"
        --rand-type=uniform)
      "${sb[@]}" --threads="$IO_TABLES" prepare >/dev/null
      take_seed
      io_ratio sbtest
      "${sb[@]}" --threads="$IO_THREADS" --time="$IO_LOAD_SECONDS" run >"$OUT/sysbench-$1.txt" || load_failed "$1"
      IO_TX=$(awk '/^ *transactions:/ { print $2; exit }' "$OUT/sysbench-$1.txt")
      LOAD="sysbench $script --rand-type=uniform, $IO_TABLES tables x $IO_TABLE_SIZE rows ($((IO_DATA >> 20)) MB,"
      LOAD+=" ${IO_RATIO}x the targets' innodb_buffer_pool_size=$IO_BUFFER_POOL, O_DIRECT; each target a copy of"
      LOAD+=" the source after prepare), $IO_THREADS threads, ${IO_LOAD_SECONDS}s"
      ;;
    bigtx)
      # each statement is one source transaction; rows come from MariaDB's Sequence engine (seq_1_to_N)
      sql "$SRC" "CREATE DATABASE bigtx;
        CREATE TABLE bigtx.big (id INT NOT NULL PRIMARY KEY, k INT NOT NULL, c CHAR(120) NOT NULL,
          pad CHAR(60) NOT NULL, KEY k (k)) ENGINE=InnoDB;
        CREATE TABLE bigtx.wide (id INT NOT NULL PRIMARY KEY, payload VARCHAR(1024) NOT NULL) ENGINE=InnoDB"
      sql "$SRC" "USE bigtx; INSERT INTO bigtx.big SELECT seq, seq MOD 100003, REPEAT(MD5(seq), 3), LEFT(SHA1(seq), 60)
        FROM seq_1_to_$BIGTX_ROWS"
      sql "$SRC" "UPDATE bigtx.big SET k = k + 1, c = REVERSE(c)"
      sql "$SRC" "DELETE FROM bigtx.big WHERE id MOD 2 = 0"
      if [ "$BIGTX_WIDE_ROWS" -gt 0 ]; then
        sql "$SRC" "USE bigtx; INSERT INTO bigtx.wide SELECT seq, LEFT(REPEAT(MD5(seq), 32), 1000) FROM seq_1_to_$BIGTX_WIDE_ROWS"
      fi
      LOAD="one INSERT...SELECT of $BIGTX_ROWS rows, one UPDATE of all of them, one DELETE of half"
      [ "$BIGTX_WIDE_ROWS" -eq 0 ] || LOAD+=", one INSERT...SELECT of $BIGTX_WIDE_ROWS rows of 1 KB"
      ;;
    ddl)
      # a source whose writes to many tables meet DDL and account statements now and then (a migration,
      # per-tenant tables and users, a statistics job); each statement and each INSERT is a transaction
      local t r
      {
        echo "CREATE DATABASE ddl; USE ddl; CREATE USER 'bench_ddl'@'%';"
        small_tables_sql
        for r in $(seq 1 "$DDL_ROUNDS"); do
          t=$(( r % DDL_TABLES + 1 ))
          case $(( r % 4 )) in
            0) echo "GRANT SELECT ON ddl.t$t TO 'bench_ddl'@'%';" ;;
            1) echo "ALTER TABLE t$t ADD COLUMN c$r INT;" ;;
            2) echo "CREATE TABLE new$r (id INT PRIMARY KEY);" ;;
            3) echo "ANALYZE TABLE t$t;" ;;
          esac
          for t in $(seq 1 "$DDL_TABLES"); do echo "INSERT INTO t$t (v) VALUES ($r);"; done
        done
      } >"$WORK/ddl.sql"
      mariadb --no-defaults -h127.0.0.1 -P"$SRC" -uroot <"$WORK/ddl.sql" >/dev/null
      LOAD="$DDL_TABLES tables; $DDL_ROUNDS rounds of one GRANT, ALTER TABLE, CREATE TABLE or ANALYZE TABLE and"
      LOAD+=" a one-row INSERT into each table, one session"
      ;;
    savepoints)
      # MariaDB logs SAVEPOINT inside the transaction (RELEASE and an InnoDB-only ROLLBACK TO leave no trace)
      local t i
      {
        echo "CREATE DATABASE savepoints; USE savepoints;"
        small_tables_sql
        for i in $(seq 1 "$SAVEPOINT_TRANSACTIONS"); do
          t=$(( i % DDL_TABLES + 1 ))
          echo "BEGIN; INSERT INTO t$t (v) VALUES ($i); SAVEPOINT s; INSERT INTO t$t (v) VALUES ($i); RELEASE SAVEPOINT s; COMMIT;"
        done
      } >"$WORK/savepoints.sql"
      mariadb --no-defaults -h127.0.0.1 -P"$SRC" -uroot <"$WORK/savepoints.sql" >/dev/null
      LOAD="$SAVEPOINT_TRANSACTIONS transactions of INSERT, SAVEPOINT, INSERT, RELEASE SAVEPOINT over $DDL_TABLES tables,"
      LOAD+=" one session"
      ;;
  esac
}

# The contenders of one workload and flush setting, in the order given: C_NAME[j], C_KIND[j] (native or
# ours), C_TLS[j] (set_tls's variant), C_ARGS[j] (run_KIND's arguments, joined by US, \x1f). With REPEAT
# above 1 the runs go round by round (every contender's first run, then every second run...), so that a
# machine that slows down or speeds up during the run moves every contender's median alike, not only those
# measured last (BENCH_ORDER=grouped: each contender's runs one after the other, as before 2026-12-04 late).
US=$'\x1f'
plan() { # plan NAME KIND TLS ARGS...
  local j=${#C_NAME[@]} IFS=$US
  C_NAME[j]=$1 C_KIND[j]=$2 C_TLS[j]=$3
  shift 3
  C_ARGS[j]="$*${US}." # the "." keeps empty last arguments through read -a (measure_once drops it)
  C_RUNS[j]="" C_V[j]=ok C_ERR[j]=""
}

measure_once() { # measure_once J RUN: one run of contender J
  local j=$1 i=$2 name=${C_NAME[$1]} kind=${C_KIND[$1]} r args
  IFS=$US read -r -a args <<<"${C_ARGS[$j]}"
  unset 'args[${#args[@]}-1]'
  set_tls "${C_TLS[$j]}"
  fresh_target "$flush"
  rm -f "$WORK/run.error" "$WORK/ours.cpu"
  local cpu0 disk0 machine0; cpu0=$(target_cpu); disk0=$(disk_sectors); machine0=$(machine_ticks)
  r=$("run_$kind" "${args[@]}") || r=error # e.g. the target refused CHANGE MASTER; its message is above
  C_RUNS[j]+="$r "
  echo "$workload,$flush,$name,$i,$r,$(echo "$(target_cpu) - $cpu0" | bc),$(cat "$WORK/ours.cpu" 2>/dev/null || true),$(machine_shares "$machine0")" \
    >>"$OUT/cpu.csv"
  if [ -n "$SEED" ]; then # what the run read from and wrote to disk (before the checksums read everything)
    echo "$workload,$flush,$name,$i,$r,$(sql "$TGT" "SELECT GROUP_CONCAT(VARIABLE_VALUE ORDER BY VARIABLE_NAME)
      FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ('INNODB_BUFFER_POOL_READS',
      'INNODB_BUFFER_POOL_PAGES_FLUSHED', 'INNODB_BUFFER_POOL_READ_REQUESTS', 'INNODB_BUFFER_POOL_WAIT_FREE')" \
      2>/dev/null || echo ,,,),$(disk_mb "$disk0")" \
      >>"$OUT/io-stats.csv"
    if [ "$IO_METRICS" = 1 ]; then # counters by kind: which pages were read and written, and purge's share
      sql "$TGT" "SELECT NAME, COUNT FROM information_schema.INNODB_METRICS WHERE COUNT <> 0 AND (NAME LIKE
        'buffer_page_read%' OR NAME LIKE 'buffer_page_written%' OR NAME LIKE 'purge%' OR NAME LIKE 'trx_undo%'
        OR NAME LIKE 'buffer_LRU%' OR NAME LIKE 'buffer_flush%') ORDER BY NAME" 2>/dev/null |
        awk -v p="$workload,$flush,$name,$i" -F'\t' '{ print p "," $1 "," $2 }' >>"$OUT/innodb-metrics.csv" || true
    fi
    if [ "$IO_PURGE_WAIT" = 1 ]; then # caught up, but is the target's purge? (old row versions still to remove)
      local h0 h t0=$SECONDS; h0=$(history_length)
      h=$h0
      while [ -n "$h" ] && [ "$h" != 0 ] && [ $((SECONDS - t0)) -lt 600 ]; do sleep 0.5; h=$(history_length); done
      echo "$workload,$flush,$name,$i,$r,$h0,$([ "$h" = 0 ] && echo $((SECONDS - t0)) || echo "not within 600")" \
        >>"$OUT/purge.csv"
    fi
  fi
  if [ "$kind" = ours ] && [ "$BENCH_KEEP_LOGS" = 1 ]; then
    cp "$WORK/ours.log" "$OUT/log-$workload-flush$flush-$(printf '%s' "$name" | tr -c 'A-Za-z0-9.=-' _)-$i.log"
  fi
  if ! is_number "$r"; then
    C_V[j]=error
    [ -f "$WORK/run.error" ] && C_ERR[j]=$(cat "$WORK/run.error")
  elif [ "$kind" = direct ]; then
    C_V[j]=n/a # its own random keys: a target unlike the source by design
  elif [ "$(verify "$TGT")" != ok ]; then
    C_V[j]=DIFFERENT
    [ "$kind" = native ] || cp "$WORK/ours.log" "$OUT/different-$(date +%s%N).log"
  fi
  [ "$REPEAT" = 1 ] || echo "   flush=$flush  $name, run $i: $r$(is_number "$r" && echo " s")"
}

measure_all() { # every contender planned, REPEAT runs each; a row per contender in $CSV.tmp, in plan order
  local j i n=${#C_NAME[@]}
  if [ "$BENCH_ORDER" = grouped ]; then
    for ((j = 0; j < n; j++)); do for i in $(seq 1 "$REPEAT"); do measure_once "$j" "$i"; done; done
  else
    for i in $(seq 1 "$REPEAT"); do for ((j = 0; j < n; j++)); do measure_once "$j" "$i"; done; done
  fi
  for ((j = 0; j < n; j++)); do
    local name=${C_NAME[$j]} v=${C_V[$j]} runs s r
    read -r -a runs <<<"${C_RUNS[$j]}"
    s=$(median "${runs[@]}")
    for r in "${runs[@]}"; do is_number "$r" || s=$r; done
    echo "   flush=$flush  $name: $s$(is_number "$s" && echo " s") ($v)"
    echo "$workload,$COMMITS,$flush,$name,$s,$v" >>"$CSV.tmp"
    [ -z "${C_ERR[$j]}" ] || echo "- $workload, flush=$flush, $name: ${C_ERR[$j]}" >>"$OUT/errors.md"
    if [ "${C_KIND[$j]}" = native ] && [ "$v" = ok ]; then
      if [ -z "$best" ] || (( $(echo "$s < $best" | bc) )); then best=$s; best_name=$name; fi
      [ "$name" != "native serial" ] || serial=$s
    fi
  done
}

ours_name() { # ours_name MODE WORKERS METHOD JAVA_OPTS EXTRA BUILD
  local n
  if [ "$1:$2:$3" = default:default:default ]; then
    n="binlog-applier with no apply keys"
  else
    n="binlog-applier $( [ "$1" = default ] && echo "default mode" || echo "$1")"
    n+=" $( [ "$2" = default ] && echo "default workers" || echo "$2 workers")"
    n+=" $( [ "$3" = default ] && echo "default method" || echo "$3")"
  fi
  [ -z "${5:-}" ] || n+=" ($(sed -e 's/=/: /g' -e 's/+/; /g' <<<"$5"))"
  echo "${6:+$6: }$n${4:+ ($4)}"
}

history_length() { # history_length -> the target's Innodb_history_list_length (transactions purge has yet to clean up)
  sql "$TGT" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_HISTORY_LIST_LENGTH'" 2>/dev/null
}

target_cpu() { # target_cpu -> CPU seconds (user + system) the target's mariadbd has used so far
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$(cat "$WORK/target/mysqld.pid")/stat"
}

# The whole machine's CPU time (every process and the kernel, /proc/stat): a run on 2 cores can be held
# back by the CPUs as a whole while neither the target nor binlog-applier uses a full core.
machine_ticks() { # machine_ticks -> "USER SYSTEM IOWAIT IDLE STEAL" ticks so far (SYSTEM with irq and softirq)
  awk '$1 == "cpu" { print $2 + $3, $4 + $7 + $8, $6, $5, $9 }' /proc/stat
}
machine_shares() { # machine_shares "TICKS0" -> "USER%,SYSTEM%,IOWAIT%,IDLE%,STEAL%" of the CPUs' time since
  local a b c d e; read -r a b c d e <<<"$1"; set -- $(machine_ticks)
  awk -v u=$(($1 - a)) -v s=$(($2 - b)) -v w=$(($3 - c)) -v i=$(($4 - d)) -v t=$(($5 - e)) 'BEGIN {
    n = u + s + w + i + t; if (n <= 0) { print ",,,,"; exit }
    printf "%.0f,%.0f,%.0f,%.0f,%.0f", 100 * u / n, 100 * s / n, 100 * w / n, 100 * i / n, 100 * t / n }'
}

# The block device under $WORK, as /proc/diskstats names it (a partition or the whole disk), or nothing
# (tmpfs, overlay): what the io_* runs read from and wrote to it, every process's I/O on it included.
DISK_DEV=$(basename "$(df --output=source "$WORK" 2>/dev/null | tail -1)")
disk_sectors() { # disk_sectors -> "SECTORS_READ SECTORS_WRITTEN" of $DISK_DEV so far, or nothing
  awk -v d="$DISK_DEV" '$3 == d { print $6, $10 }' /proc/diskstats 2>/dev/null
}
disk_mb() { # disk_mb "READ0 WRITTEN0" -> "MB_READ,MB_WRITTEN" since, or ","
  local a b; read -r a b <<<"$1"; set -- $(disk_sectors)
  if [ -n "$a" ] && [ -n "${1:-}" ]; then echo "$(( ($1 - a) / 2048 )),$(( ($2 - b) / 2048 ))"; else echo ,; fi
}

ratio() { # ratio SECONDS BASE -> SECONDS/BASE with 2 decimals, or nothing
  if is_number "$1" && [ -n "$2" ]; then printf '%.2f' "$(echo "scale=4; $1 / $2" | bc)"; fi
}

CSV="$OUT/results.csv"
# CPU seconds of each run: the target server's (for the native replica that is all of it: I/O thread,
# relay log, SQL threads) and binlog-applier's process; then how the whole machine's CPU time was spent
# over the run, in percent (user, system with interrupts, waiting for I/O, idle, stolen by the host)
echo "workload,flush,contender,run,seconds,target_cpu_seconds,applier_cpu_seconds,machine_user_pct,machine_system_pct,machine_iowait_pct,machine_idle_pct,machine_steal_pct" >"$OUT/cpu.csv"
echo "workload,flush,contender,run,seconds,buffer_pool_pages_flushed,buffer_pool_reads,buffer_pool_read_requests,buffer_pool_wait_free,disk_mb_read,disk_mb_written" \
  >"$OUT/io-stats.csv"
echo "workload,transactions,flush,contender,seconds,transactions_per_second,ratio_to_best_native,ratio_to_native_serial,verdict" >"$CSV"
[ "$IO_METRICS" != 1 ] || echo "workload,flush,contender,run,counter,count" >"$OUT/innodb-metrics.csv"
[ "$IO_PURGE_WAIT" != 1 ] || echo "workload,flush,contender,run,seconds,history_list_length_at_end,seconds_until_purged" >"$OUT/purge.csv"
: >"$OUT/loads.md"
: >"$OUT/best.md"
rm -f "$OUT/errors.md"
for workload in $WORKLOADS; do
  rm -rf "$WORK/source" "$WORK/seed"
  SEED=""
  SRC=$(free_port)
  start_source
  read -r START_FILE START_POS < <(sql "$SRC" "SHOW MASTER STATUS" | awk '{print $1, $2}')
  echo "== $workload: generating the binlog"
  generate "$workload" # io_*: takes the seed and moves START past the tables' load
  read -r END_FILE END_POS < <(sql "$SRC" "SHOW MASTER STATUS" | awk '{print $1, $2}')
  COMMITS=$(sql "$SRC" "SHOW GLOBAL STATUS LIKE 'Binlog_commits'" | awk '{print $2}')
  GROUP_COMMITS=$(sql "$SRC" "SHOW GLOBAL STATUS LIKE 'Binlog_group_commits'" | awk '{print $2}')
  TABLES_TO_VERIFY=$(source_tables)
  echo "   $LOAD"
  echo "   $COMMITS binlog commits in $GROUP_COMMITS group commits; binlog $START_FILE:$START_POS .. $END_FILE:$END_POS"
  echo "- $workload: $LOAD; $COMMITS binlog commits in $GROUP_COMMITS group commits." >>"$OUT/loads.md"
  for flush in $FLUSH; do
    best="" best_name="" serial=""
    C_NAME=() C_KIND=() C_TLS=() C_ARGS=() C_RUNS=() C_V=() C_ERR=()
    for c in $NATIVE; do
      name="native ${c##*:} ${c%%:*} threads"; [ "${c%%:*}" = 0 ] && name="native serial"
      plan "$name" native default "${c%%:*}" "${c##*:}"
    done
    case $workload in
      io_update_non_index|io_write_only)
        for c in $IO_DIRECT; do plan "sysbench directly on the target with $c threads (not a replica)" direct default "$c"; done ;;
    esac
    contenders=$OURS
    case $workload in io_*) contenders=$IO_OURS ;; esac
    for c in $contenders; do
      build=""
      case $c in *@*) build=${c%%@*}; c=${c#*@} ;; esac
      if [ -n "$build" ] && [ -z "${JARS[$build]:-}" ]; then
        echo "bench: contender $build@$c: no build '$build' in BENCH_JARS" >&2; exit 2
      fi
      IFS=: read -r mode workers method jopts <<<"$c"
      jopts=${jopts//,/ }
      extra=""
      case $method in *+*) extra=${method#*+}; method=${method%%+*} ;; esac
      for tls in $TLS_VARIANTS; do
        set_tls "$tls"
        plan "$(ours_name "$mode" "$workers" "$method" "$jopts" "$extra" "$build")$TLS_LABEL" ours "$tls" "$build" \
          "$mode" "$workers" "$method" "$extra" "$jopts"
      done
    done
    measure_all
    [ -z "$best" ] || echo "- $workload, flush=$flush: best native: $best_name, $(printf '%.1f' "$best") s" >>"$OUT/best.md"
    while IFS=, read -r w n f name s v; do
      tps=""; is_number "$s" && tps=$(echo "$n / $s" | bc)
      echo "$w,$n,$f,$name,$s,$tps,$(ratio "$s" "$best"),$(ratio "$s" "$serial"),$v" >>"$CSV"
    done <"$CSV.tmp"
    rm -f "$CSV.tmp"
  done
  stop_server source || true
done

{
  echo "# binlog-applier benchmark $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; MariaDB $(mariadbd --version | awk '{print $3}')."
  echo "Time = start to caught up (native: START SLAVE to MASTER_POS_WAIT; binlog-applier: process start to exit"
  echo "of run --until current), median of $REPEAT run(s). binlog-applier JVM options: $BENCH_JAVA_OPTS."
  if [ "$BENCH_CDS" = launcher ]; then
    echo "Class-data sharing as the launcher does it: the first binlog-applier run of each build wrote an archive of"
    echo "the classes it loaded, every later run mapped them (BENCH_CDS=off: none)."
  else
    echo "No class-data sharing archive (BENCH_CDS=off): every binlog-applier run is a first start after install."
  fi
  echo "ratio = seconds / seconds of the best native configuration (or of native serial) of the same workload and"
  echo "flush setting (lower is better). transactions = the source's Binlog_commits (schema load included)."
  echo
  echo "Loads:"
  echo
  cat "$OUT/loads.md"
  echo
  cat "$OUT/best.md"
  echo
  echo "| workload | transactions | flush | contender | seconds | tx/s | ratio to best native | ratio to native serial | target = source |"
  echo "|---|---|---|---|---|---|---|---|---|"
  tail -n +2 "$CSV" | while IFS=, read -r w n f name s tps ratio rserial v; do
    if is_number "$s"; then s=$(printf "%.$( (( $(echo "$s < 10" | bc) )) && echo 2 || echo 1)f" "$s"); fi
    echo "| $w | $n | $f | $name | $s | $tps | $ratio | $rserial | $v |"
  done
  if [ -f "$OUT/errors.md" ]; then
    echo
    echo "Errors:"
    echo
    cat "$OUT/errors.md"
  fi
} >"$OUT/results.md"
rm -f "$OUT/loads.md" "$OUT/best.md"
cat "$OUT/results.md"
