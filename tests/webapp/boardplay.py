"""Playing a board as a player does, shared by the browser tests: open a situation's tab, ask "What happens
now?" and check the ruling is the engine's, answer every decision through its own control, and set number
fields with their − / + buttons."""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Iterable, Mapping
from typing import Any

from engine.core import resolve


def warm_up(base: str, paths: Iterable[str]) -> None:
    """Fetch *paths* once so that the server has loaded what the pages need (a cold start on a busy machine
    can take longer than a page's timeout)."""
    for path in paths:
        with urllib.request.urlopen(base + path, timeout=120) as resp:
            resp.read()


def open_tab(page: Any, base: str, game: str, situation: str) -> None:
    """Open the board of *game* and its *situation* tab."""
    page.goto(f"{base}/boards/{game}")
    page.wait_for_selector("#board[data-ready='true']")
    page.click(f"#tab-{situation}")
    page.wait_for_selector(f"#tab-{situation}[aria-selected='true']")


def ask(page: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Press "What happens now?"; return (the position sent, the ruling), checking the ruling is the engine's.

    Only a request about the tab's own situation is the press's: a board may ask the engine about other
    situations in the background (the table board asks contact, sight and range after each change)."""
    tab = page.locator("#situation-tabs [aria-selected='true']").get_attribute("data-situation")
    mine = f'"situation": "{tab}"'

    def ours(r: Any) -> bool:
        body = r.post_data or ""
        return bool(r.url.endswith("/api/resolve") and (not tab or mine in body.replace('":"', '": "')))

    with (page.expect_request(ours) as request,
          page.expect_response(lambda r: ours(r.request)) as answer):
        page.click("#resolve")
    sent: dict[str, Any] = request.value.post_data_json
    ruling: dict[str, Any] = answer.value.json()
    assert answer.value.ok, ruling
    page.wait_for_selector("#ruling .ruling")
    assert {k: v for k, v in ruling.items() if k != "links"} == resolve(sent).to_json()
    return sent, ruling


def answer_every_decision(page: Any, ruling: dict[str, Any], free: Mapping[str, str]) -> dict[str, Any]:
    """Answer the ruling's decisions one by one through their controls until none is left.

    Options are pressed (the first one), selects and checkbox lists confirmed, free text taken from *free*
    by the decision's field. Returns the final ruling, asserting the board calls it final.
    """
    for _ in range(12):
        if not ruling["decisions"]:
            break
        box = page.locator("#ruling .decision").first
        field = box.get_attribute("data-field")
        assert field, f"a decision without a field: {ruling['decisions'][0]}"
        assert box.locator(".answer").count() == 1, f"no control answers {field}"
        with page.expect_response(lambda r: r.url.endswith("/api/resolve")) as answer:
            if box.locator(".answer.options button").count():
                box.locator(".answer.options button").first.click()
            elif box.locator(".answer select").count():
                box.locator(".answer button").click()
            elif box.locator(".answer input[type=checkbox]").count():
                want = int(re.match(r"\D*(\d+)", ruling["decisions"][0]["choose"]).group(1))  # type: ignore[union-attr]
                for i in range(want):
                    box.locator(".answer input[type=checkbox]").nth(i).check()
                box.locator(".answer button").click()
            else:
                text = box.locator(".answer input[type=text]")
                if text.count():
                    text.first.fill(free.get(field, ""))
                box.locator(".answer button").first.click()
        ruling = answer.value.json()
        page.wait_for_timeout(100)
    assert not ruling["decisions"], ruling["decisions"]
    assert page.inner_text("#ruling .badge").strip().lower() == "final"
    return ruling


def stepper_to(page: Any, path: str, value: int) -> None:
    """Set a number field through its − / + buttons (as a player taps them)."""
    box = page.locator(f".stepper[data-path='{path}']").first
    if box.locator("input").input_value() == "":
        box.locator("button.step").nth(1).click()  # a blank (unknown) field starts at its lowest value
    now = int(box.locator("input").input_value())
    button = box.locator("button.step").nth(1 if value > now else 0)
    for _ in range(abs(value - now)):
        button.click()
    assert int(box.locator("input").input_value()) == value
