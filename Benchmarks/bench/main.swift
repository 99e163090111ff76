import BenchCommands

#if canImport(Glibc)
import Glibc
#endif

// A parent process may start us with signals blocked (Foundation's Process
// passes its thread's mask on); unblock the ones that stop a run, so Ctrl-C
// and `kill` work. Reports are written by rename, so stopping is always safe.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGHUP)
pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)

exit(benchMain(Array(CommandLine.arguments.dropFirst())))
