"""The page behind its real server: streams, limits, and what a stranger's connection may do."""

from __future__ import annotations

import json
import socket

from webui_support import PIN, Spectator, exchange, get, serving, status_of

from scanner.live import LiveTable
from scanner.log import EventLog
from scanner.pinochle.live_game import PinochleGame
from webui import create_app
from webui.serving import AllowedHosts


def login_and_act(port: int, action: str) -> bytes:
    """Log in with the PIN over raw HTTP and take one action; the action's reply."""
    page = get(port, "/")
    cookie = _cookie(page)
    token = page.split(b'name="csrf-token" content="', 1)[1].split(b'"', 1)[0].decode()
    login = _post(port, "/login", {"pin": PIN}, cookie, token)
    assert status_of(login) == 200, login
    cookie = _cookie(login)
    token = json.loads(login.partition(b"\r\n\r\n")[2])["csrf"]
    return _post(port, f"/act/{action}", {}, cookie, token)


def _cookie(reply: bytes) -> str:
    head = reply.partition(b"\r\n\r\n")[0].decode()
    for line in head.split("\r\n"):
        if line.lower().startswith("set-cookie:"):
            return line.split(":", 1)[1].split(";", 1)[0].strip()
    raise AssertionError(f"no cookie in {head!r}")


def _post(port: int, path: str, body: dict, cookie: str, token: str) -> bytes:
    data = json.dumps(body).encode()
    return exchange(port, (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nCookie: {cookie}\r\nX-CSRF-Token: {token}\r\n\r\n"
    ).encode() + data)


# -- the event stream ------------------------------------------------------------------------

def test_the_event_stream_sends_the_current_state_at_once(app, table, operator):
    from webui_support import post
    post(operator, "/act/next-hand")
    with serving(app, table) as server:
        spectator = Spectator(server.port)
        assert spectator.frame().startswith("retry:")
        first = spectator.frame()
        spectator.close()
    assert first.startswith("id: 1\nevent: state\n")
    assert json.loads(first.split("data: ", 1)[1])["hand_number"] == 1


def test_a_reconnecting_page_gets_only_what_it_missed(app, table, operator):
    from webui_support import post
    post(operator, "/act/next-hand")
    with serving(app, table) as server:
        spectator = Spectator(server.port, "Last-Event-ID: 1\r\n")
        spectator.frame()
        post(operator, "/act/undo")
        caught_up = spectator.frame()
        spectator.close()
    assert caught_up.startswith("id: 2\n")


def test_a_bad_last_event_id_is_a_400(app, table):
    with serving(app, table) as server:
        reply = get(server.port, "/events", headers="Last-Event-ID: yesterday\r\n")
    assert status_of(reply) == 400
    assert b"Last-Event-ID" in reply


# -- issue 21, case 2: open streams never take the page down ---------------------------------

def test_forty_open_streams_leave_the_operators_page_and_actions_answering(app, table):
    """A thread per stream (32 threads) stopped answering at 32 open streams."""
    with serving(app, table) as server:
        spectators = [Spectator(server.port) for _ in range(40)]
        for spectator in spectators:
            assert spectator.frame().startswith("retry:")
        assert status_of(get(server.port, "/")) == 200
        assert status_of(get(server.port, "/healthz")) == 200
        assert status_of(login_and_act(server.port, "next-hand")) == 200
        # Every spectator is sent the operator's action.
        for spectator in spectators:
            assert spectator.frame().startswith("id: 0")
            assert spectator.frame().startswith("id: 1")
            spectator.close()


def test_spectators_over_the_limit_are_told_to_come_back_later(app, table):
    with serving(app, table, max_streams=3) as server:
        spectators = [Spectator(server.port) for _ in range(3)]
        for spectator in spectators:
            spectator.frame()
        refused = get(server.port, "/events")
        assert status_of(refused) == 503
        assert b"Retry-After" in refused or b"retry-after" in refused
        assert b"spectators" in refused
        spectators[0].close()
        # A slot frees when a page leaves.
        for _ in range(50):
            late = Spectator(server.port)
            try:
                if late.frame().startswith("retry:"):
                    break
            except ConnectionError:
                pass
            finally:
                late.close()
        else:
            raise AssertionError("the slot of a page that left was never freed")
        for spectator in spectators[1:]:
            spectator.close()


def test_idle_connections_and_half_sent_headers_are_shed(app, table):
    """Before, 101 idle connections or 150 half-sent headers blocked the page for 2 minutes."""
    with serving(app, table, idle_timeout=0.5) as server:
        idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(120)]
        half = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(150)]
        for sock in half:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert status_of(get(server.port, "/healthz")) == 200
        for sock in idle + half:
            sock.settimeout(10)
            assert _closed_by_server(sock)
            sock.close()


def _closed_by_server(sock: socket.socket) -> bool:
    try:
        while sock.recv(1024):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


# -- issue 21, case 4: a body announced too large is refused on its header -------------------

def test_a_body_announced_too_large_is_refused_from_the_header_alone(app, table):
    """Before, a body announced as 1e9 bytes was spooled to disk before the limit applied."""
    with serving(app, table) as server:
        reply = exchange(server.port, b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{")
    assert status_of(reply) == 413


def test_a_chunked_body_over_the_limit_is_refused(app, table):
    chunk = b"x" * 20_000
    with serving(app, table) as server:
        reply = exchange(server.port, b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                         + f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n0\r\n\r\n")
    assert status_of(reply) == 413


def test_large_headers_are_refused_with_431(app, table):
    with serving(app, table) as server:
        reply = get(server.port, "/", headers=f"X-Big: {'a' * 300_000}\r\n")
    assert status_of(reply) == 431


# -- issue 21, case 5: only the names the server was started for ----------------------------

def test_a_stranger_host_header_is_refused_and_never_echoed(app, table):
    with serving(app, table) as server:
        for path in ("/", "/static", "/healthz", "/events"):
            reply = get(server.port, path, host="evil.example")
            assert status_of(reply) == 400, path
            assert b"Location" not in reply
        assert status_of(get(server.port, "/", host="127.0.0.1")) == 200
        assert status_of(get(server.port, "/", host=f"localhost:{server.port}")) == 200


def test_a_server_on_every_address_answers_to_its_names_and_the_address_reached():
    # Tests bind 127.0.0.1 only, so the wildcard's rule is checked on its own.
    hosts = AllowedHosts("0.0.0.0")
    assert hosts.allows("127.0.0.1:5000", "192.168.1.20")
    assert hosts.allows(f"{socket.gethostname()}:5000", "192.168.1.20")
    assert hosts.allows("192.168.1.20:5000", "192.168.1.20")
    assert not hosts.allows("192.168.1.99:5000", "192.168.1.20")
    assert not hosts.allows("evil.example", "192.168.1.20")


def test_a_server_started_for_one_address_answers_to_that_address_only():
    hosts = AllowedHosts("192.168.1.20")
    assert hosts.allows("192.168.1.20:5000", "192.168.1.20")
    assert not hosts.allows("localhost:5000", "192.168.1.20")
    assert not hosts.allows("evil.example", "192.168.1.20")


def test_two_servers_on_one_log_never_both_accept_one_action(tmp_path):
    """Issue 21, case 7: the loser is answered 409 and told why."""
    db = tmp_path / "shared.sqlite"
    tables = [LiveTable(lambda: EventLog(db, session="friday"), PinochleGame(),
                        follow_interval=3600) for _ in range(2)]
    try:
        with serving(create_app(tables[0], pin=PIN), tables[0]) as one, \
                serving(create_app(tables[1], pin=PIN), tables[1]) as other:
            assert status_of(login_and_act(one.port, "next-hand")) == 200
            refused = login_and_act(other.port, "next-hand")
    finally:
        for table in tables:
            table.close()
    assert status_of(refused) == 409
    assert b"the table changed" in refused and b"Nothing was logged" in refused

