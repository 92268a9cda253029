# fish completion for movies(1), installed as /usr/share/fish/vendor_completions.d/movies.fish.
#
# The candidates (commands, subcommands, options, option values, watchlist names, recent queries)
# come from the hidden `movies __complete -- WORD…`, which reads the command table of movies itself
# and asks moviesd for the dynamic values with a short timeout. Its first line is `:files`
# (complete file names), `:users` (complete user names), `:words` (candidates to sort) or
# `:ordered` (candidates in the order given: recent queries newest first, movie ids); each other
# line is a candidate, then a tab and a description, as fish reads them. fish keeps the order
# (complete -k), so the function sorts `:words` itself.

function __movies_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l lines ($tokens[1] __complete -- $tokens[2..-1] $current 2>/dev/null)
    if test "$lines[1]" = ":files"
        __fish_complete_path $current
    else if test "$lines[1]" = ":users"
        __fish_complete_users
    else if test "$lines[1]" = ":words"
        printf '%s\n' $lines[2..-1] | sort -f
    else if test "$lines[1]" = ":ordered"
        printf '%s\n' $lines[2..-1]
    end
end

complete -c movies -f -k -a '(__movies_complete)'
