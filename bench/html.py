"""bench/html.py: what xqkit's HTML pages cost a browser (run by bench/html.sh).

    python3 bench/html.py XQKIT CHROMIUM SCRATCH RUNS COLLECTION

1. A collection page: the games of COLLECTION (an NDJSON file, one game a
   line) repeated up to 10,000 games, written with `xqkit convert -t
   html`: its size, the time xqkit takes to write it, and the time
   headless Chromium takes to open it, with JavaScript and without, against
   a peer: the same games' PGN text opened as a plain text file.
2. A 1,000-ply game with a variation every 25 plies, 6 levels deep
   (tests/browser/games.py): the time from a key press to the next ply
   shown, over 200 presses of the right arrow, and the part of it that is
   the page's own script.

Times to open are the processor time (user + system) of all of
Chromium's processes from the navigation to the load event, so that other
work on a shared machine weighs less, and the wall time beside it; each
the median of RUNS runs, alternating page and peer.  The key figures are
measured inside the page: from the key event's time stamp to the first
task after the frame that shows the new ply (a requestAnimationFrame
callback, then a task), which is when a person sees it.
"""
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "browser"))
from cdp import Browser  # noqa: E402
from games import long_game  # noqa: E402

XQKIT, CHROMIUM, T, RUNS, COLLECTION = sys.argv[1:6]
RUNS = int(RUNS)
TICK = os.sysconf("SC_CLK_TCK")


def tree(pid):
    """pid and all its descendants."""
    kids = {}
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open("/proc/%s/stat" % p) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(p))
            except OSError:
                pass
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def cpu(pid):
    """Processor seconds used so far by pid and its descendants (alive ones)."""
    total = 0
    for p in tree(pid):
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / TICK


def open_cost(b, page, url):
    c0, t0 = cpu(b.proc.pid), time.monotonic()
    page.goto(url)
    return cpu(b.proc.pid) - c0, time.monotonic() - t0


def main():
    games = [line for line in open(COLLECTION, encoding="utf-8") if line.strip()]
    ndjson = os.path.join(T, "10000.ndjson")
    with open(ndjson, "w", encoding="utf-8") as f:
        for i in range(10000):
            f.write(games[i % len(games)])
    # The PGN named .txt: Chromium shows a .pgn file as a download, not a page.
    html, pgn = os.path.join(T, "10000.html"), os.path.join(T, "10000.pgn.txt")
    t0 = time.monotonic()
    subprocess.run([XQKIT, "convert", "-q", "-t", "html", "-o", html, ndjson],
                   check=True, stderr=subprocess.DEVNULL)
    write_s = time.monotonic() - t0
    subprocess.run([XQKIT, "convert", "-q", "-t", "pgn", "-o", pgn, ndjson],
                   check=True, stderr=subprocess.DEVNULL)
    size, pgn_size = os.path.getsize(html), os.path.getsize(pgn)
    print("collection: 10,000 games (%d distinct) from %s" % (len(games), COLLECTION))
    print("  page: %.1f MB (%.1f KB a game), %.2f x its PGN (%.1f MB); written in %.2f s"
          % (size / 1e6, size / 1e4 / 1e3, size / pgn_size, pgn_size / 1e6, write_s))
    results = {"page, script on": [], "page, script off": [], "peer: its PGN as text": []}
    with Browser(CHROMIUM, T, timeout=600) as b:
        on, off, text = b.page(), b.page(javascript=False), b.page()
        for _ in range(RUNS):
            results["page, script on"].append(open_cost(b, on, "file://" + html))
            shown = on.eval("document.querySelectorAll('section.game').length")
            assert shown == 10000, shown
            results["peer: its PGN as text"].append(open_cost(b, text, "file://" + pgn))
            results["page, script off"].append(open_cost(b, off, "file://" + html))
            for p in (on, off, text):
                p.goto("about:blank")
        for name, r in results.items():
            print("  open, %-22s %6.2f s processor, %6.2f s wall (median of %d)"
                  % (name + ":", statistics.median(c for c, _ in r), statistics.median(w for _, w in r), RUNS))

        path = os.path.join(T, "long.pgn")
        with open(path, "w") as f:
            f.write(long_game())
        long_html = os.path.join(T, "long.html")
        subprocess.run([XQKIT, "convert", "-q", "-t", "html", "-o", long_html, path],
                       check=True, stderr=subprocess.DEVNULL)
        p = b.page()
        p.goto("file://" + long_html)
        p.eval("""(() => {
            window.xqLatency = [];
            window.xqHandler = [];
            let start = 0;
            window.addEventListener('keydown', e => {
                const stamp = e.timeStamp;
                start = performance.now();
                requestAnimationFrame(() => setTimeout(() =>
                    window.xqLatency.push(performance.now() - stamp)));
            }, true);
            /* After the page's own listener (on document): its work alone. */
            window.addEventListener('keydown', () =>
                window.xqHandler.push(performance.now() - start), false);
        })()""")
        p.key("Home")
        for _ in range(200):
            p.key("ArrowRight")
            time.sleep(0.01)
        time.sleep(0.3)
        lat = p.eval("window.xqLatency")[1:]
        work = sorted(p.eval("window.xqHandler")[1:])
        where = p.eval("document.querySelector('#g1 .where').textContent")
        assert where.startswith("Ply 200:"), where
        lat.sort()
        print("1,000-ply game (%.0f KB page, 2,920 moves in 40 variation trees 6 deep):"
              % (os.path.getsize(long_html) / 1e3))
        print("  key press to the next ply on screen: median %.1f ms, 95th percentile %.1f ms, "
              "worst %.1f ms (%d presses)" % (statistics.median(lat), lat[int(len(lat) * 0.95)],
                                              lat[-1], len(lat)))
        print("  of which the page's script (position, board, FEN, move list): median %.1f ms, "
              "95th percentile %.1f ms" % (statistics.median(work), work[int(len(work) * 0.95)]))
    with open("/proc/loadavg") as f:
        print("machine load average during the run: %s" % " ".join(f.read().split()[:3]))


if __name__ == "__main__":
    main()
