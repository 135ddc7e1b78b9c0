"""The explorer page driven in a real headless Chromium (Debian's chromium + chromium-driver).

Expected values come from the published certificate itself (its claim and its label table),
never from the page's own code. Without a browser these tests are skipped with the reason;
`.ci/install-browser` installs one where it can. Set CERTIFY_UPDATE_SCREENSHOT=1 to refresh
docs/explorer.png from the same run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from certify.record.certificate import label_table, read_certificate
from certify.explorer import build_page
from certify.record.positions import CertifiedGame

ROOT = Path(__file__).resolve().parents[1]
W3T = ROOT / "certificates" / "w3t.json"
CHROMIUM = os.environ.get("CERTIFY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = os.environ.get("CERTIFY_CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
HEADLESS = (
    "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking "
    "--disable-component-update --disable-sync"
).split()


def _browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for name, path in (("chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER)):
        if not Path(path).is_file():
            return f"{name} not found at {path} (apt-get install chromium chromium-driver, or run .ci/install-browser)"
    return None


pytestmark = pytest.mark.skipif(_browser_missing() is not None, reason=f"no browser: {_browser_missing()}")


@pytest.fixture(scope="module")
def driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in HEADLESS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="certify-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--window-size=1200,1000")
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def w3t_page(tmp_path_factory) -> Path:
    html, _ = build_page(CertifiedGame(read_certificate(W3T)), "VALID (test)", "certificates/w3t.json")
    path = tmp_path_factory.mktemp("explore") / "w3t.html"
    path.write_text(html, encoding="utf-8")
    return path


def load(driver, page: Path, fragment: str = "") -> None:
    """Open the page from disk and wait until it has decoded its data."""
    driver.get(page.as_uri() + fragment)
    if fragment:
        driver.refresh()  # a new fragment alone does not reload a file: URL
    for _ in range(100):
        state = driver.find_element("tag name", "body").get_attribute("data-ready")
        if state:
            assert state == "true", driver.find_element("id", "status").text
            return
        time.sleep(0.05)
    raise AssertionError("the page never became ready")


def wait_for(driver, css: str, within=None):
    """The elements matching `css` once there are some (the tree builds a branch after its toggle event)."""
    from selenium.webdriver.support.ui import WebDriverWait

    scope = within or driver
    return WebDriverWait(driver, 10).until(lambda _: scope.find_elements("css selector", css))


def shown_moves(driver) -> dict[str, tuple[str, str]]:
    """The moves table: move → (value word, plies)."""
    rows = driver.find_elements("css selector", "#moves tbody tr.move")
    return {r.get_attribute("data-move"): (r.get_attribute("data-value"), r.get_attribute("data-plies")) for r in rows}


def certified_moves(code: int) -> dict[str, tuple[str, str]]:
    """Every legal move of `code` per the certificate's own label table (value for the mover)."""
    certificate = read_certificate(W3T)
    table = label_table(certificate)
    board = [(code // 3**i) % 3 for i in range(9)]
    if table.distances[table.lookup(code)] == 0:
        return {}
    words = {1: "loss", 0: "draw", -1: "win"}  # the child's value is for the other side
    result = {}
    for cell in (c for c in range(9) if board[c] == 0):
        for mark in (1, 2):  # w3t: either mark
            row = table.lookup(code + mark * 3**cell)
            result[f"{'XO'[mark - 1]}{cell}"] = (words[int(table.values[row])], str(int(table.distances[row]) + 1))
    return result


def test_first_moves_match_the_certificate_claim(driver, w3t_page):
    load(driver, w3t_page)
    claim = read_certificate(W3T).claim
    shown = shown_moves(driver)
    assert {m: v for m, (v, _) in shown.items()} == {
        f"{'XO'[m.mark - 1]}{m.cell}": m.value for m in claim.first_moves
    }
    assert shown == certified_moves(0)
    best = {r.get_attribute("data-move") for r in driver.find_elements("css selector", "#moves tr.move") if "★" in r.text}
    assert best == {m for m, (v, _) in shown.items() if v == claim.root_value}


def test_play_winning_and_drawing_first_moves(driver, w3t_page):
    load(driver, w3t_page)
    claim = read_certificate(W3T).claim
    winning = [m for m in claim.first_moves if m.value == "win"]
    drawing = [m for m in claim.first_moves if m.value == "draw"]
    assert len(winning) == 2 and drawing  # seed 000's claim is about these two sets
    for move in winning + drawing[:1]:
        name = f"{'XO'[move.mark - 1]}{move.cell}"
        driver.find_element("css selector", f'#board button[data-move="{name}"]').click()
        status = driver.find_element("id", "status").text
        # the value after the move is for the other side: a winning move leaves player 2 losing
        assert status.startswith("Player 2 to move")
        assert ("loses" if move.value == "win" else "a draw") in status
        assert shown_moves(driver) == certified_moves(move.mark * 3**move.cell)
        history = driver.find_elements("css selector", "#movelist button")
        assert [b.text for b in history] == [f"1. {name}"]
        driver.find_element("id", "back").click()
        assert driver.find_element("id", "status").text.startswith("Player 1 to move")


def test_strategy_move_is_highlighted(driver, w3t_page):
    load(driver, w3t_page)
    first = CertifiedGame(read_certificate(W3T)).strategies[1][0]  # player 1's move on the empty board
    highlighted = driver.find_elements("css selector", "#moves tr.move.strategy")
    assert [r.get_attribute("data-move") for r in highlighted] == [str(first)]


def test_walk_the_strategy_tree_to_a_leaf(driver, w3t_page, tmp_path):
    load(driver, w3t_page)
    tree = driver.find_element("id", "tree")
    wait_for(driver, "details[open] > ul", tree)
    for _ in range(40):
        if tree.find_elements("css selector", "[data-leaf]"):
            break
        closed = tree.find_elements("css selector", "details:not([open])")[0]
        closed.find_element("css selector", "summary").click()
        wait_for(driver, ":scope > ul", closed)
    leaves = tree.find_elements("css selector", "[data-leaf]")
    assert leaves, "no leaf reached"
    guarantees = read_certificate(W3T).strategies[0].guarantees
    assert guarantees == "win" and "game over: player 1 wins" in leaves[0].text
    leaves[0].find_element("css selector", "button.go").click()
    assert driver.find_element("id", "status").text == "Game over: player 1 wins."
    assert driver.find_elements("css selector", "#board .cell.line"), "the completed line is not marked"
    # the picture: one move before the end, the strategy's winning move marked, the tree open
    driver.find_element("id", "back").click()
    shot = tmp_path / "explorer.png"
    driver.set_window_size(1200, 1500)
    driver.execute_script("window.scrollTo(0, 0)")
    try:
        assert driver.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    finally:
        driver.set_window_size(1200, 1000)
    if os.environ.get("CERTIFY_UPDATE_SCREENSHOT"):
        shutil.copyfile(shot, ROOT / "docs" / "explorer.png")


def test_strategy_tree_from_the_board_position(driver, w3t_page):
    load(driver, w3t_page, "#X4,O0")
    driver.find_element("id", "tree-here").click()
    tree = driver.find_element("id", "tree")
    root = tree.find_element("css selector", "summary")
    assert root.text.startswith("after X4, O0")
    strategy = CertifiedGame(read_certificate(W3T)).strategies[1]
    played = " ".join(wait_for(driver, "details[open] > ul > li", tree)[0].text.split())
    assert played.startswith(f"player 1 plays {strategy[1 * 3**4 + 2 * 3**0]}")


def test_keyboard_steps_through_the_game(driver, w3t_page):
    load(driver, w3t_page, "#X4,O0,X8")
    body = driver.find_element("tag name", "body")
    current = lambda: driver.find_element("css selector", '#movelist button[aria-current="step"]').text  # noqa: E731
    assert current() == "3. X8"
    body.send_keys("\ue012")  # ArrowLeft
    assert current() == "2. O0"
    body.send_keys("\ue011")  # Home
    assert not driver.find_elements("css selector", '#movelist button[aria-current="step"]')
    body.send_keys("\ue010")  # End
    assert current() == "3. X8"
    body.send_keys("\ue012", "\ue015", "\ue007")  # back, ArrowDown selects the first move, Enter plays it
    first = shown_moves(driver)
    assert current().startswith("3. ") and current() != "3. X8" and first


def test_dark_mode_and_phone_width(driver, w3t_page):
    load(driver, w3t_page)
    light = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    dark = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert light != dark
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 375, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    try:
        load(driver, w3t_page)
        overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than a phone"
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_horizon_page_says_where_its_data_ends(driver, tmp_path):
    html, facts = build_page(CertifiedGame(read_certificate(W3T)), None, "w3t.json", plies=1)
    page = tmp_path / "near.html"
    page.write_text(html, encoding="utf-8")
    load(driver, page, "#X0,O1,X2")
    assert facts.horizon == 1
    assert "Beyond the embedded horizon" in driver.find_element("id", "status").text
    assert "not run" in driver.find_element("id", "identity").text


def test_proof_page_walks_an_ultimate_tic_tac_toe_proof(driver, tmp_path):
    from certify.explorer.proof import build_proof_page
    from certify.proving.single import prove
    from solver.games.families import resolve_game
    from solver.search.pns import Claim

    root = ".O.X..X.O/XOOX...XO/X.X.O...O/XO.O.X.X./OOXO.X.X./OXXX.O.X./..XO.OOO./OXOXO.O.X/O.X.X..OX 1"
    family = resolve_game("uttt")
    certificate = prove(family, Claim(2, "win"), root, max_nodes=500_000).certificate
    assert certificate is not None, "the proof search did not prove the position (see test_explore_proof)"
    html, _ = build_proof_page(certificate, family, None, "uttt.json")
    page = tmp_path / "uttt.html"
    page.write_text(html, encoding="utf-8")
    load(driver, page)
    assert len(driver.find_elements("css selector", "#board .cell")) == 81
    sent = root.split()[1]
    assert len(driver.find_elements("css selector", "#board .cell.sent")) == 9 and f"board {sent}" in driver.find_element("id", "status").text
    tree = driver.find_element("id", "tree")
    wait_for(driver, "details[open] > ul", tree)
    for _ in range(60):
        if tree.find_elements("css selector", "[data-leaf]"):
            break
        closed = tree.find_elements("css selector", "details:not([open])")[0]
        closed.find_element("css selector", "summary").click()
        wait_for(driver, ":scope > ul", closed)
    leaf = tree.find_elements("css selector", "[data-leaf]")[0]
    assert "game over: player 2 wins" in leaf.text
    leaf.find_element("css selector", "button.go").click()
    assert driver.find_element("id", "status").text == "Game over: player 2 wins."


def test_proof_page_shades_won_boards_with_equal_columns_and_no_star(driver, tmp_path):
    """Issue 25: a uttt proof page's structure, read from the DOM (not pixels): finished local boards
    shaded as `certify/render/uttt.py` says, nine columns of one width, the legend without ★."""
    from certify.explorer.proof import build_proof_page
    from certify.proving.single import prove
    from certify.render.uttt import board_status
    from solver.games.families import resolve_game
    from solver.search.pns import Claim

    root = ".OXXXXXOO/.XXOOX.X./.OOXOO.XO/OX.OOOOOO/OX..XX.../..XO.O.OO/.XX.X.XOO/O.XXO.XXX/...O.XOXX 2"
    family = resolve_game("uttt")
    certificate = prove(family, Claim(2, "no-loss"), root, max_nodes=100_000).certificate
    assert certificate is not None
    html, _ = build_proof_page(certificate, family, None, "w8.json")
    page = tmp_path / "w8.html"
    page.write_text(html, encoding="utf-8")
    load(driver, page)
    statuses = [board_status(family.parse_position(root), b) for b in range(9)]
    for status in (1, 2, 3):
        shaded = driver.find_elements("css selector", f"#board .cell.won{status}")
        assert len(shaded) == 9 * statuses.count(status), status
    cells = driver.find_elements("css selector", "#board .cell")
    widths = {round(cell.rect["width"]) for cell in cells}
    assert len(cells) == 81 and max(widths) - min(widths) <= 1, widths
    assert not driver.find_element("id", "legend-best").is_displayed()
    assert driver.find_element("id", "legend-boards").is_displayed()
    assert "★" not in driver.find_element("css selector", ".legend").text
    driver.get_screenshot_as_file(str(tmp_path / "w8.png"))  # kept beside the test's files for a look, never compared by pixels
