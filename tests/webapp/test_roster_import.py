"""Import a BattleScribe or New Recruit roster: ``runecodex army-import`` and ``POST /api/army/import``.

Seven worked rosters (``engine/examples/runewars-miniatures/rosters/``), each in .ros, .rosz and New Recruit JSON, are
read with and without the BattleScribe data files of ``tests/fixtures/bsdata/`` (our own, made by
``scripts/make_roster_examples.py``), and must get the ruling ``expect.json`` gives. Hostile files are refused
with exit 2 / a 400 and a message, in well under a second.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from roster_files import HOSTILE

from engine.errors import UnreadableInputError
from engine.runewars_miniatures import roster
from webapp.app import create_app

ROOT = Path(__file__).resolve().parents[2]
ROSTERS = ROOT / "engine" / "examples" / "runewars-miniatures" / "rosters"
DATA = ROOT / "tests" / "fixtures" / "bsdata"
EXPECT: dict[str, Any] = json.loads((ROSTERS / "expect.json").read_text("utf-8"))
FORMATS = ("ros", "rosz", "json")
RUNECODEX = [sys.executable, "-m", "engine.cli"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("RUNECODEX_BSDATA", None)
    return subprocess.run([*RUNECODEX, *args], capture_output=True, text=True, env=env, timeout=60, cwd=ROOT)


@pytest.fixture(scope="module")
def data_client(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    app: Flask = create_app({"TESTING": True, "SITE_DIR": str(tmp_path_factory.mktemp("no-site")),
                             "BSDATA_DIR": str(DATA)})
    return app.test_client()


def upload(client: FlaskClient, name: str, data: bytes) -> tuple[int, dict[str, Any]]:
    resp = client.post("/api/army/import", data={"file": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")
    assert resp.mimetype == "application/json", resp.get_data()[:200]
    return resp.status_code, json.loads(resp.get_data().decode("utf-8"))


def meets(ruling: dict[str, Any], want: dict[str, Any]) -> None:
    """Assert a ruling is what expect.json says for it."""
    assert ruling["legal"] is want["legal"], ruling["summary"]
    assert ruling["outcome"]["points"] == want["points"]
    messages = [v["message"] for v in ruling["outcome"].get("violations", [])]
    if "violation" in want:
        assert any(want["violation"] in m for m in messages), messages
        assert all(v["cites"] for v in ruling["outcome"]["violations"])
    if "decisions" in want:
        assert len(ruling["decisions"]) == want["decisions"], [d["choose"] for d in ruling["decisions"]]
    if "decision" in want:
        assert any(d["field"].endswith(want["decision"]) for d in ruling["decisions"])


CASES = [(case, fmt) for case in EXPECT for fmt in FORMATS]


@pytest.mark.parametrize(("case", "fmt"), CASES)
def test_every_worked_roster_gets_its_ruling_without_data(client: FlaskClient, case: str, fmt: str) -> None:
    status, body = upload(client, f"{case}.{fmt}", (ROSTERS / f"{case}.{fmt}").read_bytes())
    assert status == 200, body
    meets(body["ruling"], EXPECT[case]["without_data"])
    assert body["position"]["situation"] == "army" and body["position"]["faction"] == "daqan"
    assert any("no BattleScribe data files were given" in line for line in body["ruling"]["reading"])
    assert body["import"]["data"] is None
    # what a roster does not state is named, never guessed: every upgrade's icon is asked
    icons = {m["path"] for m in body["import"]["missing"] if m["path"].endswith(".icon")}
    asked = {d["field"] for d in body["ruling"]["decisions"] if d["field"].endswith(".icon")}
    assert icons == asked
    assert all("icon" not in card for unit in body["position"]["units"] for card in unit["upgrades"])


@pytest.mark.parametrize(("case", "fmt"), CASES)
def test_every_worked_roster_gets_its_ruling_with_data(data_client: FlaskClient, case: str, fmt: str) -> None:
    status, body = upload(data_client, f"{case}.{fmt}", (ROSTERS / f"{case}.{fmt}").read_bytes())
    assert status == 200, body
    meets(body["ruling"], EXPECT[case]["with_data"])
    assert any(line.startswith("Checked against the BattleScribe data files") for line in body["ruling"]["reading"])
    assert body["import"]["missing"] == []
    assert body["ruling"]["links"]


def test_the_three_formats_read_to_the_same_position(client: FlaskClient) -> None:
    for case in EXPECT:
        positions = [upload(client, f"{case}.{fmt}", (ROSTERS / f"{case}.{fmt}").read_bytes())[1]["position"]
                     for fmt in FORMATS]
        assert positions[0] == positions[1] == positions[2], case


def test_the_typo_list_of_the_issue_is_caught_with_data(data_client: FlaskClient) -> None:
    """A Spearmen unit given a 5-tray, 30-point configuration no card offers, with two heavy upgrades on a unit
    whose configuration shows no heavy icon: each is a violation citing the rule, and the points are the true cost."""
    _, body = upload(data_client, "t.rosz", (ROSTERS / "typed-configuration.rosz").read_bytes())
    messages = [v["message"] for v in body["ruling"]["outcome"]["violations"]]
    assert any("5 trays" in m and "has 2" in m for m in messages)
    assert any("at 30 points" in m and "costs 16" in m for m in messages)
    assert any("2 heavy upgrades" in m and "0 heavy icons" in m for m in messages)
    cites = {c for v in body["ruling"]["outcome"]["violations"] for c in v["cites"]}
    assert "rwm.army-building.costing" in cites and "rwm.army-building.upgrade-slots" in cites
    assert body["position"]["units"][0]["configuration"] == {"trays": 2, "cost": 16, "upgrade_icons": [
        "equipment", "training"]}


def test_zipped_data_files_read_the_same(tmp_path: Path) -> None:
    for path in DATA.iterdir():
        with zipfile.ZipFile(tmp_path / (path.name + "z"), "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(path, path.name)
    got = cli("army-import", str(ROSTERS / "hand-edited-cost.ros"), "--data", str(tmp_path), "--json")
    assert got.returncode == 0, got.stderr
    meets(json.loads(got.stdout)["ruling"], EXPECT["hand-edited-cost"]["with_data"])


def test_cli_prints_position_and_ruling(tmp_path: Path) -> None:
    got = cli("army-import", str(ROSTERS / "duplicate-unique.rosz"))
    assert got.returncode == 0, got.stderr
    assert "Position read from the roster:" in got.stdout and '"situation": "army"' in got.stdout
    assert "more than 1 card named Lord Hawthorne" in got.stdout and "[rwm.86.1]" in got.stdout
    assert "Not stated in the roster:" in got.stdout
    got = cli("army-import", str(ROSTERS / "hand-edited-cost.json"), "--data", str(DATA), "--json")
    body = json.loads(got.stdout)
    assert set(body) == {"position", "ruling", "import"}
    meets(body["ruling"], EXPECT["hand-edited-cost"]["with_data"])


def test_cli_refuses_a_missing_data_folder(tmp_path: Path) -> None:
    got = cli("army-import", str(ROSTERS / "legal-176.ros"), "--data", str(tmp_path / "nowhere"))
    assert got.returncode == 2 and "no battlescribe data folder" in got.stderr.lower()
    assert "Traceback" not in got.stderr


# ------------------------------------------------------------------------------------------ hostile files

@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_are_refused_quickly_in_process(name: str) -> None:
    maker, fragment = HOSTILE[name]
    data = maker()
    start = time.perf_counter()
    with pytest.raises(UnreadableInputError) as caught:
        roster.read(data, name)
    took = time.perf_counter() - start
    assert fragment in caught.value.message.lower(), caught.value.message
    assert took < 0.5, f"{name} took {took:.3f} s"


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_are_a_400_with_a_message(client: FlaskClient, name: str) -> None:
    maker, fragment = HOSTILE[name]
    status, body = upload(client, name, maker())
    assert status == 400, body
    assert fragment in body["error"].lower() and set(body) == {"error", "path"}


def test_hostile_files_exit_2_from_the_cli(tmp_path: Path) -> None:
    for name, (maker, fragment) in HOSTILE.items():
        path = tmp_path / name
        path.write_bytes(maker())
        got = cli("army-import", str(path))
        assert got.returncode == 2, (name, got.stdout[:300])
        assert fragment in got.stderr.lower() and "Traceback" not in got.stderr, (name, got.stderr)


def test_a_50_mb_file_is_refused_before_it_is_read(tmp_path: Path, client: FlaskClient) -> None:
    big = tmp_path / "big.rosz"
    with big.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    start = time.perf_counter()
    got = cli("army-import", str(big))
    assert got.returncode == 2 and "is 52,428,800 bytes" in got.stderr, got.stderr
    assert time.perf_counter() - start < 10
    resp = client.post("/api/army/import", data=b"\0" * (50 * 1024 * 1024),
                       content_type="multipart/form-data; boundary=x")
    assert resp.status_code == 413 and "too large" in resp.get_json()["error"]


def test_no_file_field_is_a_400(client: FlaskClient) -> None:
    resp = client.post("/api/army/import", data={"other": "x"}, content_type="multipart/form-data")
    assert resp.status_code == 400 and resp.get_json()["path"] == "file"


def test_a_roster_for_other_data_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "data"
    shutil.copytree(DATA, other)
    gst = other / "Runewars.gst"
    gst.write_text(gst.read_text("utf-8").replace('id="rcx0-game-rwm0"', 'id="some-other-id"'), "utf-8")
    got = cli("army-import", str(ROSTERS / "legal-176.ros"), "--data", str(other))
    assert got.returncode == 2 and "is not the data files'" in got.stderr
