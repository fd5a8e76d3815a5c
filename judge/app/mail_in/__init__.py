"""Mail in: the worker that takes stored mail one at a time, and the dispatch of its commands to the
handlers (:mod:`judge.app.handlers`, one module per command).
"""
