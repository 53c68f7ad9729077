#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times the web page's "Analyse the whole game" on a game of a PDN file.

    python3 bench/gui_whole_game.py GAMES.pdn [PLIES] [MOVETIME]

Starts ./damka-gui on a free port with ./damka, imports the first game of GAMES.pdn that has at
least PLIES plies (default 120: a 60-move game), cut to PLIES, runs the whole-game analysis at
MOVETIME seconds a position (default: the page's, 1 s) and prints the wall time, the
positions searched and the time per position beyond MOVETIME (the server's overhead)."""
import json
import re
import subprocess
import sys
import time
import urllib.request

HEADERS = {"X-Requested-With": "damka", "Content-Type": "text/plain"}


def call(port, method, path, body=None):
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), method=method,
                                 data=body.encode() if body is not None else None,
                                 headers=HEADERS)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read().decode())


def pick_game(path, plies):
    """The first game with at least `plies` plies, its moves cut to that many, as PDN."""
    text = open(path).read()
    for game in re.split(r"\n\n(?=\[)", text.strip()):
        head, _, moves = game.partition("\n\n")
        # Comments and move numbers (alone or glued to a move: "12.c3-d4") are dropped.
        words = [re.sub(r"^\d+\.+", "", w) for w in re.sub(r"\{[^}]*\}", " ", moves).split()]
        words = [w for w in words if w and w not in ("1-0", "0-1", "1/2-1/2", "*")]
        if len(words) >= plies:
            fen = re.search(r'\[FEN "([^"]+)"\]', head)
            body = '[GameType "25"]\n' + ('[FEN "%s"]\n' % fen.group(1) if fen else "") + "\n"
            return body + " ".join(words[:plies]) + " *\n"
    raise SystemExit("no game of %d plies in %s" % (plies, path))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 120
    movetime = sys.argv[3] if len(sys.argv) > 3 else "1"
    gui = subprocess.Popen(["./damka-gui", "--port", "0", "--engine", "./damka"],
                           stdout=subprocess.PIPE, text=True)
    try:
        port = int(gui.stdout.readline().split("http://127.0.0.1:")[1].split("/")[0])
        call(port, "POST", "/api/play?side=none")
        s = call(port, "POST", "/api/pdn", pick_game(sys.argv[1], plies))
        s = call(port, "POST", "/api/load?index=0")
        assert len(s["moves"]) == plies, len(s["moves"])
        while call(port, "GET", "/api/state")["engine"]["status"] not in ("idle", "thinking"):
            time.sleep(0.1)
        t0 = time.time()
        call(port, "POST", "/api/analyse-game?on=true&movetime=%s" % movetime)
        while call(port, "GET", "/api/state")["game_analysis"]["running"]:
            time.sleep(0.05)
        took = time.time() - t0
        s = call(port, "GET", "/api/state")
        scored = sum(1 for v in s["scores"] if v is not None)
        marks = [(m["ply"], m["kind"]) for m in s.get("marks", [])]
        positions = plies + 1
        print("whole-game analysis: %d plies (%d positions) at %s s: %.1f s, %.3f s a position "
              "beyond the search time; %d positions scored; %d marks" %
              (plies, positions, movetime, took, took / positions - float(movetime), scored,
               len(marks)))
        return 0
    finally:
        gui.terminate()
        gui.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
