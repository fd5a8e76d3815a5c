"""Attack tests: mail written by a hostile sender, injected through the whole worker (issue 12)."""
