"""A whole game's first year over SMTP: who plays what, and the mails they write.

Kept apart from the test so the test reads as the story: register, form the
game, Spring 1901 in every kind of mail people really send, results, a
retreat, winter builds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.mime.text import MIMEText

from judge.db.models import Game
from tests.e2e.harness import JUDGE, E2EJudge, build_mail, wait_until

GAME = "demo"


@dataclass(frozen=True)
class Player:
    power: str
    address: str
    letter: str
    language: str
    password: str

    def signon(self) -> str:
        return f"SIGNON {self.letter}{GAME} {self.password}\n"


PLAYERS = (
    Player("AUSTRIA", "anna@example.net", "A", "en", "pw0"),
    Player("ENGLAND", "edward@example.net", "E", "en", "pw1"),
    Player("FRANCE", "francois@example.fr", "F", "fr", "pw2"),
    Player("GERMANY", "greta@example.de", "G", "en", "pw3"),
    Player("ITALY", "isabella@example.it", "I", "fr", "pw4"),
    Player("RUSSIA", "rurik@example.net", "R", "en", "pw5"),
    Player("TURKEY", "tariq@example.net", "T", "en", "pw6"),
)
BY_POWER = {player.power: player for player in PLAYERS}


def registration(player: Player) -> str:
    return (
        "REGISTER\n"
        f"Name: {player.power.title()} Player\n"
        "Country: France\n"
        f"Language: {player.language}\n"
        "END\n"
    )


def formation(index: int, player: Player) -> str:
    """The creator CREATEs, the others join; every one but the last states a preference
    (the last one's sign-on fills the game and starts it, so a preference would come too late)."""
    verb = "CREATE ?" if index == 0 else "SIGNON ?"
    lines = f"{verb}{GAME} {player.password}\n"
    if index < len(PLAYERS) - 1:
        lines += f"SET PREFERENCE {player.letter}\n"
    return lines


# --- Spring 1901: seven players, seven kinds of mail -------------------------------


def plain(player: Player, orders: str) -> EmailMessage:
    return build_mail(player.address, player.signon() + orders, subject="orders")


def french_utf8() -> EmailMessage:
    france = BY_POWER["FRANCE"]
    body = (
        france.signon()
        + "A Paris - Bourgogne\nA Marseille - Espagne\nF Brest - Atlantique\n"
        + "SIGNOFF\nBien à vous,\nFrançois\n"
    )
    return build_mail(france.address, body, subject="mes ordres")


def html_only() -> EmailMessage:
    germany = BY_POWER["GERMANY"]
    html = (
        "<html><head><style>p {color: red}</style></head><body>"
        f"<p>{germany.signon().strip()}</p>"
        "<p>A Mun - Ruh<br>A Ber - Mun<br/>F Kie - Den</p>"
        "<p>SIGNOFF</p><p><i>Gr&uuml;&szlig;e</i></p></body></html>"
    )
    return build_mail(germany.address, html, subject="orders", html=True)


def quoted_printable_latin1() -> bytes:
    """Italy writes in French from an old mail program: ISO-8859-1, quoted-printable."""
    italy = BY_POWER["ITALY"]
    body = (
        italy.signon()
        + "A Venise - Piémont\nA Rome - Apulie\nF Naples - mer Ionienne\n"
        + "SIGNOFF\nVoilà mes ordres, à bientôt !\n"
    )
    part = MIMEText(body, "plain", "iso-8859-1")  # quoted-printable for Latin-1
    part["From"] = f"Isabella <{italy.address}>"
    part["To"] = JUDGE
    part["Subject"] = "=?iso-8859-1?q?ordres_=E0_jour?="
    part["Message-ID"] = "<italy-s1901@player.test>"
    data = part.as_bytes()
    assert b"Content-Transfer-Encoding: quoted-printable" in data
    assert b"Pi=E9mont" in data
    return data


def signature_and_quote() -> EmailMessage:
    """England answers the judge's earlier reply: quoted lines and a signature must not count."""
    england = BY_POWER["ENGLAND"]
    body = (
        england.signon() + "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\n"
        "\n"
        "On Monday the judge wrote:\n"
        "> SIGNON Edemo pw1\n"
        "> F Lon - Eng\n"
        "> A Lvp - Wal\n"
        "\n"
        "-- \n"
        "Edward, sent from his phone\n"
        "A Lvp - Edi\n"
    )
    return build_mail(england.address, body, subject="Re: XPY:demo - S1901M orders")


SPRING_PLAIN = {
    "AUSTRIA": "A Vie H\nA Bud H\nF Tri H\n",
    "RUSSIA": "A Mos H\nA War H\nF Sev H\nF StP/sc H\n",
    "TURKEY": "A Con H\nA Smy H\nF Ank H\n",
}

# Fall 1901: Germany dislodges the French army in Burgundy; France takes Spain and Portugal.
FALL = {
    "AUSTRIA": "A Vie H\nA Bud H\nF Tri H\n",
    "ENGLAND": "F Nth H\nF Nwg H\nA Yor H\n",
    "FRANCE": "A Bourgogne T\nA Espagne T\nF Atlantique - Portugal\n",
    "GERMANY": "A Ruh - Bur\nA Mun S A Ruh - Bur\nF Den H\n",
    "ITALY": "A Piémont T\nA Apulie T\nF mer Ionienne T\n",
    "RUSSIA": "A Mos H\nA War H\nF Sev H\nF StP/sc H\n",
    "TURKEY": "A Con H\nA Smy H\nF Ank H\n",
}


def game(judge: E2EJudge) -> Game:
    with judge.db.unit_of_work(readonly=True) as uow:
        found = uow.games.by_name(GAME)
        assert found is not None
        uow.session.expunge(found)
        return found


def process_when_due(judge: E2EJudge, phase: str) -> None:
    """Move the judge's clock to the game's due time (the orders are complete and the
    ``delay`` must pass) and wait for the scheduler to leave ``phase``."""
    current = game(judge)
    due = current.next_due_at
    assert due is not None and current.deadline_at is not None
    due, deadline = _aware(due), _aware(current.deadline_at)
    assert due < deadline, "with every order in, the phase is due before its deadline"
    late_by = due - datetime.now(UTC) - judge.clock.offset
    if late_by.total_seconds() > 0:
        judge.clock.advance(seconds=late_by.total_seconds() + 1)
    wait_until(lambda: game(judge).current_phase != phase, what=f"{phase} processed")


RETREAT = {"FRANCE": "A Bourgogne - Paris\n"}
BUILDS = {
    "FRANCE": "construit F Brest\nconstruit A Marseille\n",
    "GERMANY": "Build A Berlin\n",
}


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
