"""What the database holds about one game, read as the application needs it: its facts, rules,
settings table, board, kept orders and clock. No mail is sent from here.
"""
