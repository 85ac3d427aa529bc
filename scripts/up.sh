#!/usr/bin/env bash
# `make up`: the distributed mode on this machine. A PostgreSQL cluster and a Redis of its own
# (data under $UP_DIR, ports of their own, so the machine's servers are left alone), migrations,
# the demo logins, then the Procfile's processes under honcho: web (gunicorn), two Dramatiq
# workers, the scheduler and the extraction service, logs interleaved and named. Ctrl-C stops
# them, then the PostgreSQL and Redis; the next `make up` finds the data again.
#
# DATABASE_URL or REDIS_URL set: that server is used and none is started. S3_BUCKET set: files
# go to S3, else to the folder $UP_DIR/storage.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
UP_DIR=$(realpath -m "${UP_DIR:-instance/up}")
UP_HOST=${UP_HOST:-127.0.0.1}
UP_PORT=${UP_PORT:-8000}
UP_PG_PORT=${UP_PG_PORT:-5433}
UP_REDIS_PORT=${UP_REDIS_PORT:-6380}
UP_EXTRACTOR_PORT=${UP_EXTRACTOR_PORT:-5100}
UP_WORKERS=${UP_WORKERS:-2}
export VENV=${VENV:-.venv}

say() { printf 'up: %s\n' "$*"; }
fail() { printf 'up: %s\n' "$*" >&2; exit 1; }

mkdir -p "$UP_DIR"
PG_DIR=$UP_DIR/postgres
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
# PostgreSQL refuses to run as root: as root, its folder belongs to the postgres user.
AS_PG=()
[ "$(id -u)" -eq 0 ] && AS_PG=(runuser -u postgres --)

start_postgres() {
  [ -n "$PG_BIN" ] || fail "PostgreSQL's server is not installed (scripts/install-system-packages.sh up)"
  if [ ! -f "$PG_DIR/data/PG_VERSION" ]; then
    say "creating a PostgreSQL cluster in $PG_DIR"
    mkdir -p "$PG_DIR"
    if [ ${#AS_PG[@]} -gt 0 ]; then
      chown postgres:postgres "$PG_DIR"
      "${AS_PG[@]}" test -x "$PG_DIR" ||
        fail "the postgres user cannot reach $PG_DIR: let it through every folder above (chmod o+x), or set UP_DIR"
    fi
    "${AS_PG[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 >"$PG_DIR/initdb.log"
  fi
  # pg_ctl starts the server in a session of its own: a Ctrl-C reaches the application's
  # processes first, and the database is stopped after them (stop_services). One still running
  # (an earlier run that was killed) is taken over and stopped at the end.
  "${AS_PG[@]}" "$PG_BIN/pg_ctl" status -D "$PG_DIR/data" >/dev/null 2>&1 ||
  "${AS_PG[@]}" "$PG_BIN/pg_ctl" start -D "$PG_DIR/data" -w -t 60 -l "$PG_DIR/server.log" \
    -o "-p $UP_PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1" >/dev/null ||
    fail "PostgreSQL did not start; see $PG_DIR/server.log"
  STARTED_PG=1
  "${AS_PG[@]}" "$PG_BIN/psql" -h "$PG_DIR" -p "$UP_PG_PORT" -U postgres -tAq -c \
    "SELECT 1 FROM pg_database WHERE datname = 'leadflow'" | grep -q 1 ||
    "${AS_PG[@]}" "$PG_BIN/createdb" -h "$PG_DIR" -p "$UP_PG_PORT" -U postgres leadflow
  export DATABASE_URL="postgresql://postgres@127.0.0.1:$UP_PG_PORT/leadflow"
}

start_redis() {
  command -v redis-server >/dev/null || fail "redis-server is not installed (scripts/install-system-packages.sh up)"
  mkdir -p "$UP_DIR/redis"
  local pid
  pid=$(cat "$UP_DIR/redis/redis.pid" 2>/dev/null || true)
  # One still running from an earlier run that was killed is taken over, as for PostgreSQL.
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && redis-cli -p "$UP_REDIS_PORT" ping >/dev/null 2>&1 ||
  redis-server --daemonize yes --bind 127.0.0.1 --port "$UP_REDIS_PORT" --dir "$UP_DIR/redis" \
    --pidfile "$UP_DIR/redis/redis.pid" --logfile "$UP_DIR/redis/redis.log" --appendonly yes
  STARTED_REDIS=1
  for _ in $(seq 1 100); do
    redis-cli -p "$UP_REDIS_PORT" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  redis-cli -p "$UP_REDIS_PORT" ping >/dev/null 2>&1 || fail "Redis did not start; see $UP_DIR/redis/redis.log"
  export REDIS_URL="redis://127.0.0.1:$UP_REDIS_PORT/0"
}

stop_services() {
  trap - EXIT INT TERM
  if [ -n "${STARTED_REDIS:-}" ]; then
    redis-cli -p "$UP_REDIS_PORT" shutdown >/dev/null 2>&1 || true
    say "Redis stopped"
  fi
  if [ -n "${STARTED_PG:-}" ]; then
    if "${AS_PG[@]}" "$PG_BIN/pg_ctl" stop -D "$PG_DIR/data" -m fast -w -t 60 >/dev/null; then
      say "PostgreSQL stopped"
    else
      say "PostgreSQL did not stop: $PG_BIN/pg_ctl stop -D $PG_DIR/data" >&2
    fi
  fi
}
trap stop_services EXIT

[ -n "${DATABASE_URL:-}" ] || start_postgres
[ -n "${REDIS_URL:-}" ] || start_redis

export LEADFLOW_INSTANCE_DIR=${LEADFLOW_INSTANCE_DIR:-$UP_DIR}
export PUBLIC_BASE_URL=${PUBLIC_BASE_URL:-http://$UP_HOST:$UP_PORT}
export WEB_BIND=${WEB_BIND:-$UP_HOST:$UP_PORT}
# honcho kills what has not stopped 5 s after a Ctrl-C: gunicorn's idle keep-alive connections
# must not hold a worker longer.
export WEB_GRACEFUL_TIMEOUT_SECONDS=${WEB_GRACEFUL_TIMEOUT_SECONDS:-3}
export EXTRACTOR_PORT=${EXTRACTOR_PORT:-$UP_EXTRACTOR_PORT}
export EXTRACTION_URL=${EXTRACTION_URL:-http://127.0.0.1:$EXTRACTOR_PORT}
# The demo password stays the same from one `make up` to the next.
[ -s "$UP_DIR/.demo_password" ] || (umask 077 && "$VENV/bin/python" -c \
  "import secrets; print(secrets.token_urlsafe(9))" >"$UP_DIR/.demo_password")
export LEADFLOW_DEMO_PASSWORD=${LEADFLOW_DEMO_PASSWORD:-$(cat "$UP_DIR/.demo_password")}

"$VENV/bin/flask" --app app db upgrade >"$UP_DIR/migrations.log" 2>&1 ||
  { cat "$UP_DIR/migrations.log" >&2; fail "the migrations failed"; }
logins=$("$VENV/bin/flask" --app app leadflow demo)
# The app keeps its generated secrets under LEADFLOW_INSTANCE_DIR; the extractor is told them.
export SECRET_KEY=${SECRET_KEY:-$(cat "$LEADFLOW_INSTANCE_DIR/.secret_key")}
export EXTRACTION_API_KEY=${EXTRACTION_API_KEY:-$(cat "$LEADFLOW_INSTANCE_DIR/.extraction_api_key")}
export EXTRACTION_WEBHOOK_SECRET=${EXTRACTION_WEBHOOK_SECRET:-$(cat "$LEADFLOW_INSTANCE_DIR/.extraction_webhook_secret")}

cat <<EOF

LeadFlow (distributed mode) at $PUBLIC_BASE_URL
$logins
Database $DATABASE_URL, Redis $REDIS_URL, files in ${S3_BUCKET:+S3 bucket $S3_BUCKET}${S3_BUCKET:-$LEADFLOW_INSTANCE_DIR/storage}
Ctrl-C stops everything.

EOF

# Not exec: after honcho, this script stops the PostgreSQL and Redis it started. A Ctrl-C
# reaches honcho and this script alike: honcho stops its processes, this one waits for it.
"$VENV/bin/honcho" -d "$ROOT" -f "$ROOT/Procfile" start -c "worker=$UP_WORKERS" &
honcho=$!
trap 'kill -TERM "$honcho" 2>/dev/null || true' TERM
trap ':' INT
while kill -0 "$honcho" 2>/dev/null; do
  wait "$honcho" || true
done
