import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// Answers a state-changing API request sent again with the same `Idempotency-Key` with its first answer,
/// so an outbox replaying after a lost connection never creates a second student, session, card or favourite.
///
/// Keys belong to the profile. The same key with another request is 422 `idempotency_key_reused`; while the
/// first is still being answered, 409 `idempotency_key_in_use`. Answers of 500 and above, and errors, are not
/// kept: sending again runs the request again. The account routes (sign-in changes the profile) take no key.
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
        switch try await keys.claim(profileID: profileID, key: key, fingerprint: fingerprint) {
        case .reused:
            throw APIError(
                .unprocessableContent, code: "idempotency_key_reused",
                message: "This Idempotency-Key was used for another request; use a new key for a new request.")
        case .inProgress:
            throw APIError(
                .conflict, code: "idempotency_key_in_use",
                message: "The request with this Idempotency-Key is still being answered; try again in a moment.",
                headers: [.retryAfter: "1"])
        case .answered(let answer):
            Telemetry.idempotentReplays.increment()
            return Self.replay(answer)
        case .claimed:
            let response: Response
            do {
                response = try await next(request, context)
            } catch {
                try? await keys.release(profileID: profileID, key: key)
                throw error
            }
            guard response.status.code < 500 else {
                try? await keys.release(profileID: profileID, key: key)
                return response
            }
            let collected = try await response.body.collected()
            let answer = IdempotencyRepository.Answer(
                status: Int(response.status.code), contentType: response.headers[.contentType], body: Data(buffer: collected)
            )
            try await keys.record(profileID: profileID, key: key, answer: answer)
            var kept = response
            kept.body = .init(byteBuffer: collected)
            return kept
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
