"""The judge on the web (issue 29): a read-only archive of every listed game, for observers,
players and tools, served by the web role of `judge serve`.

The pages show what an observer by mail may see, and nothing more. They decide nothing of
that themselves: every rule is the mail path's own, called from :mod:`judge.web.views`
(listed games: :func:`judge.app.reports.listing.publicly_listed`; players' names:
:func:`judge.app.reports.summary_text.identities_hidden`; press: :func:`judge.app.reports.history_text.observer_saw`
and its header without addresses; results: the processed phase records only, as HISTORY;
maps: :func:`judge.app.mail_out.results_maps.phase_svg`, which draws orders only once a phase is processed).
No address of any person is ever written on a page.
"""
