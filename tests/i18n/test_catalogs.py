"""Every message the judge writes exists in English (the source) and in French."""

from pathlib import Path

import pytest

import judge
from judge.i18n import catalog_files, read_catalog, translation
from judge.i18n.catalog import CatalogError, compile_mo, parse_po
from judge.i18n.extract import messages_in_package, messages_in_source

PACKAGE = Path(judge.__file__).resolve().parent


def test_every_message_has_a_french_translation():
    catalog = read_catalog("fr")
    missing = {m: places for m, places in messages_in_package(PACKAGE).items() if m not in catalog}
    assert not missing, "messages without a French translation (python -m judge.i18n.extract):\n" + "\n".join(
        f"  {m!r} at {', '.join(p)}" for m, p in missing.items()
    )


def test_no_message_is_translated_twice_differently():
    seen: dict[str, tuple[str, str]] = {}
    for name, entries in catalog_files("fr").items():
        for msgid, msgstr in entries.items():
            if msgid and msgid in seen and seen[msgid][1] != msgstr:
                pytest.fail(f"{msgid!r} is translated differently in {seen[msgid][0]} and {name}")
            seen.setdefault(msgid, (name, msgstr))


def test_no_stale_french_entries():
    used = set(messages_in_package(PACKAGE))
    stale = set(read_catalog("fr")) - used - {""}
    assert not stale, f"French entries no code uses: {sorted(stale)}"


def test_placeholders_survive_translation():
    import string

    fields = lambda s: sorted(f for _, f, _, _ in string.Formatter().parse(s) if f)  # noqa: E731
    for msgid, msgstr in read_catalog("fr").items():
        if msgid:
            assert fields(msgid) == fields(msgstr), msgid


def test_compiled_catalog_round_trips():
    entries = {"": "Content-Type: text/plain; charset=UTF-8\n", "Hello": "Bonjour", "é\n": "è\t"}
    import gettext
    import io

    t = gettext.GNUTranslations(io.BytesIO(compile_mo(entries)))
    assert t.gettext("Hello") == "Bonjour"
    assert t.gettext("é\n") == "è\t"
    assert t.gettext("absent") == "absent"


def test_po_parser():
    text = '# c\nmsgid ""\nmsgstr "x"\n\nmsgid "a"\n"b"\nmsgstr "c"\n"d"\n\n#, fuzzy\nmsgid "f"\nmsgstr "g"\n'
    assert parse_po(text) == {"": "x", "ab": "cd"}
    with pytest.raises(CatalogError):
        parse_po("msgstr \"x\"\n")
    with pytest.raises(CatalogError):
        parse_po("nonsense\n")


def test_extraction_finds_marked_literals_only():
    src = 'x = _("one")\ny = N_("two")\nz = f("three")\nw = _(name)\n'
    assert [m for m, _ in messages_in_source(src)] == ["one", "two"]


def test_unknown_language_falls_back_to_english():
    assert translation("xx").gettext("Results") == "Results"
