# Bash completion for xqkit.                              -*- shell-script -*-
#
# Commands and options come from xqkit itself (`xqkit help` and
# `xqkit CMD --help`, which print the same option tables the parser
# uses), so this file never drifts from the program.  Install it as
# /usr/share/bash-completion/completions/xqkit (`make install` does), or
# source it from ~/.bashrc.

# The commands, from the "commands:" part of `xqkit help`.
_xqkit_commands()
{
	"${1:-xqkit}" help 2>/dev/null |
		sed -n '/^commands:/,/^$/{s/^  \([a-z][a-z0-9-]*\) .*/\1/p}'
}

# The options of one command, each with its value name if it takes one
# ("--jobs THREADS", "--quiet", "-j THREADS", ...), one per line.
_xqkit_options()
{
	"$1" "$2" --help 2>/dev/null | sed -n 's/^  \(-.\), \(--[a-z0-9-]*\)\( [A-Z][A-Z=]*\)\{0,1\} .*/\1\3\n\2\3/p;
		s/^      \(--[a-z0-9-]*\)\( [A-Z][A-Z=]*\)\{0,1\} .*/\1\2/p'
}

_xqkit()
{
	local cur prev prog cmd opts line
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	prog=${COMP_WORDS[0]}
	COMPREPLY=()

	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$(_xqkit_commands "$prog") --version --help" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	if [ "$cmd" = help ]; then
		[ "$COMP_CWORD" -eq 2 ] &&
			COMPREPLY=($(compgen -W "$(_xqkit_commands "$prog") formats" -- "$cur"))
		return
	fi
	opts=$(_xqkit_options "$prog" "$cmd")

	# stats --by: its named keys (a tag name is the user's own).
	if [ "$cmd" = stats ] && [ "$prev" = --by ]; then
		COMPREPLY=($(compgen -W "ecco opening player event year" -- "$cur"))
		return
	fi
	# The value of an option: a file name for FILE, PATH, OUT and DIR
	# values; nothing to offer for the others (numbers, names).
	if [[ $prev == -* ]]; then
		line=$(printf '%s\n' "$opts" | grep -m1 -- "^$prev ")
		if [ -n "$line" ]; then
			case ${line#* } in
			FILE | PATH | OUT | DIR) COMPREPLY=($(compgen -f -- "$cur")) ;;
			esac
			return
		fi
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "$opts" | cut -d' ' -f1)" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -F _xqkit xqkit
