import ObliqueStrategies
import Testing

@Suite struct EditionLabelTests {
    @Test func editionsAreNamedWithTheirYears() {
        #expect(EditionLabel.label(edition: 1, name: "Edition 1") == "1st edition (1975)")
        #expect(EditionLabel.label(edition: 2, name: "Edition 2") == "2nd edition (1978)")
        #expect(EditionLabel.label(edition: 3, name: "Edition 3") == "3rd edition (1979)")
        #expect(EditionLabel.label(edition: 4, name: "Edition 4") == "4th edition (1996)")
    }

    @Test func anEditionWithoutAKnownYearOrAnExtraSectionKeepsItsName() {
        #expect(EditionLabel.label(edition: 11, name: "Edition 11") == "11th edition")
        #expect(EditionLabel.label(edition: 22, name: "Edition 22") == "22nd edition")
        #expect(EditionLabel.label(edition: 100, name: "Extra") == "Extra")
        #expect(EditionLabel.label(edition: 101, name: "Edition 1") == "Edition 1")
    }
}
