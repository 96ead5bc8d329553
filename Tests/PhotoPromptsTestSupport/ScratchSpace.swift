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
    let folder = scratchParent.appendingPathComponent("photo-prompts-tests-\(getpid())-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: scratchFolder) }
    return folder
}()

/// `TMPDIR` when set; otherwise `/dev/shm`, memory, where there is one with a gigabyte free (a container's is often
/// 64 MB). A run makes thousands of files (every test that edits templates copies `prompts/`), and on a disk's file
/// system, making them cost more CPU than any test (docs/TESTING.md). SQLite's files there are files all the same:
/// they outlive the processes that wrote them.
private let scratchParent: URL = {
    let shm = "/dev/shm"
    var space = statvfs()
    if ProcessInfo.processInfo.environment["TMPDIR"] == nil, access(shm, W_OK) == 0, statvfs(shm, &space) == 0,
        UInt64(space.f_bavail) * UInt64(space.f_frsize) >= 1 << 30
    {
        return URL(fileURLWithPath: shm)
    }
    return FileManager.default.temporaryDirectory
}()
