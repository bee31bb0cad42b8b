"""The RuneWars Miniatures board imports an army list with clicks only: "Import roster", pick the .rosz file, read
the ruling (what was read, every rule the list breaks, cited)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from webapp.app import create_app

ROOT = Path(__file__).resolve().parents[2]
ROSTERS = ROOT / "engine" / "examples" / "runewars-miniatures" / "rosters"
DATA = ROOT / "tests" / "fixtures" / "bsdata"


@pytest.fixture(scope="module")
def data_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve the app, told where the player's BattleScribe data files are, on a free loopback port."""
    from waitress import create_server

    application = create_app({"SITE_DIR": str(tmp_path_factory.mktemp("no-site")), "BSDATA_DIR": str(DATA)})
    server = create_server(application, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"  # type: ignore[union-attr]
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)  # type: ignore[union-attr]
    server.close()
    thread.join(timeout=5)


def import_roster(page: Any, base: str, path: Path) -> Any:
    page.goto(f"{base}/boards/runewars-miniatures")
    page.wait_for_selector("#board[data-ready='true']")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Import roster").click()
    chooser.value.set_files(str(path))
    page.wait_for_selector("#ruling .ruling")
    return page.locator("#ruling .ruling")


def test_a_hand_edited_rosz_is_caught_on_the_board(page: Any, data_server: str) -> None:
    ruling = import_roster(page, data_server, ROSTERS / "hand-edited-cost.rosz")
    assert ruling.locator(".verdict").inner_text().startswith("Not allowed")
    reading = ruling.locator(".reading").inner_text()
    assert "BattleScribe roster (.rosz)" in reading and "Checked against the BattleScribe data files" in reading
    violations = ruling.locator(".violations li").all_inner_texts()
    assert any("prices Spearmen at 20 points but its configuration costs 28" in v and "costing" in v.lower()
               for v in violations), violations
    assert any("Rank Discipline at 1 point" in v for v in violations), violations
    assert page.get_by_role("tab", name="Army").get_attribute("aria-selected") == "true"
    assert "68" in ruling.locator(".outcome").inner_text()


def test_an_unreadable_file_shows_the_message(page: Any, data_server: str, tmp_path: Path) -> None:
    bad = tmp_path / "laughs.ros"
    bad.write_text('<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "a">]><roster/>', "utf-8")
    page.goto(f"{data_server}/boards/runewars-miniatures")
    page.wait_for_selector("#board[data-ready='true']")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Import roster").click()
    chooser.value.set_files(str(bad))
    alert = page.locator("#ruling [role=alert]")
    alert.wait_for()
    assert "cannot be read" in alert.inner_text() and "DTD" in alert.inner_text()
