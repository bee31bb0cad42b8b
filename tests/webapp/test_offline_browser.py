"""The app at the table with no network (issue 28), in a real browser: after one visit, Playwright's
``context.set_offline(True)`` and then everything a player does next. The page is served from 127.0.0.1,
a secure context, so the service worker installs as it would on a phone.

Offline: search answers from the saved copy and says so; a rule page, the rulebook list with the glossary
and a quick-reference sheet open; a ruling already seen for a position is answered from the device; a new
position keeps the last ruling on screen under a plain message (no "TypeError: Failed to fetch")."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.webapp.conftest import SCENARIOS

pytestmark = pytest.mark.browser

READY = "html[data-offline='ready']"


def _fragment(name: str) -> str:
    position = json.loads((SCENARIOS / "rune-age" / f"{name}.json").read_text(encoding="utf-8"))["position"]
    raw = json.dumps(position).encode("utf-8")
    return "#p=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (no service worker yet); uncaught script errors fail the test."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    ctx.on("page", lambda pg: pg.on("pageerror", lambda exc: errors.append(str(exc))))
    yield ctx
    ctx.close()
    assert not errors, errors


def _first_visit(context: Any, live_server: str, fragment: str) -> tuple[Any, str]:
    """Open a board with a position while online: its ruling comes from the server; wait until the app
    is stored for offline use. Return the page and the ruling's summary."""
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{live_server}/boards/rune-age{fragment}")
    page.wait_for_selector("#ruling .ruling-summary")
    page.wait_for_selector(READY, state="attached", timeout=30_000)
    return page, page.locator("#ruling .ruling-summary").inner_text()


def test_search_rules_and_quick_reference_work_offline(context: Any, live_server: str) -> None:
    page, _ = _first_visit(context, live_server, _fragment("battle-city-fails"))
    context.set_offline(True)

    page.goto(f"{live_server}/search?q=flanking")
    page.wait_for_selector("#results .hit")
    note = page.locator("#search-note")
    assert note.is_visible() and "offline" in note.inner_text().lower()
    assert "saved on this device" in note.inner_text()
    assert page.locator("#net-status").is_visible()
    first = page.locator("#results .hit a.cite").first
    title = first.inner_text()
    assert "flank" in (title + page.locator("#results .hit .snippet").first.inner_text()).lower()

    # typing a new question searches the saved copy too: "Searching…" shows while it is awaited, then goes
    page.evaluate("""() => { window.seen = [];
      new MutationObserver(() => window.seen.push(document.getElementById('summary').textContent))
        .observe(document.getElementById('summary'), {childList: true, characterData: true, subtree: true}); }""")
    page.fill("#q", "how many cards in a runeslingers deck")
    page.wait_for_selector("#results[data-answered^='how many cards'] .hit")
    assert "Searching…" in page.evaluate("window.seen")
    assert page.locator("#summary").inner_text() != "Searching…"
    assert all(pid.startswith("rs.") for pid in page.locator("#results .hit a.cite").evaluate_all(
        "els => els.map(e => e.dataset.pid)"))

    # a rule page, from a search hit
    page.goto(f"{live_server}/search?q=flanking")
    page.locator("#results .hit a.cite").first.click()
    page.wait_for_selector("#offline-rule[data-ready='true'] h1")
    assert page.locator("#offline-rule h1").inner_text() == title
    assert page.locator("#offline-rule .rule-text").inner_text().strip()

    # the rulebooks (the header's link) with the glossary, and a glossary entry
    page.click("header a[href='/site/']")
    page.wait_for_selector("#offline-rule[data-ready='true']")
    assert page.locator("#offline-rule h1").inner_text() == "Rulebooks"
    glossary = page.locator("#glossary-rune-age")
    glossary.locator("summary").click()
    glossary.locator("a.cite").first.click()
    page.wait_for_selector("#offline-rule[data-ready='true'] .kind-glossary")

    # the quick reference: the chooser and the sheet
    page.goto(f"{live_server}/quickref/rune-age")
    assert page.locator("h1").first.inner_text().startswith("Rune Age")
    page.goto(f"{live_server}/quickref/rune-age.html")
    assert "quick reference" in page.title()


def test_rulings_offline_keep_the_last_one_and_answer_positions_seen_before(context: Any, live_server: str) -> None:
    seen = _fragment("battle-city-fails")
    page, summary = _first_visit(context, live_server, seen)
    context.set_offline(True)

    # a position ruled on before: answered from this device, and said so
    page.goto(f"{live_server}/boards/rune-age{seen}")
    page.wait_for_selector("#ruling .ruling-offline")
    assert "saved on this device" in page.locator("#ruling .ruling-offline").inner_text()
    assert page.locator("#ruling .ruling-summary").inner_text() == summary

    # the player changes the position on the board and asks: the last ruling stays, under a plain message
    before = page.evaluate("location.hash")
    page.locator("#editor button.step", has_text="+").first.click()
    page.wait_for_function("h => location.hash !== h", arg=before)
    page.click("#resolve")
    page.wait_for_selector("#ruling .ruling-offline:has-text('needs the server')")
    message = page.locator("#ruling .ruling-offline").inner_text()
    assert "You are offline" in message and "Failed to fetch" not in message and "TypeError" not in message
    assert page.locator("#ruling .ruling-summary").inner_text() == summary


    # a shared link to a new position opened offline: no ruling to keep, the message says why
    page.evaluate("hash => { location.hash = hash; }", _fragment("battle-stronghold-secured"))
    page.wait_for_selector("#ruling .ruling-offline:has-text('needs the server')")
    assert "Failed to fetch" not in page.locator("#ruling").inner_text()
