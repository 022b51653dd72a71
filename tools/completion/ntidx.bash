# bash completion for ntidx: installed by `meson install` (as "ntidx", in bash-completion's completions
# folder), or sourced by hand: `. tools/completion/ntidx.bash`.
#
# The commands and each command's options are read from the ntidx being completed (`ntidx --help`,
# `ntidx help COMMAND`), so the completion never disagrees with the program: an option added to a
# command completes without a change here. Values: --format from the command's own list, --order,
# --by, --shape and --format-version from theirs, files for TRACE, -o/--output and --index.

# The commands `ntidx --help` lists.
_ntidx_commands()
{
    "$1" --help 2>/dev/null | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'
}

# The options of a command, as its usage lists them ("-o", "--output", "--from", "-n"...).
_ntidx_options()
{
    "$1" help "$2" 2>/dev/null | sed -n '/^options:/,/^$/p' |
        sed -nE 's/^  (-[a-zA-Z]), (--[a-z0-9-]+).*/\1 \2/p; s/^      (--[a-z0-9-]+).*/\1/p; s/^  (-[a-zA-Z]) .*/\1/p'
}

_ntidx()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} prog=${COMP_WORDS[0]}
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$(_ntidx_commands "$prog") help --help --version" -- "$cur"))
        return 0
    fi
    local cmd=${COMP_WORDS[1]}
    if [[ $cmd == help ]]; then
        ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$(_ntidx_commands "$prog")" -- "$cur"))
        return 0
    fi
    case $prev in
    --format)
        local formats
        formats=$("$prog" help "$cmd" 2>/dev/null | sed -nE 's/.*output format: ([a-z|]+).*/\1/p' | tr '|' ' ')
        COMPREPLY=($(compgen -W "$formats" -- "$cur"))
        return 0
        ;;
    --order) COMPREPLY=($(compgen -W "time file" -- "$cur")); return 0 ;;
    --by) COMPREPLY=($(compgen -W "type thread provider" -- "$cur")); return 0 ;;
    --shape) COMPREPLY=($(compgen -W "ntidx one-collect" -- "$cur")); return 0 ;;
    --format-version) COMPREPLY=($(compgen -W "5 6" -- "$cur")); return 0 ;;
    -o | --output | --index)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
        ;;
    --from | --to | --at | --provider | --event | --thread | --limit | --threads | -n | --buckets | --bucket | \
        --size | --events | --seed | --drop-rate | --metadata-flush-every | --thread-flush-every)
        return 0 # a value of the user's own
        ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_ntidx_options "$prog" "$cmd")" -- "$cur"))
        return 0
    fi
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -F _ntidx ntidx
