"""The judge's time-keeping rules: deadlines, dates, lateness, absences, dedication.

Pure functions with the time passed in (``now``) and the judge's zone passed
in (a ZoneInfo): no I/O, no global clock. The scheduler, the database and
the mail layers call these rules and carry out what they decide.

Modules: clock (Clock, SystemClock, FakeClock), parameters (the per-phase
schedule and its SET syntax), deadlines (computing start/deadline/grace),
dates (the Judge's date forms), absences, lateness (what is due and when),
dedication (points, ratios, sign-on gates), errors.
"""

from __future__ import annotations
