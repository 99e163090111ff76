import BenchCommands

benchProcess(Array(CommandLine.arguments.dropFirst()))
