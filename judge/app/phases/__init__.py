"""Phases: when a game is next due (planning), the scheduler and its guard, processing a phase, and what
the time-keeping rules make due (reminders, late notices, abandonment).
"""
