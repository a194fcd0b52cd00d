import Testing

@testable import WebApp

@Suite struct RouteMethodsTests {
    let table: RouteMethods = {
        let table = RouteMethods()
        table.load([
            ("/api/v1/cards/{id}", "GET"), ("/api/v1/cards/{id}", "PUT"), ("/api/v1/cards/random", "GET"),
            ("/api/v1/cards", "POST"), ("/static/**", "GET"), ("/", "GET"), ("/account", "POST"),
        ])
        return table
    }()

    @Test func aPathGetsTheMethodsOfTheRouteTheRouterWouldChoose() {
        #expect(table.allowed(for: "/api/v1/cards/7") == ["GET", "HEAD", "PUT"])
        #expect(table.allowed(for: "/api/v1/cards/random") == ["GET", "HEAD"])
        #expect(table.allowed(for: "/api/v1/cards") == ["POST"])
        #expect(table.allowed(for: "/static/abc/css/app.css") == ["GET", "HEAD"])
        #expect(table.allowed(for: "/") == ["GET", "HEAD"])
        #expect(table.allowed(for: "/account/") == ["POST"])
    }

    @Test func aPathNoRouteHasGetsNothing() {
        #expect(table.allowed(for: "/api/v1/cards/7/extra") == nil)
        #expect(table.allowed(for: "/api/v1") == nil)
        #expect(table.allowed(for: "/static") == nil)
        #expect(table.allowed(for: "/nothing") == nil)
    }
}
