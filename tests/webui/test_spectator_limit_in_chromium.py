"""A page turned away at the spectator limit comes back by itself once a place frees up."""

from __future__ import annotations

from webui_support import serving


def test_a_page_over_the_spectator_limit_gets_in_once_another_leaves(browser, app, table):
    with serving(app, table, max_streams=1) as server:
        first = browser.new_context().new_page()
        first.goto(server.url)
        first.wait_for_function("document.getElementById('link').textContent === 'live'")
        second = browser.new_context().new_page()
        second.goto(server.url)
        second.wait_for_function(
            "document.getElementById('link').textContent.startsWith('reconnecting')")
        first.context.close()
        second.wait_for_function("document.getElementById('link').textContent === 'live'",
                                 timeout=30_000)
        second.context.close()
