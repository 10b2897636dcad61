# validate stopped by a lack of memory says it stopped early, never "no
# problems found", and exits 3.  It used to print "no problems found" after
# "out of memory".  First with the fault that starves the worker pool
# (every build), then for real under address space limits (not under
# sanitizers, which reserve terabytes): the limit that starves it depends
# on the machine's libraries, so a range is tried, and some must.
XQ_TEST_FAULT=pool-nomem limited 30 512 "$XQKIT" validate samples/sample.xqf
expect_status 3
expect_err "out of memory"
grep -q "no problems found" "$T/err" && fail "'no problems found' after running out of memory"
grep -q "stopped early: not every game was checked" "$T/err" || fail "no word of the early stop"
[ -n "${XQ_SANITIZE:-}" ] && exit 0
stopped=0
mb=30
while [ $mb -le 100 ]; do
	# A limit at which xqkit cannot even start (load its libraries, take
	# its options) tells nothing about a run.
	limited 30 $mb "$XQKIT" validate --help
	started=$status
	limited 30 $mb "$XQKIT" validate -j 2 samples/sample.xqf
	if [ "$started" = 0 ] && grep -q "out of memory" "$T/err"; then
		stopped=$((stopped + 1))
		expect_status 3
		grep -q "no problems found" "$T/err" && fail "'no problems found' after running out of memory at $mb MB"
		grep -q "stopped early" "$T/err" || fail "no word of the early stop at $mb MB"
	fi
	mb=$((mb + 2))
done
[ $stopped -gt 0 ] || fail "no limit from 30 to 100 MB stopped validate for want of memory"
