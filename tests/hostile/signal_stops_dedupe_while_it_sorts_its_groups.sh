# dedupe's work after reading (the sorted runs merged, the groups found,
# sorted again and reported) is a computation that grows with the games
# compared: 600,000 copies of one game, in 2 MiB of sorting memory.  A
# signal that comes while the groups are written (standard output has
# begun) stops it within a second, the groups before it reported; the
# merges look at the signal every 65,536 records.
awk 'BEGIN { for (i = 0; i < 600000; i++) printf "[Event \"e%d\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 a9b9 5. c3c4 g6g5 *\n\n", i }' > "$T/copies.pgn"
env --default-signal=INT,TERM,HUP "$XQKIT" dedupe -q --max-memory 8M "$T/copies.pgn" > "$T/groups" 2> "$T/err" &
pid=$!
i=0
while [ $i -lt 600 ] && [ ! -s "$T/groups" ] && kill -0 $pid 2> /dev/null; do
	sleep 0.05
	i=$((i + 1))
done
[ -s "$T/groups" ] || fail "the report did not begin"
t0=$(now_ms)
kill -TERM $pid 2> /dev/null || sent=no
wait $pid
status=$?
elapsed=$(($(now_ms) - t0))
echo "dedupe reporting its groups: SIGTERM -> $status in $elapsed ms"
[ "${sent:-yes}" = yes ] || skip "$CASE" "the report ended before the signal (a very fast machine)"
expect_status 143
expect_within 1500 # (a second; half as much again for a loaded machine)
expect_err "interrupted: the groups before the signal were reported"
no_temp_files "$T"
