/// An optional the JSON shows as `null` when absent, instead of leaving the key out (what Swift's synthesized
/// `Encodable` does): API clients can then tell "no value" from "not part of this answer".
@propertyWrapper
struct Nullable<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension Nullable: Sendable where Value: Sendable {}
