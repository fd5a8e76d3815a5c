"""What one mail is while its commands run: its session, its reply, the refusals a handler raises,
the command registry, the services the app is given, and who reads the judge's mail (language, zone, addresses).

The lowest floor of the application: it imports nothing else of ``judge.app``.
"""
