# annotate --engine with an engine that ignores 'stop' (and SIGTERM): on a
# signal the engine was given 10 s to answer 'stop', then 2 s to quit, so
# xqkit outlived SIGTERM by more than 5 s.  An engine stopped by a signal
# now has 300 ms to answer, then is killed: annotate ends within a second
# (exit 143), and no engine is left running.
cat > "$T/engine" << 'ENGINE'
#!/bin/sh
echo $$ >> "$ENGINE_PIDS"
trap '' TERM INT HUP
while read -r line; do
	case $line in
	uci) echo "id name deaf"; echo "uciok" ;;
	isready) echo "readyok" ;;
	go*) echo "info depth 1 score cp 1 pv h2e2"; while :; do sleep 1; done ;;
	quit) exit 0 ;;
	esac
done
ENGINE
chmod +x "$T/engine"
export ENGINE_PIDS="$T/pids"
# Whatever happens, no engine of this case outlives it.
trap 'while read -r p; do kill -KILL "$p" 2> /dev/null; done < "$ENGINE_PIDS"' EXIT
for j in 1 2; do
	: > "$ENGINE_PIDS"
	interrupt TERM 1 "$XQKIT" annotate -j $j --engine "$T/engine" --movetime 60000 samples/liu-dahua-iccs.pgn
	echo "annotate -j $j: SIGTERM -> $status in $elapsed ms"
	expect_status 143
	expect_within 1500 # (a second; half as much again for a loaded machine)
	[ -s "$ENGINE_PIDS" ] || fail "the engine did not start"
	sleep 0.2
	while read -r p; do
		if kill -0 "$p" 2> /dev/null; then
			kill -KILL "$p"
			fail "engine $p is still running"
		fi
	done < "$ENGINE_PIDS"
done
