"""The page's HTTP surface: spectators read, the operator acts, every refusal is a clear 4xx."""

from __future__ import annotations

from webui_support import PIN, csrf_of, deal_in_packets, post

from scanner.live import LiveTable
from scanner.log import EventLog
from scanner.pinochle.live_game import PinochleGame
from webui import create_app


def test_the_page_is_served_to_anyone(app):
    response = app.test_client().get("/")
    assert response.status_code == 200
    assert "Auction" in response.get_data(as_text=True)


def test_state_is_readable_by_a_spectator(app):
    body = app.test_client().get("/state").get_json()
    assert body["operator"] is False
    assert body["state"]["game"] == "pinochle"


def test_healthz_reports_the_log_version(app, table, operator):
    post(operator, "/act/next-hand")
    assert app.test_client().get("/healthz").get_json() == {"ok": True, "version": 1}


def test_the_session_cookie_is_httponly_and_samesite_strict(app):
    response = app.test_client().get("/")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie


def test_a_spectator_cannot_change_the_table(app, table):
    client = app.test_client()
    response = post(client, "/act/next-hand")
    assert response.status_code == 403
    assert "PIN" in response.get_json()["error"]
    assert table.snapshot()[0] == 0


def test_a_wrong_pin_is_refused(app):
    response = post(app.test_client(), "/login", {"pin": "0000"})
    assert response.status_code == 403
    assert response.get_json()["error"] == "wrong PIN"


def test_a_post_without_the_csrf_token_is_refused_even_for_the_operator(operator, table):
    response = operator.post("/act/next-hand", json={})
    assert response.status_code == 403
    assert "CSRF" in response.get_json()["error"]
    assert table.snapshot()[0] == 0


def test_a_post_with_another_sessions_csrf_token_is_refused(app, operator):
    stranger_token = csrf_of(app.test_client())
    response = post(operator, "/act/next-hand", token=stranger_token)
    assert response.status_code == 403


def test_login_needs_the_csrf_token_too(app):
    client = app.test_client()
    client.get("/")
    assert client.post("/login", json={"pin": PIN}).status_code == 403


def test_logout_ends_the_operator_session(operator, table):
    post(operator, "/logout")
    assert post(operator, "/act/next-hand").status_code == 403


def test_the_operator_starts_a_hand(operator, table):
    response = post(operator, "/act/next-hand")
    assert response.status_code == 200
    assert response.get_json()["state"]["dealer"] == "N"


def test_an_illegal_bid_is_refused_with_its_rule_and_changes_nothing(operator, table):
    post(operator, "/act/next-hand")
    deal_in_packets(table)
    before = table.snapshot()
    response = post(operator, "/act/bid", {"amount": 19})
    assert response.status_code == 409
    body = response.get_json()
    assert body["rule"] == "Setup & Deal: Auction"
    assert "minimum" in body["error"]
    assert table.snapshot() == before


def test_a_bid_that_is_not_a_number_is_a_400_naming_the_field(operator, table):
    post(operator, "/act/next-hand")
    deal_in_packets(table)
    response = post(operator, "/act/bid", {"amount": "twenty"})
    assert response.status_code == 400
    assert "'amount'" in response.get_json()["error"]


def test_an_unknown_action_is_a_400(operator):
    response = post(operator, "/act/shuffle")
    assert response.status_code == 400
    assert "unknown action" in response.get_json()["error"]


def test_a_body_that_is_not_a_json_object_is_a_400(operator):
    token = csrf_of(operator)
    for body in (b"not json", b"[1, 2]", b'"pass"'):
        response = operator.post("/act/pass", data=body, content_type="application/json",
                                 headers={"X-CSRF-Token": token})
        assert response.status_code == 400
        assert "JSON object" in response.get_json()["error"]


def test_an_oversized_request_is_refused_before_it_is_read(operator, table):
    response = post(operator, "/act/bid", {"amount": 25, "padding": "x" * 20_000})
    assert response.status_code == 413
    assert table.snapshot()[0] == 0


def test_an_exposed_card_shows_a_redeal_banner_naming_the_remedy(operator, table):
    post(operator, "/act/next-hand")
    response = post(operator, "/act/expose", {"card": "QS", "seat": "E"})
    banner = response.get_json()["state"]["banner"]
    assert banner["status"] == "redeal-same-dealer"
    assert banner["rule"] == "Setup & Deal: The deal"
    assert "same dealer" in banner["remedy"]


def test_a_redeal_is_refused_when_no_verdict_calls_for_one(operator, table):
    post(operator, "/act/next-hand")
    response = post(operator, "/act/redeal")
    assert response.status_code == 409


def test_undo_is_logged_as_an_event_not_a_deletion(operator, table):
    post(operator, "/act/next-hand")
    post(operator, "/act/undo")
    version, state = table.snapshot()
    assert version == 2
    assert state["hand_number"] is None


def test_the_title_is_escaped_on_the_page(tmp_path):
    live = LiveTable(lambda: EventLog(tmp_path / "x.sqlite"), PinochleGame())
    try:
        app = create_app(live, pin=PIN, title="<b>evil</b>")
        page = app.test_client().get("/").get_data(as_text=True)
    finally:
        live.close()
    assert "<b>evil</b>" not in page
    assert "&lt;b&gt;evil&lt;/b&gt;" in page
