#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server on a loopback port, then stops it and deletes its files.
#
#   scripts/postgres/with-postgres.sh [--url-file FILE] COMMAND...
#
# The command sees TEST_DATABASE_URL=postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable. The PostgreSQL
# store tests and the two-instance test use it; without it they are skipped with a message saying so.
# If TEST_DATABASE_URL is already set, the command runs against that server instead.
#
# With --url-file, the URL is written to FILE for as long as the command runs, and the environment is left as it
# is. `make test` uses it for `swift test`: SwiftPM recompiles every package manifest when the environment differs
# from its last run, about 10 s on two cores, and this URL's port is new each time.
set -euo pipefail

url_file=""
if [ "${1:-}" = "--url-file" ]; then
    url_file="$2"
    shift 2
fi

if [ -n "${TEST_DATABASE_URL:-}" ]; then exec "$@"; fi

bin=""
for candidate in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    if [ -x "$candidate/initdb" ]; then bin="$candidate"; break; fi
done
if [ -z "$bin" ]; then
    case "${CI:-}" in
        "" | 0 | false | no)
            echo "with-postgres: no PostgreSQL server binaries found (apt package postgresql-15); PostgreSQL tests will be skipped" >&2
            exec "$@" ;;
        *)
            echo "with-postgres: no PostgreSQL server binaries found (apt package postgresql-15); under CI that is a failure" >&2
            exit 1 ;;
    esac
fi

# In memory where the machine has /dev/shm: each test's database is some 300 new files, and on ext4 finding
# inodes for them (next to the last test's, just deleted) cost about 6 s of CPU per `make test`.
parent=/tmp
if [ -d /dev/shm ] && [ -w /dev/shm ]; then parent=/dev/shm; fi
dir="$(mktemp -d "$parent/photo-prompts-pg.XXXXXX")"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# PostgreSQL refuses to run as root; the Debian package's `postgres` account owns the server instead.
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir"
    as_owner=(runuser -u postgres --)
fi

stop() {
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    if [ -n "$url_file" ]; then rm -f "$url_file"; fi
}
trap stop EXIT

"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; echo "with-postgres: PostgreSQL's initdb failed" >&2; exit 1; }
# Tests only: fsync off and a short checkpoint distance are unsafe for real data and make the suite fast.
# Enough connections for two instances' pools plus one store per test.
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
    "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
    start >/dev/null || { cat "$dir/server.log" >&2; echo "with-postgres: PostgreSQL did not start" >&2; exit 1; }
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2

url="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
if [ -n "$url_file" ]; then
    mkdir -p "$(dirname "$url_file")"
    echo "$url" >"$url_file"
else
    export TEST_DATABASE_URL="$url"
fi
"$@"
