#!/usr/bin/env bash
# Restore a judge from an archive written by backup.sh: the database (SQLite
# backup API, or pg_restore) and the Maildir. Refuses (exit 3, nothing changed)
# when the database has tables or the Maildir holds mail, unless --force.
# Stop the judge first; run `judge db upgrade` after.
#
#   deploy/restore.sh [--env-file /etc/diplomacy-judge/judge.env] [--force] ARCHIVE
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/_python.sh"
exec "$(judge_python)" "$here/judge_backup.py" restore "$@"
