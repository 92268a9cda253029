// movies: the thin client of moviesd. Everything testable lives in MoviesCLI.
import Glibc
import MoviesCLI

exit(MoviesCommandLine.main(arguments: CommandLine.arguments))
