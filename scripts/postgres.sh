#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests.
#
#   scripts/postgres.sh start DIR PORT   initdb DIR (trust auth, superuser "trove"),
#                                        start it on 127.0.0.1:PORT, print its URL
#   scripts/postgres.sh stop DIR         stop it (fast) and delete DIR
#   scripts/postgres.sh down DIR         stop it (fast), keeping DIR: a database outage
#   scripts/postgres.sh up DIR PORT      start a stopped cluster again on 127.0.0.1:PORT
#
# The cluster runs as the "postgres" system user because PostgreSQL refuses to
# run as root; DIR is created (or taken over when empty) and chowned to it.
set -euo pipefail

usage() {
    echo "usage: $0 start DIR PORT | stop DIR | down DIR | up DIR PORT" >&2
    exit 2
}

pg_bindir() {
    local d best=""
    # Highest installed major version wins (sort -V handles 9.6 < 15 < 16).
    for d in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V); do
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && best="$d"
    done
    if [ -z "$best" ]; then
        echo "postgres.sh: no PostgreSQL server under /usr/lib/postgresql/*/bin (run scripts/install-test-deps.sh)" >&2
        exit 1
    fi
    printf '%s\n' "$best"
}

# Run a command as the postgres user from a directory it can read.
as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then
        (cd / && runuser -u postgres -- "$@")
    elif [ "$(id -un)" = postgres ]; then
        (cd / && "$@")
    else
        echo "postgres.sh: run as root (or as postgres)" >&2
        exit 1
    fi
}

abspath() {
    case "$1" in
        /*) printf '%s\n' "$1" ;;
        *) printf '%s/%s\n' "$(pwd)" "$1" ;;
    esac
}

# pg_start BINDIR DIR PORT: the socket goes in DIR too (-k), so nothing touches /var/run/postgresql.
pg_start() {
    if ! as_postgres "$1/pg_ctl" -D "$2" \
        -o "-p $3 -k $2 -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=500" \
        -l "$2/log" -w -t 60 start >/dev/null; then
        echo "postgres.sh: PostgreSQL failed to start on port $3; its log:" >&2
        cat "$2/log" >&2 || true
        exit 1
    fi
}

cmd=${1:-}
case "$cmd" in
    start)
        [ $# -eq 3 ] || usage
        dir=$(abspath "$2")
        port=$3
        case "$port" in '' | *[!0-9]*) echo "postgres.sh: bad port '$port'" >&2; exit 2 ;; esac
        bindir=$(pg_bindir)
        if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
            echo "postgres.sh: $dir exists and is not empty" >&2
            exit 1
        fi
        mkdir -p "$dir"
        if [ "$(id -u)" -eq 0 ]; then
            chown postgres: "$dir"
        fi
        chmod 700 "$dir"
        as_postgres "$bindir/initdb" -D "$dir" -A trust -U trove -E UTF8 --locale=C.UTF-8 >"$dir.initdb.log" 2>&1 || {
            cat "$dir.initdb.log" >&2
            rm -f "$dir.initdb.log"
            exit 1
        }
        rm -f "$dir.initdb.log"
        pg_start "$bindir" "$dir" "$port"
        echo "postgres://trove@127.0.0.1:$port/postgres"
        ;;
    down)
        [ $# -eq 2 ] || usage
        dir=$(abspath "$2")
        as_postgres "$(pg_bindir)/pg_ctl" -D "$dir" -m fast -w -t 60 stop >/dev/null
        ;;
    up)
        [ $# -eq 3 ] || usage
        dir=$(abspath "$2")
        pg_start "$(pg_bindir)" "$dir" "$3"
        ;;
    stop)
        [ $# -eq 2 ] || usage
        dir=$(abspath "$2")
        [ -d "$dir" ] || exit 0
        if [ -f "$dir/PG_VERSION" ]; then
            bindir=$(pg_bindir)
            if [ -f "$dir/postmaster.pid" ]; then
                as_postgres "$bindir/pg_ctl" -D "$dir" -m fast -w -t 60 stop >/dev/null ||
                    echo "postgres.sh: pg_ctl stop failed for $dir" >&2
            fi
        elif [ -n "$(ls -A "$dir")" ]; then
            # Never delete a directory that is not a cluster we made.
            echo "postgres.sh: $dir is not a PostgreSQL data directory; not removing it" >&2
            exit 1
        fi
        rm -rf -- "$dir"
        ;;
    *)
        usage
        ;;
esac
