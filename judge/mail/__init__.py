"""The judge's mail edges: everything between an SMTP connection and the command reader.

- :mod:`judge.mail.inbound`: the SMTP listener; validates the envelope, stores, then 250.
- :mod:`judge.mail.decode` (+ :mod:`judge.mail.html_text`): raw bytes -> sender, subject, body lines.
- :mod:`judge.mail.loopguard`, :mod:`judge.mail.ratelimit`, :mod:`judge.mail.triage`:
  which mails must never be answered, and floods.
- :mod:`judge.mail.compose`: the mails the judge sends, in the Judge's conventions.
- :mod:`judge.mail.outbound`: relays (Maildir, SMTP), back-off and the outbox drain.
"""
