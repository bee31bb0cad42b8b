"""Every bad input to the command line exits 2 with one line naming what is wrong, never a traceback.

Positions that JSON can carry but no position holds (deep nesting, integers of thousands of digits,
lone surrogates, non-finite numbers), server options out of range, a port in use, a host that does not
resolve, and rules folders with editors' leftovers, broken links, duplicate keys or YAML aliases.
"""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.cli import main
from engine.corpus import read_corpus

ROOT = Path(__file__).resolve().parent.parent
MakeCorpus = Callable[[dict[str, str]], Path]  # the make_rules fixture of conftest.py

TURN = """\
    paragraphs:
      - id: ra.turn
        kind: rule
        title: A turn
        source: {page: 7, section: A Player's Turn}
        text: A turn has two steps.
    """


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(("text", "message", "path"), [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply", ""),
    ('{"a": ' * 200 + "1" + "}" * 200, "nested too deeply", "a.a.a"),
    ('{"situation": "x", "army": [{"strength": ' + "9" * 5000 + "}]}", "5000 digits is too large", "army[0].strength"),
    ('{"name": "\\ud800"}', "lone surrogate", "name"),
    ('{"strength": NaN}', "NaN is not a number", "strength"),
    ('{"strength": -Infinity}', "-Infinity is not a number", "strength"),
    ('{"units": [1, 1e400]}', "1e400 is too large", "units[1]"),
    ("{", "not valid JSON", ""),
])
def test_resolve_refuses_what_no_position_holds(text: str, message: str, path: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "position.json"
    position.write_text(text, encoding="utf-8")
    assert main(["resolve", str(position)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("runecodex: ") and message in line
    if path:
        assert line.endswith(f"(at {path})") or f"(at {path}." in line


def test_resolve_of_a_folder_or_a_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for target in (tmp_path, tmp_path / "missing.json"):
        assert main(["resolve", str(target)]) == 2
        assert _one_line(capsys.readouterr().err).startswith(f"runecodex: cannot read {str(target)!r}")


@pytest.mark.parametrize(("args", "message"), [
    (["serve", "--port", "99999"], "the port must be a number from 0 to 65535, got 99999"),
    (["serve", "--port", "-1"], "the port must be a number from 0 to 65535, got -1"),
    (["serve", "--port", "http"], "the port must be a number from 0 to 65535, got 'http'"),
    (["serve", "--threads", "0"], "expected a whole number from 1 to 256, got 0"),
    (["build", "-j", "0"], "expected a whole number from 1 to 64, got 0"),
    (["frobnicate"], "invalid choice"),
])
def test_options_out_of_range_are_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    line = _one_line(capsys.readouterr().err)
    assert message in line and line.startswith("runecodex")


def test_serve_on_a_port_in_use_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--no-build"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line == f"runecodex: cannot listen on 127.0.0.1:{port}: address already in use (at port)"


@pytest.mark.parametrize("host", ["no-such-host.invalid", "bad host name", "999.999.999.999"])
def test_serve_on_a_bad_host_is_refused_at_once(host: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", host, "--no-build"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"runecodex: cannot listen on host {host!r}: ") and line.endswith("(at host)")


def test_rules_env_without_a_corpus_fails_at_once(tmp_path: Path) -> None:
    env = {"RUNECODEX_RULES": str(tmp_path), "PATH": "/usr/bin:/bin"}
    for args in (["rule", "rwm.10.9"], ["serve", "--no-build", "--port", "0"], ["search", "attack"]):
        done = subprocess.run([sys.executable, "-m", "engine.cli", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=60, check=False)
        assert done.returncode == 2, done.stderr
        assert _one_line(done.stderr) == (f"runecodex: RUNECODEX_RULES={str(tmp_path)!r} is not a rules folder "
                                          "(it has no documents.yaml)")


# ------------------------------------------------------------------------------ the rules folder

def test_editor_leftovers_and_broken_links_are_skipped_with_a_warning(
        make_rules: MakeCorpus, caplog: pytest.LogCaptureFixture) -> None:
    root = make_rules({"rune-age/01-turn.yaml": TURN})
    folder = root / "rune-age"
    (folder / ".#01-turn.yaml").symlink_to("user@host.1234:1700000000")  # emacs's lock: a dangling link
    (folder / "01-turn.yaml~").write_text("paragraphs: [oops")
    (folder / ".01-turn.yaml.swp").write_bytes(b"\x00b0VIM 9.0")
    (folder / "02-gone.yaml").symlink_to(folder / "deleted.yaml")
    with caplog.at_level(logging.WARNING, logger="runecodex.corpus"):
        corpus, problems = read_corpus(root)
    assert problems == [] and list(corpus.paragraphs) == ["ra.turn"]
    warned = sorted(r.getMessage() for r in caplog.records)
    assert warned == [
        "runecodex: skipped rune-age/.#01-turn.yaml (an editor's lock or backup file)",
        "runecodex: skipped rune-age/.01-turn.yaml.swp (an editor's lock or backup file)",
        "runecodex: skipped rune-age/01-turn.yaml~ (an editor's lock or backup file)",
        "runecodex: skipped rune-age/02-gone.yaml (a symbolic link to nothing)",
    ]


def test_a_duplicate_key_is_an_error_with_file_and_line(make_rules: MakeCorpus) -> None:
    root = make_rules({"rune-age/01-turn.yaml": TURN.rstrip(" ") + "        text: A turn has three steps.\n"})
    _, problems = read_corpus(root)
    assert [str(p) for p in problems] == [
        "rune-age/01-turn.yaml:7: unreadable yaml: duplicate key 'text' (first at line 6)"]


@pytest.mark.parametrize("body", [
    """\
    paragraphs:
      - &turn
        id: ra.turn
        kind: rule
        title: A turn
        source: {page: 7, section: A Player's Turn}
        text: A turn has two steps.
      - *turn
    """,
    """\
    paragraphs:
      - id: ra.turn
        kind: rule
        title: A turn
        source: &src {page: 7, section: A Player's Turn}
        text: A turn has two steps.
      - id: ra.turn.1
        kind: rule
        title: First step
        source: {<<: *src, paragraph: "1"}
        text: The first step.
    """,
])
def test_yaml_aliases_are_refused(make_rules: MakeCorpus, body: str) -> None:
    root = make_rules({"rune-age/01-turn.yaml": body})
    _, problems = read_corpus(root)
    assert len(problems) == 1, problems
    assert problems[0].file == "rune-age/01-turn.yaml" and problems[0].line > 0
    assert "are not allowed in the corpus" in problems[0].message


def test_an_alias_bomb_is_refused_quickly(make_rules: MakeCorpus) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 12)]
    root = make_rules({"rune-age/01-bomb.yaml": "\n".join(lines) + "\n"})
    _, problems = read_corpus(root)
    assert problems and "aliases" in problems[0].message
