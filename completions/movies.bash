# bash completion for movies(1), installed as /usr/share/bash-completion/completions/movies.

_movies() {
    local cur prev words cword
    _init_completion || return

    local commands="search show poster recent status cache watchlist refresh account sync pending"
    local common="--socket --json --stream --width --quiet -q --fail-stale --help --version"

    case $prev in
        --socket | -o | --output)
            _filedir
            return
            ;;
        --page | --pages | --movie | --limit | -n | --width | -w | --max-stale | --query | --timeout)
            return
            ;;
    esac

    # The command is the first word that is not an option (or --socket's value).
    local i command="" sub=""
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} == --socket || ${words[i]} == --width ]]; then
            ((i++))
            continue
        fi
        [[ ${words[i]} == -* ]] && continue
        if [[ -z $command ]]; then
            command=${words[i]}
        elif [[ -z $sub ]]; then
            sub=${words[i]}
        fi
    done

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$common" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    local options=""
    case $command in
        search) options="--page --offline --fresh --cache-first --local --max-stale" ;;
        show) options="--offline --fresh --cache-first" ;;
        poster) options="--width --output" ;;
        recent) options="--limit" ;;
        status) options="" ;;
        cache)
            if [[ -z $sub && $cur != -* ]]; then
                COMPREPLY=($(compgen -W "invalidate purge" -- "$cur"))
                return
            fi
            options="--all --query --movie --posters"
            ;;
        watchlist)
            if [[ -z $sub && $cur != -* ]]; then
                COMPREPLY=($(compgen -W "add rm ls delete" -- "$cur"))
                return
            fi
            case $sub in
                add) options="--pages --movie" ;;
                rm) options="--movie" ;;
            esac
            ;;
        refresh) options="--quiet" ;;
        account)
            if [[ -z $sub && $cur != -* ]]; then
                COMPREPLY=($(compgen -W "login logout show watchlist favorite rate unrate" -- "$cur"))
                return
            fi
            case $sub in
                login) options="--wait --timeout" ;;
                watchlist | favorite)
                    if [[ $prev == "$sub" ]]; then
                        COMPREPLY=($(compgen -W "add rm" -- "$cur"))
                        return
                    fi
                    ;;
            esac
            ;;
        sync) options="--wait --timeout" ;;
        pending) options="--dismiss-rejected" ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options $common" -- "$cur"))
    fi
}
complete -F _movies movies
