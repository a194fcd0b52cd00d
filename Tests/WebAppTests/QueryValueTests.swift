import Hummingbird
import HummingbirdCore
import Testing

@testable import WebApp

/// Reading one query parameter in place (`Request.queryValue`), as Hummingbird's `uri.queryParameters` reads it.
@Suite struct QueryValueTests {
    static let queries = [
        "lat=48.85&lon=2.35&radius_km=10&limit=30",
        "q=S%C3%A3o%20Paulo&limit=5",
        "q=new+york",
        "q=caf%C3%A9&q=second",
        "flag&q=x",
        "q=&limit=1",
        "q=a=b=c",
        "&&q=1&&",
        "q=%zz&r=%4",
        "q=%FF%FE",
        "Q=upper&q=lower",
        "q%20x=1&q=2",
        "limit=1&lim=2&limitx=3",
        "",
    ]

    @Test(arguments: queries)
    func readsEachNameAsHummingbirdDoes(_ query: String) {
        let parameters = URI("/api?\(query)").queryParameters
        for name in ["q", "lat", "lon", "radius_km", "limit", "lim", "flag", "r", "Q", "q x", "missing"] {
            #expect(
                Request.queryValue(name, in: query).map { String($0) } == parameters.get(name).map { String($0) },
                "\(name) in \(query)")
        }
    }

    @Test func decodesOnlyWhatNeedsIt() {
        #expect(Request.queryValue("q", in: "q=S%C3%A3o%20Paulo") == "São Paulo")
        #expect(Request.queryValue("q", in: "q=%zz") == "%zz")
        #expect(Request.queryValue("q", in: "q=new+york") == "new+york")
        #expect(Request.queryValue("q", in: "a=1&q") == "")
        #expect(Request.queryValue("q", in: "a=1") == nil)
    }
}
