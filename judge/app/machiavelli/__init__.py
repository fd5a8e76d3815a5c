"""The Renaissance game (issue 33) at the application's edge: a phase played from the stored
sheets and position, and its results as each reader may read them.

``stored_phase`` plays the open phase from what the database keeps (the position's JSON, each
power's sheet as text) with the core's one phase step
(:func:`judge.core.machiavelli.season.play_phase`), seeded by the game; ``season_report`` writes
the results in the Judge's manner, a power's money shown only to the readers
:func:`judge.app.audience.machiavelli_books.books_readable` allows.
"""
