# A character device given as the output (here a node of /dev/null's
# kind, made in $T; as root -o /dev/null --force would be the system's) is
# written directly, with or without --force, and stays a device, for
# convert, annotate and replay --svg.  It used to be replaced by a regular
# file with --force, and refused ("already exists") without.
mknod "$T/null" c 1 3 2> /dev/null || skip "$CASE" "cannot make a device node here (not root?)"
for force in "" --force; do
	limited 30 512 "$XQKIT" convert -q -t pgn -o "$T/null" $force samples/sample.xqf
	expect_status 0
	[ -c "$T/null" ] || fail "convert $force: the device is no longer a character device"
	limited 30 512 "$XQKIT" annotate -q --depth 1 -o "$T/null" $force samples/sample.xqf
	expect_status 0
	[ -c "$T/null" ] || fail "annotate $force: the device is no longer a character device"
	limited 30 512 "$XQKIT" replay --svg "$T/null" $force samples/sample.xqf
	expect_status 0
	[ -c "$T/null" ] || fail "replay $force: the device is no longer a character device"
done
no_temp_files "$T"
