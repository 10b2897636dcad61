"""xq: xiangqi (Chinese chess) game records from Python, over libxq.

The standard library only: ctypes over the installed libxq.so.  Read any
record file (PGN in any dialect and encoding, XQF, DhtmlXQ, CBF, CBR, CBL,
NDJSON; gzip or not; the format found from the content), validate it with
diagnostics that say where, convert between formats, replay moves from a
FEN, count perft.

    import xq
    for game in xq.read("games.pgn"):
        print(game.red, game.black, game.result, " ".join(game.moves()))

The library is found through $XQI_LIBRARY (a path to libxq.so), else where
`make install` put it, else on the system's library path.
"""

import ctypes
import ctypes.util
import operator
import os
import threading

__all__ = [
    "XQError", "Diagnostic", "Game", "Node", "Position",
    "Analyser", "Analysis",
    "read", "read_bytes", "validate", "convert", "replay", "perft", "formats",
    "diagnostic_codes", "ecco_name", "ecco_codes", "format_extensions", "encoding_name",
    "normalize_date", "version", "NOTATIONS",
]

_here = os.path.dirname(os.path.abspath(__file__))


def _load():
    names = []
    if os.environ.get("XQI_LIBRARY"):
        names.append(os.environ["XQI_LIBRARY"])
    try:
        from . import _installed
        names.append(os.path.join(_installed.LIBDIR, "libxq.so.0"))
    except ImportError:
        pass
    found = ctypes.util.find_library("xq")
    if found:
        names.append(found)
    names.append("libxq.so.0")
    errors = []
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("libxq not found (set XQI_LIBRARY): " + "; ".join(errors))


_lib = _load()

_c = ctypes
_vp = _c.c_void_p
_u32 = _c.c_uint32
_u64 = _c.c_uint64
_DIAG_FN = _c.CFUNCTYPE(None, _vp, _vp)


class _ReadOptions(_c.Structure):
    _fields_ = [("size", _c.c_size_t), ("format", _c.c_char_p), ("encoding", _c.c_char_p),
                ("uci_ranks", _c.c_int), ("max_memory", _u64)]


class _AnalysisResult(_c.Structure):
    _fields_ = [("size", _c.c_size_t), ("kind", _c.c_int), ("score", _c.c_int), ("depth", _c.c_int),
                ("nodes", _u64), ("time_ms", _u32), ("best", _c.c_uint16), ("pv_len", _c.c_size_t),
                ("pv", _c.c_uint16 * 64), ("stopped", _c.c_int), ("no_moves", _c.c_int)]


class _DiagramOptions(_c.Structure):
    _fields_ = [("size", _c.c_size_t), ("style", _c.c_int), ("flags", _c.c_uint), ("last", _c.c_uint16),
                ("labels", _c.c_int), ("cell", _c.c_uint), ("title", _c.c_char_p)]


class _ValidateOptions(_c.Structure):
    _fields_ = [("size", _c.c_size_t), ("ruleset", _c.c_int), ("required", _c.POINTER(_c.c_char_p)),
                ("nrequired", _c.c_size_t)]


class _Date(_c.Structure):
    _fields_ = [("date", _c.c_char * 11), ("time", _c.c_char * 9), ("why", _c.c_char * 96)]


class _Proof(_c.Structure):
    _fields_ = [("why", _c.c_int), ("result", _c.c_char_p), ("ply", _u32), ("first", _u32),
                ("conduct", _c.c_char_p), ("ruleset", _c.c_int)]


class _AnalyserOptions(_c.Structure):
    _fields_ = [("size", _c.c_size_t), ("program", _c.c_char_p), ("args", _c.POINTER(_c.c_char_p)),
                ("protocol", _c.c_char_p), ("settings", _c.POINTER(_c.c_char_p)), ("timeout_ms", _u32),
                ("hash_mb", _c.c_size_t), ("ruleset", _c.c_int), ("cancel", _vp), ("warn", _DIAG_FN),
                ("warn_user", _vp), ("flags", _c.c_uint)]


class _WriteOptions(_c.Structure):
    _fields_ = [("size", _c.c_size_t), ("format", _c.c_char_p), ("dialect", _c.c_int),
                ("dialect_flags", _c.c_uint), ("encoding", _c.c_char_p), ("version", _c.c_int),
                ("flags", _c.c_uint)]


def _fn(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_c_char_p = _c.c_char_p
_szt = _c.c_size_t
_int = _c.c_int
_buf = _c.c_char_p  # output buffers are passed as create_string_buffer

_f = {}
for _name, _res, _args in [
    ("xq_version", _c_char_p, []),
    ("xq_version_number", _int, []),
    ("xq_error_string", _c_char_p, [_int]),
    ("xq_free", None, [_vp]),
    ("xq_diagnostic_severity", _int, [_vp]),
    ("xq_diagnostic_severity_name", _c_char_p, [_vp]),
    ("xq_diagnostic_code", _c_char_p, [_vp]),
    ("xq_diagnostic_code_name", _c_char_p, [_c.c_int]),
    ("xq_diagnostic_message", _c_char_p, [_vp]),
    ("xq_diagnostic_source", _c_char_p, [_vp]),
    ("xq_diagnostic_line", _u64, [_vp]),
    ("xq_diagnostic_column", _u64, [_vp]),
    ("xq_diagnostic_offset", _c.c_int64, [_vp]),
    ("xq_diagnostic_game", _u64, [_vp]),
    ("xq_diagnostic_ply", _u32, [_vp]),
    ("xq_diagnostic_move", _c_char_p, [_vp]),
    ("xq_diagnostic_format", _szt, [_vp, _vp, _szt]),
    ("xq_dialect_name", _c_char_p, [_int]),
    ("xq_dialect_from_name", _int, [_c_char_p]),
    ("xq_position_new", _vp, []),
    ("xq_position_free", None, [_vp]),
    ("xq_position_dup", _vp, [_vp]),
    ("xq_position_set_start", None, [_vp]),
    ("xq_position_set_fen", _int, [_vp, _c_char_p]),
    ("xq_position_fen", _szt, [_vp, _vp, _szt]),
    ("xq_position_side", _int, [_vp]),
    ("xq_position_piece", _c.c_char, [_vp, _int]),
    ("xq_position_legal_moves", _int, [_vp, _vp]),
    ("xq_position_in_check", _int, [_vp]),
    ("xq_position_state", _int, [_vp]),
    ("xq_position_play", _int, [_vp, _c.c_uint16]),
    ("xq_position_read_move", _int, [_vp, _c_char_p, _int, _vp]),
    ("xq_position_play_text", _int, [_vp, _c_char_p, _int]),
    ("xq_position_move_text", _szt, [_vp, _c.c_uint16, _int, _c.c_uint, _vp, _szt]),
    ("xq_position_perft", _u64, [_vp, _int]),
    ("xq_position_perft_cancel", _int, [_vp, _int, _vp, _vp]),
    ("xq_cancel_new", _vp, []),
    ("xq_cancel_set", None, [_vp]),
    ("xq_cancel_is_set", _int, [_vp]),
    ("xq_cancel_free", None, [_vp]),
    ("xq_analyser_open", _int, [_vp, _vp, _DIAG_FN, _vp]),
    ("xq_position_error", _vp, [_vp]),
    ("xq_record_new", _vp, []),
    ("xq_record_free", None, [_vp]),
    ("xq_record_number", _u64, [_vp]),
    ("xq_record_is_broken", _int, [_vp]),
    ("xq_record_is_empty", _int, [_vp]),
    ("xq_record_encoding", _c_char_p, [_vp]),
    ("xq_record_tag_count", _szt, [_vp]),
    ("xq_record_tag_name", _c_char_p, [_vp, _szt]),
    ("xq_record_tag_value", _c_char_p, [_vp, _szt]),
    ("xq_record_tag", _c_char_p, [_vp, _c_char_p]),
    ("xq_record_set_tag", _int, [_vp, _c_char_p, _c_char_p]),
    ("xq_record_remove_tag", _int, [_vp, _szt]),
    ("xq_record_place", None, [_vp, _vp, _vp, _vp]),
    ("xq_record_result_text", _c_char_p, [_vp]),
    ("xq_record_rules_line", _int, [_vp, _int, _vp]),
    ("xq_rules_line_free", None, [_vp]),
    ("xq_rules_line_plies", _u32, [_vp]),
    ("xq_rules_line_cycle", _int, [_vp, _u32, _vp, _vp]),
    ("xq_rules_line_describe_cycle", _int, [_vp, _int, _vp]),
    ("xq_rules_line_limit", _int, [_vp, _u32, _szt, _vp]),
    ("xq_record_result", _c_char_p, [_vp]),
    ("xq_record_set_result", _int, [_vp, _c_char_p]),
    ("xq_record_start_fen", _szt, [_vp, _vp, _szt]),
    ("xq_record_set_start", _int, [_vp, _vp]),
    ("xq_record_node_count", _u32, [_vp]),
    ("xq_record_node_parent", _u32, [_vp, _u32]),
    ("xq_record_node_child", _u32, [_vp, _u32]),
    ("xq_record_node_sibling", _u32, [_vp, _u32]),
    ("xq_record_node_move", _c.c_uint16, [_vp, _u32]),
    ("xq_record_node_ply", _u32, [_vp, _u32]),
    ("xq_record_node_comment", _c_char_p, [_vp, _u32]),
    ("xq_record_node_pre_comment", _c_char_p, [_vp, _u32]),
    ("xq_record_node_source_text", _c_char_p, [_vp, _u32]),
    ("xq_record_node_nag_count", _int, [_vp, _u32]),
    ("xq_record_node_nag", _int, [_vp, _u32, _int]),
    ("xq_record_node_place", _int, [_vp, _u32, _vp, _vp, _vp]),
    ("xq_record_node_position", _int, [_vp, _u32, _vp]),
    ("xq_record_node_fen", _szt, [_vp, _u32, _vp, _szt]),
    ("xq_record_node_move_text", _szt, [_vp, _u32, _int, _c.c_uint, _vp, _szt]),
    ("xq_record_mainline_text", _vp, [_vp, _int, _c.c_uint]),
    ("xq_record_mainline_length", _u32, [_vp]),
    ("xq_record_add_move", _int, [_vp, _u32, _c.c_uint16, _vp]),
    ("xq_record_add_move_text", _int, [_vp, _u32, _c_char_p, _int, _vp]),
    ("xq_record_set_comment", _int, [_vp, _u32, _c_char_p]),
    ("xq_record_error", _vp, [_vp]),
    ("xq_format_info", _int, [_szt, _vp, _vp, _vp]),
    ("xq_ruleset_from_name", _int, [_c_char_p]),
    ("xq_analyser_new_builtin", _int, [_vp, _szt]),
    ("xq_analyser_new_program", _int, [_vp, _c_char_p, _vp, _DIAG_FN, _vp]),
    ("xq_analyser_description", _c_char_p, [_vp]),
    ("xq_analyser_run", _int, [_vp, _vp, _u32, _int, _u64, _u32, _vp, _DIAG_FN, _vp]),
    ("xq_analyser_free", None, [_vp]),
    ("xq_record_ruling", _int, [_vp, _u32, _int, _vp]),
    ("xq_record_check_result", _int, [_vp, _int, _DIAG_FN, _vp]),
    ("xq_record_validate", _int, [_vp, _vp, _DIAG_FN, _vp]),
    ("xq_reader_open", _int, [_vp, _c_char_p, _vp, _DIAG_FN, _vp]),
    ("xq_reader_open_memory", _int, [_vp, _c_char_p, _vp, _szt, _vp, _DIAG_FN, _vp]),
    ("xq_reader_next", _int, [_vp, _vp]),
    ("xq_reader_format", _c_char_p, [_vp]),
    ("xq_reader_is_gzip", _int, [_vp]),
    ("xq_reader_count", _u64, [_vp, _int]),
    ("xq_reader_close", None, [_vp]),
    ("xq_writer_open", _int, [_vp, _c_char_p, _vp, _DIAG_FN, _vp]),
    ("xq_writer_open_memory", _int, [_vp, _vp, _DIAG_FN, _vp]),
    ("xq_writer_write", _int, [_vp, _vp]),
    ("xq_writer_close", _int, [_vp]),
    ("xq_writer_close_memory", _int, [_vp, _vp, _vp]),
    ("xq_position_diagram", _int, [_vp, _vp, _vp, _vp]),
    ("xq_format_names", _int, [_szt, _vp, _vp]),
    ("xq_record_ecco", _int, [_vp, _vp, _vp, _vp]),
    ("xq_ecco_name", _int, [_c_char_p, _vp, _vp]),
    ("xq_ecco_codes_parse", _int, [_vp, _c_char_p, _vp, _vp, _szt]),
    ("xq_ecco_codes_has", _int, [_vp, _c_char_p]),
    ("xq_ecco_codes_free", None, [_vp]),
    ("xq_date_normalize", _int, [_vp, _c_char_p, _szt]),
    ("xq_record_prove_result", _int, [_vp, _int, _vp]),
    ("xq_record_origin", None, [_vp, _vp, _vp, _vp, _vp]),
    ("xq_record_start_text", _c_char_p, [_vp]),
    ("xq_record_add_nag", _int, [_vp, _u32, _int]),
    ("xq_record_fingerprint", _u64, [_vp]),
    ("xq_position_key", _u64, [_vp]),
    ("xq_position_mirror", None, [_vp]),
    ("xq_position_same", _int, [_vp, _vp]),
    ("xq_position_material", None, [_vp, _c.POINTER(_int)]),
    ("xq_writer_abort", None, [_vp]),
    ("xq_encoding_canonical", _c_char_p, [_c_char_p]),
]:
    _f[_name] = _fn(_name, _res, *_args)

NO_NODE = 0xFFFFFFFF
NOTATIONS = ("iccs", "uci", "uci1", "wxf", "chinese", "chinese-traditional")
_TRADITIONAL = 1
_FORCE = 1


def _s(b):
    return None if b is None else b.decode("utf-8", "replace")


# What goes to C is checked here first: a wrong argument is a TypeError
# or a ValueError, never a NULL pointer or a number ctypes cuts short.

def _text(value, what):
    """A str argument as NUL-terminated UTF-8: TypeError for anything else
    (None too), ValueError for a NUL character, which C cannot see."""
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (what, type(value).__name__))
    if "\0" in value:
        raise ValueError("%s %r holds a NUL character" % (what, value))
    return value.encode("utf-8")


def _opt_text(value, what):
    """The same, with None (no value) allowed."""
    return None if value is None else _text(value, what)


def _path(value, what="path"):
    """A path (str, bytes or os.PathLike) as bytes for C."""
    value = os.fspath(value)
    if isinstance(value, bytes):
        if b"\0" in value:
            raise ValueError("%s %r holds a NUL byte" % (what, value))
        return value
    return _text(value, what)


def _whole(value, what, lo, hi):
    """A whole number from lo to hi: TypeError for anything else,
    ValueError out of range."""
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, not %s" % (what, type(value).__name__)) from None
    if n < lo or n > hi:
        raise ValueError("%s %d is out of range (%d to %d)" % (what, n, lo, hi))
    return n


_INT_MAX = 2 ** 31 - 1


def _interruptible(call, cancel=None):
    """call(cancel) on a thread of its own while this one waits, so that
    Ctrl-C stays a KeyboardInterrupt within a second: `call` runs a C
    function that polls the cancel flag (ctypes lets go of the GIL during
    the call); an exception here sets the flag, waits until the call has
    returned (whatever else comes meanwhile) and goes on.  The flag is a
    new one, freed after, unless `cancel` is given.  The wait is on an
    Event, not Thread.join(): a join that an exception interrupts may
    later say the thread has ended while it still runs."""
    own = cancel is None
    if own:
        cancel = _f["xq_cancel_new"]()
        if not cancel:
            raise MemoryError()
    box, done = [], threading.Event()

    def run():
        try:
            box.append((True, call(cancel)))
        except BaseException as e:  # handed to the waiting thread
            box.append((False, e))
        finally:
            done.set()

    try:
        threading.Thread(target=run, name="xq", daemon=True).start()
    except BaseException:
        if own:
            _f["xq_cancel_free"](cancel)
        raise
    try:
        while not done.wait(0.05):
            pass
    except BaseException:
        _f["xq_cancel_set"](cancel)
        while not done.is_set():
            try:
                done.wait(0.05)
            except BaseException:  # the call is stopping: wait for it
                pass
        raise
    finally:
        if own and done.is_set():
            _f["xq_cancel_free"](cancel)
    ok, value = box[0]
    if not ok:
        raise value
    return value


def _dialect(name):
    """A notation name to (dialect, flags)."""
    if name == "chinese-traditional":
        return _f["xq_dialect_from_name"](b"chinese"), _TRADITIONAL
    d = _f["xq_dialect_from_name"](_text(name, "notation"))
    if d < 0:
        raise ValueError("unknown notation %r (one of %s)" % (name, ", ".join(NOTATIONS)))
    return d, 0


def diagnostic_codes():
    """The stable names of every diagnostic code, in the library's order."""
    codes = []
    while True:
        name = _f["xq_diagnostic_code_name"](len(codes))
        if name is None:
            return codes
        codes.append(_s(name))


def ecco_name(code):
    """The (opening, variation) an ECCO code ("C45") names, or None."""
    opening, variation = _c_char_p(), _c_char_p()
    if _f["xq_ecco_name"](_text(code, "ECCO code"), _c.byref(opening), _c.byref(variation)):
        return None
    return _s(opening.value), _s(variation.value)


class ecco_codes:
    """A set of ECCO codes as `xqkit find --ecco` takes them ("C1,D10-D19,E"):
    `"C45" in ecco_codes("C4")`.  ValueError names the column of a mistake."""

    def __init__(self, spec):
        self._s = _vp()
        col, why = _szt(), _c.create_string_buffer(160)
        raw = _text(spec, "ECCO codes")
        rc = _f["xq_ecco_codes_parse"](_c.byref(self._s), raw, _c.byref(col), why, len(why))
        if rc == -10:
            raise MemoryError()
        if rc:
            raise ValueError("ECCO codes %r, column %d: %s" % (spec, col.value, _s(why.value)))

    def __contains__(self, code):
        return bool(_f["xq_ecco_codes_has"](self._s, _text(code, "ECCO code")))

    def __del__(self):
        if getattr(self, "_s", None):
            _f["xq_ecco_codes_free"](self._s)
            self._s = None


def normalize_date(text):
    """A date as records write it (1999年3月5日, 19990305, 3/25/1999) in
    PGN's form "1999.03.05" (?? for unknown parts), or None when its
    meaning is not certain (4/7/1994: April or July?) or it is no date."""
    d = _Date()
    raw = _text(text, "date")
    kind = _f["xq_date_normalize"](_c.byref(d), raw, len(raw))
    if kind == 0:  # XQ_DATE_CANONICAL
        return text.strip()
    return _s(d.date) if kind == 1 else None


def encoding_name(name):
    """The library's name ("gbk", "utf-8") for the text encoding a user
    calls `name` ("CP936", "UTF8"), the names read() and convert() take
    as encoding=; None when it knows no encoding of that name."""
    return _s(_f["xq_encoding_canonical"](_text(name, "encoding name")))


def version():
    """The version of libxq in use ("0.1.0")."""
    return _s(_f["xq_version"]())


class Diagnostic:
    """A problem found in an input, with its place."""

    __slots__ = ("severity", "code", "message", "source", "line", "column", "offset", "game",
                 "ply", "move", "text")

    def __init__(self, d):
        self.severity = _s(_f["xq_diagnostic_severity_name"](d))
        self.code = _s(_f["xq_diagnostic_code"](d))
        self.message = _s(_f["xq_diagnostic_message"](d))
        self.source = _s(_f["xq_diagnostic_source"](d))
        self.line = _f["xq_diagnostic_line"](d)
        self.column = _f["xq_diagnostic_column"](d)
        off = _f["xq_diagnostic_offset"](d)
        self.offset = None if off < 0 else off
        self.game = _f["xq_diagnostic_game"](d)
        self.ply = _f["xq_diagnostic_ply"](d)
        self.move = _s(_f["xq_diagnostic_move"](d))
        buf = _c.create_string_buffer(2048)
        _f["xq_diagnostic_format"](d, buf, len(buf))
        self.text = _s(buf.value)

    def __str__(self):
        return self.text

    def __repr__(self):
        return "Diagnostic(%r)" % self.text


class XQError(Exception):
    """A call failed; `diagnostics` says why and where, `code` is the XQ_E* value."""

    def __init__(self, message, code=0, diagnostics=()):
        Exception.__init__(self, message)
        self.code = code
        self.diagnostics = list(diagnostics)


_ENOTFOUND = -4  # XQ_ENOTFOUND (<xq/error.h>)


def _take_text(fn, *args):
    """Call a function that gives malloc'd text through its last argument
    (1: given, 0: none): the text, or None."""
    text = _vp()
    rc = fn(*args, _c.byref(text))
    if rc < 0:
        raise MemoryError()
    if rc == 0 or not text.value:
        return None
    try:
        return _s(_c.string_at(text.value))
    finally:
        _f["xq_free"](text)


def _fail(rc, what, diags=(), obj_error=None):
    diags = list(diags)
    if obj_error:
        diags.append(Diagnostic(obj_error))
    msg = what + ": " + (diags[-1].message if diags else _s(_f["xq_error_string"](rc)))
    raise XQError(msg, rc, diags)


class _Sink:
    """A diagnostic callback that keeps what it is told (and passes it on)."""

    def __init__(self, keep=None):
        self.list = [] if keep is None else keep
        self.cfn = _DIAG_FN(self._report)

    def _report(self, d, user):
        self.list.append(Diagnostic(d))


class Position:
    """A position: FEN in and out, legal moves, moves in any notation, perft."""

    def __init__(self, fen=None):
        self._p = _f["xq_position_new"]()
        if not self._p:
            raise MemoryError()
        if fen is not None:
            rc = _f["xq_position_set_fen"](self._p, _text(fen, "FEN"))
            if rc:
                _fail(rc, "bad FEN", obj_error=_f["xq_position_error"](self._p))

    def __del__(self):
        if getattr(self, "_p", None):
            _f["xq_position_free"](self._p)
            self._p = None

    def copy(self):
        q = Position.__new__(Position)
        q._p = _f["xq_position_dup"](self._p)
        if not q._p:
            raise MemoryError()
        return q

    @property
    def fen(self):
        buf = _c.create_string_buffer(128)
        _f["xq_position_fen"](self._p, buf, len(buf))
        return _s(buf.value)

    @property
    def side(self):
        """"red" or "black": who is to move."""
        return "black" if _f["xq_position_side"](self._p) else "red"

    def piece(self, square):
        """The FEN letter on a square named in ICCS ("e0"), or None."""
        if not isinstance(square, str):
            raise TypeError("square must be a str, not %s" % type(square).__name__)
        if len(square) != 2 or square[0].lower() not in "abcdefghi" or square[1] not in "0123456789":
            raise ValueError("square %r: give it in ICCS (a0 to i9)" % square)
        f, r = ord(square[0].lower()) - ord("a"), int(square[1])
        c = _f["xq_position_piece"](self._p, r * 9 + f)
        return c.decode() if c != b"\0" else None

    @property
    def in_check(self):
        return bool(_f["xq_position_in_check"](self._p))

    @property
    def state(self):
        """"playing", "checkmate" or "stalemate" (both lost for the side to move)."""
        return ("playing", "checkmate", "stalemate")[_f["xq_position_state"](self._p)]

    def _text(self, code, notation):
        d, fl = _dialect(notation)
        buf = _c.create_string_buffer(32)
        _f["xq_position_move_text"](self._p, code, d, fl, buf, len(buf))
        return _s(buf.value)

    def _code(self, text, notation="auto"):
        d, _ = _dialect(notation)
        out = _c.c_uint16()
        rc = _f["xq_position_read_move"](self._p, _text(text, "move"), d, _c.byref(out))
        if rc:
            _fail(rc, "move %r" % text, obj_error=_f["xq_position_error"](self._p))
        return out.value

    def legal_moves(self, notation="iccs"):
        """The legal moves, written in `notation`."""
        arr = (_c.c_uint16 * 128)()
        n = _f["xq_position_legal_moves"](self._p, arr)
        return [self._text(arr[i], notation) for i in range(n)]

    def move_text(self, move, notation="chinese", source="auto"):
        """`move` (read in `source` notation) written in `notation`."""
        return self._text(self._code(move, source), notation)

    def play(self, move, notation="auto"):
        """Make a move given as text; XQError when it is not legal (saying why)."""
        code = self._code(move, notation)
        rc = _f["xq_position_play"](self._p, code)
        if rc:
            _fail(rc, "move %r" % move, obj_error=_f["xq_position_error"](self._p))
        return self

    def perft(self, depth):
        """The number of leaves of the legal move tree `depth` (0 or more)
        plies deep.  A deep count stops at Ctrl-C (KeyboardInterrupt)."""
        depth = _whole(depth, "perft depth", 0, _INT_MAX)
        if depth < 5:  # well under a second
            return _f["xq_position_perft"](self._p, depth)
        n = _u64()
        rc = _interruptible(lambda cancel: _f["xq_position_perft_cancel"](self._p, depth, cancel, _c.byref(n)))
        if rc:
            _fail(rc, "perft")
        return n.value

    @property
    def key(self):
        """A 64-bit hash of the pieces and the side to move (Zobrist): equal
        positions have equal keys, whatever the move counters."""
        return _f["xq_position_key"](self._p)

    def mirror(self):
        """Mirror the position left-right in place (file a <-> i)."""
        _f["xq_position_mirror"](self._p)
        return self

    @property
    def material(self):
        """{"red": {"K": 1, ...}, "black": {...}}: the pieces of each type."""
        arr = (_int * 14)()
        _f["xq_position_material"](self._p, arr)
        return {side: dict(zip("KABNRCP", arr[7 * i:7 * i + 7])) for i, side in enumerate(("red", "black"))}

    def __eq__(self, other):
        """The same pieces on the same squares and the same side to move."""
        if not isinstance(other, Position):
            return NotImplemented
        return bool(_f["xq_position_same"](self._p, other._p))

    __hash__ = None

    _STYLES = ("ascii", "unicode", "svg")
    _LABELS = ("iccs", "chinese", "none")

    def diagram(self, style="ascii", last=None, flip=False, color=False, labels="iccs", title=None):
        """The board drawn as text ("ascii", "unicode": 13 lines) or an SVG
        document ("svg"), `last` (a move in any notation, from the position
        before it, as ICCS "h2e2" needs none) marked."""
        if style not in self._STYLES or labels not in self._LABELS:
            raise ValueError("style is one of %s, labels one of %s" % (self._STYLES, self._LABELS))
        code = 0
        if last is not None:
            if not isinstance(last, str):
                raise TypeError("last move must be a str, not %s" % type(last).__name__)
            if len(last) != 4 or not ("a" <= last[0] <= "i" and "a" <= last[2] <= "i"
                                      and last[1].isdigit() and last[3].isdigit()):
                raise ValueError("last move %r: give it in ICCS (h2e2)" % last)
            sq = [(int(last[i + 1]) * 9 + ord(last[i]) - ord("a")) for i in (0, 2)]
            code = sq[0] | sq[1] << 8
        o = _DiagramOptions(_c.sizeof(_DiagramOptions), self._STYLES.index(style),
                            (2 if flip else 0) | (1 if color else 0), code,
                            self._LABELS.index(labels), 0, _opt_text(title, "title"))
        out, size = _vp(), _c.c_size_t()
        rc = _f["xq_position_diagram"](self._p, _c.byref(o), _c.byref(out), _c.byref(size))
        if rc:
            _fail(rc, "diagram")
        try:
            return _c.string_at(out, size.value).decode("utf-8")
        finally:
            _f["xq_free"](out)


class Node:
    """A move of a game's tree."""

    __slots__ = ("_game", "index")

    def __init__(self, game, index):
        self._game, self.index = game, index

    def _r(self):
        return self._game._r

    def move(self, notation="iccs"):
        d, fl = _dialect(notation)
        buf = _c.create_string_buffer(32)
        _f["xq_record_node_move_text"](self._r(), self.index, d, fl, buf, len(buf))
        return _s(buf.value)

    @property
    def iccs(self):
        return self.move("iccs")

    @property
    def chinese(self):
        return self.move("chinese")

    @property
    def comment(self):
        return _s(_f["xq_record_node_comment"](self._r(), self.index))

    @property
    def pre_comment(self):
        return _s(_f["xq_record_node_pre_comment"](self._r(), self.index))

    @property
    def source_text(self):
        return _s(_f["xq_record_node_source_text"](self._r(), self.index))

    @property
    def nags(self):
        r, n = self._r(), self.index
        return [_f["xq_record_node_nag"](r, n, i) for i in range(_f["xq_record_node_nag_count"](r, n))]

    def add_nag(self, nag):
        """Add NAG `nag` (1-255: 1 is !, 2 is ?, ...) unless the move has it."""
        rc = _f["xq_record_add_nag"](self._r(), self.index, _whole(nag, "NAG", 1, 255))
        if rc:
            _fail(rc, "NAG %r" % nag, obj_error=_f["xq_record_error"](self._r()))
        return self

    @property
    def ply(self):
        return _f["xq_record_node_ply"](self._r(), self.index)

    @property
    def fen(self):
        """The position after this move."""
        buf = _c.create_string_buffer(128)
        _f["xq_record_node_fen"](self._r(), self.index, buf, len(buf))
        return _s(buf.value)

    def position(self):
        p = Position()
        _f["xq_record_node_position"](self._r(), self.index, p._p)
        return p

    @property
    def place(self):
        """(line, column, offset) of the move in its source."""
        a, b, c = _u64(), _u64(), _u64()
        _f["xq_record_node_place"](self._r(), self.index, _c.byref(a), _c.byref(b), _c.byref(c))
        return a.value, b.value, c.value

    def _link(self, fn):
        n = _f[fn](self._r(), self.index)
        return None if n == NO_NODE else Node(self._game, n)

    @property
    def parent(self):
        return self._link("xq_record_node_parent")

    @property
    def next(self):
        """The main continuation, or None."""
        return self._link("xq_record_node_child")

    @property
    def variations(self):
        """The alternatives to this move (from the same position)."""
        out, n = [], _f["xq_record_node_sibling"](self._r(), self.index)
        while n != NO_NODE:
            out.append(Node(self._game, n))
            n = _f["xq_record_node_sibling"](self._r(), n)
        return out

    def __repr__(self):
        return "Node(%d, %s)" % (self.index, self.iccs)


class Game:
    """One game record: tags, start FEN, moves (a tree), comments, result."""

    _src = None  # (device, inode) of the file read() read it from

    def __init__(self, _record=None):
        self._r = _record if _record is not None else _f["xq_record_new"]()
        if not self._r:
            raise MemoryError()

    def __del__(self):
        if getattr(self, "_r", None):
            _f["xq_record_free"](self._r)
            self._r = None

    @property
    def tags(self):
        """The tags in their order, as a dict (the first of duplicates wins)."""
        out = {}
        for i in range(_f["xq_record_tag_count"](self._r)):
            out.setdefault(_s(_f["xq_record_tag_name"](self._r, i)), _s(_f["xq_record_tag_value"](self._r, i)))
        return out

    def _node(self, node, what="node"):
        """`node`, a Node of this game (TypeError, ValueError)."""
        if not isinstance(node, Node):
            raise TypeError("%s must be a Node, not %s" % (what, type(node).__name__))
        if node._game is not self:
            raise ValueError("%s %r is a node of another game" % (what, node))
        return node.index

    def tag(self, name):
        return _s(_f["xq_record_tag"](self._r, _text(name, "tag name")))

    def set_tag(self, name, value):
        if _f["xq_record_set_tag"](self._r, _text(name, "tag name"), _text(value, "tag value")):
            raise MemoryError()

    def remove_tag(self, name):
        """Remove every tag called `name`; how many there were."""
        _text(name, "tag name")
        n, i = 0, 0
        while i < _f["xq_record_tag_count"](self._r):
            if _s(_f["xq_record_tag_name"](self._r, i)) == name:
                _f["xq_record_remove_tag"](self._r, i)
                n += 1
            else:
                i += 1
        return n

    @property
    def place(self):
        """Where the record starts in its source: (line, column, offset);
        line and column are 0 in a binary source."""
        line, column, offset = _u64(), _u64(), _u64()
        _f["xq_record_place"](self._r, _c.byref(line), _c.byref(column), _c.byref(offset))
        return line.value, column.value, offset.value

    @property
    def ecco(self):
        """The ECCO classification of the main line: (code, opening,
        variation), e.g. ("B05", "中炮对进左马", ""); None for a broken
        game that stops before its opening is decided."""
        code, opening, variation = _c_char_p(), _c_char_p(), _c_char_p()
        rc = _f["xq_record_ecco"](self._r, _c.byref(code), _c.byref(opening), _c.byref(variation))
        if rc == _ENOTFOUND:
            return None
        if rc:
            _fail(rc, "ecco", obj_error=_f["xq_record_error"](self._r))
        return _s(code.value), _s(opening.value), _s(variation.value)

    red = property(lambda self: self.tag("Red"))
    black = property(lambda self: self.tag("Black"))
    event = property(lambda self: self.tag("Event"))
    date = property(lambda self: self.tag("Date"))

    @property
    def result(self):
        return _s(_f["xq_record_result"](self._r))

    @result.setter
    def result(self, value):
        rc = _f["xq_record_set_result"](self._r, _text(value, "result"))
        if rc:
            _fail(rc, "result", obj_error=_f["xq_record_error"](self._r))

    @property
    def origin(self):
        """Where the game was first read: (file, game, line, offset), each
        None when unknown; an NDJSON record keeps the source it carries."""
        f, g, l, o = _c_char_p(), _u64(), _u64(), _c.c_int64()
        _f["xq_record_origin"](self._r, _c.byref(f), _c.byref(g), _c.byref(l), _c.byref(o))
        return (_s(f.value), g.value or None, l.value or None, o.value if o.value >= 0 else None)

    @property
    def fingerprint(self):
        """A 64-bit fingerprint of everything the game holds: any change
        changes it; xqkit annotate writes it into what it annotates."""
        return _f["xq_record_fingerprint"](self._r)

    @property
    def start_text(self):
        """The source's FEN as written when it could not be read, else None."""
        return _s(_f["xq_record_start_text"](self._r))

    def prove_result(self, rules=None):
        """The result the main line proves: None, or (result, why, ply) with
        why "checkmate", "stalemate" or, under `rules` ("asian",
        "chinese"), the offender's perpetual ("perpetual check", ...)."""
        p = _Proof()
        rc = _f["xq_record_prove_result"](self._r, -1 if rules is None else _ruleset(rules), _c.byref(p))
        if rc:
            _fail(rc, "proof", obj_error=_f["xq_record_error"](self._r))
        if p.why == 0:
            return None
        why = {1: "checkmate", 2: "stalemate"}.get(p.why) or _s(p.conduct)
        return _s(p.result), why, p.ply

    @property
    def result_text(self):
        """The result marker as written when it is none of the four (未知), else None."""
        return _s(_f["xq_record_result_text"](self._r))

    @property
    def number(self):
        return _f["xq_record_number"](self._r)

    @property
    def broken(self):
        """Reading stopped at an error in this game (the moves are those before it)."""
        return bool(_f["xq_record_is_broken"](self._r))

    @property
    def empty(self):
        return bool(_f["xq_record_is_empty"](self._r))

    @property
    def encoding(self):
        return _s(_f["xq_record_encoding"](self._r))

    @property
    def fen(self):
        """The start position."""
        buf = _c.create_string_buffer(128)
        _f["xq_record_start_fen"](self._r, buf, len(buf))
        return _s(buf.value)

    @fen.setter
    def fen(self, value):
        _text(value, "FEN")
        p = Position(value)  # held until the call returns: its __del__ frees it
        rc = _f["xq_record_set_start"](self._r, p._p)
        if rc:
            _fail(rc, "start position", obj_error=_f["xq_record_error"](self._r))

    @property
    def comment(self):
        """The game's comment (on the start position)."""
        return _s(_f["xq_record_node_comment"](self._r, 0))

    def moves(self, notation="iccs"):
        """The main line's moves as a list of texts in `notation`."""
        d, fl = _dialect(notation)
        p = _f["xq_record_mainline_text"](self._r, d, fl)
        if not p:
            raise MemoryError()
        try:
            text = _s(_c.string_at(p))
        finally:
            _f["xq_free"](p)
        return text.split(" ") if text else []

    @property
    def mainline(self):
        """The main line as Node objects."""
        out, n = [], _f["xq_record_node_child"](self._r, 0)
        while n != NO_NODE:
            out.append(Node(self, n))
            n = _f["xq_record_node_child"](self._r, n)
        return out

    @property
    def root(self):
        return Node(self, 0)

    def __len__(self):
        return _f["xq_record_mainline_length"](self._r)

    @property
    def node_count(self):
        return _f["xq_record_node_count"](self._r)

    def add_move(self, move, after=None, notation="auto"):
        """Add a move (text) after node `after` (default: the main line's end)."""
        if after is None:
            after = self.mainline[-1] if len(self) else self.root
        out = _u32()
        rc = _f["xq_record_add_move_text"](self._r, self._node(after, "after"), _text(move, "move"),
                                           _dialect(notation)[0], _c.byref(out))
        if rc:
            _fail(rc, "move %r" % move, obj_error=_f["xq_record_error"](self._r))
        return Node(self, out.value)

    def validate(self, rules="asian", required=()):
        """What only the whole game shows, as `xqkit validate` checks it on
        top of what its reader said (the start position and FEN tag, the
        result against the final position and, with `rules` ("asian",
        "chinese"; None: not), the repetition rules, the Date tag, the
        `required` tags): the list of diagnostics."""
        out = []
        sink = _Sink(out)
        if isinstance(required, (str, bytes)):
            raise TypeError("required must be a list of tag names, not one %s" % type(required).__name__)
        names = [_text(t, "required tag") for t in required]
        arr = (_c.c_char_p * max(1, len(names)))(*names)
        opts = _ValidateOptions(_c.sizeof(_ValidateOptions), -1 if rules is None else _ruleset(rules),
                                arr, len(names))
        rc = _f["xq_record_validate"](self._r, _c.byref(opts), sink.cfn, None)
        if rc < 0:
            _fail(rc, "validate", out, obj_error=_f["xq_record_error"](self._r))
        return out

    def rules_by_ply(self, rules="asian"):
        """What the repetition and move-limit rules say along the main
        line, ply by ply, as `xqkit replay --rules` shows it: a list with
        one (cycle, kind, verdict, description, limits) per ply: the
        number of the repetition cycle the move belongs to (None if
        none), the move's kind under the rules ("check", "chase", "idle",
        ...), the cycle's verdict at its last ply and its description
        there (else None), and the descriptions of the move limits
        reached at that ply."""
        line = _vp()
        rc = _f["xq_record_rules_line"](self._r, _ruleset(rules), _c.byref(line))
        if rc:
            _fail(rc, "rules", obj_error=_f["xq_record_error"](self._r))
        out = []
        try:
            for ply in range(1, _f["xq_rules_line_plies"](line) + 1):
                kind, verdict = _c_char_p(), _c_char_p()
                cycle = _f["xq_rules_line_cycle"](line, ply, _c.byref(kind), _c.byref(verdict))
                text = None
                if cycle and verdict.value:
                    text = _take_text(_f["xq_rules_line_describe_cycle"], line, cycle)
                limits = []
                while True:
                    t = _take_text(_f["xq_rules_line_limit"], line, ply, len(limits))
                    if t is None:
                        break
                    limits.append(t)
                out.append((cycle or None, _s(kind.value), _s(verdict.value), text, limits))
        finally:
            _f["xq_rules_line_free"](line)
        return out

    def ruling(self, node=None, rules="asian"):
        """What the repetition and move-limit rules give at `node` (default:
        the main line's end): (None | "draw" | "red loses" | "black loses",
        the explanation or None)."""
        if node is None:
            node = self.mainline[-1] if len(self) else self.root
        why = _vp()
        rc = _f["xq_record_ruling"](self._r, self._node(node), _ruleset(rules), _c.byref(why))
        if rc < 0:
            _fail(rc, "ruling", obj_error=_f["xq_record_error"](self._r))
        text = None
        if why.value:
            text = _s(_c.string_at(why.value))
            _f["xq_free"](why)
        return (None, "draw", "red loses", "black loses")[rc], text

    def add_move_code(self, code, after):
        out = _u32()
        rc = _f["xq_record_add_move"](self._r, self._node(after, "after"), _whole(code, "move code", 0, 0xFFFF),
                                      _c.byref(out))
        if rc:
            _fail(rc, "move", obj_error=_f["xq_record_error"](self._r))
        return Node(self, out.value)

    def set_comment(self, node, text):
        """Set the comment after `node` (None removes it)."""
        if _f["xq_record_set_comment"](self._r, self._node(node), _opt_text(text, "comment")):
            raise MemoryError()

    def __repr__(self):
        return "Game(%d: %s - %s, %s, %d moves)" % (self.number, self.red, self.black, self.result, len(self))


def _read_opts(format, encoding):
    if format is None and encoding is None:
        return None
    return _c.byref(_ReadOptions(_c.sizeof(_ReadOptions), _opt_text(format, "format"),
                                 _opt_text(encoding, "encoding"), 0, 0))


def _file_id(path):
    """(device, inode) of the file at `path`, or None ("-", none there)."""
    if isinstance(path, (str, bytes)) and path in ("-", b"-"):
        return None
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _games(rd, sink, owner, src=None):
    try:
        rec = _vp()
        while True:
            rc = _f["xq_reader_next"](rd, _c.byref(rec))
            if rc != 1:
                break
            g = Game(rec.value)
            g._src = src
            yield g
    finally:
        _f["xq_reader_close"](rd)
        del owner[:]


def read(path, diagnostics=None, format=None, encoding=None):
    """The games of a file ("-": standard input), one Game at a time.

    Problems go to the `diagnostics` list when one is given.  A file that
    cannot be opened or whose format is unknown raises XQError."""
    sink = _Sink(diagnostics)
    rd = _vp()
    raw = _path(path)
    rc = _f["xq_reader_open"](_c.byref(rd), raw, _read_opts(format, encoding), sink.cfn, None)
    if rc:
        _fail(rc, "cannot read %s" % path, sink.list)
    return _games(rd, sink, [sink], _file_id(raw))


def read_bytes(data, name=None, diagnostics=None, format=None, encoding=None):
    """The games of bytes in memory (gzip or not)."""
    sink = _Sink(diagnostics)
    try:
        data = memoryview(data).tobytes()
    except TypeError:
        raise TypeError("data must be bytes, not %s" % type(data).__name__) from None
    keep = _c.create_string_buffer(data, len(data))
    rd = _vp()
    rc = _f["xq_reader_open_memory"](_c.byref(rd), _opt_text(name, "name"), keep, len(data),
                                     _read_opts(format, encoding), sink.cfn, None)
    if rc:
        _fail(rc, "cannot read %s" % (name or "the bytes"), sink.list)
    return _games(rd, sink, [sink, keep])


def _ruleset(rules):
    rs = _f["xq_ruleset_from_name"](_text(rules, "rule set"))
    if rs < 0:
        raise ValueError("unknown rule set %r (asian or chinese)" % rules)
    return rs


def validate(path, format=None, encoding=None, rules="asian", required=()):
    """Read every game of a file and check it as `xqkit validate` does: the
    list of diagnostics, in the order xqkit gives them (empty: all is
    well).  Every move is checked as it is read, then what only the whole
    game shows (Game.validate()): with `rules` ("asian", "chinese"; None:
    not) a repetition or a move limit that ends a game is also checked
    against its result; `required` names tags every game must have."""
    out = []
    try:
        for game in read(path, out, format, encoding):
            out.extend(game.validate(rules, required))
    except XQError as e:
        if not e.diagnostics:
            raise
        out.extend(d for d in e.diagnostics if d not in out)
    return out


def _write_opts(format, notation, encoding, force):
    d, fl = _dialect(notation) if notation else (0, 0)
    return _WriteOptions(_c.sizeof(_WriteOptions), _opt_text(format, "format"), d, fl,
                         _opt_text(encoding, "encoding"), 0, _FORCE if force else 0)


def convert(games, output=None, format=None, notation=None, encoding=None, force=False, diagnostics=None):
    """Write games (Game objects, or paths whose games are read) to `output`
    (a path; its extension names the format unless `format` does), or,
    with no output, return the bytes.  Broken games are skipped.  Returns
    the number written, or the bytes.  An input is never overwritten: an
    `output` that is a file read here (a path given, or the file a Game
    was read from, through any link) is a ValueError and nothing is
    written."""
    sink = _Sink(diagnostics)
    opts = _write_opts(format, notation, encoding, force)
    w = _vp()
    out_id = None
    if output is None:
        if not format:
            raise ValueError("convert to memory needs a format")
        rc = _f["xq_writer_open_memory"](_c.byref(w), _c.byref(opts), sink.cfn, None)
    else:
        raw = _path(output, "output")
        out_id = _file_id(raw)
        rc = _f["xq_writer_open"](_c.byref(w), raw, _c.byref(opts), sink.cfn, None)
    if rc:
        _fail(rc, "cannot write %s" % (output or format), sink.list)

    def refuse_input(what):
        if out_id is not None and what == out_id:
            raise ValueError("%r is an input: it is never overwritten (nothing was written)" % (output,))

    n = 0
    try:
        if isinstance(games, (str, bytes, os.PathLike, Game)):
            games = [games]
        for g in games:
            if not isinstance(g, Game):
                refuse_input(_file_id(_path(g, "input")))
            for game in ([g] if isinstance(g, Game) else read(g, sink.list)):
                refuse_input(game._src)
                if game.broken:
                    continue
                rc = _f["xq_writer_write"](w, game._r)
                if rc:
                    _fail(rc, "cannot write game %d" % game.number, sink.list)
                n += 1
    except BaseException:
        _f["xq_writer_abort"](w)
        raise
    if output is None:
        data, size = _vp(), _c.c_size_t()
        rc = _f["xq_writer_close_memory"](w, _c.byref(data), _c.byref(size))
        if rc:
            _fail(rc, "cannot write", sink.list)
        try:
            return _c.string_at(data, size.value)
        finally:
            _f["xq_free"](data)
    rc = _f["xq_writer_close"](w)
    if rc:
        _fail(rc, "cannot write %s" % output, sink.list)
    return n


def replay(moves, fen=None, notation="auto"):
    """Play `moves` (texts) from `fen` (default: the start); the FEN after each.
    An illegal move raises XQError saying which and why."""
    p = Position(fen)
    out = []
    for i, m in enumerate(moves):
        try:
            p.play(m, notation)
        except XQError as e:
            raise XQError("ply %d: %s" % (i + 1, e), e.code, e.diagnostics)
        out.append(p.fen)
    return out


def perft(depth, fen=None):
    """The number of leaves of the legal move tree `depth` plies deep."""
    return Position(fen).perft(depth)


def formats():
    """{name: (description, reads, writes)} of every format the library knows."""
    out, i = {}, 0
    name, desc, caps = _c_char_p(), _c_char_p(), _c.c_uint()
    while _f["xq_format_info"](i, _c.byref(name), _c.byref(desc), _c.byref(caps)) == 0:
        out[_s(name.value)] = (_s(desc.value), bool(caps.value & 1), bool(caps.value & 2))
        i += 1
    return out


def format_extensions(name):
    """The file-name extensions of format `name` (the one it writes first)."""
    i, fname, ext = 0, _c_char_p(), _c_char_p()
    while _f["xq_format_info"](i, _c.byref(fname), None, None) == 0:
        if _s(fname.value) == name:
            _f["xq_format_names"](i, _c.byref(ext), None)
            return _s(ext.value).split()
        i += 1
    raise ValueError("unknown format %r" % name)


class Analysis:
    """What an analyser found: the score from the side to move's point of
    view (`kind` "cp", "mate" or "mated"; `score` centipawns or moves),
    the depth, the best move and the principal variation in ICCS;
    `no_moves` when the side to move had no legal move (nothing searched)."""

    __slots__ = ("kind", "score", "depth", "nodes", "best", "pv", "no_moves")

    def __repr__(self):
        return "Analysis(%s %d, depth %d, best %s)" % (self.kind, self.score, self.depth, self.best)


class Analyser:
    """The built-in engine (no `program`), or an external UCI/UCCI engine
    (a path, or a name found in PATH, with `args`).  An analysis stops at
    Ctrl-C (KeyboardInterrupt); the next one starts the engine again."""

    def __init__(self, program=None, args=(), hash_mb=0):
        self._a = self._cancel = None
        self._interrupted = False
        if isinstance(args, (str, bytes)):
            raise TypeError("args must be a list of str, not one %s" % type(args).__name__)
        self._program = None if program is None else _path(program, "program")
        self._argv = (_c.c_char_p * (len(args) + 1))(*[_text(x, "argument") for x in args], None)
        self._hash_mb = _whole(hash_mb, "hash_mb", 0, 65536)
        self._open()

    def _open(self):
        cancel = _f["xq_cancel_new"]()
        if not cancel:
            raise MemoryError()
        o = _AnalyserOptions()
        o.size = _c.sizeof(_AnalyserOptions)
        o.program = self._program
        o.args = _c.cast(self._argv, _c.POINTER(_c.c_char_p))
        o.hash_mb = self._hash_mb
        o.ruleset = 0  # XQ_RULESET_ASIAN
        o.cancel = cancel
        sink, a = _Sink(), _vp()
        rc = _f["xq_analyser_open"](_c.byref(a), _c.byref(o), sink.cfn, None)
        if rc:
            _f["xq_cancel_free"](cancel)
            what = self._program.decode("utf-8", "replace") if self._program else "the built-in engine"
            _fail(rc, "cannot start %s" % what, sink.list)
        self._a, self._cancel, self._interrupted = a.value, cancel, False

    def __del__(self):
        self.close()

    def close(self):
        if getattr(self, "_a", None):
            _f["xq_analyser_free"](self._a)
            self._a = None
        if getattr(self, "_cancel", None):
            _f["xq_cancel_free"](self._cancel)
            self._cancel = None

    @property
    def description(self):
        return _s(_f["xq_analyser_description"](self._a))

    def analyse(self, game, node=None, depth=0, nodes=0, movetime_ms=0):
        """Analyse the position after `node` of `game` (default: the end of
        the main line; a Position is analysed as a game starting there)."""
        if isinstance(game, Position):
            g = Game()
            g.fen = game.fen
            game, node = g, g.root
        if not isinstance(game, Game):
            raise TypeError("game must be a Game or a Position, not %s" % type(game).__name__)
        if node is None:
            node = game.mainline[-1] if len(game) else game.root
        index = game._node(node)
        limits = (_whole(depth, "depth", 0, _INT_MAX), _whole(nodes, "nodes", 0, 2 ** 64 - 1),
                  _whole(movetime_ms, "movetime_ms", 0, 2 ** 32 - 1))
        if self._interrupted:
            self.close()
            self._open()
        if not self._a:
            raise ValueError("the analyser is closed")
        sink = _Sink()
        res = _AnalysisResult()
        res.size = _c.sizeof(_AnalysisResult)
        try:
            rc = _interruptible(lambda cancel: _f["xq_analyser_run"](self._a, game._r, index, *limits,
                                                                     _c.byref(res), sink.cfn, None),
                                self._cancel)
        finally:
            # A flag once set stays set: the next analysis needs a new one.
            self._interrupted = bool(_f["xq_cancel_is_set"](self._cancel))
        if rc:
            _fail(rc, "analysis", sink.list)
        out = Analysis()
        out.kind = ("cp", "mate", "mated")[res.kind]
        out.score, out.depth, out.nodes = res.score, res.depth, res.nodes
        out.no_moves = bool(res.no_moves)
        p = node.position()
        out.pv = []
        for i in range(res.pv_len):
            out.pv.append(p._text(res.pv[i], "iccs"))
            _f["xq_position_play"](p._p, res.pv[i])
        out.best = out.pv[0] if out.pv else None
        return out
