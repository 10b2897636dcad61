# A FIFO nobody writes to, as an input, or nobody reads, as an output:
# open() waits for the other end for ever.  On a worker thread (-j 2), no
# signal reached it: SIGTERM left validate running until SIGKILL.  Inputs
# are now opened without waiting (the read waits, looking at the signal),
# and an output's open() cut short by the signal is said as one: exit
# 143 within a second, "interrupted", never "cannot open".
mkfifo "$T/in" "$T/out.pgn" || fail "mkfifo"
for j in 1 2; do
	interrupt TERM 0.5 "$XQKIT" validate -j $j "$T/in" samples/sample.xqf
	echo "validate -j $j of a FIFO without writer: SIGTERM -> $status in $elapsed ms"
	expect_status 143
	expect_within 1500 # (a second; half as much again for a loaded machine)
	expect_err "interrupted"
	expect_no_err "cannot open"
done
for cmd in "convert -t pgn" "find -t pgn" "dedupe -t pgn" "annotate --depth 1"; do
	interrupt TERM 0.5 "$XQKIT" $cmd -o "$T/out.pgn" samples/liu-dahua-iccs.pgn
	echo "$cmd -o a FIFO without reader: SIGTERM -> $status in $elapsed ms"
	expect_status 143
	expect_within 1500 # (a second; half as much again for a loaded machine)
	expect_err "interrupted"
	expect_no_err "cannot open"
done
# A writer that comes late is still waited for.
(sleep 0.5; cat samples/liu-dahua-iccs.pgn > "$T/in") &
limited 20 512 "$XQKIT" validate -q "$T/in"
wait
expect_status 0
