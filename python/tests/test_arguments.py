"""The binding checks what it hands to C (issue 34, finding 4): a wrong
argument is a TypeError or a ValueError, never a crash of the interpreter
or a number cut short; long counts stop at Ctrl-C; convert never
replaces an input.  Run as test_xq.py is."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import xq

PGN = os.path.join("tests", "data", "pgn", "big5-black-first.pgn")


def _game():
    g = xq.Game()
    g.add_move("h2e2")
    return g


class Arguments(unittest.TestCase):
    def test_none_where_text_is_needed_is_a_type_error_not_a_crash(self):
        g = _game()
        calls = {
            "Position.play": lambda: xq.Position().play(None),
            "Position.move_text": lambda: xq.Position().move_text(None),
            "Position(fen)": lambda: xq.Position(5),
            "replay": lambda: xq.replay([None]),
            "set_tag name": lambda: g.set_tag(None, "x"),
            "set_tag value": lambda: g.set_tag("Red", None),
            "tag": lambda: g.tag(None),
            "remove_tag": lambda: g.remove_tag(None),
            "add_move": lambda: g.add_move(None),
            "result": lambda: setattr(g, "result", None),
            "fen": lambda: setattr(g, "fen", None),
            "ecco_name": lambda: xq.ecco_name(None),
            "ecco_codes": lambda: xq.ecco_codes(None),
            "ecco_codes member": lambda: None in xq.ecco_codes("C4"),
            "normalize_date": lambda: xq.normalize_date(None),
            "encoding_name": lambda: xq.encoding_name(None),
            "notation": lambda: g.moves(None),
            "rules": lambda: g.ruling(rules=None),
            "required": lambda: g.validate(required=[None]),
            "read": lambda: xq.read(None),
            "read_bytes": lambda: xq.read_bytes(None),
            "read_bytes name": lambda: xq.read_bytes(b"", name=5),
            "read format": lambda: xq.read_bytes(b"", format=1),
            "piece": lambda: xq.Position().piece(None),
            "diagram last": lambda: xq.Position().diagram(last=7),
            "set_comment node": lambda: g.set_comment(None, "x"),
            "add_move after": lambda: g.add_move("h9g7", after=3),
            "analyser args": lambda: xq.Analyser("no-such-engine", args=[None]),
            "analyse game": lambda: xq.Analyser().analyse(None, depth=1),
        }
        for name, call in calls.items():
            with self.subTest(name):
                self.assertRaises(TypeError, call)
        self.assertEqual(g.moves(), ["h2e2"])
        self.assertEqual(g.tags, {})

    def test_text_with_a_nul_character_is_a_value_error(self):
        g = _game()
        with self.assertRaises(ValueError):
            g.set_tag("Red", "a\0b")
        with self.assertRaises(ValueError):
            xq.Position().play("h2e2\0h9g7")
        with self.assertRaises(ValueError):
            xq.read("games\0.pgn")
        self.assertIsNone(g.tag("Red"))

    def test_perft_of_a_negative_depth_is_a_value_error(self):
        p = xq.Position()
        for bad in (-1, -(2 ** 40), 2 ** 40):
            with self.subTest(bad):
                self.assertRaises(ValueError, p.perft, bad)
        self.assertRaises(ValueError, xq.perft, -1)
        self.assertRaises(TypeError, p.perft, "3")
        self.assertRaises(TypeError, p.perft, 2.0)
        self.assertEqual(p.perft(0), 1)

    def test_deep_perft_counts_what_its_moves_count(self):
        # Depth 5 and more count on a thread that Ctrl-C can stop; the
        # count is the sum of the counts one ply down, counted directly.
        fen = "4k4/9/4b4/9/9/9/9/4B4/4A4/3AKC3 w - - 0 1"
        below = sum(xq.Position(fen).play(m).perft(4) for m in xq.Position(fen).legal_moves())
        self.assertEqual(xq.perft(5, fen), below)
        self.assertEqual(below, 255447)

    def test_nag_out_of_range_is_a_value_error_naming_it(self):
        node = _game().mainline[0]
        for bad in (2 ** 40, 2 ** 32 + 1, 256, 0, -1):
            with self.subTest(bad):
                with self.assertRaises(ValueError) as cm:
                    node.add_nag(bad)
                self.assertIn(str(bad), str(cm.exception))
        self.assertEqual(node.nags, [])
        node.add_nag(255)
        self.assertEqual(node.nags, [255])

    def test_numbers_out_of_range_are_value_errors(self):
        g = _game()
        with self.assertRaises(ValueError):
            g.add_move_code(2 ** 16 + 0x2C1C, g.root)
        with self.assertRaises(ValueError):
            xq.Analyser(hash_mb=-1)
        with self.assertRaises(ValueError):
            xq.Analyser().analyse(xq.Position(), depth=-1)
        with self.assertRaises(ValueError):
            xq.Analyser().analyse(xq.Position(), movetime_ms=2 ** 32)

    def test_a_node_of_another_game_is_refused(self):
        g, other = _game(), _game()
        with self.assertRaises(ValueError):
            g.add_move("h9g7", after=other.mainline[0])
        with self.assertRaises(ValueError):
            g.set_comment(other.root, "x")
        self.assertEqual(len(g), 1)
        self.assertIsNone(g.comment)


# A child Python that runs `body` after setting a timer that sends it
# SIGINT (Ctrl-C) 0.3 s later: it prints how long after the signal the
# KeyboardInterrupt came.  A call that cannot be interrupted never prints
# and is killed at the timeout, failing the test.
_CHILD = r"""
import os, signal, sys, threading, time
import xq
sent = []
def ctrl_c():
    time.sleep(0.3)
    sent.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=ctrl_c, daemon=True).start()
try:
    %s
except KeyboardInterrupt:
    print("interrupted %%.3f" %% (time.monotonic() - sent[0]))
%s
"""


def _interrupt(test, body, after=""):
    try:
        out = subprocess.run([sys.executable, "-c", _CHILD % (body, after)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=60, env=os.environ, universal_newlines=True)
    except subprocess.TimeoutExpired:
        test.fail("%s was not interrupted by SIGINT" % body)
    test.assertEqual(out.returncode, 0, out.stderr)
    lines = out.stdout.split("\n")
    test.assertTrue(lines[0].startswith("interrupted "), out.stdout)
    # Within a second of Ctrl-C (a few milliseconds on a quiet machine).
    test.assertLess(float(lines[0].split()[1]), 1.0)
    return lines[1:]


class Interrupting(unittest.TestCase):
    def test_deep_perft_stops_at_ctrl_c_within_a_second(self):
        _interrupt(self, "xq.perft(12)")

    def test_analysis_stops_at_ctrl_c_and_the_next_one_runs(self):
        rest = _interrupt(self, "a = xq.Analyser(); a.analyse(xq.Position(), depth=60)",
                          "print(a.analyse(xq.Position(), depth=2).depth)")
        self.assertEqual(rest[0], "2")


class Converting(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.input = os.path.join(self.dir, "in.pgn")
        shutil.copyfile(PGN, self.input)
        with open(self.input, "rb") as f:
            self.before = f.read()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def assert_input_kept(self):
        with open(self.input, "rb") as f:
            self.assertEqual(f.read(), self.before)
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(self.names))

    def test_convert_never_replaces_an_input(self):
        link = os.path.join(self.dir, "link.pgn")
        os.link(self.input, link)
        self.names = ["in.pgn", "link.pgn"]
        for name, games, output in (
            ("path", [self.input], self.input),
            ("one path", self.input, self.input),
            ("games read", list(xq.read(self.input)), self.input),
            ("games as read", xq.read(self.input), self.input),
            ("hard link", [self.input], link),
            ("second input", [PGN, self.input], self.input),
        ):
            with self.subTest(name):
                with self.assertRaises(ValueError) as cm:
                    xq.convert(games, output, format="xqf", force=True)
                self.assertIn("is an input", str(cm.exception))
                self.assert_input_kept()
        out = os.path.join(self.dir, "out.pgn")
        self.assertEqual(xq.convert([self.input], out), 1)
        self.names.append("out.pgn")
        self.assert_input_kept()


if __name__ == "__main__":
    unittest.main()
