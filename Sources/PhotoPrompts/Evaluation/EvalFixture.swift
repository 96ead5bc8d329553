import Foundation

/// One photo of an evaluation set: a line of a `.jsonl` file, `{"name": "beach", "photo": {...}, "locale": "en-US"}`.
public struct EvalFixture: Sendable {
    /// A short name for tables and reports.
    public var name: String
    /// The validated request, exactly as the API would see it.
    public var request: ValidatedPromptRequest

    /// Reads every non-blank line of `path`.
    /// - Throws: ``EvalFixtureError`` naming the file, line and field at fault.
    public static func load(from path: String) throws -> [EvalFixture] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw EvalFixtureError(description: "\(path): cannot be read (\(error.localizedDescription))")
        }
        var fixtures: [EvalFixture] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            let location = "\(path):\(index + 1)"
            guard let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any] else {
                throw EvalFixtureError(description: "\(location): not a JSON object")
            }
            let name = object["name"] as? String ?? "line \(index + 1)"
            do {
                let request = try PromptPreview.request(fromJSON: Data(trimmed.utf8))
                fixtures.append(EvalFixture(name: name, request: request))
            } catch let error as APIError {
                throw EvalFixtureError(description: "\(location) (\(name)): \(error.message)")
            }
        }
        guard !fixtures.isEmpty else { throw EvalFixtureError(description: "\(path): no fixtures") }
        return fixtures
    }
}

public struct EvalFixtureError: Error, CustomStringConvertible {
    /// File, line and problem.
    public var description: String
}
