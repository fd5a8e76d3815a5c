"""`judge serve` at DEBUG writes no password, whatever the form, case, line end or body encoding.

The real server (SMTP door, worker, sender) runs as a process at ``JUDGE_LOG_LEVEL=DEBUG``; every
form of the grammar that carries a password (SIGNON and its synonyms, the council member's
sign-on, CREATE, OBSERVE/WATCH, SIGNON M before BECOME, SET PASSWORD/PW/P) is mailed with CRLF
and bare LF line ends, in upper and lower case, as plain text, HTML and quoted-printable; then
the whole captured log is scanned for each password.
"""

from __future__ import annotations

import quopri
import signal
import smtplib
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.db.database import Database
from judge.db.enums import InboundState, OutboundState
from tests.e2e.harness import JUDGE, WAIT_SECONDS, wait_until
from tests.e2e.test_process import ServeProcess

pytestmark = [pytest.mark.slow, pytest.mark.engine_blind]  # the engine cannot change what these check: SQLite only

PLAYER = "keeper.of.secrets@example.net"
REGISTER = "REGISTER\nName: Secret Keeper\nCountry: France\nEND\n"

# Each body names its passwords by {0}, {1}...: every one is a token found nowhere else.
FORMS = (
    "SIGNON Fdemo {0}",
    "SIGN ON Fdemo {0}",
    "LOGON Fdemo {0}",
    "LOGIN Fdemo {0}",
    "HELLO Fdemo {0}",
    "SIGNON Mdemo {0}\nBECOME FRANCE",
    "SIGNON Fcouncils {0}",  # a council member's sign-on has the power's form
    "SIGNON ?demo {0}",
    "SIGNON ? {0}",
    "CREATE ?secrets{n} {0}\nSET PASSWORD {1}\nSET PW {2}\nSET P {3}",
    "OBSERVE demo {0}",
    "WATCH demo {0}",
    "OBSERVE demo {0}\nSET PASSWORD {1}",
)


def _mails() -> list[tuple[bytes, list[str]]]:
    """Every form in every shape, each with the passwords it carries."""
    mails: list[tuple[bytes, list[str]]] = []
    for n, form in enumerate(FORMS):
        for shape in ("crlf", "lf", "lower", "html", "qp"):
            passwords = [f"Pw{n}x{shape}{k}Zq" for k in range(4)]
            body = "Hello judge,\n" + form.format(*passwords, n=f"{n}{shape}") + "\nEND\n"
            mails.append((_raw(body, shape, len(mails)), [p for p in passwords if p.lower() in body.lower()]))
    return mails


def _raw(body: str, shape: str, number: int) -> bytes:
    content_type, encoding = "text/plain; charset=utf-8", "8bit"
    if shape == "lower":
        body = body.lower()
    elif shape == "html":
        content_type = "text/html; charset=utf-8"
        body = "<html><body>" + "".join(f"<p>{line}</p>" for line in body.splitlines()) + "</body></html>"
    elif shape == "qp":
        encoding = "quoted-printable"
        body = quopri.encodestring(body.replace("judge", "judge =").encode(), quotetabs=True).decode()
    head = (
        f"From: {PLAYER}\nTo: {JUDGE}\nSubject: orders\nMessage-ID: <secret{number}@player.test>\n"
        f"MIME-Version: 1.0\nContent-Type: {content_type}\nContent-Transfer-Encoding: {encoding}\n\n"
    )
    text = head + body
    return (text if shape == "lf" else text.replace("\n", "\r\n")).encode()


@pytest.fixture
def debug_serve(database_url: str, tmp_path: Path) -> Iterator[ServeProcess]:
    process = ServeProcess(database_url, tmp_path / "data")
    process.env["JUDGE_LOG_LEVEL"] = "DEBUG"
    try:
        yield process
    finally:
        process.stop()


def _settled(database_url: str, count: int) -> bool:
    with Database(database_url) as db, db.unit_of_work(readonly=True) as uow:
        return (
            uow.mail_in.count(InboundState.RECEIVED) == 0
            and sum(uow.mail_in.count(state) for state in InboundState) >= count
            and uow.outbox.count(OutboundState.PENDING) == 0
        )


def test_no_password_of_any_sign_on_form_reaches_the_debug_log(
    debug_serve: ServeProcess, database_url: str
) -> None:
    mails = _mails()
    debug_serve.start()
    with smtplib.SMTP("127.0.0.1", debug_serve.port, timeout=WAIT_SECONDS) as client:
        client.sendmail(PLAYER, [JUDGE], ("From: " + PLAYER + "\r\n\r\n" + REGISTER).encode())
        for raw, _passwords in mails:
            client.sendmail(PLAYER, [JUDGE], raw)
    wait_until(lambda: _settled(database_url, len(mails) + 1), timeout=4 * WAIT_SECONDS, what="every mail answered")
    assert debug_serve.signal(signal.SIGTERM) == 0
    log = debug_serve.log_path.read_text(errors="replace")
    assert "level=debug" in log  # the log was written at DEBUG
    assert "secret0@player.test" in log or "stored mail" in log  # and saw the mails
    leaked = [p for _raw_mail, passwords in mails for p in passwords if p.lower() in log.lower()]
    assert leaked == []
    # The replies quote the lines: the passwords did reach the judge and its answers.
    replies = "".join(m.as_string() for m in debug_serve.replies())
    assert sum(1 for _raw_mail, passwords in mails for p in passwords if p.lower() in replies.lower()) > 0
