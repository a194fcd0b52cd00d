// trove-bare: the framework's floor for `make bench` (issue 24). A bare Hummingbird server answering
// `GET /health` with the same 35-byte JSON body and the headers a browser needs (Content-Type, Content-Length),
// on the same runtime set-up as `trove` (event loops fitted to the allowed cores, tasks on NIO's loops): the
// distance from it to Trove's own `/health` is what Trove's common path costs every request.
//
//   trove-bare --port N
import Hummingbird
import NIOCore
import NIOPosix
import WebApp

ThreadCounts.fitToAllowedCores()
NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()

var port = 8090
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let flag = arguments.next() {
    guard flag == "--port", let value = arguments.next().flatMap(Int.init) else {
        print("usage: trove-bare --port N")
        exit(2)
    }
    port = value
}

let body = ByteBuffer(string: #"{"database":"sqlite","status":"ok"}"#)
let router = Router()
router.get("/health") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "trove-bare"))
try await app.runService()
