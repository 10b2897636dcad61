"""Tests of the Python binding, run against the installed libxq from the
top of the source tree (tests/install.sh; PYTHONPATH names the binding)."""

import os
import shutil
import tempfile
import unittest

import xq

DATA = os.path.join("tests", "data")
XQF = os.path.join(DATA, "xqf", "sample-v12.xqf")
BIG5 = os.path.join(DATA, "pgn", "big5-black-first.pgn")


class Reading(unittest.TestCase):
    def test_xqf_game_has_players_result_start_and_moves(self):
        games = list(xq.read(XQF))
        self.assertEqual(len(games), 1)
        g = games[0]
        self.assertEqual((g.red, g.black, g.result), ("许银川", "聂卫平", "1-0"))
        self.assertEqual(g.fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1")
        self.assertEqual(g.moves()[:3], ["b2e2", "h7e7", "e2e7"])
        self.assertEqual(g.moves("chinese")[:2], ["炮八平五", "炮８平５"])
        self.assertEqual(len(g), 75)
        self.assertTrue(g.comment.startswith("\u3000\u3000象棋让九子"))
        self.assertEqual(g.tags["Event"], "许银川让九子对聂棋圣")
        self.assertFalse(g.broken)
        self.assertEqual(g.number, 1)

    def test_big5_pgn_reads_and_writes_traditional_glyphs(self):
        (g,) = xq.read(BIG5)
        self.assertEqual(g.event, "實戰殺局88")
        self.assertEqual(g.moves("chinese"), ["车１平５", "仕六进五", "车６平５", "帅五平六", "马４进３"])
        self.assertEqual(g.moves("chinese-traditional")[0], "車１平５")
        self.assertEqual(g.moves("wxf")[0], "R1.5")

    def test_tree_gives_variations_comments_nags_and_places(self):
        pgn = b'[Event "v"]\n\n{start} 1. h2e2 $1 {good} (1. b2e2 {also}) 1... h9g7 *\n'
        (g,) = xq.read_bytes(pgn, name="v.pgn")
        first = g.mainline[0]
        self.assertEqual(first.iccs, "h2e2")
        self.assertEqual(first.chinese, "炮二平五")
        self.assertEqual(first.comment, "good")
        self.assertEqual(first.nags, [1])
        self.assertEqual(first.source_text, "h2e2")
        self.assertIsNone(first.pre_comment)
        self.assertEqual(first.place[:2], (3, 12))
        (alt,) = first.variations
        self.assertEqual((alt.iccs, alt.comment), ("b2e2", "also"))
        self.assertEqual(alt.parent.index, 0)
        reply = first.next
        self.assertEqual(reply.ply, 2)
        self.assertEqual(reply.fen, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2")
        self.assertEqual(reply.position().piece("g7"), "n")
        self.assertEqual(g.node_count, 4)
        self.assertEqual(g.comment, "start")

    def test_gzip_ndjson_is_read_by_content(self):
        games = list(xq.read(os.path.join("samples", "liu-dahua-1956.ndjson.gz")))
        self.assertGreaterEqual(len(games), 1)
        self.assertEqual(games[0].moves()[0], "h2e2")

    def test_unknown_file_raises_with_the_reason(self):
        with self.assertRaises(xq.XQError) as cm:
            xq.read(os.path.join(DATA, "no", "such.pgn"))
        self.assertEqual(cm.exception.diagnostics[0].code, "io")

    def test_named_format_and_encoding_are_used(self):
        (g,) = xq.read_bytes(b'[Event "e"]\n1. h2e2 *\n', format="pgn", encoding="utf-8")
        self.assertEqual(g.moves(), ["h2e2"])


class Validating(unittest.TestCase):
    def test_illegal_move_is_reported_with_byte_offset_game_and_ply(self):
        diags = xq.validate(os.path.join(DATA, "xqf", "no-piece-on-origin-v12.xqf"))
        self.assertEqual([d.code for d in diags], ["illegal-move"])
        d = diags[0]
        self.assertEqual((d.severity, d.offset, d.game, d.ply, d.move), ("error", 1106, 1, 10, "e1f0"))
        self.assertIn("byte 1106: error: game 1, ply 10 (e1f0)", str(d))

    def test_text_problem_has_line_and_column(self):
        diags = []
        (g,) = xq.read_bytes(b'[Event "x"]\n\n1. h2e2 h9g7 2. h0g2 zz9 *\n', name="m.pgn", diagnostics=diags)
        self.assertTrue(g.broken)
        self.assertEqual((diags[0].line, diags[0].column), (3, 22))
        self.assertEqual(diags[0].source, "m.pgn")
        self.assertIsNone(g.ecco)  # three plies of a broken game decide no opening

    def test_perpetual_check_against_the_result_is_reported_and_ruled(self):
        path = os.path.join(DATA, "ndjson", "repetition.ndjson")
        diags = [d for d in xq.validate(path) if d.code == "perpetual-check"]
        self.assertEqual([(d.game, d.severity) for d in diags][:2], [(1, "error"), (2, "note")])
        # Without the rules, what is left is that red and black win with no mate.
        self.assertEqual([(d.game, d.code) for d in xq.validate(path, rules=None)],
                         [(1, "resignation"), (2, "resignation")])
        g = next(iter(xq.read(path)))
        plies = g.rules_by_ply()
        self.assertEqual(len(plies), len(g))
        self.assertEqual(plies[0][:3], (1, "check", None))
        cycle, kind, verdict, text, limits = plies[7]
        self.assertEqual((cycle, verdict, limits), (1, "red loses", []))
        self.assertIn("period 4 plies", text)
        verdict, why = g.ruling()
        self.assertEqual(verdict, "red loses")
        self.assertIn("perpetual check", why)
        self.assertEqual(g.ruling(g.root, rules="chinese"), (None, None))

    def test_a_win_with_no_mate_is_only_a_note(self):
        diags = xq.validate(BIG5)
        self.assertEqual([(d.code, d.severity) for d in diags], [("resignation", "note")])
        self.assertIn("black wins with no mate on the board", diags[0].message)

    def test_tags_can_be_removed_and_the_record_says_where_it_starts(self):
        (g,) = xq.read_bytes(b'\n[Event "x"]\n[Opening "a"]\n[Opening "b"]\n\n1. h2e2 \xe6\x9c\xaa\xe7\x9f\xa5\n',
                             name="t.pgn")
        self.assertEqual(g.place, (2, 1, 1))
        self.assertEqual(g.remove_tag("Opening"), 2)
        self.assertEqual(list(g.tags), ["Event"])
        self.assertEqual((g.result, g.result_text), ("*", "未知"))

    def test_required_tags_and_dates_are_checked_at_their_place(self):
        (g,) = xq.read_bytes(b'[Event "x"]\n[Date "2006.13.45"]\n\n1. h2e2 1/2-1/2\n', name="d.pgn")
        diags = g.validate(required=("Event", "Red"))
        self.assertEqual([(d.code, d.severity, d.line) for d in diags],
                         [("bad-date", "warning", 2), ("missing-tag", "warning", 1)])

    def test_validate_says_what_xqkit_validate_says(self):
        # The library checks games the one way xqkit does: the same
        # diagnostics, in the same words and order.
        xqkit = os.environ.get("XQKIT")
        if not xqkit:
            self.skipTest("XQKIT (the xqkit binary to compare with) is not set")
        import subprocess
        paths = sorted(os.path.join(DATA, "xqf", f) for f in os.listdir(os.path.join(DATA, "xqf")))
        paths += [os.path.join(DATA, "ndjson", "repetition.ndjson"), BIG5]
        for path in paths:
            got = [str(d) for d in xq.validate(path)]
            run = subprocess.run([xqkit, "validate", path], capture_output=True, text=True)
            want = [l for l in run.stderr.splitlines() if l and not l[0].isdigit() and "no problems" not in l]
            self.assertEqual(got, want, path)

    def test_empty_input_is_a_no_game_error(self):
        diags = []
        self.assertEqual(list(xq.read_bytes(b"", diagnostics=diags)), [])
        self.assertEqual(diags[0].code, "no-game")

    def test_diagnostic_codes_list_each_code_once(self):
        codes = xq.diagnostic_codes()
        self.assertEqual(len(codes), len(set(codes)))
        self.assertIn("no-game", codes)
        self.assertIn("illegal-move", codes)


class Converting(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="xqkit-python-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_files_convert_to_one_pgn_that_reads_back(self):
        out = os.path.join(self.tmp, "both.pgn")
        self.assertEqual(xq.convert([XQF, BIG5], out, notation="wxf"), 2)
        back = list(xq.read(out))
        self.assertEqual([g.moves() for g in back], [g.moves() for g in xq.read(XQF)] + [g.moves() for g in xq.read(BIG5)])
        with open(out, encoding="utf-8") as f:
            self.assertIn("C8.5", f.read())
        with self.assertRaises(xq.XQError):
            xq.convert([XQF], out)  # exists: refused without force
        self.assertEqual(xq.convert([XQF], out, force=True), 1)
        self.assertEqual(os.listdir(self.tmp), ["both.pgn"])

    def test_convert_to_memory_and_losses_are_reported(self):
        (g,) = xq.read(BIG5)
        g.set_tag("Opening", "x")
        diags = []
        data = xq.convert(g, format="xqf", diagnostics=diags)
        self.assertEqual(data[:2], b"XQ")
        self.assertEqual([d.code for d in diags], ["loss"])
        (back,) = xq.read_bytes(data)
        self.assertEqual(back.moves(), g.moves())

    def test_built_game_writes_every_format_that_writes(self):
        g = xq.Game()
        g.set_tag("Red", "红")
        g.result = "1-0"
        n = g.add_move("炮二平五")
        g.add_move("h9g7")
        g.set_comment(n, "中炮")
        g.add_move("b2e2", after=g.root)
        with self.assertRaises(xq.XQError):
            g.add_move("车一平二")
        with self.assertRaises(xq.XQError):
            g.result = "maybe"
        for name, (desc, reads, writes) in xq.formats().items():
            if not writes:
                continue
            data = xq.convert(g, format=name)
            self.assertTrue(data, name)
            if reads:
                (back,) = xq.read_bytes(data, format=name)
                self.assertEqual(back.moves(), ["h2e2", "h9g7"], name)

    def test_start_position_of_a_new_game(self):
        g = xq.Game()
        g.fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w"
        g.add_move_code(xq.Position(g.fen)._code("e1d1", "iccs"), g.root)
        self.assertEqual(g.moves(), ["e1d1"])
        self.assertTrue(g.empty is False)
        self.assertIsNone(g.encoding)


class Replaying(unittest.TestCase):
    def test_replay_gives_the_fen_after_each_move(self):
        fens = xq.replay(["炮二平五", "h9g7", "H2+3"])
        self.assertEqual(len(fens), 3)
        self.assertEqual(fens[-1], "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2")

    def test_illegal_move_says_which_and_why(self):
        with self.assertRaises(xq.XQError) as cm:
            xq.replay(["h2e2", "h2e2"])
        self.assertIn("ply 2", str(cm.exception))
        self.assertIn("no piece on h2", str(cm.exception))

    def test_position_moves_fen_and_state(self):
        p = xq.Position()
        self.assertEqual(len(p.legal_moves()), 44)
        self.assertEqual(p.side, "red")
        self.assertEqual(p.move_text("h2e2", "chinese"), "炮二平五")
        self.assertEqual(p.copy().play("h2e2").side, "black")
        self.assertEqual(p.fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
        mate = xq.Position("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b")
        self.assertTrue(mate.in_check)
        self.assertEqual(mate.state, "checkmate")
        with self.assertRaises(xq.XQError):
            xq.Position("4k4/9/9/9/9/9/9/9/9/4K4 b")

    def test_ecco_of_the_main_line_and_names_of_a_code(self):
        g = next(iter(xq.read(os.path.join(DATA, "ndjson", "good.ndjson"))))
        self.assertEqual(g.ecco, ("B05", "中炮对进左马", ""))
        self.assertEqual(xq.ecco_name("B05"), ("中炮对进左马", ""))
        self.assertIsNone(xq.ecco_name("A09"))

    def test_format_extensions_start_with_the_written_one(self):
        self.assertEqual(xq.format_extensions("xqf"), [".xqf"])
        self.assertEqual(xq.format_extensions("pgn")[0], ".pgn")
        with self.assertRaises(ValueError):
            xq.format_extensions("doc")

    def test_encoding_names_are_the_librarys_whatever_the_case(self):
        self.assertEqual(xq.encoding_name("CP936"), "gbk")
        self.assertEqual(xq.encoding_name("UTF8"), "utf-8")
        self.assertEqual(xq.encoding_name("gb2312"), "gb18030")
        self.assertEqual(xq.encoding_name("latin-1"), "iso-8859-1")
        self.assertIsNone(xq.encoding_name("no-such-encoding"))

    def test_diagram_draws_the_board_with_the_last_move(self):
        p = xq.Position()
        p.play("h2e2")
        text = p.diagram(last="h2e2")
        self.assertEqual(len(text.splitlines()), 13)
        self.assertIn("2  .  C  .  . [C] .  . (.) .  2", text)
        self.assertIn("[炮]", p.diagram("unicode", last="h2e2"))
        self.assertTrue(p.diagram("ascii", flip=True).startswith("   i  h  g"))
        svg = p.diagram("svg", title="after h2e2")
        self.assertIn("<title>after h2e2</title>", svg)
        self.assertIn(p.fen, svg)
        with self.assertRaises(ValueError):
            p.diagram("png")

    def test_perft_matches_the_reference(self):
        self.assertEqual(xq.perft(3), 79666)
        self.assertEqual(xq.perft(1, "4k4/9/9/9/4R4/9/9/9/9/3K5 b"), 1)

    def test_builtin_analyser_finds_the_win_and_is_deterministic(self):
        an = xq.Analyser()
        self.assertEqual(an.description, "built-in")
        a = an.analyse(xq.Position("3k5/R8/1R7/9/9/9/9/9/9/4K4 w"), depth=4)
        self.assertEqual((a.kind, a.score), ("mate", 1))
        self.assertEqual(xq.Position("3k5/R8/1R7/9/9/9/9/9/9/4K4 w").play(a.best, "iccs").state != "playing", True)
        (g,) = xq.read(BIG5)
        first = an.analyse(g, depth=3)
        self.assertEqual(first.depth, 3)
        self.assertEqual(an.analyse(g, depth=3).pv, first.pv)
        self.assertFalse(first.no_moves)
        mated = an.analyse(xq.Position("3k5/9/9/9/9/9/9/9/3r5/3rK4 w"), depth=3)
        self.assertEqual((mated.kind, mated.score, mated.no_moves, mated.best), ("mated", 0, True, None))
        with self.assertRaises(xq.XQError):
            an.analyse(g)  # no limit
        an.close()

    def test_missing_engine_program_is_an_error(self):
        with self.assertRaises(xq.XQError) as cm:
            xq.Analyser("/nonexistent/engine")
        self.assertEqual(cm.exception.diagnostics[0].code, "engine")

    def test_keys_mirrors_material_and_equality(self):
        a, b = xq.Position(), xq.Position()
        for m in ("h2e2", "h9g7", "b0c2"):
            a.play(m)
        for m in ("b0c2", "h9g7", "h2e2"):
            b.play(m)
        self.assertEqual(a, b)
        self.assertEqual(a.key, b.key)
        self.assertNotEqual(a, xq.Position())
        c = xq.Position().play("b2e2")
        self.assertEqual(xq.Position().play("h2e2").mirror(), c)
        self.assertEqual(xq.Position().material["black"], {"K": 1, "A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5})

    def test_proofs_dates_ecco_codes_and_origins(self):
        g = xq.Game()
        g.fen = "3k5/9/9/9/9/9/9/9/8R/4K4 w"
        self.assertIsNone(g.prove_result())
        g.add_move("i1d1")
        self.assertEqual(g.prove_result(), ("1-0", "checkmate", 1))
        self.assertEqual(xq.normalize_date("1999年3月5日"), "1999.03.05")
        self.assertIsNone(xq.normalize_date("4/7/1994"))
        codes = xq.ecco_codes("C1,D")
        self.assertIn("C15", codes)
        self.assertNotIn("C20", codes)
        with self.assertRaises(ValueError):
            xq.ecco_codes("C10-C05")
        (h,) = xq.read(BIG5)
        self.assertEqual(h.origin[0], BIG5)
        self.assertEqual(h.origin[1], 1)
        self.assertIsNone(h.start_text)
        before = h.fingerprint
        h.mainline[0].add_nag(1).add_nag(1)
        self.assertEqual(h.mainline[0].nags, [1])
        self.assertNotEqual(h.fingerprint, before)
        with self.assertRaises(xq.XQError):
            h.root.add_nag(1)

    def test_version_is_the_library_s(self):
        self.assertRegex(xq.version(), r"^\d+\.\d+\.\d+$")


if __name__ == "__main__":
    unittest.main()
