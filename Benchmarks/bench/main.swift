import BenchCommands

#if canImport(Glibc)
import Glibc
#endif

exit(benchMain(Array(CommandLine.arguments.dropFirst())))
