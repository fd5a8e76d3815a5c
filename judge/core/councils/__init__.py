"""The pure rules of the councils variant (seed 003, issue 17): roles, spies, elections, treason.

Functions of data only: the app layer reads the council tables, turns rows
into the small value types here, and asks what a member may do or who the
spies are. Nothing here touches the database, the clock or mail.
"""
