from judge.cli import command_modules, main


def test_version(capsys):
    assert main(["--version"]) == 0
    assert "judge" in capsys.readouterr().out


def test_every_command_module_has_the_contract():
    for module in command_modules():
        assert isinstance(module.NAME, str) and module.NAME
        assert isinstance(module.HELP, str) and module.HELP
        assert callable(module.add_arguments) and callable(module.run)


def test_version_command(capsys):
    assert main(["version"]) == 0
    assert capsys.readouterr().out.startswith("judge ")
