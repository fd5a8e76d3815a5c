"""Who may see what: the one place every output asks before it names a reader.

A council member's copies (the member a mail signed on as is ``MailSession.council_member``),
the readers of a phase's results. Above
:mod:`judge.app.session.mail_session` only, so every flow can ask it.
"""
