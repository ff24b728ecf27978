"""Who may act: the PIN is throttled, operator sessions are revocable, bad JSON is a 400."""

from __future__ import annotations

from pathlib import Path

import pytest
from webui_support import PIN, csrf_of, post

from webui import create_app, throttle
from webui.security import DEFAULT_PIN_DIGITS, new_pin, pin_problem
from webui.throttle import PinThrottle

README = Path(__file__).resolve().parents[2] / "README.md"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def console() -> list[str]:
    return []


@pytest.fixture
def guarded(table, clock, console):
    return create_app(table, pin=PIN, TESTING=True,
                      throttle=PinThrottle(clock=clock, report=console.append))


def login_from(app, address: str, pin: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return post(client, "/login", {"pin": pin})


# -- issue 21, case 1: the PIN cannot be guessed -------------------------------------------

def test_wrong_pins_from_one_client_meet_growing_delays_then_a_lockout_on_the_console(
        guarded, clock, console):
    waits, wrong = [], 0
    while wrong < throttle.CLIENT_LOCKOUT_AFTER:
        response = login_from(guarded, "10.0.0.5", "0000")
        if response.status_code == 429:
            assert "too many wrong PINs" in response.get_json()["error"]
            waits.append(int(response.headers["Retry-After"]))
            clock.now += waits[-1]
            continue
        assert response.status_code == 403
        wrong += 1
    # Three free tries, then each wait doubles up to a minute.
    assert waits == [1, 2, 4, 8, 16, 32, 60]
    assert any("locked for 10.0.0.5" in line for line in console)
    # Even the right PIN is not looked at during the lockout; another client is unaffected.
    locked = login_from(guarded, "10.0.0.5", PIN)
    assert locked.status_code == 429
    assert int(locked.headers["Retry-After"]) == throttle.LOCKOUT_S
    assert login_from(guarded, "10.0.0.6", PIN).status_code == 200
    clock.now += throttle.LOCKOUT_S
    assert login_from(guarded, "10.0.0.5", PIN).status_code == 200


def test_wrong_pins_from_many_clients_lock_pin_entry_overall(guarded, clock, console):
    for i in range(throttle.OVERALL_LIMIT):
        assert login_from(guarded, f"10.1.{i // 250}.{i % 250}", "0000").status_code == 403
    assert login_from(guarded, "10.2.0.1", PIN).status_code == 429
    assert any("locked for everyone" in line for line in console)
    clock.now += throttle.LOCKOUT_S
    assert login_from(guarded, "10.2.0.1", PIN).status_code == 200


def test_the_default_pin_is_long_enough_that_guessing_it_at_the_limited_rate_is_hopeless():
    pin = new_pin()
    assert len(pin) == DEFAULT_PIN_DIGITS and pin_problem(pin) is None
    years_to_even_odds = 10**DEFAULT_PIN_DIGITS / 2 / throttle.guesses_per_day() / 365
    assert years_to_even_odds > 1000
    text = README.read_text(encoding="utf-8")
    assert f"{throttle.guesses_per_day():,}" in text
    assert f"{years_to_even_odds:,.0f} years" in text


def test_a_pin_is_ascii_digits_only():
    assert pin_problem("1234") is None
    for bad in ("٣٠٣٠", "12_34", "123", "1" * 13, "12a4"):
        assert pin_problem(bad), bad


# -- issue 21, case 3: sessions are revocable on the server ----------------------------------

def test_a_cookie_copied_before_logout_no_longer_acts(app, operator, table):
    copied = app.test_client()
    copied.set_cookie("session", operator.get_cookie("session").value)
    token = csrf_of(operator)
    assert post(operator, "/logout").status_code == 200
    response = post(copied, "/act/next-hand", token=token)
    assert response.status_code == 403
    assert "PIN" in response.get_json()["error"]
    assert table.snapshot()[0] == 0


def test_a_new_pin_ends_every_old_session(app, table):
    first, second = app.test_client(), app.test_client()
    for client in (first, second):
        assert post(client, "/login", {"pin": PIN}).status_code == 200
    changed = post(first, "/pin", {"pin": PIN, "new_pin": "8642097531"})
    assert changed.status_code == 200
    assert post(second, "/act/next-hand").status_code == 403
    # The session that set the PIN is a new one, and the old PIN is gone.
    assert post(first, "/act/next-hand").status_code == 200
    assert post(app.test_client(), "/login", {"pin": PIN}).status_code == 403
    assert post(app.test_client(), "/login", {"pin": "8642097531"}).status_code == 200


def test_a_new_pin_needs_the_current_one_and_a_valid_new_one(app, operator):
    assert post(operator, "/pin", {"pin": "0000", "new_pin": "8642097531"}).status_code == 403
    bad = post(operator, "/pin", {"pin": PIN, "new_pin": "12"})
    assert bad.status_code == 400
    assert "'new_pin'" in bad.get_json()["error"]
    assert post(app.test_client(), "/pin", {"pin": PIN, "new_pin": "8642097531"}
                ).status_code == 403


# -- issue 21, case 6: bad JSON is a 400, never a 500 ----------------------------------------

@pytest.mark.parametrize("body, why", [
    (b'{"pin": "\\ud800"}', "lone surrogate"),
    (b"[" * 5000, "nests too deeply"),
    (b'{"pin": ' + b"[" * 5000 + b"}", "nests too deeply"),
    (b"\xff\xfe{}", "not valid JSON"),
])
def test_a_body_that_is_not_sound_json_text_is_a_400_naming_why(app, operator, body, why):
    for client, path in ((app.test_client(), "/login"), (operator, "/act/bid")):
        response = client.post(path, data=body, content_type="application/json",
                               headers={"X-CSRF-Token": csrf_of(client)})
        assert response.status_code == 400, path
        assert why in response.get_json()["error"]
