"""The texts the judge mails: pure functions from the game's state to text in the reader's language.

One module per kind of report (order acknowledgements, results, game start,
records of people...); the handlers and the phase processing decide when a
report is sent and to whom.
"""
