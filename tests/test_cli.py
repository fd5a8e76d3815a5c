from judge.cli import main


def test_version(capsys):
    assert main(["--version"]) == 0
    assert "judge" in capsys.readouterr().out
