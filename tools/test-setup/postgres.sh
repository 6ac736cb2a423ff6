#!/usr/bin/env bash
# A throwaway PostgreSQL server for the test suite: a temporary data directory, a free local port,
# trust authentication on 127.0.0.1 only, durability off (fsync) because nothing in it must outlive
# the run. Used by .ci/run and by the root vitest config (tools/test-setup/postgres-global.ts).
#
#   postgres.sh bin            the server binaries' folder, or exit 3 when PostgreSQL is missing
#   postgres.sh start          starts one; prints `<url> <dir>` on stdout
#   postgres.sh stop <dir>     stops the server started in <dir> and removes <dir>
#
# PostgreSQL refuses to run as root: as root the server runs as the `postgres` user.
set -euo pipefail

find_bin() {
  local initdb
  if initdb="$(command -v initdb 2>/dev/null)"; then dirname "$(readlink -f "$initdb")"; return 0; fi
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
  return 3
}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  local bin dir port
  bin="$(find_bin)" || { echo "postgres.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 3; }
  dir="$(mktemp -d "${TMPDIR:-/tmp}/hermes-pg-XXXXXX")"
  chmod 755 "$dir"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
  as_owner "$bin/initdb" -D "$dir/data" -U hermes --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  for attempt in 1 2 3; do
    port="$(free_port)"
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o \
      "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c shared_buffers=64MB" \
      >/dev/null 2>&1; then
      echo "postgres://hermes@127.0.0.1:$port/postgres $dir"
      return 0
    fi
  done
  cat "$dir/server.log" >&2
  exit 1
}

stop() {
  local dir="$1" bin
  [ -d "$dir/data" ] || exit 0
  bin="$(find_bin)" || exit 0
  as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
  bin) find_bin ;;
  start) start ;;
  stop) stop "${2:?postgres.sh stop <dir>}" ;;
  *) echo "usage: postgres.sh bin|start|stop <dir>" >&2; exit 2 ;;
esac
