"""Malformed positions and queries never make the app answer 500 (hypothesis, bounded examples).

Every situation is also fuzzed from its own JSON Schema (:mod:`webapp_fuzzing`): generated positions,
each followed by hostile mutations of it. The default run sends about 100 requests per situation;
``test_twenty_thousand_fuzzed_positions`` (marked slow, still in the CI run) sends over 20,000.
"""

from __future__ import annotations

import copy
import json
import os
import random
import time
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webapp_fuzzing import Counter, encode, from_schema, mutate

from engine.core import Situation, load_situations
from webapp.app import create_app

# On CI the examples are derandomized (the same every run, so a red run is reproducible); a developer's
# run explores new ones each time (RUNECODEX_FUZZ_REQUESTS=100000 for a long hunt).
DERANDOMIZE = bool(os.environ.get("CI"))
FUZZ = settings(max_examples=120, deadline=None, derandomize=DERANDOMIZE, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5),
    max_leaves=25,
)
GAMES = ["rune-age", "runewars-miniatures", "runewars", "runeslingers", "chess", ""]

_APP: Flask | None = None


def app() -> Flask:
    """Return one app for every example (its caches make repeated positions cheap)."""
    global _APP
    if _APP is None:
        _APP = create_app({"TESTING": False})
    return _APP


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    value = copy.deepcopy(value)
    target = value
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = new
    return value


def _post(body: bytes) -> tuple[int, bytes]:
    resp = app().test_client().post("/api/resolve", data=body, content_type="application/json")
    return resp.status_code, resp.get_data()


def _check_resolve(body: bytes) -> None:
    Counter().post(_post, body)


@FUZZ
@given(JSON)
def test_any_json_value_is_answered_without_500(value: Any) -> None:
    _check_resolve(json.dumps(value).encode())


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes_are_answered_without_500(body: bytes) -> None:
    _check_resolve(body)


@FUZZ
@given(st.data())
def test_mutated_real_positions_are_answered_without_500(positions: list[tuple[str, dict[str, Any]]],
                                                         data: st.DataObject) -> None:
    _, position = data.draw(st.sampled_from(positions))
    path = data.draw(st.sampled_from([p for p in _paths(position) if p]))
    mutated = _replace(position, path, data.draw(JSON))
    _check_resolve(json.dumps(mutated).encode())


@FUZZ
@given(st.data())
def test_dropped_fields_of_real_positions_are_answered_without_500(
        positions: list[tuple[str, dict[str, Any]]], data: st.DataObject) -> None:
    _, position = data.draw(st.sampled_from(positions))
    path = data.draw(st.sampled_from([p for p in _paths(position) if p and not isinstance(p[-1], int)]))
    mutated = copy.deepcopy(position)
    target = mutated
    for part in path[:-1]:
        target = target[part]
    del target[path[-1]]
    _check_resolve(json.dumps(mutated).encode())


@FUZZ
@given(q=st.text(max_size=80), game=st.sampled_from(GAMES), limit=st.text(max_size=6))
def test_any_search_is_answered_without_500(q: str, game: str, limit: str) -> None:
    resp = app().test_client().get("/api/search", query_string={"q": q, "game": game, "limit": limit})
    assert resp.status_code in (200, 400), (resp.status_code, q, game, limit)
    data = resp.get_json()
    assert ("hits" in data) if resp.status_code == 200 else (set(data) == {"error", "path"})


@FUZZ
@given(pid=st.text(min_size=1, max_size=40).filter(lambda s: "/" not in s and s.strip() not in (".", "..")))
def test_any_rule_id_is_200_or_404(pid: str) -> None:
    resp = app().test_client().get(f"/api/rules/{pid}")
    assert resp.status_code in (200, 404), (resp.status_code, pid)


SITUATIONS: list[Situation] = [sit for _, sit in sorted(load_situations().items())]
MUTATIONS = 5  # hostile variants sent after each generated position


def fuzz_situation(sit: Situation, examples: int, counter: Counter) -> None:
    """Send *examples* generated positions of *sit*, each followed by MUTATIONS hostile variants."""
    @settings(max_examples=examples, deadline=None, database=None, derandomize=DERANDOMIZE,
              suppress_health_check=list(HealthCheck))
    @given(position=from_schema(sit.schema), seed=st.integers(0, 2**32 - 1))
    def run(position: dict[str, Any], seed: int) -> None:
        rnd = random.Random(seed)
        counter.post(_post, encode(position))
        for k in range(MUTATIONS):
            counter.post(_post, encode(mutate(position, rnd, count=1 + k % 3)))

    run()


@pytest.mark.parametrize("sit", SITUATIONS, ids=[f"{s.game}/{s.name}" for s in SITUATIONS])
def test_every_situation_fuzzed_from_its_schema_answers_without_500(sit: Situation) -> None:
    counter = Counter()
    fuzz_situation(sit, 16, counter)
    assert counter.total >= 16 * (1 + MUTATIONS) * 0.9  # hypothesis may stop early on a small schema


@pytest.mark.slow
def test_twenty_thousand_fuzzed_positions(capsys: pytest.CaptureFixture[str]) -> None:
    """Over 20,000 requests to /api/resolve across every situation: no 500, no non-JSON answer."""
    target = int(os.environ.get("RUNECODEX_FUZZ_REQUESTS", "20000"))
    per = -(-target // (len(SITUATIONS) * (1 + MUTATIONS)))
    counter = Counter()
    started = time.monotonic()
    for sit in SITUATIONS:
        fuzz_situation(sit, per, counter)
    while counter.total < target:  # a small schema can run out of distinct examples: top up
        fuzz_situation(SITUATIONS[counter.total % len(SITUATIONS)], per, counter)
    with capsys.disabled():
        print(f"\nfuzzed /api/resolve: {counter.total} requests in {time.monotonic() - started:.0f} s "
              f"({', '.join(f'{k}: {v}' for k, v in sorted(counter.by_status.items()))})")
    assert counter.total >= target
