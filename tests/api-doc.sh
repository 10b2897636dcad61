#!/bin/sh
# doc/api.md cannot drift from the headers: every public function's
# declaration there is its header's, and it declares nothing the headers
# do not (tests/api-doc.py).  tests/install.sh checks that each function
# has a section, a test and a NULL test.
# Usage: tests/api-doc.sh [xqkit, unused]   (run by `make check`)
set -u
. "$(dirname "$0")/lib.sh"
command -v python3 > /dev/null 2>&1 || skip api-doc "no python3 on PATH"
cd "$(dirname "$0")/.." && exec python3 tests/api-doc.py
