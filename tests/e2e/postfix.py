"""A private Postfix for the end-to-end tests (issue 30): Debian's package, started with its own
configuration directory on loopback ports, never touching the system's configuration.

It is configured as deploy/postfix says for the judge's side, read from those files: every setting
of deploy/postfix/main.cf (``recipient_delimiter = +``: every VERP address; the transport map) and
every route of deploy/postfix/transport (the judge's address and its bounce address), pointed at
the test judge's door; the judge relays through it (``mynetworks`` = loopback). The players' domain,
``players.example``, is delivered by Postfix's virtual agent into Maildirs; an address of it that
has no mailbox is accepted and then bounced by Postfix itself (``smtpd_reject_unlisted_recipient
= no``), which sends a real DSN to the mail's envelope sender: the judge's VERP address.

``.ci/run`` installs the package when it is missing and sets ``JUDGE_TEST_POSTFIX=required``, which
makes a Postfix that cannot run a failure, not a skip; the tests need root (Postfix's master).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

POSTFIX = "/usr/sbin/postfix"
PLAYERS_DOMAIN = "players.example"

_SERVICES = """\
{listen} inet n - n - - smtpd
pickup    unix  n - n 60    1 pickup
cleanup   unix  n - n -     0 cleanup
qmgr      unix  n - n 300   1 qmgr
rewrite   unix  - - n -     - trivial-rewrite
bounce    unix  - - n -     0 bounce
defer     unix  - - n -     0 bounce
trace     unix  - - n -     0 bounce
verify    unix  - - n -     1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n -     - proxymap
smtp      unix  - - n -     - smtp
relay     unix  - - n -     - smtp
showq     unix  n - n -     - showq
error     unix  - - n -     - error
retry     unix  - - n -     - error
discard   unix  - - n -     - discard
virtual   unix  - n n -     - virtual
anvil     unix  - - n -     1 anvil
scache    unix  - - n -     1 scache
postlog   unix-dgram n - n - 1 postlogd
"""


DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "postfix"
_DOOR = "[127.0.0.1]:2525"
"""Where deploy/postfix/transport sends the judge's mail: the judge's door's default port."""


def deploy_main_cf(etc: Path) -> list[str]:
    """The settings deploy/postfix/main.cf makes (its lines that are not comments), as the test's
    instance uses them: the same values, the transport table read from ``etc`` (as a text table,
    so that no ``postmap`` is needed)."""
    settings: list[str] = []
    for line in (DEPLOY / "main.cf").read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, _, value = (part.strip() for part in line.partition("="))
        if name == "transport_maps":
            assert value == "hash:/etc/postfix/transport", value
            value = f"texthash:{etc}/transport"
        settings.append(f"{name} = {value}")
    return settings


def deploy_transport(judge_port: int) -> str:
    """deploy/postfix/transport's routes, each to the test judge's door instead of port 2525."""
    routes: list[str] = []
    for line in (DEPLOY / "transport").read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        address, route = line.split()
        assert route.endswith(_DOOR), route
        routes.append(f"{address} {route.removesuffix(_DOOR)}[127.0.0.1]:{judge_port}\n")
    return "".join(routes)


def unavailable() -> str | None:
    """Why a private Postfix cannot run here, or None."""
    if not os.path.exists(POSTFIX):
        return "Postfix is not installed (.ci/run installs Debian's package)"
    if os.geteuid() != 0:
        return "Postfix's master must start as root"
    try:
        pwd.getpwnam("postfix")
    except KeyError:
        return "no postfix user (the package makes it)"
    return None


@dataclass
class PrivatePostfix:
    """One Postfix instance in a directory of its own; :meth:`start`, then :meth:`stop`."""

    port: int
    judge_port: int
    mailboxes: tuple[str, ...]
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="judge-postfix-")))
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        root = self.root
        os.chmod(root, 0o755)  # the postfix user walks into it (queue, Maildirs)
        etc, spool, lib, mail = (root / name for name in ("etc", "spool", "lib", "mail"))
        for directory in (etc, spool, lib, mail):
            directory.mkdir()
        user = pwd.getpwnam("postfix")
        os.chown(lib, user.pw_uid, user.pw_gid)
        os.chown(mail, user.pw_uid, user.pw_gid)
        (etc / "master.cf").write_text(_SERVICES.format(listen=f"127.0.0.1:{self.port}"))
        (etc / "transport").write_text(deploy_transport(self.judge_port))
        (etc / "vmailbox").write_text("".join(f"{box}@{PLAYERS_DOMAIN} {box}/\n" for box in self.mailboxes))
        (etc / "main.cf").write_text(
            "\n".join((
                "compatibility_level = 3.6", f"config_directory = {etc}", f"queue_directory = {spool}",
                f"data_directory = {lib}", "mail_owner = postfix", "setgid_group = postdrop",
                "myhostname = mx.example.org", "mydomain = example.org", "myorigin = example.org",
                "mydestination =", "inet_interfaces = 127.0.0.1", "inet_protocols = ipv4",
                "mynetworks = 127.0.0.0/8", "relay_domains = example.org",
                *deploy_main_cf(etc),
                f"virtual_mailbox_domains = {PLAYERS_DOMAIN}", f"virtual_mailbox_base = {mail}",
                f"virtual_mailbox_maps = texthash:{etc}/vmailbox",
                f"virtual_uid_maps = static:{user.pw_uid}", f"virtual_gid_maps = static:{user.pw_gid}",
                "smtpd_reject_unlisted_recipient = no", "maillog_file = /dev/stdout", "biff = no",
                "delay_warning_time = 0", "queue_run_delay = 1s", "minimal_backoff_time = 1s",
                "maximal_backoff_time = 2s", "smtp_connect_timeout = 5s", "",
            ))
        )  # fmt: skip
        log = (root / "postfix.log").open("wb")
        self.process = subprocess.Popen(
            [POSTFIX, "-c", str(etc), "start-fg"], stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"Postfix stopped at start:\n{self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    if probe.recv(100).startswith(b"220"):
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"Postfix did not answer on port {self.port}:\n{self.log()}")

    def stop(self) -> None:
        if self.process is not None:
            subprocess.run([POSTFIX, "-c", str(self.root / "etc"), "stop"], capture_output=True, timeout=60)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)

    def log(self) -> str:
        path = self.root / "postfix.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def maildir(self, box: str) -> list[EmailMessage]:
        """The mails Postfix delivered to ``box@players.example``, oldest first."""
        files = [f for sub in ("new", "cur") for f in (self.root / "mail" / box / sub).glob("*") if f.is_file()]
        found: list[EmailMessage] = []
        for file in sorted(files, key=lambda f: (f.stat().st_mtime, f.name)):
            parsed = message_from_bytes(file.read_bytes(), policy=policy.default)
            assert isinstance(parsed, EmailMessage)
            found.append(parsed)
        return found
