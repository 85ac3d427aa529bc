#!/usr/bin/env bash
# `dramatiq tasks:worker ARGS` for the Procfile, with a stop signal reaching only its master.
# honcho signals each Procfile line's whole process group; a dramatiq worker process that gets
# SIGTERM twice (from honcho, then passed on by its master) drops its messages at once ("Killing
# worker process") instead of finishing them. In a group of its own, it gets the master's only.
set -uo pipefail
VENV=${VENV:-.venv}
"$VENV/bin/python" -c 'import os, sys; os.setpgid(0, 0); os.execv(sys.argv[1], sys.argv[1:])' \
  "$VENV/bin/dramatiq" tasks:worker "$@" &
master=$!
trap 'kill -TERM "$master" 2>/dev/null || true' TERM INT
rc=0
while kill -0 "$master" 2>/dev/null; do
  wait "$master"
  rc=$?
done
exit "$rc"
