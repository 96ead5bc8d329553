import Foundation
import Hummingbird

/// The console's page, script and style from `CONSOLE_DIRECTORY`, and Debian's Chart.js: nothing from outside.
/// It holds no data and no key, so it is served without one; its script sends the key the operator types in.
struct ConsolePage<Context: RequestContext>: Sendable {
    let directory: String
    let chartLibrary: String

    /// The console's own files, by the name they are served under, and their type.
    private static var files: [String: (file: String, type: String)] {
        [
            "": ("index.html", "text/html; charset=utf-8"),
            "console.js": ("console.js", "text/javascript; charset=utf-8"),
            "console.css": ("console.css", "text/css; charset=utf-8"),
        ]
    }

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get { request, _ in try serve("", request: request) }
            .get(":file") { request, context in try serve(try context.parameters.require("file"), request: request) }
    }

    private func serve(_ name: String, request: Request) throws -> Response {
        let path: String
        let type: String
        if name == "chart.js" {
            (path, type) = (chartLibrary, "text/javascript; charset=utf-8")
        } else if let file = Self.files[name] {
            (path, type) = ("\(directory)/\(file.file)", file.type)
        } else {
            throw APIError(.notFound, code: "not_found", message: "The console has no file \"\(name)\".")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw APIError(
                .notFound,
                code: "console_file_missing",
                message: name == "chart.js"
                    ? "Chart.js is not at \(path): install Debian's libjs-chart.js (make deps) or set CONSOLE_CHART_JS."
                    : "\(path) cannot be read: set CONSOLE_DIRECTORY to the repository's console folder."
            )
        }
        // The page must never be framed or cached with a key in it; it carries none, but an operator's tab does.
        return Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-store", .init("X-Frame-Options")!: "DENY",
                .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
