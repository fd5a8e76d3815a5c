"""The mail command language: Lark grammars turned into typed commands.

Entry points (import them from their modules; this package imports nothing,
so that importing one reader does not load the others):

* :func:`judge.lang.mail.parse_mail` (body, map, phase type, French) ->
  :class:`judge.lang.mail.ParseResult`: the commands of a mail in order and
  its errors; never raises.
* :mod:`judge.lang.commands`: one frozen dataclass per command, for the
  handlers to dispatch on.
* :func:`judge.lang.orders.read_order_line`: the order reader (its jobs in
  ``order_tokens``, ``order_grammar``, ``order_meaning`` and ``order_fast_path``).
* :func:`judge.lang.serialize.result_to_json`: the JSON that `judge parse`
  prints.
"""
