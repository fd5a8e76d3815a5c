"""Sub-commands of the `judge` command line, one module each.

A module here defines ``NAME`` (the sub-command), ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``. Import heavy dependencies
inside ``run`` so that `judge --help` stays fast.
"""
