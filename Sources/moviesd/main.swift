import Glibc
import MoviesDaemon

// Foundation's URLSession sets up an on-disk URL cache and cookie store under XDG_CACHE_HOME and
// XDG_DATA_HOME as soon as any session configuration exists (even one with neither), leaving empty
// directories in the user's home. moviesd's transport is libcurl's multi interface, not URLSession;
// this stays so that nothing linked in can create them either. moviesd caches in SQLite and keeps no cookies: point both where
// nothing can be created. Set before any thread starts; nothing else in moviesd reads them.
setenv("XDG_CACHE_HOME", "/dev/null/moviesd-unused", 1)
setenv("XDG_DATA_HOME", "/dev/null/moviesd-unused", 1)

// moviesd: all logic lives in the MoviesDaemon library; main only runs it and exits with its status.
let status = await DaemonRunner().run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
