import Glibc
import MoviesDaemon

// moviesd: all logic lives in the MoviesDaemon library; main only runs it and exits with its status.
let status = await DaemonRunner().run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
