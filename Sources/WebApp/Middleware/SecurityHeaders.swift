import HTTPTypes
import Hummingbird

/// Headers every response carries: no inline scripts, no framing, no MIME sniffing, a request id.
enum SecurityHeaders {
    static let contentSecurityPolicy = [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        // Pictures from https: too: stories may name pictures by absolute address (as the original format
        // allows), and City Roulette draws OpenStreetMap tiles when a person turns the street map on.
        "img-src 'self' data: blob: https:",
        "connect-src 'self'",
        "font-src 'self'",
        "media-src 'self' https:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        // No manifest-src: default-src covers the manifest, and WebKit logs the directive as unknown on every page.
        "worker-src 'self'",
    ].joined(separator: "; ")

    /// The fixed headers, made (and their values checked) once, not per response: no handler sets any of them.
    static let policy = HTTPField(name: .contentSecurityPolicy, value: contentSecurityPolicy)
    static let fixed: [HTTPField] = [
        HTTPField(name: .xContentTypeOptions, value: "nosniff"),
        HTTPField(name: .referrerPolicy, value: "strict-origin-when-cross-origin"),
        HTTPField(name: .xFrameOptions, value: "DENY"),
        HTTPField(name: .crossOriginOpenerPolicy, value: "same-origin"),
        HTTPField(name: .permissionsPolicy, value: "geolocation=(self), camera=(), microphone=()"),
    ]

    /// The site's policy, unless the answer set a stricter one of its own (an uploaded picture's).
    static func apply(to headers: inout HTTPFields, requestID: String) {
        headers.reserveCapacity(headers.count + fixed.count + 2)
        if !headers.contains(.contentSecurityPolicy) { headers.append(policy) }
        headers.append(contentsOf: fixed)
        headers.append(HTTPField(name: HTTPField.Name.xRequestID, value: requestID))
    }
}
