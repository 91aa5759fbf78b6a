#!/usr/bin/env bash
# Helpers shared by demo.sh and bench.sh: throwaway MariaDB servers on free ports.

mariadbd_bin() { command -v mariadbd 2>/dev/null || echo /usr/sbin/mariadbd; }

# A port below the kernel's ephemeral range (32768 and up on Linux): a port in that range can be
# taken at any moment as the local end of some outgoing connection, and mariadbd's bind then fails.
free_port() {
  local p
  while true; do
    p=$(( 10000 + RANDOM % 22000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
}

# start_server NAME PORT SERVER_ID [extra mariadbd options...]; data under $WORK/NAME
start_server() {
  local name=$1 port=$2 id=$3
  shift 3
  local dir="$WORK/$name"
  mkdir -p "$dir"
  local user_opt=()
  if [ "$(id -u)" -eq 0 ]; then user_opt=(--user=root); fi
  # a data directory put there beforehand (bench.sh's copy of a loaded source) is used as it is
  if [ ! -d "$dir/data/mysql" ]; then
    mariadb-install-db --no-defaults "${user_opt[@]}" --datadir="$dir/data" \
      --auth-root-authentication-method=normal --skip-test-db >"$dir/install.log" 2>&1
  fi
  "$(mariadbd_bin)" --no-defaults "${user_opt[@]}" --datadir="$dir/data" --port="$port" \
    --bind-address=127.0.0.1 --socket="$dir/mysqld.sock" --pid-file="$dir/mysqld.pid" \
    --log-error="$dir/error.log" --server-id="$id" --skip-name-resolve --performance-schema=OFF \
    --max-connections=500 --innodb-buffer-pool-size=512M --innodb-log-file-size=256M "$@" \
    >"$dir/stdout.log" 2>&1 &
  echo $! >"$dir/launcher.pid"
  for _ in $(seq 1 300); do
    if mariadb --no-defaults -h127.0.0.1 -P"$port" -uroot -e "SELECT 1" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.2
  done
  echo "server $name did not start; its log:" >&2
  cat "$dir/error.log" >&2
  return 1
}

# stop_server NAME: a clean shutdown of $WORK/NAME's server (SIGTERM), waiting until it has exited
stop_server() {
  local dir="$WORK/$1" pid
  [ -f "$dir/mysqld.pid" ] || return 0
  pid=$(cat "$dir/mysqld.pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 1200); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "server $1 did not shut down within 120 s" >&2
  return 1
}

stop_servers() {
  local f
  for f in "$WORK"/*/mysqld.pid; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
  for f in "$WORK"/*/mysqld.pid; do
    for _ in $(seq 1 100); do
      [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null || break
      sleep 0.1
    done
  done
}

sql() { # sql PORT "statements"
  mariadb --no-defaults -h127.0.0.1 -P"$1" -uroot -N -B -e "$2"
}

# The JVM options the installed launcher (and so the systemd unit) uses unless told otherwise, read
# from the launcher itself so that the demo and the benchmark run the applier as users do: a bare
# `java -jar` on a large machine takes a quarter of its memory as heap, and first-touch page faults
# of that growing heap cost the applier a third of its CPU.
launcher_java_opts() {
  local opts
  opts=$(sed -n 's/^exec "$JAVA" ${BINLOG_APPLIER_JAVA_OPTS:-\([^}]*\)}.*$/\1/p' \
    applier-server/src/main/dist/bin/binlog-applier)
  [ -n "$opts" ] || { echo "cannot read the launcher's default JVM options" >&2; return 1; }
  echo "$opts"
}
