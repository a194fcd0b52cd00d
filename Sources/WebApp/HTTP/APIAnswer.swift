import Hummingbird

/// An answer of the JSON API: a JSON type of the web layer, which a handler returns as it is (`-> PoemJSON`), encoded
/// the one way every answer is (`JSONResponse`). Another status or headers: `EditedResponse(status: .created,
/// response: …)`; no body: return the status (`-> HTTPResponse.Status`, `.noContent`).
protocol APIAnswer: Encodable, ResponseGenerator {}

extension APIAnswer {
    func response(from request: Request, context: some RequestContext) -> Response { JSONResponse.make(self) }
}

/// Any other encodable value as an answer, encoded as it is: a list (`APIValue([PoemJSON])`; an array cannot be an
/// `APIAnswer` itself, not being Trove's type) or a value of a pure module whose shape is the seed's own (`WordSet`).
struct APIValue<Value: Encodable & Sendable>: APIAnswer {
    let value: Value

    init(_ value: Value) { self.value = value }

    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }

    func response(from request: Request, context: some RequestContext) -> Response { JSONResponse.make(value) }
}
