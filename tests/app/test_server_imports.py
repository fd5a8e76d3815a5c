"""The running judge imports all of its application before a role works (``_import_the_judge``):
a function-level import made later in one role's thread while another role imports the other end
of the same cycle raised ``_DeadlockError`` once; with every module already loaded it cannot."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_a_roles_first_import_loads_every_module_of_the_application_and_warns_of_none() -> None:
    script = textwrap.dedent(
        """
        import logging, pkgutil, sys
        logging.basicConfig(level=logging.WARNING, stream=sys.stdout, format="%(message)s")
        from judge.app.runtime import judge_server
        assert "judge.app.councils.releases" not in sys.modules, "already imported: the test proves nothing"
        judge_server._serially(lambda: None)
        import judge.app
        missing = [m.name for m in pkgutil.walk_packages(judge.app.__path__, "judge.app.") if m.name not in sys.modules]
        print("missing:", missing)
        """
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "missing: []", run.stdout
