import HTTPTypes
import Hummingbird

/// What Trove does around every request, in the order it happens, as the router's one middleware:
///
/// 1. `RequestRecords` counts the request in flight and starts its clock.
/// 2. `ResponseCompression` takes a gzip ETag's suffix off If-None-Match.
/// 3. A request with two Host headers is refused; `CrossSiteRequests` refuses another site's state-changing request.
/// 4. `ProfileSessions` puts the visitor's session into the context (nothing to look up without a cookie).
/// 5. `IdempotentRequests` answers an API write sent again with its Idempotency-Key; every other request goes to
///    its handler directly.
/// 6. `ProfileSessions` writes the cookie the answer must carry.
/// 7. `ErrorResponses` turns anything thrown in 3–6 into a JSON error or an error page.
/// 8. `SecurityHeaders` adds the headers every answer carries, `ResponseCompression` compresses, and
///    `RequestRecords` counts, times and logs the answer.
///
/// One middleware rather than one per step: each layer of Hummingbird's middleware chain costs every request an
/// async call and two executor checks, and seven of them cost /health about a seventh of its rate
/// (docs/BENCHMARKS.md); here a step that has nothing to do costs a branch.
struct RequestPipeline: RouterMiddleware {
    typealias Context = TroveRequestContext

    let records: RequestRecords
    let compression: ResponseCompression
    let sessions: ProfileSessions
    let idempotency: IdempotentRequests
    let errors: ErrorResponses

    static let secondHost = HTTPField.Name("Host")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = records.start(request)
        let (request, askedForGzipVariant) = ResponseCompression.withoutGzipSuffix(request)
        var context = context
        var response: Response
        var failed = false
        do {
            // The first Host header is the request's authority; one left among the fields is a second (RFC 9112
            // §3.2: answer 400), which a proxy and Trove could each read differently.
            if request.headers[Self.secondHost] != nil { throw APIError.badRequest("A request carries one Host header.") }
            try CrossSiteRequests.check(request)
            // Nothing to look up without a cookie (a first visit, a monitor, an API client): no await.
            let found =
                !request.headers.contains(.cookie)
                ? sessions.attachNew(to: &context) : try await sessions.attach(to: &context, request: request)
            if IdempotentRequests.applies(to: request) {
                response = try await idempotency.answer(request, context: context, next: next)
            } else {
                response = try await next(request, context)
            }
            sessions.writeCookie(to: &response, found: found, session: context.session, request: request)
        } catch {
            response = await errors.response(for: error, request: request, context: context)
            failed = true
        }
        SecurityHeaders.apply(to: &response.headers, requestID: context.requestID)
        if ResponseCompression.prepare(&response, for: request, askedForGzipVariant: askedForGzipVariant) {
            do {
                try await compression.compress(&response)
            } catch {
                records.finish(started, request: request, context: context, status: .internalServerError, failed: true)
                throw error
            }
        }
        records.finish(started, request: request, context: context, status: response.status, failed: failed)
        return response
    }
}
