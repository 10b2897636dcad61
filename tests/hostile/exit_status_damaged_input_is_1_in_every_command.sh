# A gzip stream cut short is a damaged input: exit status 1, the same in
# every command (replay used to exit 3 where the others exit 1).
gzip -c samples/liu-dahua-iccs.pgn | head -c 300 > "$T/cut.pgn.gz"
for cmd in validate "convert -t pgn" replay "annotate --depth 1" stats; do
	limited 30 512 "$XQKIT" $cmd "$T/cut.pgn.gz"
	echo "$cmd: $status"
	expect_status 1
	expect_err "the gzip data ends early"
done
no_temp_files "$T"
