/// Recognises a picture by its first bytes, never by its name or claimed type.
public enum ImageKind: String, Sendable {
    case jpeg, png, webp, gif

    public static let maximumBytes = 10 * 1024 * 1024

    public var contentType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        }
    }

    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else {
            return nil
        }
    }
}
