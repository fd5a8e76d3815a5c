"""People: the checks of a sign-on, registrations and their proofs, takeover, the guessing limits,
a council member's own sign-on.
"""
