#!/bin/sh
# fake-engine.sh MODE [RED_BEST [BLACK_BEST]]: a small scripted engine for
# tests/unit/test_engine.c, tests/unit/test_annotate.c and the annotate
# golden cases.
#
# It speaks just enough UCI or UCCI to be driven, and misbehaves on
# purpose according to MODE.  Every line it receives is appended to the
# file named by $FAKE_LOG when that is set, so a test can check what the
# client sent.  The best move it answers is $FAKE_BEST (default h2e2, ranks
# as the mode writes them; RED_BEST when given) with the score $FAKE_SCORE
# (default "cp 12").
#
# Modes:
#   uci            a plain UCI engine, ranks 0-9 (like Pikafish)
#   fsuci          lists UCI_Variant with xiangqi, ranks 1-10 (like Fairy-Stockfish)
#   ucci           exits unless its first command is "ucci" (like ElephantEye);
#                  bare scores, lists newgame and threads
#   exit-at-once   prints a message on stderr and exits with status 3
#   silent         reads its input and never answers anything
#   crash-on-go    killed by SIGSEGV when asked to search
#   hang-on-go     never answers a search
#   stop-on-go     searches until told to stop, then answers
#   ignore-stop    searches forever and ignores stop
#   garbage        prints nonsense lines (and bytes) around a good answer
#   lie            answers a best move that is not legal (a0a5 from the start)
#   malformed      answers "bestmove zz99"
#   no-score       answers a best move with no info line
#   reject-fen     prints a critical error and exits 1 on "position" (like Pikafish)
#   grandchild     leaves a child holding its output, then exits on go
#   ucciok-to-uci  answers "uci" with "ucciok"
#   flaky          a good UCI engine (ranks 0-9) that fails on chosen positions:
#                  the Nth "position" command of the run (counted over restarts in
#                  the directory $FAKE_STATE) fails when N is in the comma list
#                  $FAKE_FAIL_AT, as $FAKE_FAIL_HOW says: crash (SIGSEGV on go),
#                  hang (on go), lie, garbage (garbage, then a good answer),
#                  malformed, no-score, reject (exit on the position, like
#                  Pikafish), stop (search until told to stop); and from its
#                  $FAKE_MAX_STARTS + 1st start on (when set) it fails to start
#                  (exits at once); it logs "start N pid P" when it starts
#
# When $FAKE_BEST_BLACK (or BLACK_BEST) is set, it is the best move answered
# when black is to move (found from the last "position" command), so that a
# test game can be annotated with a move that is legal for each side.
mode=${1:-uci}
[ -n "${2:-}" ] && FAKE_BEST=$2
[ -n "${3:-}" ] && FAKE_BEST_BLACK=$3
best=${FAKE_BEST:-h2e2}
red_best=$best
score=${FAKE_SCORE:-cp 12}
pending=

# The side to move after a "position fen F moves ..." line: w or b.
side_after() {
	set -f
	# shellcheck disable=SC2086
	set -- $1
	set +f
	s=$4
	n=0
	seen=0
	for word in "$@"; do
		[ $seen = 1 ] && n=$((n + 1))
		[ "$word" = moves ] && seen=1
	done
	if [ $((n % 2)) = 1 ]; then
		if [ "$s" = w ]; then s=b; else s=w; fi
	fi
	echo "$s"
}

# Add one to the counter file $FAKE_STATE/$1 and print the new value.
count() {
	c=0
	[ -f "$FAKE_STATE/$1" ] && c=$(cat "$FAKE_STATE/$1")
	c=$((c + 1))
	echo "$c" > "$FAKE_STATE/$1"
	echo "$c"
}

log() {
	if [ -n "${FAKE_LOG:-}" ]; then
		printf '%s\n' "$1" >> "$FAKE_LOG"
	fi
}

if [ "$mode" = flaky ]; then
	starts=$(count starts)
	log "start $starts pid $$"
	if [ -n "${FAKE_MAX_STARTS:-}" ] && [ "$starts" -gt "$FAKE_MAX_STARTS" ]; then
		echo "fake-engine: refusing to start (start $starts)" >&2
		exit 3
	fi
fi

case $mode in
exit-at-once)
	echo "fake-engine: cannot open my network file" >&2
	exit 3
	;;
esac

first=1
while IFS= read -r line; do
	log "$line"
	if [ $first = 1 ]; then
		first=0
		if [ "$mode" = ucci ] && [ "$line" != ucci ]; then
			exit 0
		fi
	fi
	case $line in
	uci)
		case $mode in
		silent) ;;
		ucciok-to-uci) echo "ucciok" ;;
		*)
			echo "id name Fake $mode"
			echo "id author nobody"
			echo "option name Threads type spin default 1 min 1 max 8"
			echo "option name Clear Hash type button"
			if [ "$mode" = fsuci ]; then
				echo "option name UCI_Variant type combo default chess var chess var xiangqi var shogi"
			fi
			echo "uciok"
			;;
		esac
		;;
	ucci)
		[ "$mode" = silent ] && continue
		echo "id name Fake $mode"
		echo "option threads type spin default 1 min 1 max 8"
		echo "option newgame type button"
		echo "ucciok"
		;;
	isready)
		[ "$mode" = silent ] || echo "readyok"
		;;
	position*)
		if [ "$mode" = reject-fen ]; then
			echo "info string CRITICAL ERROR: Invalid side to move"
			exit 1
		fi
		if [ -n "${FAKE_BEST_BLACK:-}" ]; then
			if [ "$(side_after "$line")" = b ]; then best=$FAKE_BEST_BLACK; else best=$red_best; fi
		fi
		if [ "$mode" = flaky ]; then
			n=$(count positions)
			pending=
			case ",${FAKE_FAIL_AT:-}," in
			*",$n,"*) pending=${FAKE_FAIL_HOW:-crash} ;;
			esac
			if [ "$pending" = reject ]; then
				echo "info string CRITICAL ERROR: Invalid side to move"
				exit 1
			fi
		fi
		;;
	go*)
		how=$mode
		[ "$mode" = flaky ] && how=${pending:-good}
		case $how in
		crash-on-go|crash)
			kill -SEGV $$
			;;
		hang-on-go|ignore-stop|hang)
			echo "info depth 1 score $score pv $best"
			exec sleep 600
			;;
		grandchild)
			sleep 600 &
			log "child $!"
			exit 0
			;;
		stop-on-go|stop)
			echo "info depth 1 score $score pv $best"
			while IFS= read -r line; do
				log "$line"
				if [ "$line" = stop ]; then
					echo "info depth 2 score $score pv $best"
					echo "bestmove $best"
					break
				fi
			done
			;;
		garbage)
			echo "hello, I am not an engine"
			printf 'info depth \001\002 \377\376\n'
			echo "info depth x score cp 5"
			echo "info depth 3 score $score nodes 77 pv $best"
			echo "bestmove $best"
			;;
		lie)
			echo "info depth 1 score cp 0 pv a0a5"
			echo "bestmove a0a5"
			;;
		malformed)
			echo "info depth 1 score cp 0"
			echo "bestmove zz99"
			;;
		no-score)
			echo "bestmove $best"
			;;
		*)
			echo "info depth 5 seldepth 7 score $score nodes 1234 time 3 pv $best"
			echo "bestmove $best ponder h9g7"
			;;
		esac
		;;
	quit)
		[ "$mode" = ucci ] && echo "bye"
		exit 0
		;;
	esac
done
exit 0
