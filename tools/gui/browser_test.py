#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""damka-gui in a real browser: headless Chromium, driven over WebDriver by chromedriver (the
W3C protocol spoken with the standard library alone), plays a short game against the engine by
clicking squares (a multi-capture among the moves), checks the move list and the result,
plays a newcomer's first game with no setting, imports a PDN of three games (headers, a 2-0
result and comments kept and exported), analyses a whole game into the graph, checks that the
panel and the graph score from White's side, previews a PV by a click, checks a phone's and a
large screen's layout, and saves screenshots of each. With --latency N it also plays N moves against the engine at
movetime 100 ms and reports the time from a move clicked to the engine's reply on the page,
and the server's memory and CPU at rest.

Usage: browser_test.py GUI_BINARY ENGINE_BINARY OUT_DIR [--latency N]
"""
import base64
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"

PDN = """[Event "first"]
[White "Alpha"]
[Black "Beta"]
[Result "2-0"]
[GameType "25"]

{a quiet opening} 1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. d4-e5 d6xf4 {the decisive exchange}
4. g3xe5 2-0

[Event "second"]
[White "Gamma"]
[Black "Delta"]
[Result "1/2-1/2"]
[GameType "25"]

1. c3-d4 b6-a5 2. d4-c5 d6xb4 3. a3xc5 1/2-1/2

[Event "third"]
[White "Eps"]
[Black "Zeta"]
[Result "0-1"]
[FEN "B:Wc3:Bd6,d4"]

1... d4xb2 0-1
"""


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Driver:
    """The W3C WebDriver calls this test needs."""

    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000"]}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read().decode())["value"]
        except urllib.error.HTTPError as e:
            raise AssertionError("WebDriver %s %s: %s" % (method, path, e.read().decode()[:500]))

    def s(self, path):
        return "/session/%s%s" % (self.sid, path)

    def go(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def js(self, script, *args):
        return self.call("POST", self.s("/execute/sync"), {"script": script, "args": list(args)})

    def find(self, css):
        return self.call("POST", self.s("/element"), {"using": "css selector", "value": css})[ELEMENT]

    def on_element(self, css, method, action, body=None):
        # The page draws the board and the analysis anew on every report of the engine: an
        # element found a moment ago may be gone; find it again.
        for attempt in range(20):
            try:
                return self.call(method, self.s("/element/%s%s" % (self.find(css), action)), body)
            except AssertionError as e:
                if "stale element" not in str(e) or attempt == 19:
                    raise
                time.sleep(0.02)

    def click(self, css):
        self.on_element(css, "POST", "/click", {})

    def text(self, css):
        return self.on_element(css, "GET", "/text")

    def screenshot(self, path, css=None):
        data = self.on_element(css, "GET", "/screenshot") if css else \
            self.call("GET", self.s("/screenshot"))
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def quit(self):
        try:
            self.call("DELETE", self.s(""))
        except Exception:
            pass


def wait(what, cond, timeout=20.0):
    end = time.time() + timeout
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def state(d):
    return d.js("return window.damka.state")


def click_square(d, sq):
    d.click('rect[data-square="%s"]' % sq)


def set_input(d, css, value):
    d.js("const e = document.querySelector(arguments[0]); e.value = arguments[1];", css, value)


def first_game(d, out):
    """A newcomer's first game: no setting, no extra click; the engine answers White's move."""
    s = state(d)
    assert s["play"]["engine"] == "black" and not s["play"]["clocked"], s["play"]
    assert d.js("return document.querySelector('#play-side').value") == "black"
    wait("the engine up", lambda: state(d)["engine"]["status"] in ("idle", "thinking"))
    click_square(d, "c3")
    click_square(d, "d4")
    wait("the engine's first reply", lambda: len(state(d)["moves"]) >= 2)
    d.screenshot(os.path.join(out, "first-game.png"))
    print("browser: first game: c3-d4 answered by %s with no setting" % state(d)["moves"][1])


def play_short_game(d, out):
    """White (the player) against the engine, from a position where the engine must capture
    and the player then takes both black men with one capture of two pieces."""
    set_input(d, "#fen", "W:Wb4,c3,b2:Bb6,f6")
    d.click("#set-fen")
    wait("the FEN's position", lambda: state(d)["pieces"].get("b6") == "b"
         and len(state(d)["moves"]) == 0)
    d.js("document.querySelector('#play-side').value = 'black';"
         "document.querySelector('#tc-move').checked = true;"
         "document.querySelector('#tc-movetime').value = '0.1';"
         "document.querySelector('#play-level').value = '0';"
         "window.damka.formDirty = true;")
    names = d.js("return [...document.querySelectorAll('#play-level option')]"
                 ".map(o => o.textContent)")
    assert names[0] == "Beginner" and names[-1] == "Full strength", names
    d.click("#play")
    wait("play to start", lambda: state(d)["play"]["engine"] == "black")
    assert state(d)["play"]["level"] == 0, state(d)["play"]
    click_square(d, "b4")
    click_square(d, "c5")
    wait("the engine's forced capture", lambda: len(state(d)["moves"]) == 2)
    assert state(d)["moves"] == ["b4-c5", "b6:d4"], state(d)["moves"]
    # The capture of two pieces, entered square by square: the legal steps are shown, and the
    # piece that must take is ringed.
    assert d.js("return document.querySelectorAll('#board .must-capture').length") >= 1
    click_square(d, "c3")
    targets = d.js("return document.querySelectorAll('#board circle.target').length")
    assert targets >= 1, "no legal destination shown after selecting c3"
    click_square(d, "e5")
    click_square(d, "g7")
    wait("the capture", lambda: len(state(d)["moves"]) == 3)
    s = state(d)
    assert s["moves"] == ["b4-c5", "b6:d4", "c3:e5:g7"], s["moves"]
    assert s["result"] == "1-0", s["result"]
    shown = [m.strip() for m in d.js(
        "return [...document.querySelectorAll('#moves .mv')].map(e => e.textContent)")]
    assert shown == ["b4-c5", "b6:d4", "c3:e5:g7"], shown
    result = d.text("#result")
    assert result.startswith("1-0") and "no legal move" in result, result
    d.screenshot(os.path.join(out, "game-won.png"), "#board-col")
    print("browser: short game won by a capture of two pieces; result: %s" % result)


def fetch_text(d, path):
    return d.js("const x = new XMLHttpRequest(); x.open('GET', arguments[0], false); x.send();"
                "return x.responseText;", path)


def import_pdn(d, out):
    set_input(d, "#pdn-text", PDN)
    d.click("#pdn-import")
    wait("three games in the library", lambda: len(state(d)["library"]) == 3)
    d.click("#library li:nth-child(2)")
    wait("the second game", lambda: state(d)["moves"][:2] == ["c3-d4", "b6-a5"]
         and state(d)["ply"] == 0)
    for ply in range(1, 6):
        d.click("#forward")
        wait("ply %d" % ply, lambda: state(d)["ply"] == ply)
    s = state(d)
    # After 3. a3xc5 the white man stands on c5 and b4, d6 are empty.
    assert s["pieces"].get("c5") == "w" and "b4" not in s["pieces"], s["pieces"]
    assert d.js("return document.querySelector('#board circle[data-piece]') !== null")
    d.click("#back")
    wait("back one ply", lambda: state(d)["ply"] == 4)
    # Mid-way the page says whose move it is, not the game's result.
    assert d.text("#result") == "White to move", d.text("#result")
    d.click('#moves .mv[data-ply="2"]')
    wait("a move clicked in the list", lambda: state(d)["ply"] == 2)
    # Another move here keeps the game's moves as a side line; clicking it brings them back.
    game = state(d)["moves"]
    other = next(m["text"] for m in state(d)["legal"]
                 if m["text"] != game[2] and "-" in m["text"])
    click_square(d, other[:2])
    click_square(d, other[3:5])
    wait("the side line", lambda: len(state(d)["side_lines"]) == 1)
    assert state(d)["moves"] == game[:2] + [other], state(d)["moves"]
    d.click("#moves .side-line")
    wait("the side line back as the game's", lambda: state(d)["moves"] == game)
    assert state(d)["side_lines"][0]["moves"] == [other], state(d)["side_lines"]
    # The first game: its headers, its 2-0 result and its comments are kept and shown.
    d.click("#library li:nth-child(1)")
    wait("the first game", lambda: state(d)["record"]["white"] == "Alpha")
    notes = d.js("return [...document.querySelectorAll('#moves .note')].map(e => e.textContent)")
    assert "a quiet opening" in notes and "the decisive exchange" in notes, notes
    d.click("#last")
    wait("the end of the first game", lambda: state(d)["ply"] == len(state(d)["moves"]))
    assert d.text("#result").startswith("1-0"), d.text("#result")
    pdn = " ".join(fetch_text(d, "/api/pdn").split())
    for want in ('[White "Alpha"]', '[Black "Beta"]', '[Event "first"]', '[Result "1-0"]',
                 "{a quiet opening}", "{the decisive exchange}", "d6:f4"):
        assert want in pdn, (want, pdn)
    d.screenshot(os.path.join(out, "imported-game.png"))
    print("browser: PDN of 3 games imported; stepped through the second; the first's headers, "
          "2-0 result and comments kept and exported; a side line kept and brought back")


def whole_game(d, out):
    """Whole-game analysis of the imported game fills the graph, one score per position."""
    d.js("document.querySelector('#ga-time').value = '0.2';")
    d.click("#analyse-game")
    wait("the game analysis to start", lambda: state(d)["game_analysis"]["running"])
    t0 = time.time()
    wait("the game analysis to end", lambda: not state(d)["game_analysis"]["running"], 60)
    s = state(d)
    assert all(v is not None for v in s["scores"]), s["scores"]
    assert d.js("return document.querySelector('#graph polyline') !== null")
    d.screenshot(os.path.join(out, "game-analysis.png"), "#board-col")
    print("browser: whole-game analysis of %d positions in %.1f s; marks: %s"
          % (len(s["scores"]), time.time() - t0, [(m["ply"], m["kind"]) for m in s["marks"]]))


def book_panel(d):
    """The book panel lists the state's book moves of the start position; a click plays one."""
    d.click("#new-game")
    wait("a new game", lambda: len(state(d)["moves"]) == 0)
    book = state(d)["book"]
    rows = d.js("return [...document.querySelectorAll('#book .book-move .mv')]"
                ".map(e => e.textContent)")
    assert rows == [m["move"] for m in book], (rows, book)
    if not book:
        assert "No book move" in d.text("#book"), d.text("#book")
        print("browser: no opening book found; the panel says so")
        return
    d.click("#book .book-move")
    wait("the book move played", lambda: state(d)["moves"] == [book[0]["move"]])
    print("browser: book panel lists %d moves of the start position; clicked %s"
          % (len(book), book[0]["move"]))


def analyse(d, out):
    """Scores read from White's side: Black a man up shows negative on the panel and on the
    graph; a click on a PV move shows that line's position on the board."""
    set_input(d, "#fen", "W:Wc3,e3:Bb6,d6,f6")
    d.click("#set-fen")
    wait("the FEN's position", lambda: state(d)["pieces"].get("f6") == "b")
    d.click("#analyse")
    line = wait("a PV and a score", lambda: d.js(
        "const l = document.querySelector('#analysis .line');"
        "return l && l.querySelectorAll('.pvmv').length >= 2 &&"
        " window.damka.lines.length && window.damka.lines[0].depth >= 6 ? l.textContent : null"))
    score = d.js("return document.querySelector('#analysis .score').textContent")
    assert score.startswith("\u2212") or score.startswith("Black"), score
    assert d.js("return document.querySelector('#best-arrow') !== null"), "no best-move arrow"
    before = state(d)["pieces"]
    d.click("#analysis .pvmv")
    wait("the line's position", lambda: d.js("return window.damka.preview !== null"))
    shown = d.js("return window.damka.preview.pieces")
    assert shown != before, "the previewed position is the game's"
    assert d.js("return !document.querySelector('#preview-bar').hidden")
    d.screenshot(os.path.join(out, "board.png"))
    d.click("#preview-exit")
    d.click("#analyse")
    wait("analysis to stop", lambda: not state(d)["analysing"])
    s = state(d)
    graph = s["scores"][s["ply"]]
    assert graph is not None and graph < 0, (graph, score)
    print("browser: analysis line: %s; the panel's %s and the graph's %+d agree (White's side); "
          "a PV click previewed its position" % (" ".join(line.split()), score, graph))


def viewports(d, out):
    """No sideways scroll and the whole board in view on a phone and on a large screen."""
    for w, h in ((390, 844), (1920, 1080)):
        d.call("POST", d.s("/window/rect"), {"width": w, "height": h})
        d.js("window.scrollTo(0, 0);")
        time.sleep(0.5)
        inner = d.js("return [window.innerWidth, window.innerHeight]")
        scroll = d.js("return document.documentElement.scrollWidth")
        r = d.js("const r = document.querySelector('#board').getBoundingClientRect();"
                 "return [r.left, r.top, r.right, r.bottom];")
        assert scroll <= inner[0], "%dx%d: the page scrolls sideways (%d > %d)" % (w, h, scroll, inner[0])
        assert r[0] >= 0 and r[1] >= 0 and r[2] <= inner[0] + 0.5 and r[3] <= inner[1] + 0.5, \
            "%dx%d: the board %s is not all in view %s" % (w, h, r, inner)
        d.screenshot(os.path.join(out, "page-%dx%d.png" % (w, h)))
        print("browser: %dx%d: no sideways scroll, board %.0f px wide, all in view"
              % (w, h, r[2] - r[0]))
    d.call("POST", d.s("/window/rect"), {"width": 1280, "height": 1000})


def measure_latency(d, gui_pid, moves):
    d.click("#new-game")
    wait("a new game", lambda: len(state(d)["moves"]) == 0)
    d.js("document.querySelector('#play-side').value = 'black';"
         "document.querySelector('#tc-move').checked = true;"
         "document.querySelector('#tc-movetime').value = '0.1';"
         "window.damka.latency = [];")
    d.click("#play")
    played = 0
    while played < moves:
        s = state(d)
        if s["result"] != "*" or not s["legal"]:
            d.click("#new-game")
            wait("a new game", lambda: len(state(d)["moves"]) == 0)
            d.click("#play")
            continue
        if s["turn"] != "white" or s["engine"]["status"] == "thinking":
            time.sleep(0.01)
            continue
        n = len(s["moves"])
        move = s["legal"][played % len(s["legal"])]
        for sq in move["path"]:
            click_square(d, sq)
        wait("the engine's reply", lambda: len(state(d)["moves"]) >= n + 2
             or state(d)["result"] != "*")
        played += 1
    lat = d.js("return window.damka.latency")
    lat = sorted(lat)
    print("latency: move clicked -> engine's reply on the page, movetime 100 ms, %d moves: "
          "median %.1f ms, max %.1f ms" % (len(lat), statistics.median(lat), lat[-1]))
    # At rest: no search, the page connected.
    d.click("#stop-play")
    time.sleep(1.0)

    def cpu_ticks():
        with open("/proc/%d/stat" % gui_pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    t0, c0 = time.time(), cpu_ticks()
    time.sleep(10.0)
    t1, c1 = time.time(), cpu_ticks()
    hz = os.sysconf("SC_CLK_TCK")
    with open("/proc/%d/status" % gui_pid) as f:
        rss = [l.split()[1] for l in f if l.startswith("VmRSS")][0]
    print("at rest: damka-gui resident memory %s kB, CPU %.2f%% of one core over %.0f s" %
          (rss, 100.0 * (c1 - c0) / hz / (t1 - t0), t1 - t0))


def page_weight(d, port):
    """The bytes the page loads (its three files, uncompressed) and when it first painted."""
    total = 0
    for path in ("/", "/app.js", "/style.css"):
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=5) as r:
            total += len(r.read())
    paint = d.js("const p = performance.getEntriesByType('paint')"
                 ".find(e => e.name === 'first-contentful-paint'); return p ? p.startTime : -1")
    print("browser: page weight %d bytes (HTML, script, style); first contentful paint %.0f ms"
          % (total, paint))


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    gui_bin, engine_bin, out = sys.argv[1], sys.argv[2], sys.argv[3]
    latency = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "--latency" else 0
    os.makedirs(out, exist_ok=True)
    gui = subprocess.Popen([gui_bin, "--port", "0", "--engine", engine_bin],
                           stdout=subprocess.PIPE, text=True)
    line = gui.stdout.readline()
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    dport = free_port()
    driver_proc = subprocess.Popen([CHROMEDRIVER, "--port=%d" % dport],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    d = None
    try:
        def driver_up():
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/status" % dport, timeout=1)
                return True
            except Exception:
                return False
        wait("chromedriver", driver_up)
        d = Driver(dport)
        d.go("http://127.0.0.1:%d/" % port)
        wait("the page's first state", lambda: d.js("return window.damka && window.damka.state "
                                                     "!== null && window.damka.state.legal.length"))
        page_weight(d, port)
        first_game(d, out)
        # Open the closed sections as a person would, by clicking their titles.
        for i in range(d.js("return document.querySelectorAll('details.panel').length")):
            d.click("details.panel:nth-of-type(%d) > summary" % (i + 1))
        play_short_game(d, out)
        import_pdn(d, out)
        whole_game(d, out)
        book_panel(d)
        analyse(d, out)
        viewports(d, out)
        if latency:
            measure_latency(d, gui.pid, latency)
        print("browser test: passed (screenshots in %s)" % out)
        return 0
    finally:
        if d:
            d.quit()
        driver_proc.terminate()
        gui.terminate()
        gui.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
