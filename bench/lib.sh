# bench/lib.sh: the one way the bench scripts time a command (sourced).
#
# A figure is the whole process, as a user runs it: `measure FILE cmd...`
# runs cmd once under /usr/bin/time and appends "wall cpu rss" to FILE
# (seconds of wall time, read to the nanosecond around the run; seconds of
# CPU time, user + system, in hundredths; and peak resident KiB); its
# output goes to /dev/null.  Programs to compare are
# run in turn, A B A B ..., so that a change in the machine's load falls on
# both; `report FILE` gives the medians (and the largest RSS).  CPU time is
# reported beside wall time because it swings far less with load: on a
# busy machine, trust the CPU ratio and say so.
#
# Needs /usr/bin/time (apt-get install time).
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 3; }

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# measure FILE cmd...: one run; the exit status of cmd is ignored (a run
# over damaged records exits 1), but a command that cannot run stops the
# benchmark.
measure() {
	_f=$1
	shift
	_t0=$(date +%s%N)
	/usr/bin/time -o "$_f.t" -f '%e %U %S %M' "$@" > /dev/null 2>&1 || true
	_t1=$(date +%s%N)
	tail -1 "$_f.t" | grep -q '^[0-9.]* [0-9.]* [0-9.]* [0-9]*$' ||
		{ echo "could not time: $* ($(tail -1 "$_f.t"))" >&2; exit 1; }
	# Wall time from the clock read around the run, in nanoseconds (it
	# counts starting /usr/bin/time too, a millisecond or so, for every
	# program alike); /usr/bin/time's own has hundredths only, 2% of a
	# half-second run.  Where date has no %N, that one.
	case "$_t0$_t1" in
	*[!0-9]* | '') _wall= ;;
	*) _wall=$((_t1 - _t0)) ;;
	esac
	tail -1 "$_f.t" | awk -v w="$_wall" '{print (w != "" ? sprintf("%.4f", w / 1e9) : $1), $2 + $3, $4}' >> "$_f"
	rm -f "$_f.t"
}

# report FILE: "WALL CPU RSS", medians of wall and CPU seconds, largest RSS.
report() {
	printf '%s %s %s\n' "$(cut -d' ' -f1 "$1" | median)" "$(cut -d' ' -f2 "$1" | median)" \
		"$(cut -d' ' -f3 "$1" | sort -n | tail -1)"
}

# bench_work NAME: $work, the bench's own folder: BENCH_DIR when set (kept),
# else a new one under $TMPDIR removed when the script ends.
bench_work() {
	if [ -n "${BENCH_DIR:-}" ]; then
		work=$BENCH_DIR
		mkdir -p "$work"
	else
		work=$(mktemp -d "${TMPDIR:-/tmp}/xqkit-bench-$1.XXXXXX")
		trap 'rm -rf "$work"' EXIT
		trap 'exit 130' INT
		trap 'exit 143' TERM
	fi
}

# bench_corpus NAME: the usual start of a bench over the shared corpus:
# $xqkit (XQKIT, default ./xqkit) and $corpus (XQ_SHARED/corpus, default
# ../shared/corpus), both checked (exit 3 when missing), then bench_work
# NAME.
bench_corpus() {
	xqkit=${XQKIT:-./xqkit}
	corpus=${XQ_SHARED:-../shared}/corpus
	[ -x "$xqkit" ] || { echo "build xqkit first (make)" >&2; exit 3; }
	[ -d "$corpus" ] || { echo "no corpus at $corpus (set XQ_SHARED)" >&2; exit 3; }
	bench_work "$1"
}

# games_in FILE: the number of games $xqkit reads in FILE (from its
# summary); stops the bench when there are none.
games_in() {
	_n=$("$xqkit" validate -q --format ndjson "$1" 2> /dev/null | tail -1 |
		sed -n 's/.*"games":\([0-9]*\).*/\1/p')
	[ -n "$_n" ] && [ "$_n" -gt 0 ] || { echo "no games in $1" >&2; exit 1; }
	echo "$_n"
}

# corpus_pgn XQKIT CORPUS OUT: the corpus's PGN files read as UTF-8, each
# once, joined into OUT (a blank line after each).
corpus_pgn() {
	"$1" validate -r -q --format ndjson "$2" 2> /dev/null |
		grep '"format":"pgn"' | grep '"encoding":"utf-8"' |
		sed 's/.*"file":"\([^"]*\)".*/\1/' | awk '!seen[$0]++' |
		while IFS= read -r f; do cat "$f"; printf '\n\n'; done > "$3"
}

# repeat_games N SRC PER OUT: N games, copies of the PER games of SRC,
# copy k with " #k" after each Event, so that no two are the same record
# (a big collection of real games, as bench/scale.sh and bench/stats.sh
# build it).
repeat_games() {
	awk -v n="$1" -v src="$2" -v per="$3" 'BEGIN {
		for (k = 1; (k - 1) * per < n; k++) {
			while ((getline line < src) > 0) {
				if (line ~ /^\[Event "/ && (k - 1) * per + ++seen > n) { close(src); exit }
				if (line ~ /^\[Event "/) sub(/"\]/, " #" k "\"]", line)
				print line
			}
			close(src); seen = 0
		}
	}' > "$4"
}

# copies_of LIST OUT COPIES: each file listed in LIST (a path a line)
# copied COPIES times into the folder OUT, as K-N.EXT (copy K of file N):
# a folder of thousands of small files from the corpus's few hundred.
copies_of() {
	_k=1
	while [ "$_k" -le "$3" ]; do
		_n=0
		while IFS= read -r _f; do
			_n=$((_n + 1))
			cp "$_f" "$2/$_k-$_n.${_f##*.}"
		done < "$1"
		_k=$((_k + 1))
	done
}
