import Accounts
import Testing

@Suite struct GuestWorkTests {
    func item(_ kind: String, _ count: Int) -> GuestWork.Item {
        let singular = ["poems": "poem", "cities": "city", "favourites": "favourite"][kind] ?? kind
        return GuestWork.Item(kind: kind, count: count, singular: singular, plural: kind)
    }

    @Test func saysWhatWillComeAlongInPlainWords() {
        #expect(GuestWork(items: []).summary == "")
        #expect(GuestWork(items: [item("poems", 0)]).isEmpty)
        #expect(GuestWork(items: [item("poems", 1)]).summary == "1 poem")
        #expect(GuestWork(items: [item("poems", 3), item("cities", 0), item("favourites", 2)]).summary == "3 poems and 2 favourites")
        #expect(
            GuestWork(items: [item("cities", 1), item("poems", 3), item("favourites", 2)]).summary == "1 city, 3 poems and 2 favourites")
    }
}
