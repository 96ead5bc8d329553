import Foundation
import PromptDomain
import ServiceLifecycle

/// Reloads the templates when a file in `prompts/` changes (`PROMPTS_WATCH_INTERVAL`).
///
/// It polls a fingerprint of the files' contents rather than using inotify: the folder is a few kilobytes, polling
/// works the same on every platform and inside containers with bind mounts, and an editor's save-by-rename is just
/// another change. A change is acted on once the fingerprint has been the same for two polls in a row, so an edit
/// still being written is not loaded half-way.
package struct TemplateWatcher: Service {
    package let library: TemplateLibrary
    package let interval: Duration
    /// The files as they were when the app was built, just after the library loaded them: taken when the service
    /// starts instead, an edit made in between was taken for the loaded version and never reloaded.
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

    /// A hash over the path and contents of every file in `directory` and its template folders; `fixtures/` is
    /// skipped, being test data rather than something the service loads.
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
