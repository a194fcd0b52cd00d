import Hummingbird
import Testing

@testable import WebApp

/// Reading one cookie from the Cookie header in place (`Request.cookieValue`), as Hummingbird's `cookies` reads it.
@Suite struct CookieValueTests {
    @Test func findsTheNamedCookieAmongOthers() {
        let header = "theme=dark; trove_session_old=stale;trove_session=abc=def;  other=1"
        #expect(Request.cookieValue("trove_session", in: header) == "abc=def")
        #expect(Request.cookieValue("theme", in: header) == "dark")
        #expect(Request.cookieValue("other", in: header) == "1")
        #expect(Request.cookieValue("trove_session_old", in: header) == "stale")
    }

    @Test func aMissingOrNamelessCookieIsNil() {
        #expect(Request.cookieValue("trove_session", in: "") == nil)
        #expect(Request.cookieValue("trove_session", in: "trove_sessio=x; xtrove_session=y; trove_session") == nil)
        #expect(Request.cookieValue("trove_session", in: ";;; ;") == nil)
        #expect(Request.cookieValue("trove_session", in: "trove_session=") == "")
    }

    @Test func theFirstOfTwoWithOneNameWinsAsInHummingbird() {
        let header = "trove_session=first; trove_session=second"
        #expect(Request.cookieValue("trove_session", in: header) == "first")
        #expect(Cookies(from: [header])["trove_session"]?.value == "first")
    }
}
