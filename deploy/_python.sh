# Sourced by backup.sh and restore.sh: choose the Python that runs judge_backup.py.
# $JUDGE_PYTHON if set; else the interpreter of the installed `judge` command
# (so judge.config reads the settings exactly as the judge does); else python3.
judge_python() {
    if [ -n "${JUDGE_PYTHON:-}" ]; then
        printf '%s\n' "$JUDGE_PYTHON"
        return
    fi
    local judge_bin shebang
    if judge_bin="$(command -v judge 2>/dev/null)" && [ -f "$judge_bin" ]; then
        shebang="$(head -n 1 "$judge_bin")"
        if [[ "$shebang" == '#!'*python* ]] && [ -x "${shebang#\#!}" ]; then
            printf '%s\n' "${shebang#\#!}"
            return
        fi
    fi
    command -v python3
}
