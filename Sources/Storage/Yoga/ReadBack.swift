import YogiYogini

extension Optional {
    /// A record read back after its write, or `error` when it is gone by then: a request running beside this one (the
    /// record's deletion, or the whole profile's) removed it between the write and the read.
    func readBack(or error: YogaError) throws -> Wrapped {
        guard let value = self else { throw error }
        return value
    }
}
