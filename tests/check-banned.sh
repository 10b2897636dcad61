#!/bin/sh
# Functions that invite overflows or locale bugs, banned from lib/, formats/,
# cmd/ and the public library (api/, include/xq/, examples/), as git's
# banned.h does: use the length-checked alternatives.
banned='\b(strcpy|strcat|strncpy|strtok|sprintf|vsprintf|gets|atoi|atol)[[:space:]]*\('
if grep -nE "$banned" lib/*.c lib/*.h formats/*.c formats/*.h batch/*.c batch/*.h cmd/*.c cmd/*.h api/*.c api/*.h include/xq/*.h examples/*.c 2>/dev/null; then
	echo "banned functions used (see tests/check-banned.sh)"
	exit 1
fi
echo "no banned functions"
