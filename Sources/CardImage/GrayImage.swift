/// An 8-bit grayscale image, row by row: 0 is black, 255 white.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, fill: UInt8 = 0) {
        precondition(width > 0 && height > 0, "an image has at least one pixel")
        self.width = width
        self.height = height
        pixels = Array(repeating: fill, count: width * height)
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Paints `color` over the pixel with `alpha` coverage (0…255); pixels outside the image are ignored.
    mutating func blend(x: Int, y: Int, color: UInt8, alpha: UInt8) {
        guard alpha > 0, x >= 0, y >= 0, x < width, y < height else { return }
        let index = y * width + x
        let old = Int(pixels[index])
        pixels[index] = UInt8(old + ((Int(color) - old) * Int(alpha) + 127) / 255)
    }
}
