"""A game's first year entirely by mail, over SMTP on loopback, against the whole judge.

Registration, CREATE, six sign-ons with preferences and the seventh that
starts the game, the Game Starting mail, Spring 1901 orders in the mails
people really write (French, HTML only, quoted-printable ISO-8859-1, a reply
with a quotation and a signature), processing by the scheduler once every
order is in and the delay has passed, results to every player and observer,
a dislodgement and its retreat, and winter builds.
"""

from __future__ import annotations

from email.message import EmailMessage

from tests.e2e import game_flow as flow
from tests.e2e.harness import CODE, E2EJudge, send, text

OBSERVER = "watcher@example.org"


def _ok(reply: EmailMessage) -> str:
    body = text(reply)
    assert "[Error Flag]" not in str(reply["Subject"]), body
    return body


def _lines(body: str) -> set[str]:
    """The body's lines with runs of blanks made one: the column padding of result lines
    is the report's business, the words are what this test checks."""
    return {_norm(line) for line in body.splitlines()}


def _norm(line: str) -> str:
    return " ".join(line.split())


def _one_mail_each(judge: E2EJudge, subject: str, addresses: list[str]) -> dict[str, str]:
    """Wait until each address got exactly one mail with ``subject``; their bodies by address."""
    found: dict[str, str] = {}
    for address in addresses:

        def addressed(message: EmailMessage, address: str = address) -> bool:
            return message["Subject"] == subject and address in str(message["To"])

        mails = judge.wait_for_mail(addressed, what=f"'{subject}' to {address}")
        assert len(mails) == 1, f"{address} got {len(mails)} mails '{subject}'"
        assert mails[0]["Auto-Submitted"] == "auto-generated"
        found[address] = text(mails[0])
    return found


def test_a_first_year_by_mail(judge: E2EJudge) -> None:
    everyone = [p.address for p in flow.PLAYERS]

    # --- registration --------------------------------------------------------------------
    for player in flow.PLAYERS:
        body = _ok(judge.exchange(player.address, flow.registration(player)))
        assert f"{player.power.title()} Player <{player.address}>" in body

    # --- game formation ----------------------------------------------------------------------
    for index, player in enumerate(flow.PLAYERS[:-1]):
        reply = judge.exchange(player.address, flow.formation(index, player))
        body = _ok(reply)
        assert reply["Subject"] == f"Re: {CODE}:demo - orders"
        needed = len(flow.PLAYERS) - index - 1
        if player.language == "fr":
            assert (
                f"Joueurs qu'il faut encore avant que la partie puisse commencer : {needed}."
                in body
            )
        else:
            assert f"Players still needed before the game can start: {needed}." in body
    last = flow.PLAYERS[-1]
    body = _ok(judge.exchange(last.address, flow.formation(len(flow.PLAYERS) - 1, last)))
    assert "The game has started: you are playing Turkey." in body

    starting = _one_mail_each(judge, f"{CODE}:demo - S1901M Game Starting", everyone)
    assert starting["anna@example.net"].startswith(
        "Game 'demo' has started.\nYou are playing Austria.\n"
    )
    assert _norm("France: francois@example.fr") in _lines(starting["anna@example.net"])
    assert _norm("Russia: Fleet St Petersburg (south coast).") in _lines(
        starting["rurik@example.net"]
    )
    assert starting["francois@example.fr"].startswith(
        "La partie 'demo' a commencé.\nVous jouez France.\n"
    )
    assert _norm("Italie: Armée Venise.") in _lines(starting["isabella@example.it"])
    assert flow.game(judge).current_phase == "S1901M"

    body = _ok(judge.exchange(OBSERVER, "OBSERVE demo watchpw\n"))
    assert "observer of game 'demo'" in body

    # --- Spring 1901: every kind of mail ---------------------------------------------------
    ids: dict[str, str] = {}
    for power, orders in flow.SPRING_PLAIN.items():
        ids[power] = judge.send(flow.plain(flow.BY_POWER[power], orders))
    ids["FRANCE"] = judge.send(flow.french_utf8())
    ids["GERMANY"] = judge.send(flow.html_only())
    ids["ENGLAND"] = judge.send(flow.signature_and_quote())
    send(judge.port, flow.quoted_printable_latin1(), mail_from=flow.BY_POWER["ITALY"].address)
    ids["ITALY"] = "<italy-s1901@player.test>"
    acknowledgements = {power: judge.reply_to(message_id) for power, message_id in ids.items()}
    for reply in acknowledgements.values():
        assert "complete" in _ok(reply) or "complets" in text(reply)

    french = text(acknowledgements["FRANCE"])
    assert acknowledgements["FRANCE"]["Subject"] == f"Re: {CODE}:demo - S1901M mes ordres"
    assert "Ordres de mouvement du printemps 1901.  (demo.001)" in french
    for line in (
        "France: Flotte Brest -> Atlantique.",
        "France: Armée Marseille -> Espagne.",
        "France: Armée Paris -> Bourgogne.",
        "Vos ordres sont complets.",
    ):
        assert _norm(line) in _lines(french), french

    html = text(acknowledgements["GERMANY"])
    for line in (
        "Germany: Army Berlin -> Munich.",
        "Germany: Fleet Kiel -> Denmark.",
        "Germany: Army Munich -> Ruhr.",
    ):
        assert _norm(line) in _lines(html), html
    assert "Gr" not in html  # the greeting after SIGNOFF was not read

    latin1 = text(acknowledgements["ITALY"])
    assert acknowledgements["ITALY"]["Subject"] == f"Re: {CODE}:demo - S1901M ordres à jour"
    for line in (
        "Italie: Flotte Naples -> mer Ionienne.",
        "Italie: Armée Rome -> Apulie.",
        "Italie: Armée Venise -> Piémont.",
    ):
        assert _norm(line) in _lines(latin1), latin1

    quoted = text(acknowledgements["ENGLAND"])
    for line in (
        "England: Fleet Edinburgh -> Norwegian Sea.",
        "England: Army Liverpool -> Yorkshire.",  # not the quoted "A Lvp - Wal", nor the signature's
        "England: Fleet London -> North Sea.",  # not the quoted "F Lon - Eng"
        "Your orders are complete.",
    ):
        assert _norm(line) in _lines(quoted), quoted
    assert "Edward" not in quoted

    flow.process_when_due(judge, "S1901M")
    spring = _one_mail_each(judge, f"{CODE}:demo - S1901M Results", [*everyone, OBSERVER])
    results = spring["anna@example.net"]
    assert results.startswith("Movement results for Spring of 1901.  (demo.001)\n\n")
    for line in (
        "England:  Fleet London -> North Sea.",
        "France:   Army Paris -> Burgundy.",
        "France:   Fleet Brest -> Mid-Atlantic Ocean.",
        "Germany:  Army Berlin -> Munich.",
        "Italy:    Army Venice -> Piedmont.",
        "Russia:   Fleet St Petersburg (south coast) HOLD.",
        "Turkey:   Fleet Ankara HOLD.",
        "The next phase of 'demo' will be Movement for Fall of 1901.",
    ):
        assert _norm(line) in _lines(results), results
    assert spring[OBSERVER] == results

    # --- Fall 1901: a dislodgement ----------------------------------------------------------
    _orders_for(judge, flow.FALL)
    flow.process_when_due(judge, "F1901M")
    fall = _one_mail_each(judge, f"{CODE}:demo - F1901M Results", [*everyone, OBSERVER])
    results = fall["greta@example.de"]
    for line in (
        "France:   Army Burgundy HOLD.  (*dislodged*)",
        "France:   Fleet Mid-Atlantic Ocean -> Portugal.",
        "Germany:  Army Ruhr -> Burgundy.",
        "Germany:  Army Munich SUPPORT Army Ruhr -> Burgundy.",
        "The French Army in Burgundy can retreat to Belgium, Gascony, Marseilles, Paris or Picardy.",
        "The next phase of 'demo' will be Retreat for Fall of 1901.",
    ):
        assert _norm(line) in _lines(results), results
    assert flow.game(judge).current_phase == "F1901R"

    # --- the retreat ------------------------------------------------------------------------
    _orders_for(judge, flow.RETREAT)
    flow.process_when_due(judge, "F1901R")
    retreat = _one_mail_each(judge, f"{CODE}:demo - F1901R Results", [*everyone, OBSERVER])
    results = retreat["edward@example.net"]
    for line in (
        "France:  Army Burgundy -> Paris.",
        "Ownership of supply centers:",
        "France:   Brest, Marseilles, Paris, Portugal, Spain.",
        "Germany:  Berlin, Denmark, Kiel, Munich.",
        "France:    5 Supply centers,  3 Units:  Builds   2 unit(s).",
        "Germany:   4 Supply centers,  3 Units:  Builds   1 unit(s).",
        "Russia:    4 Supply centers,  4 Units:  Builds   0 unit(s).",
        "The next phase of 'demo' will be Adjustment for Winter of 1901.",
    ):
        assert _norm(line) in _lines(results), results
    assert flow.game(judge).current_phase == "W1901A"

    # --- winter builds ------------------------------------------------------------------------
    builds = _orders_for(judge, flow.BUILDS)
    assert _norm("France: Construit une flotte à Brest.") in _lines(builds["FRANCE"])
    assert _norm("Germany: Builds an army in Berlin.") in _lines(builds["GERMANY"])
    flow.process_when_due(judge, "W1901A")
    winter = _one_mail_each(judge, f"{CODE}:demo - W1901A Results", [*everyone, OBSERVER])
    results = winter["tariq@example.net"]
    assert results.startswith("Adjustment results for Winter of 1901.  (demo.004)\n\n")
    for line in (
        "France:   Builds a fleet in Brest.",
        "France:   Builds an army in Marseilles.",
        "Germany:  Builds an army in Berlin.",
        "The next phase of 'demo' will be Movement for Spring of 1902.",
    ):
        assert _norm(line) in _lines(results), results
    assert flow.game(judge).current_phase == "S1902M"


def _orders_for(judge: E2EJudge, orders_by_power: dict[str, str]) -> dict[str, str]:
    """Each power mails its orders; every acknowledgement is clean and complete."""
    replies: dict[str, str] = {}
    for power, orders in orders_by_power.items():
        reply = judge.reply_to(judge.send(flow.plain(flow.BY_POWER[power], orders)))
        body = _ok(reply)
        assert "Your orders are complete." in body or "Vos ordres sont complets." in body, body
        replies[power] = body
    return replies
