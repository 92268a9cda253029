// tmdb-stub: parses the command line, runs TMDBStubServer, and maps signals
// (SIGUSR1 = down, SIGUSR2 = up, SIGTERM/SIGINT = exit 0).
import Foundation
import Glibc
import TMDBStub

let commandLine: StubCommandLine
do {
    commandLine = try StubCommandLine(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("tmdb-stub: \(error.description)\n".utf8))
    exit(64)
}
if commandLine.wantsHelp {
    print(StubCommandLine.usage)
    exit(0)
}

let server = TMDBStubServer(configuration: commandLine.configuration)
let ports: (port: Int, controlPort: Int)
do {
    ports = try server.start()
} catch {
    FileHandle.standardError.write(Data("tmdb-stub: cannot listen: \(error)\n".utf8))
    exit(1)
}
if let portFile = commandLine.portFile {
    do {
        try Data("\(ports.port)\n".utf8).write(to: URL(fileURLWithPath: portFile), options: .atomic)
    } catch {
        FileHandle.standardError.write(Data("tmdb-stub: cannot write \(portFile): \(error)\n".utf8))
        exit(1)
    }
}
let host = commandLine.configuration.host
print("tmdb-stub listening on http://\(host):\(ports.port)")
print("tmdb-stub control on http://\(host):\(ports.controlPort)")
fflush(nil)

let signalQueue = DispatchQueue(label: "tmdb-stub.signals")
func onSignal(_ number: Int32, _ handler: @escaping @Sendable () -> Void) -> DispatchSourceSignal {
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
    source.setEventHandler(handler: handler)
    source.resume()
    return source
}
let signalSources = [
    onSignal(SIGTERM) { server.stop(); exit(0) },
    onSignal(SIGINT) { server.stop(); exit(0) },
    onSignal(SIGUSR1) { server.faults.down = true },
    onSignal(SIGUSR2) { server.faults.down = false },
]
withExtendedLifetime(signalSources) { dispatchMain() }
