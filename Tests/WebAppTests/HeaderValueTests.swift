import HTTPTypes
import Testing

@testable import WebApp

/// `HTTPFields.value`, which the pipeline reads headers with: the same answer as HTTPTypes' subscript.
@Suite struct HeaderValueTests {
    @Test func readsAsTheSubscriptDoes() {
        var fields: HTTPFields = [.contentType: "application/json", .vary: "Origin", .acceptEncoding: "br"]
        fields.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        let names: [HTTPField.Name] = [.contentType, .vary, .acceptEncoding, .cookie, .eTag, .contentEncoding]
        for name in names {
            #expect(fields.value(name) == fields[name], "\(name)")
        }
        #expect(fields.value(.vary) == "Origin, Accept-Encoding")
        #expect(fields.value(.cookie) == "a=1; b=2")
        #expect(fields.value(.eTag) == nil)
        #expect(fields.value(.contentType) == "application/json")
        #expect(HTTPFields().value(.contentType) == nil)
    }

    @Test func namesMatchWhateverTheirCase() {
        let fields: HTTPFields = [HTTPField.Name("X-Forwarded-Proto")!: "https"]
        #expect(fields.value(HTTPField.Name("x-forwarded-proto")!) == "https")
    }
}
