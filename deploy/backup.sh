#!/usr/bin/env bash
# Back up the judge: its database (SQLite online backup, or pg_dump) and its
# Maildir, into DIR/judge-backup-<UTC time>.tar.gz (mode 0600). Prints the
# archive's path. Safe while the judge runs.
#
#   deploy/backup.sh [--env-file /etc/diplomacy-judge/judge.env] [--output-dir DIR]
#
# Settings are the judge's own: JUDGE_DATABASE_URL, JUDGE_DATA_DIR, JUDGE_RELAY,
# JUDGE_CONFIG (from the environment, then --env-file). JUDGE_BACKUP_DIR sets the
# default output directory (else DATA_DIR/backups). JUDGE_PYTHON picks the Python.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/_python.sh"
exec "$(judge_python)" "$here/judge_backup.py" backup "$@"
