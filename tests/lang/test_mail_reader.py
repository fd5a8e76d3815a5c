"""The mail reader: line dispatch, blocks, IF structure, sign-on rules and limits."""

from __future__ import annotations

import pytest

from judge.core.phase import PhaseType
from judge.core.variants import load_map
from judge.lang import commands as c
from judge.lang import mail
from judge.lang.grammar import command_words
from judge.lang.mail import parse_mail


def kinds(body: str) -> list[str]:
    return [command.KIND for command in parse_mail(body).commands]


def test_commands_are_case_insensitive() -> None:
    assert kinds("SiGnOn Fdt pw\nSET WAIT\nset Wait\nSignOff\n") == ["signon", "set_wait", "set_wait", "signoff"]


def test_command_words_come_from_the_grammar() -> None:
    words = command_words()
    assert {"signon", "set", "press", "broadcast", "if", "endif", "phase", "register"} <= words
    assert "army" not in words


def test_a_line_that_is_not_a_command_is_an_order() -> None:
    result = parse_mail("signon Fdt pw\nA Par - Bur\n")
    order = result.commands[1]
    assert isinstance(order, c.OrderCommand)
    assert order.read is not None and str(order.read.order) == "A PAR - BUR"


def test_after_signon_a_mistyped_command_is_an_order_error() -> None:
    result = parse_mail("signon Fdt pw\nsett wait\n")
    assert [e.line for e in result.errors] == [2]
    assert "Unknown command" not in result.errors[0].message


def test_before_signon_an_unknown_line_is_an_unknown_command() -> None:
    result = parse_mail("Hi there\n")
    assert result.errors[0].message == "Unknown command -> hi"


def test_orders_before_signon_are_read_for_the_handler_to_refuse() -> None:
    assert kinds("A Par - Bur\n") == ["order"]


def test_unknown_commands_do_not_stop_the_mail() -> None:
    result = parse_mail("signon Fdt pw\nset bogus\nset wait\n")
    assert kinds("signon Fdt pw\nset bogus\nset wait\n") == ["signon", "set_wait"]
    assert result.errors[0].column == 5


def test_only_one_signon_per_mail() -> None:
    result = parse_mail("signon Fdt pw\nobserve dt pw\ncreate ?x pw\n")
    assert kinds("signon Fdt pw\nobserve dt pw\ncreate ?x pw\n") == ["signon"]
    assert [e.line for e in result.errors] == [2, 3]


@pytest.mark.parametrize(
    ("line", "role", "letter", "game"),
    [
        ("signon Fdt pw", c.SignonRole.POWER, "F", "dt"),
        ("signon fdt pw", c.SignonRole.POWER, "F", "dt"),
        ("signon Mdt pw", c.SignonRole.MASTER, None, "dt"),
        ("signon odt pw", c.SignonRole.OBSERVER, None, "dt"),
        ("signon ?dt pw", c.SignonRole.JOIN, None, "dt"),
        ("signon ? pw", c.SignonRole.JOIN, None, None),
        ("watch dt pw", c.SignonRole.OBSERVER, None, "dt"),
        ("login Edt pw", c.SignonRole.POWER, "E", "dt"),
    ],
)
def test_signon_forms(line: str, role: c.SignonRole, letter: str | None, game: str | None) -> None:
    signon = parse_mail(line).commands[0]
    assert isinstance(signon, c.Signon)
    assert (signon.role, signon.power_letter, signon.game, signon.password) == (role, letter, game, "pw")


@pytest.mark.parametrize(
    ("line", "unlock", "variant", "options"),
    [
        ("signon Fdt pw K7QF-2MZD-9XWP-HT4R", "K7QF-2MZD-9XWP-HT4R", None, ()),
        ("logon mdt pw k7qf-2mzd-9xwp-ht4r", "k7qf-2mzd-9xwp-ht4r", None, ()),
        ("signon ?dt pw standard K7QF-2MZD-9XWP-HT4R gunboat", "K7QF-2MZD-9XWP-HT4R", "standard", ("gunboat",)),
        ("signon ?dt pw standard gunboat", None, "standard", ("gunboat",)),
        ("signon Fdt pw K7QF-2MZD-9XWP", None, None, ("k7qf-2mzd-9xwp",)),  # not the code's shape
    ],
)
def test_an_unlock_code_after_the_password(
    line: str, unlock: str | None, variant: str | None, options: tuple[str, ...]
) -> None:
    signon = parse_mail(line).commands[0]
    assert isinstance(signon, c.Signon)
    assert (signon.password, signon.unlock, signon.variant, signon.options) == ("pw", unlock, variant, options)


def test_signon_switches_to_the_game_map() -> None:
    seen: list[c.Signon | c.Create] = []
    standard = load_map("standard")

    def map_for(signon: c.Signon | c.Create) -> None:
        seen.append(signon)
        return None

    parse_mail("signon Fdt pw\nA Par H\n", standard, map_for_signon=map_for)
    assert len(seen) == 1 and isinstance(seen[0], c.Signon) and seen[0].game == "dt"


def test_signoff_and_signature_end_the_mail() -> None:
    assert kinds("signon Fdt pw\nsignoff\nA Par H\n") == ["signon", "signoff"]
    assert kinds("signon Fdt pw\n-- \nJohn\nA Par H\n") == ["signon", "signoff"]
    assert kinds("signon Fdt pw\nsign off\nA Par H\n") == ["signon", "signoff"]


def test_press_body_is_verbatim_and_ends_at_endpress() -> None:
    body = "  indented line\n\nset wait\nA Par - Bur\n-- not a signature"
    result = parse_mail(f"signon Fdt pw\npress to E\n{body}\nENDPRESS\nset wait\n")
    press = result.commands[1]
    assert isinstance(press, c.Press)
    assert press.body == body and press.ended_by == "endpress"
    assert kinds(f"signon Fdt pw\npress to E\n{body}\nENDPRESS\nset wait\n")[-1] == "set_wait"


def test_press_to_the_end_of_the_mail_and_to_signoff() -> None:
    press = parse_mail("signon Fdt pw\nbroadcast\nhello\n").commands[1]
    assert isinstance(press, c.Press) and press.ended_by == "end" and press.body == "hello"
    result = parse_mail("signon Fdt pw\nbroadcast\nhello\nsignoff\nA Par H\n")
    assert [cmd.KIND for cmd in result.commands] == ["signon", "press", "signoff"]


def test_a_refused_press_still_owns_its_text() -> None:
    result = parse_mail("signon Fdt pw\npress\nA Par - Xyz\nendpress\nA Par H\n")
    assert [e.line for e in result.errors] == [2]
    assert kinds("signon Fdt pw\npress\nA Par - Xyz\nendpress\nA Par H\n") == ["signon", "order"]


def test_register_form_ends_at_end_or_at_a_line_without_colon() -> None:
    result = parse_mail("register\nName: A B\nPhone: 1\n\nsignon Fdt pw\n")
    register = result.commands[0]
    assert isinstance(register, c.Register)
    assert [(f.name, f.value) for f in register.fields] == [("Name", "A B"), ("Phone", "1")]
    assert register.value("name") == "A B"
    assert result.commands[1].KIND == "signon"


def test_phase_sets_the_phase_type_of_the_orders_that_follow() -> None:
    result = parse_mail("signon Fdt pw\nF Tri - Alb\nphase fall 1901 retreat\nF Tri - Alb\n")
    first, second = result.commands[1], result.commands[3]
    assert isinstance(first, c.OrderCommand) and isinstance(second, c.OrderCommand)
    assert first.read is not None and second.read is not None
    assert type(first.read.order).__name__ == "Move"
    assert type(second.read.order).__name__ == "Retreat"


def test_the_current_phase_type_is_passed_to_the_order_reader() -> None:
    result = parse_mail("signon Fdt pw\nF Tri - Alb\n", phase_type=PhaseType.RETREAT)
    order = result.commands[1]
    assert isinstance(order, c.OrderCommand) and order.read is not None
    assert type(order.read.order).__name__ == "Retreat"


def test_nested_conditionals_build_a_tree() -> None:
    result = parse_mail(
        "signon Edt pw\nif nth\n F Nth H\n if kie\n  F Edi H\n endif\nelse\n F Nth - Nwy\nendif\nF Lon H\n"
    )
    assert result.errors == ()
    conditional = result.commands[1]
    assert isinstance(conditional, c.Conditional) and conditional.closed
    inner = conditional.branches[0].body[1]
    assert isinstance(inner, c.Conditional)
    assert [cmd.line for cmd in conditional.otherwise] == [8]
    assert result.commands[2].line == 10


def test_end_of_mail_and_phase_close_open_ifs_silently() -> None:
    result = parse_mail("signon Edt pw\nif nth\nF Nth H\nphase spring 1902 movement\nif eng\nF Lon H\n")
    assert result.errors == ()
    assert [cmd.KIND for cmd in result.commands] == ["signon", "conditional", "phase", "conditional"]
    assert all(not cmd.closed for cmd in result.commands if isinstance(cmd, c.Conditional))


def test_a_bad_condition_drops_its_whole_block_but_keeps_the_structure() -> None:
    result = parse_mail("signon Edt pw\nif xyz\nF Nth H\nelse\nF Nth - Nwy\nendif\nF Lon H\n")
    assert [e.line for e in result.errors] == [2]
    assert [cmd.KIND for cmd in result.commands] == ["signon", "order"]


def test_if_nesting_limit() -> None:
    depth = mail.MAX_IF_DEPTH + 1
    body = "signon Edt pw\n" + "if nth\n" * depth + "F Nth H\n" + "endif\n" * depth
    result = parse_mail(body)
    assert len(result.errors) == 1 and "nested too deep" in result.errors[0].message
    assert [cmd.KIND for cmd in result.commands] == ["signon"]


def test_line_length_limit() -> None:
    result = parse_mail("signon Fdt pw\n" + "A" * (mail.MAX_LINE_LENGTH + 1) + "\nset wait\n")
    assert "Line too long" in result.errors[0].message
    assert kinds("signon Fdt pw\n" + "A" * (mail.MAX_LINE_LENGTH + 1) + "\nset wait\n")[-1] == "set_wait"


def test_line_count_limit() -> None:
    body = "signon Fdt pw\n" + "set wait\n" * (mail.MAX_LINES + 10)
    result = parse_mail(body)
    assert len(result.commands) == mail.MAX_LINES
    assert "too long" in result.errors[-1].message


def test_error_count_limit() -> None:
    result = parse_mail("signon Fdt pw\n" + "set bogus\n" * (mail.MAX_ERRORS * 3))
    assert len(result.errors) == mail.MAX_ERRORS + 1
    assert "Too many errors" in result.errors[-1].message


def test_character_limit() -> None:
    result = parse_mail("x" * (mail.MAX_MAIL_CHARS + 100))
    assert result.errors[-1].message.startswith("The mail is too long")


def test_errors_carry_line_column_and_the_line() -> None:
    result = parse_mail("signon Fdt pw\n  set level genius\n")
    error = result.errors[0]
    assert (error.line, error.column, error.text) == (2, 13, "  set level genius")


def test_commands_inside_if_blocks_are_refused() -> None:
    result = parse_mail("signon Fdt pw\nif nth\nset wait\nbroadcast\nhi\nendpress\nendif\n")
    assert [e.line for e in result.errors] == [3, 4]
    assert kinds("signon Fdt pw\nif nth\nset wait\nbroadcast\nhi\nendpress\nendif\n") == ["signon"]
    assert all(e.message.endswith("(the whole IF block is ignored)") for e in result.errors)


def test_an_unreadable_order_in_any_branch_drops_the_whole_block_and_its_parents() -> None:
    """Issue 24: ``IF ... ELSE A Arm - Sevvastopol ENDIF`` was kept without its ELSE."""
    result = parse_mail(
        "signon Fdt pw\nif german munich\nA Par - Bur\nelse\nA Arm - Sevvastopol\nendif\nF Bre - Mao\n"
        "if nth\n if eng\n  A Pariss H\n endif\n A Mar H\nendif\n"
    )
    assert [(e.line, e.message) for e in result.errors] == [
        (5, "Unrecognized destination province -> Sevvastopol (did you mean SEV?) (the whole IF block is ignored)"),
        (10, "Unrecognized source province -> Pariss (did you mean PAR?) (the whole IF block is ignored)"),
    ]
    assert [cmd.KIND for cmd in result.commands] == ["signon", "order"]
