import Foundation

/// A path no other test uses, for a file or folder the test creates: `name-<UUID>` inside this test process's own
/// scratch folder. The whole folder is deleted when the process exits, so a run leaves nothing in the temporary
/// directory (hundreds of databases, template copies and photos a run).
public func scratchPath(_ name: String) -> URL {
    scratchFolder.appendingPathComponent("\(name)-\(UUID().uuidString)")
}

/// This process's scratch folder, made on first use, with a handler that deletes it at exit. Child processes the
/// tests start write into it too; they have all been stopped by then.
private let scratchFolder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photo-prompts-tests-\(getpid())-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: scratchFolder) }
    return folder
}()
