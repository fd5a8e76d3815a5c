"""The pure game core: maps, positions, orders and adjudication.

Nothing in this package performs I/O beyond reading the variant data files
shipped with the package, reads the clock, or imports the mail, database or
scheduling layers. A test in tests/core checks that promise.
"""
