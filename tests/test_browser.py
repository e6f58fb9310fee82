"""End to end: the viewer page driven in headless Chromium (Playwright over Debian's chromium).

Loads a research file through the page's file box, steps with the arrow
keys across the line's first dead step, runs and stops the walker with the
space bar, reloads with Enter, opens a finding of the store, and checks that
malformed input gets a message on the page. Takes the screenshots
``viewer.png`` and ``report.png`` into a temporary folder, so a test run leaves
the checkout as it was; ``make screenshots`` runs this file with
``LABYRINTH_SCREENSHOTS=reports`` to refresh the ones docs/viewer.md shows.

Skips, saying why, only where no browser can be had (no ``playwright``
package or no Chromium); under CI (``CI`` set) a missing browser fails
instead, since ``.ci/run`` installs one.
"""

import os
import shutil
from pathlib import Path

import pytest
from test_view import DEAD_FILE, make_report, store_db  # noqa: F401  (store_db is a fixture)

ROOT = Path(__file__).resolve().parent.parent
#: Chromium flags that work on a closed network, headless, as root
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]


def _chromium():
    for path in (os.environ.get("LABYRINTH_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser",
                 shutil.which("chromium"), shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if path and Path(path).exists():
            return path
    return None


def _no_browser(reason):
    message = (f"{reason}: the browser test needs Debian's chromium and the playwright package "
               "(`apt-get install chromium`, `pip install playwright`; `make test` installs both)")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """Where screenshots go: ``$LABYRINTH_SCREENSHOTS`` (``make screenshots``: reports/) or a temporary folder."""
    chosen = os.environ.get("LABYRINTH_SCREENSHOTS")
    folder = (ROOT / chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _no_browser("no playwright package")
    path = _chromium()
    if path is None:
        _no_browser("no Chromium found")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(store_db):  # noqa: F811
    from labyrinth.view.server import make_server

    srv = make_server(store_db, port=0, time_limit=10)
    srv.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    yield pg
    context.close()


def _at(page, step, status=None):
    """Wait until the page shows ``step`` (and ``status`` in the verdict panel)."""
    page.wait_for_selector(f'#step[data-step="{step}"]')
    page.wait_for_function("s => document.getElementById('busy').textContent === ''", arg=None)
    if status:
        page.wait_for_selector(f'#verdict[data-status="{status}"]')
    return page.inner_html("#board")


def test_arrow_keys_step_across_the_first_dead_step(page, server, shots):
    page.goto(server.url)
    page.wait_for_selector("#board svg")
    page.set_input_files("#load-file", str(DEAD_FILE))  # 9x9, 24 moves, dead since step 22
    end = _at(page, 24, "dead")
    assert "step 22" in page.inner_text("#deadstep")
    moves = page.input_value("#load-text")
    assert moves.startswith("9|")

    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    dead = _at(page, 22, "dead")
    assert dead != end
    assert "this step is dead" in page.inner_text("#deadstep")
    assert page.locator("#board svg title", has_text="pattern: (").count() > 0  # the stuck pattern outlined

    page.keyboard.press("ArrowLeft")
    alive = _at(page, 21, "alive")
    assert alive != dead and "1 ahead" in page.inner_text("#deadstep")
    assert page.locator("#board svg title", has_text="witness completion").count() == 1
    assert page.locator("#board svg title", has_text="pattern: (").count() == 0
    assert page.inner_text("#research-text").strip()  # the research program's options at this step

    page.keyboard.press("ArrowRight")
    assert _at(page, 22, "dead") == dead  # the same step draws the same picture
    page.screenshot(path=str(shots / "viewer.png"))
    assert (shots / "viewer.png").stat().st_size > 10_000

    page.keyboard.press("Enter")  # reload: the loaded line again, at its end
    assert _at(page, 24, "dead") == end


def test_space_runs_and_stops_the_walker(page, server):
    page.goto(server.url + "?state=7:RRDD&rules=default")
    _at(page, 4, "alive")
    page.keyboard.press("Space")
    page.wait_for_function("() => Number(document.getElementById('step').dataset.step) >= 7")
    page.keyboard.press("Space")
    page.wait_for_function("() => document.getElementById('busy').textContent === ''")
    stopped = page.get_attribute("#step", "data-step")
    page.wait_for_timeout(600)
    assert page.get_attribute("#step", "data-step") == stopped  # it stays stopped
    assert page.input_value("#load-text") == "7:RRDD"
    line = page.inner_text("#line-text").strip()
    assert line.startswith("7:RRDD") and len(line) - 2 == int(stopped)
    page.keyboard.press("ArrowLeft")
    _at(page, int(stopped) - 1)


def test_the_why_panel_shows_each_closed_move_certificate(page, server):
    page.goto(server.url + "?state=7:RRDDDL&rules=strong")
    _at(page, 6, "alive")
    why = page.inner_text("#why-text")
    assert "D: dead, because" in why and "L: dead, because" in why and "hangs off" in why
    assert page.locator("#certificate svg").count() == 1  # both moves' last steps, drawn under the board


def test_malformed_input_gets_a_message_on_the_page(page, server):
    page.goto(server.url + "?state=5:RR")
    before = _at(page, 2, "alive")
    page.fill("#load-text", "9:RRXX")
    page.press("#load-text", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert "'X'" in page.inner_text("#error-text")
    assert page.inner_html("#board") == before  # the last good picture stays
    page.fill("#load-text", "5:RRD")
    page.press("#load-text", "Enter")
    _at(page, 3, "alive")
    assert page.is_hidden("#error")


def test_a_finding_of_the_store_opens_in_the_viewer(page, server):
    page.goto(server.url)
    page.wait_for_selector("#findings-list li[data-id]")
    item = page.locator("#findings-list li[data-id]").first
    text = item.inner_text()
    assert page.input_value("#rules") == "default"
    item.click()
    state = text.split(": ", 1)[1].split(" ")[0]
    steps = len(state.split(":")[1])
    _at(page, steps)
    assert page.inner_text("#line-text").strip() == state
    assert page.input_value("#rules") == "universal"  # its campaign's rules, which left the move open
    assert "current" in (item.get_attribute("class") or "")
    page.keyboard.press("ArrowRight")  # the finding's move: missed-dead, so the state after it is dead
    _at(page, steps + 1, "dead")


def test_report_page_renders_offline(browser, store_db, tmp_path, shots):  # noqa: F811
    out = make_report(store_db, tmp_path / "report.html", stats_runs=20, sizes="9,11,13,15,17,19,21")
    context = browser.new_context(viewport={"width": 1280, "height": 1900}, offline=True)
    pg = context.new_page()
    pg.goto(out.as_uri())
    assert pg.locator("section").count() == 9
    assert pg.inner_text("#explained h2").startswith("Why the missed-dead states are dead")  # grouped by argument
    assert pg.locator("figure svg").count() == 3
    assert pg.locator(".gallery .card").count() >= 1
    pg.screenshot(path=str(shots / "report.png"))
    assert (shots / "report.png").stat().st_size > 10_000
    context.close()
