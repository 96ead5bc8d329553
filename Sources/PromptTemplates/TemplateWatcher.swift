import Foundation
import PromptDomain
import ServiceLifecycle

/// Reloads the templates when a file in `prompts/` changes (`PROMPTS_WATCH_INTERVAL`).
///
/// It polls a fingerprint of the files' contents, not inotify: the folder is a few kilobytes, polling works the same
/// everywhere (bind-mounted containers too), and an editor's save-by-rename is just another change. A change is acted
/// on once the fingerprint holds for two polls in a row, so an edit still being written is not loaded half-way.
package struct TemplateWatcher: Service {
    package let library: TemplateLibrary
    package let interval: Duration
    /// The files just after the library loaded them: if taken at service start, an edit in between was never reloaded.
    private let loaded: String

    package func run() async throws {
        var previous = loaded
        var acted = loaded
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            // Ends early, without error, when shutdown begins.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            let current = Self.fingerprint(of: library.directory)
            if current == previous, current != acted {
                library.reload(trigger: "file change")
                acted = current
            }
            previous = current
        }
    }

    /// A hash over the path and contents of every file in `directory` and its folders but `fixtures/` (test data).
    package static func fingerprint(of directory: String) -> String {
        let root = URL(fileURLWithPath: directory)
        let manager = FileManager.default
        var paths: [String] = []
        for entry in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] where entry != "fixtures" {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: root.appendingPathComponent(entry).path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                paths += ((try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(entry).path)) ?? []).map { "\(entry)/\($0)" }
            } else {
                paths.append(entry)
            }
        }
        var material = ""
        for path in paths.sorted() {
            let contents = (try? Data(contentsOf: root.appendingPathComponent(path))) ?? Data()
            material += "\(path)\u{0}\(ContentHash.sha256Hex(contents))\u{0}"
        }
        return ContentHash.sha256Hex(material)
    }

    package init(library: TemplateLibrary, interval: Duration) {
        self.library = library
        self.interval = interval
        self.loaded = Self.fingerprint(of: library.directory)
    }
}
