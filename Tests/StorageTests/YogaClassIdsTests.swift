import Testing

@testable import Storage

@Suite struct YogaClassIdsTests {
    @Test func attendeeIdsSplitAtTheirCommas() {
        #expect(YogaClassRepository.ids("") == [])
        #expect(YogaClassRepository.ids("s1") == ["s1"])
        #expect(YogaClassRepository.ids("s1,s2,s1") == ["s1", "s2", "s1"])
        #expect(YogaClassRepository.ids(",s1,,é北,") == ["s1", "é北"])
    }
}
