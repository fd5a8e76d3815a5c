"""The mail command language: Lark grammars turned into typed commands."""
