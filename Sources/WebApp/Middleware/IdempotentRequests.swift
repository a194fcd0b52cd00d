import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// Answers a state-changing API request sent again with the same `Idempotency-Key` with its first answer,
/// so an outbox replaying after a lost connection never creates a second student, session, card or favourite.
///
/// Keys belong to the profile. The same key with another request is 422 `idempotency_key_reused`. The handler runs
/// in the transaction that claims the key (`IdempotencyRepository.once`), so its writes and the recorded answer
/// commit together: a process that dies mid-request leaves neither, and the retry runs as new. A retry sent while the
/// first is still being answered waits for it. Answers of 500 and above, and errors, are not kept and what they wrote
/// is rolled back: sending again runs the request again. The account routes (sign-in changes the profile) take no key.
struct IdempotentRequests: Sendable {
    let keys: IdempotencyRepository

    /// Whether the request is one this answers (the caller sends every other request to the handler directly).
    static func applies(to request: Request) -> Bool {
        request.headers[IdempotencyKey.header] != nil && CrossSiteRequests.isStateChanging(request.method)
            && request.uri.path.hasPrefix("/api/v1/") && !request.uri.path.hasPrefix("/api/v1/account/")
    }

    /// The first answer to this key, or the handler's answer, kept for the key. Only for requests it `applies(to:)`.
    func answer(
        _ request: Request, context: TroveRequestContext, next: (Request, TroveRequestContext) async throws -> Response
    ) async throws -> Response {
        let key = request.headers[IdempotencyKey.header] ?? ""
        guard IdempotencyKey.isValid(key) else {
            throw APIError.badRequest("An Idempotency-Key is 1 to 255 visible ASCII characters.")
        }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let fingerprint = IdempotencyKey.fingerprint(method: request.method, uri: request.uri.description, body: body)
        let profileID = try await context.session.requireProfile().id
        let outcome = try await withoutActuallyEscaping(next) { next in
            let handled = UncheckedRequest(request: request, context: context, next: next)
            return try await keys.once(profileID: profileID, key: key, fingerprint: fingerprint) {
                let response = try await handled.next(handled.request, handled.context)
                // A server error keeps no answer, and what the request wrote is rolled back: sending it again runs
                // it again.
                guard response.status.code < 500 else { return (response, nil) }
                let collected = try await response.body.collected()
                var kept = response
                kept.body = .init(byteBuffer: collected)
                let answer = IdempotencyRepository.Answer(
                    status: Int(response.status.code), contentType: response.headers[.contentType], body: Data(buffer: collected))
                return (kept, answer)
            }
        }
        switch outcome {
        case .ran(let response):
            return response
        case .reused:
            throw APIError(
                .unprocessableContent, code: "idempotency_key_reused",
                message: "This Idempotency-Key was used for another request; use a new key for a new request.")
        case .answered(let answer):
            Telemetry.idempotentReplays.increment()
            return Self.replay(answer)
        }
    }

    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    static func replay(_ answer: IdempotencyRepository.Answer) -> Response {
        var headers = HTTPFields()
        if let contentType = answer.contentType { headers[.contentType] = contentType }
        headers[replayed] = "true"
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

/// The handler and its request, carried into the transaction's closure, which runs once, before `answer` returns.
private struct UncheckedRequest: @unchecked Sendable {
    let request: Request
    let context: TroveRequestContext
    let next: (Request, TroveRequestContext) async throws -> Response
}
