# bash completion for movies(1), installed as /usr/share/bash-completion/completions/movies.
#
# Works with or without the bash-completion package: the candidates (commands, subcommands,
# options, option values, watchlist names, recent queries) come from the hidden
# `movies __complete -- WORD…`, which reads the command table of movies itself and asks moviesd
# for the dynamic values with a short timeout. Its first line is `:files` (complete file names),
# `:users` (complete user names), `:words` (candidates bash sorts) or `:ordered` (candidates in
# the order given: recent queries newest first, movie ids); each other line is a candidate, then
# a tab and a description.

# Sets words, cword and cur from COMP_WORDS, joining `--name` `=` `value` back into one word (bash
# splits at COMP_WORDBREAKS; bash-completion's _init_completion -n = does the same).
_movies_words() {
    words=()
    cword=0
    local i
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        if ((i > 0 && ${#words[@]} > 0)) && [[ ${words[-1]} == --* ]] &&
            [[ ${COMP_WORDS[i]} == "=" || ${COMP_WORDS[i - 1]} == "=" ]]; then
            words[-1]+=${COMP_WORDS[i]}
        else
            words+=("${COMP_WORDS[i]}")
        fi
        ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
    done
    cur=${words[cword]}
}

_movies() {
    local cur="" cword=0
    local -a words
    if declare -F _init_completion >/dev/null 2>&1; then
        local prev split
        _init_completion -n =: || return
    else
        _movies_words
    fi
    local program=${words[0]/#\~/$HOME}
    local -a lines
    mapfile -t lines < <("$program" __complete -- "${words[@]:1:cword}" 2>/dev/null)
    COMPREPLY=()
    if [[ ${lines[0]} == ":files" ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return 0
    fi
    if [[ ${lines[0]} == ":users" ]]; then
        mapfile -t COMPREPLY < <(compgen -u -- "$cur")
        return 0
    fi
    if [[ ${lines[0]} == ":ordered" ]]; then
        # Keep the newest recent query first (bash 4.4 and later; older ones sort).
        compopt -o nosort 2>/dev/null
    elif [[ ${lines[0]} != ":words" ]]; then
        return 0
    fi
    # Readline replaces only the text after the last `=` or `:` of the word.
    local replaced=""
    [[ $cur == *[=:]* ]] && replaced=${cur%"${cur##*[=:]}"}
    local line candidate
    for line in "${lines[@]:1}"; do
        candidate=${line%%$'\t'*}
        candidate=${candidate#"$replaced"}
        # A query of several words is one word: escaped, as the shell would read it.
        [[ $candidate == *[[:space:]\'\"\\\$\`\(\)\;\&\|\<\>*?]* ]] && printf -v candidate '%q' "$candidate"
        COMPREPLY+=("$candidate")
    done
    return 0
}
complete -F _movies movies
