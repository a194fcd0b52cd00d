import ArgumentParser
import NIOCore
import NIOPosix
import WebApp

// Swift concurrency's tasks run on NIO's event loops, so a request is not handed from the thread that
// read it to another that handles it and back (measured in docs/BENCHMARKS.md). CPU-heavy work
// (building the city catalog) moves off the loops itself. Must happen on the main thread, first.
ThreadCounts.fitToAllowedCores()
NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
await Launcher.main()

enum Launcher {
    /// What `@main` on an AsyncParsableCommand does.
    static func main() async {
        await Trove.main()
    }
}
