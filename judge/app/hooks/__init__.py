"""Game hooks: the one way a game's variant and house rules take part in the flow.

:class:`judge.app.hooks.game_hooks.GameHooks` names every point where they do
(before a due game is handled, whether processing waits, after a phase is
processed, the game's start and end, sign-on, who may order, press or vote);
:func:`judge.app.hooks.game_hooks.hooks_for` picks a game's hooks from its
settings, reading no table. The scheduler, planning, processing, the game's
start and the handlers call the hooks and never test the variant.
"""
