"""test_html.py XQKIT CHROMIUM SCRATCH: xqkit's HTML pages in a real browser.

Each test writes pages with `xqkit convert -t html` into SCRATCH (the
caller's own temporary folder), opens them from file:// in headless
Chromium (tests/browser/cdp.py: no network, a fresh profile in SCRATCH)
and checks what a person would see and do: keys and clicks move through
the game, the board holds the pieces the FEN says (in the DOM and, by
pixels, in a screenshot), the FEN shown is xqkit's own for that position
(`xqkit replay`), the page without JavaScript is the final position and
the whole move text, and a hostile record runs no script.

Prints one line per test and "browser tests: N passed, N failed".
"""
import json
import os
import subprocess
import sys
import time
import traceback

sys.dont_write_bytecode = True  # nothing left in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from cdp import Browser  # noqa: E402
from games import long_game  # noqa: E402
from pixels import board_failures, placement  # noqa: E402

XQKIT, CHROMIUM, T = sys.argv[1], sys.argv[2], sys.argv[3]
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "tests", "data", "html")
SAMPLES = os.path.join(REPO, "samples")
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def xqkit(*args, stdin=None):
    r = subprocess.run([XQKIT] + list(args), input=stdin, capture_output=True)
    if r.returncode not in (0, 1):
        raise AssertionError("xqkit %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.decode()))
    return r.stdout.decode()


def page_url(name, *inputs, args=()):
    path = os.path.join(T, name + ".html")
    xqkit("convert", "-q", "-t", "html", "--force", "-o", path, *args, *inputs)
    return "file://" + path


def replay_fens(path, game=1):
    """xqkit's FEN after each ply of the main line (index 0: the start)."""
    out = xqkit("replay", "--output-format", "ndjson", "--game", str(game), path)
    plies = [json.loads(line) for line in out.splitlines()]
    return [r["fen"] for r in plies if r.get("schema") == "xqkit.ply/1"]


def line_fen(moves, start=None):
    """xqkit's FEN after the ICCS moves `moves` (a line of a variation)."""
    path = os.path.join(T, "line.pgn")
    with open(path, "w") as f:
        if start:
            f.write('[FEN "%s"]\n' % start)
        f.write("\n%s *\n" % moves)
    return replay_fens(path)[-1]


class Game:
    """A <section class="game"> of an open page."""

    def __init__(self, page, sid="g1"):
        self.p = page
        self.q = "document.getElementById(%s)" % json.dumps(sid)

    def node(self):
        return int(self.p.eval(self.q + ".getAttribute('data-node')"))

    def fen(self):
        return self.p.eval(self.q + ".querySelector('.fen input').value")

    def where(self):
        return self.p.eval(self.q + ".querySelector('.where').textContent")

    def board(self):
        """{square: FEN letter} of the pieces the board's SVG places."""
        flipped = self.p.eval(self.q + ".classList.contains('flipped')")
        uses = self.p.eval(
            "Array.from(%s.querySelectorAll('svg.board .pieces use')).map(u => "
            "[u.getAttribute('href'), +u.getAttribute('x'), +u.getAttribute('y')])" % self.q)
        cell = int(self.p.eval("document.querySelector('svg.xq-defs').getAttribute('data-cell')"))
        board = {}
        for href, x, y in uses:
            col, row = round(x / cell) - 1, round(y / cell) - 1
            f, r = (8 - col, row) if flipped else (col, 9 - row)
            board["abcdefghi"[f] + str(r)] = href[len("#xq-p"):]
        return board

    def shows(self, fen):
        """The game shows `fen`: as its FEN text and on its board."""
        assert self.fen() == fen, "FEN shown %s, expected %s" % (self.fen(), fen)
        assert self.board() == placement(fen), "the board does not hold what %s says" % fen

    def screenshot_failures(self, fen, flip=False):
        self.p.eval(self.q + ".querySelector('svg.board').scrollIntoView()")
        r = self.p.eval("(() => { const r = %s.querySelector('svg.board').getBoundingClientRect();"
                        " return [r.x + scrollX, r.y + scrollY, r.width, r.height]; })()" % self.q)
        png = self.p.screenshot({"x": r[0], "y": r[1], "width": r[2], "height": r[3]})
        return board_failures(png, fen, flip, cell=r[2] / 10)

    def click(self, selector, index=0):
        """Click the middle of the index-th element matching selector."""
        r = self.p.eval("(() => { const e = %s.querySelectorAll(%s)[%d]; e.scrollIntoView({block: 'center'});"
                        " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
                        % (self.q, json.dumps(selector), index))
        self.p.click(r[0], r[1])


def open_game(b, name, path, args=(), javascript=True):
    """A page of the games of `path` opened in a new tab: (page, its first
    game, xqkit's FENs of that game's main line)."""
    p = b.page(javascript=javascript)
    p.goto(page_url(name, path, args=args))
    return p, Game(p), replay_fens(path)


# ---- the tests ------------------------------------------------------------------


def keys_walk_the_main_line_and_the_board_follows_each_ply(b):
    p, g, fens = open_game(b, "single", os.path.join(SAMPLES, "liu-dahua-1956.ndjson"))
    # Opened at the final position, as the page is without script.
    assert g.node() == len(fens) - 1
    g.shows(fens[-1])
    p.key("Home")
    assert g.node() == 0 and g.where() == "Start position"
    g.shows(fens[0])
    for ply in range(1, 31):
        p.key("ArrowRight")
        g.shows(fens[ply])
        assert g.where().startswith("Ply %d: " % ply), g.where()
    for ply in range(29, 24, -1):
        p.key("ArrowLeft")
        g.shows(fens[ply])
    p.key("End")
    g.shows(fens[-1])
    p.key("ArrowRight")  # nothing after the end
    g.shows(fens[-1])
    p.close()


def screenshot_has_each_piece_where_the_fen_says_flipped_or_not(b):
    p, g, fens = open_game(b, "single", os.path.join(SAMPLES, "liu-dahua-1956.ndjson"))
    fails = g.screenshot_failures(fens[-1])
    assert not fails, "final position: %s" % fails[:3]
    p.key("Home")
    for _ in range(20):
        p.key("ArrowRight")
    fails = g.screenshot_failures(fens[20])
    assert not fails, "ply 20: %s" % fails[:3]
    p.key("f")
    assert p.eval("document.getElementById('g1').classList.contains('flipped')")
    g.shows(fens[20])  # flipping moves the pieces, not the position
    fails = g.screenshot_failures(fens[20], flip=True)
    assert not fails, "ply 20 flipped: %s" % fails[:3]
    p.key("ArrowRight")
    fails = g.screenshot_failures(fens[21], flip=True)
    assert not fails, "ply 21 flipped: %s" % fails[:3]
    p.close()


def down_and_up_go_into_and_out_of_variations(b):
    p, g, fens = open_game(b, "variations", os.path.join(DATA, "variations.pgn"))
    p.key("Home")
    p.key("ArrowRight")
    g.shows(line_fen("h2e2"))
    p.key("ArrowDown")  # the first alternative to the next move
    g.shows(line_fen("h2e2 h7e7"))
    assert g.where().endswith("(variation)"), g.where()
    p.key("ArrowRight")
    g.shows(line_fen("h2e2 h7e7 h0g2"))
    p.key("ArrowDown")  # a variation inside the variation
    g.shows(line_fen("h2e2 h7e7 b0c2"))
    p.key("ArrowRight")
    p.key("ArrowDown")  # and one inside that
    g.shows(line_fen("h2e2 h7e7 b0c2 b7b3"))
    p.key("ArrowUp")  # out, one level at a time
    g.shows(line_fen("h2e2 h7e7 b0c2 b9c7"))
    p.key("ArrowUp")
    g.shows(line_fen("h2e2 h7e7 h0g2"))
    p.key("ArrowUp")
    g.shows(line_fen("h2e2 h9g7"))
    assert not g.where().endswith("(variation)"), g.where()
    p.key("ArrowDown")
    p.key("ArrowDown")  # the second alternative to the same move
    g.shows(line_fen("h2e2 b9c7"))
    p.key("End")  # the end of this line
    g.shows(line_fen("h2e2 b9c7 h0g2"))
    p.key("ArrowUp")
    p.key("End")
    g.shows(fens[-1])
    p.close()


def clicks_on_moves_graph_and_summary_show_that_position(b):
    p, g, fens = open_game(b, "annotated", os.path.join(DATA, "annotated.pgn"))
    g.click(".moves a", 4)  # the fifth move of the text: 3. 兵三进一
    g.shows(fens[5])
    # A point of the graph: its x says the ply.
    plies = int(p.eval("document.querySelector('svg.graph').getAttribute('data-plies')"))
    assert plies == len(fens) - 1
    r = p.eval("(() => { const s = document.querySelector('svg.graph'); s.scrollIntoView({block: 'center'});"
               " const r = s.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")
    p.click(r[0] + r[2] * 10 / plies, r[1] + r[3] / 2)
    g.shows(fens[10])
    # Each marked move is in the summary, and its link shows it.
    marks = p.eval("document.querySelectorAll('svg.graph circle').length")
    links = p.eval("document.querySelectorAll('.coach a').length")
    assert marks == links > 0, (marks, links)
    href = p.eval("document.querySelectorAll('.coach a')[0].getAttribute('href')")
    g.click(".coach a", 0)
    k = int(href.split("-m")[1])
    assert g.node() == k, (g.node(), k)
    assert p.eval("document.querySelectorAll('.moves a')[%d].classList.contains('cur')" % (k - 1))
    p.close()


def page_without_javascript_is_the_final_position_and_all_the_moves(b):
    p, g, fens = open_game(b, "variations", os.path.join(DATA, "variations.pgn"), javascript=False)
    final = fens[-1]
    assert not p.eval("document.documentElement.classList.contains('js')")
    assert p.eval("document.querySelectorAll('.nav').length") == 0
    assert g.fen() == final
    assert g.board() == placement(final)
    assert not g.screenshot_failures(final)
    tokens = p.eval("document.getElementById('g1').getAttribute('data-moves')").split()
    text = p.eval("document.querySelector('.moves').textContent")
    assert p.eval("document.querySelectorAll('.moves a').length") == len(tokens) == 21
    for word in ("A game comment.", "Central cannon.", "Same-side cannons.", "1-0", "(2.", "!"):
        assert word in text, word
    assert p.eval("getComputedStyle(document.querySelector('.moves')).display") == "block"
    p.close()


def hostile_record_runs_no_script_and_shows_as_text(b):
    p = b.page()
    p.goto(page_url("hostile", os.path.join(DATA, "hostile.pgn")))
    # The page's own script ran, and nothing else did.
    assert p.eval("document.documentElement.classList.contains('js')")
    assert p.eval("typeof window.pwned") == "undefined"
    assert p.eval("document.scripts.length") == 1
    assert p.eval("document.querySelectorAll('img, style:not(head style), textarea, noscript').length") == 0
    assert p.eval("document.querySelectorAll('svg[onload], [onerror]').length") == 0
    # What the record says is shown as it is written.
    tags = p.eval("Array.from(document.querySelectorAll('.tags td')).map(t => t.textContent)")
    assert tags[0] == 'Hostile "><script>window.pwned=1</script>', tags[0]
    assert tags[1] == "<img src=x onerror=window.pwned=2>", tags[1]
    assert tags[2] == "Black --> <!-- ]]> <U+202E>reversed", tags[2]
    assert tags[3] == "</title><script>window.pwned=3</script>", tags[3]
    assert tags[4] == "'single' & \"double\" &amp;", tags[4]
    comments = p.eval("Array.from(document.querySelectorAll('.moves .c')).map(c => c.textContent)")
    assert comments == [
        "</script><script>window.pwned=4</script>",
        "<script>window.pwned=5</script> --> <!-- <style>*</style> &lt;b&gt;",
        '"><svg onload=window.pwned=6> <U+2066>isolate<U+202E>override <U+0001>bell',
        "</textarea></title></noscript><script>window.pwned=7</script>",
    ], comments
    assert p.eval("document.title") == "<img src=x onerror=window.pwned=2> \u2013 Black --> <!-- ]]> <U+202E>reversed"
    # And the page still works.
    p.key("Home")
    Game(p).shows(START)
    assert p.eval("typeof window.pwned") == "undefined"
    p.close()


def collection_index_links_every_game_and_keys_follow_the_chosen_one(b):
    three = os.path.join(DATA, "three-games.pgn")
    p = b.page()
    p.goto(page_url("collection", three, os.path.join(SAMPLES, "liu-dahua-iccs.pgn")))
    n = p.eval("document.querySelectorAll('section.game').length")
    assert n == 9, n
    hrefs = p.eval("Array.from(document.querySelectorAll('#index a')).map(a => a.getAttribute('href'))")
    assert hrefs == ["#g%d" % i for i in range(1, 10)], hrefs
    # The index comes first on the screen, though it ends the page.
    assert p.eval("document.querySelector('#index').getBoundingClientRect().top < "
                  "document.querySelector('#g1').getBoundingClientRect().top")
    assert p.eval("document.title") == "9 xiangqi games"
    first = Game(p, "g1").node()
    # Nothing chosen yet: keys go to the first game on the screen.
    p.eval("document.getElementById('g4').scrollIntoView()")
    p.key("Home")
    assert Game(p, "g4").node() == 0 and Game(p, "g1").node() == first
    # The second game, and a key pressed at once (in the same task, before
    # the address change is announced): the key goes to the chosen game.
    p.eval("document.querySelectorAll('#index a')[1].click();"
           " document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Home', bubbles: true}))")
    g2 = Game(p, "g2")
    fens = replay_fens(three, game=2)
    g2.shows(fens[0])
    p.key("ArrowRight")
    g2.shows(fens[1])
    assert Game(p, "g1").node() == first
    p.close()


def broken_game_shows_its_error_and_its_moves_up_to_it(b):
    p, g, fens = open_game(b, "broken", os.path.join(SAMPLES, "ccgc-2006-02-illegal.pgn"),
                           args=("--keep-broken",))
    err = p.eval("document.querySelector('.error').textContent")
    assert "This record has an error." in err, err
    assert "ply 17 (\u70ae\u516b\u8fdb\u4e5d)" in err and "off the board" in err, err
    assert p.eval("document.querySelectorAll('.moves a').length") == 16
    assert len(fens) == 17  # xqkit replay stops at the same move
    g.shows(fens[-1])
    p.key("Home")
    g.shows(fens[0])
    p.key("End")
    g.shows(fens[-1])
    assert g.node() == 16
    p.close()


def long_game_with_deep_variations_plays_to_its_end(b):
    path = os.path.join(T, "long.pgn")
    with open(path, "w") as f:
        f.write(long_game())
    p, g, fens = open_game(b, "long", path)
    assert len(fens) == 1001
    assert p.eval("document.querySelectorAll('.moves a').length") == 2920
    p.key("Home")
    t0 = time.monotonic()
    for _ in range(100):
        p.key("ArrowRight")
    per_key = (time.monotonic() - t0) / 100 * 1000
    g.shows(fens[100])
    p.key("End")
    g.shows(fens[1000])
    p.key("ArrowLeft")
    g.shows(fens[999])
    print("    (100 keys through the 1,000-ply game: %.1f ms a key, with the protocol's round trips;"
          " bench/html.sh measures it properly)" % per_key)
    p.close()


def one_page_per_game_each_whole_and_working(b):
    three = os.path.join(DATA, "three-games.pgn")
    pages = os.path.join(T, "pages")
    xqkit("convert", "-q", "-t", "html", "-o", pages + "/", three)
    names = sorted(os.listdir(pages))
    assert names == ["0001-First_Red-First_Black.html", "0002-Second_Red-Second_Black.html",
                     "0003-Third_Red-Third_Black.html"], names
    p = b.page()
    for n, name in enumerate(names, 1):
        p.goto("file://" + os.path.join(pages, name))
        assert p.eval("document.querySelectorAll('section.game').length") == 1
        assert p.eval("document.querySelectorAll('#index').length") == 0
        assert p.eval("document.title").endswith(("First Black", "Second Black", "Third Black")[n - 1])
        fens = replay_fens(three, game=n)
        g = Game(p)
        g.shows(fens[-1])
        p.key("Home")
        g.shows(fens[0])  # the second game starts from its own FEN
        p.key("ArrowRight")
        g.shows(fens[1])
    p.close()


TESTS = [
    keys_walk_the_main_line_and_the_board_follows_each_ply,
    screenshot_has_each_piece_where_the_fen_says_flipped_or_not,
    down_and_up_go_into_and_out_of_variations,
    clicks_on_moves_graph_and_summary_show_that_position,
    page_without_javascript_is_the_final_position_and_all_the_moves,
    hostile_record_runs_no_script_and_shows_as_text,
    collection_index_links_every_game_and_keys_follow_the_chosen_one,
    broken_game_shows_its_error_and_its_moves_up_to_it,
    long_game_with_deep_variations_plays_to_its_end,
    one_page_per_game_each_whole_and_working,
]


def main():
    passed = failed = 0
    with Browser(CHROMIUM, T) as b:
        for test in TESTS:
            t0 = time.monotonic()
            try:
                test(b)
                passed += 1
                print("  ok   %s (%.1f s)" % (test.__name__, time.monotonic() - t0))
            except Exception:
                failed += 1
                print("  FAIL %s" % test.__name__)
                traceback.print_exc(file=sys.stdout)
    print("browser tests: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
