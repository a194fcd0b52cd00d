import Foundation

/// Dates are stored as whole milliseconds since 1970 in BIGINT columns, the same on every database.
extension Date {
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    public init(millisecondsSince1970 value: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(value) / 1000)
    }
}
