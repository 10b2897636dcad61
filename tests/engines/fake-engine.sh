#!/bin/sh
# fake-engine.sh MODE: a small scripted engine for tests/unit/test_engine.c.
#
# It speaks just enough UCI or UCCI to be driven, and misbehaves on
# purpose according to MODE.  Every line it receives is appended to the
# file named by $FAKE_LOG when that is set, so a test can check what the
# client sent.  The best move it answers is $FAKE_BEST (default h2e2, ranks
# as the mode writes them) with the score $FAKE_SCORE (default "cp 12").
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
mode=${1:-uci}
best=${FAKE_BEST:-h2e2}
score=${FAKE_SCORE:-cp 12}

log() {
	if [ -n "${FAKE_LOG:-}" ]; then
		printf '%s\n' "$1" >> "$FAKE_LOG"
	fi
}

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
		;;
	go*)
		case $mode in
		crash-on-go)
			kill -SEGV $$
			;;
		hang-on-go|ignore-stop)
			echo "info depth 1 score $score pv $best"
			exec sleep 600
			;;
		grandchild)
			sleep 600 &
			log "child $!"
			exit 0
			;;
		stop-on-go)
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
