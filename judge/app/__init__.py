"""The application: what the judge does with a mail, a due game and an outgoing letter.

Split into rooms named after what happens (``session``, ``audience``, ``game_state``,
``mail_out``, ``councils``, ``hooks``, ``reports``, ``games``, ``people``, ``phases``,
``orders``, ``handlers``, ``mail_in``, ``console``, ``runtime``), each importing only the
rooms before it (``tests/test_layers.py``); ``docs/architecture.md`` says what each holds
and where new work goes. This module is the package's face only: it holds no code.
"""
