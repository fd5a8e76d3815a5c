# Sourced by bin/judge and bin/test: make sure .venv exists and holds the
# project (editable) with the extras named in JUDGE_EXTRAS. Re-installs only
# when pyproject.toml changed since the last install.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${JUDGE_VENV:-$root/.venv}"
extras="${JUDGE_EXTRAS:-}"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
fi
stamp="$venv/.installed-$(sha1sum "$root/pyproject.toml" | cut -c1-12)-${extras:-none}"
if [ ! -e "$stamp" ]; then
    spec="$root"
    [ -n "$extras" ] && spec="$root[$extras]"
    "$venv/bin/python" -m pip install --quiet -e "$spec"
    touch "$stamp"
fi
export PATH="$venv/bin:$PATH"
