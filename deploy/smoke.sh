#!/usr/bin/env bash
# Install-and-smoke test: the non-Postfix steps of docs/operator-guide.md, unattended.
#
#   deploy/smoke.sh            # from a checkout; exits non-zero on any failure
#
# 1. create a fresh virtualenv in a temporary directory and pip install this checkout
# 2. create a fresh PostgreSQL database (createdb on 127.0.0.1:5432 as postgres)
# 3. judge db upgrade; judge db current (must say "(head)")
# 4. start `judge serve` in the background on a free port, replies to a Maildir
# 5. send a HELP mail with smtplib, wait for the reply in the Maildir, print it
# 6. stop the server; drop the database; remove the temporary directory
#
# Settings (environment):
#   SMOKE_PYTHON     interpreter for the venv (default python3; must be >= 3.11)
#   SMOKE_PIP_ARGS   extra pip arguments (e.g. "--no-index --find-links /wheels")
#   PGHOST PGPORT PGUSER  PostgreSQL server (default 127.0.0.1, 5432, postgres; trust auth
#                    or PGPASSWORD)
#   SMOKE_TIMEOUT    seconds to wait for the server and for the reply (default 60)
#   SMOKE_KEEP=1     keep the temporary directory and database for inspection
#
# The Postfix leg (docs/operator-guide.md section 7) is not run here: it needs root and changes a
# system's mail routing. tests/e2e/test_postfix.py runs it, with Debian's Postfix started on its
# own configuration directory and loopback ports, configured from deploy/postfix's own files:
#   main.cf   recipient_delimiter = +   (every VERP address judge-bounces+<token>@ reaches the judge)
#             transport_maps = hash:.../transport
#   transport judge@<domain> and judge-bounces@<domain> -> smtp:[127.0.0.1]:<the judge's door>
#             (deploy/postfix/transport's routes, its port 2525 replaced by the test judge's)
#   the judge relays its replies through Postfix (JUDGE_RELAY=smtp://127.0.0.1:25; mynetworks:
#   loopback), which delivers them, or bounces them to the mail's VERP envelope sender.
# That test forms, starts and plays a short game through Postfix, and follows a real bounce from
# Postfix to the judge's bounce score and the master's notice.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_dir="$(cd "$here/.." && pwd)"
python="${SMOKE_PYTHON:-python3}"
timeout="${SMOKE_TIMEOUT:-60}"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"

say() { printf 'smoke: %s\n' "$*"; }
fail() { printf 'smoke: FAILED: %s\n' "$*" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/judge-smoke.XXXXXX")"
database="judge_smoke_$$_${RANDOM}"
server_pid=""
database_created=no

cleanup() {
    local status=$?
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ "${SMOKE_KEEP:-}" = 1 ]; then
        say "kept $work and database $database"
    else
        if [ "$database_created" = yes ]; then
            dropdb --if-exists --force "$database" 2>/dev/null \
                || dropdb --if-exists "$database" || true
        fi
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. install -----------------------------------------------------------------
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || fail "$python is older than 3.11"
say "creating a virtualenv in $work/venv"
"$python" -m venv "$work/venv"
venv_bin="$work/venv/bin"
say "pip install $source_dir"
# shellcheck disable=SC2086  # SMOKE_PIP_ARGS is a list of words on purpose
"$venv_bin/pip" install --quiet --disable-pip-version-check ${SMOKE_PIP_ARGS:-} "$source_dir" \
    || fail "pip install of the checkout failed"
"$venv_bin/judge" version

# --- 2. database -------------------------------------------------------------------
pg_isready -q || fail "PostgreSQL is not reachable on $PGHOST:$PGPORT"
createdb "$database" || fail "createdb $database failed (user $PGUSER on $PGHOST:$PGPORT)"
database_created=yes
say "created database $database"

export JUDGE_DATABASE_URL="postgresql+psycopg://${PGUSER}@${PGHOST}:${PGPORT}/${database}"
export JUDGE_DATA_DIR="$work/data"
export JUDGE_RELAY="maildir:$work/maildir"
export JUDGE_ADDRESS="judge@smoke.example"
export JUDGE_SMTP_HOST=127.0.0.1
JUDGE_SMTP_PORT="$("$venv_bin/python" -c '
import socket
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    print(s.getsockname()[1])
')"
export JUDGE_SMTP_PORT
export JUDGE_LOG_LEVEL=INFO
unset JUDGE_CONFIG JUDGE_ALIASES

# --- 3. schema ------------------------------------------------------------------------
"$venv_bin/judge" db upgrade || fail "judge db upgrade"
current="$("$venv_bin/judge" db current)" || fail "judge db current"
say "judge db current: $current"
case "$current" in
    *"(head)"*) ;;
    *) fail "the database is not at the head revision after upgrade" ;;
esac

# --- 4. serve ----------------------------------------------------------------------------
say "starting judge serve on $JUDGE_SMTP_HOST:$JUDGE_SMTP_PORT"
"$venv_bin/judge" serve >"$work/serve.log" 2>&1 &
server_pid=$!
"$venv_bin/python" - "$JUDGE_SMTP_PORT" "$timeout" "$server_pid" <<'PY' || { cat "$work/serve.log" >&2; fail "judge serve did not start listening"; }
import os, socket, sys, time
port, timeout, pid = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
deadline = time.monotonic() + timeout
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit("judge serve exited")
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.2)
sys.exit("timed out")
PY

# --- 5. a mail in, a reply out ----------------------------------------------------------------
# A line only the body holds: the judge's INFO log must never show it.
marker="smoke-body-marker-$$-${RANDOM}"
say "sending a HELP mail from player@smoke.example"
"$venv_bin/python" - "$JUDGE_SMTP_PORT" "$marker" <<'PY' || fail "the judge refused the mail"
import smtplib, sys
from email.message import EmailMessage
message = EmailMessage()
message["From"] = "Smoke Test <player@smoke.example>"
message["To"] = "judge@smoke.example"
message["Subject"] = "help"
message.set_content(f"HELP\n{sys.argv[2]}\n")
with smtplib.SMTP("127.0.0.1", int(sys.argv[1]), timeout=30) as smtp:
    smtp.send_message(message)
PY

say "waiting up to ${timeout}s for the reply in $work/maildir/new"
reply="$("$venv_bin/python" - "$work/maildir/new" "$timeout" <<'PY'
import pathlib, sys, time
folder, deadline = pathlib.Path(sys.argv[1]), time.monotonic() + float(sys.argv[2])
while time.monotonic() < deadline:
    files = sorted(folder.glob("*")) if folder.is_dir() else []
    if files:
        print(files[0])
        sys.exit(0)
    time.sleep(0.25)
sys.exit(1)
PY
)" || { cat "$work/serve.log" >&2; fail "no reply arrived in the Maildir"; }
say "reply: $reply"
echo "----------------------------------------------------------------------"
cat "$reply"
echo "----------------------------------------------------------------------"
grep -qi '^X-Envelope-To:.*player@smoke\.example' "$reply" \
    || fail "the reply is not addressed to the sender"

# --- 6. stop -----------------------------------------------------------------------------
say "stopping judge serve"
kill -TERM "$server_pid"
stopped=no
for _ in $(seq 1 $((timeout * 5))); do
    if ! kill -0 "$server_pid" 2>/dev/null; then
        stopped=yes
        break
    fi
    sleep 0.2
done
[ "$stopped" = yes ] || fail "judge serve did not stop within ${timeout}s of SIGTERM"
server_status=0
wait "$server_pid" || server_status=$?
server_pid=""
case "$server_status" in
    0 | 143) ;;
    *) cat "$work/serve.log" >&2; fail "judge serve exited with status $server_status" ;;
esac
if grep -q "$marker" "$work/serve.log"; then
    fail "the judge logged the mail body at INFO level (found $marker in its log)"
fi
say "server log (last lines):"
tail -n 5 "$work/serve.log" | sed 's/^/  /'
say "OK"
