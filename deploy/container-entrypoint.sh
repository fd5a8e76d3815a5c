#!/bin/sh
# Entry point of the judge's container image.
#   (no arguments) or options  ->  judge db upgrade, then exec judge serve --no-migrate [options]
#   a judge command            ->  exec judge <command> (e.g. `db current`, `version`)
# exec makes `judge serve` PID 1 itself, so it receives
# SIGTERM from `docker stop` and shuts down cleanly.
set -eu
case "${1:-}" in
    "" | -*)
        judge db upgrade
        exec judge serve --no-migrate "$@"
        ;;
    judge)
        shift
        exec judge "$@"
        ;;
    *)
        exec judge "$@"
        ;;
esac
