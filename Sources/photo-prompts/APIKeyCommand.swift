import ArgumentParser
import PhotoPrompts

/// `photo-prompts api-key`: makes a client key and prints the `API_KEYS` entry that accepts it.
struct APIKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-key",
        abstract: "Make a new client API key; print it once, with the API_KEYS entry (its SHA-256) to configure."
    )

    @Option(help: "The client's name, as it appears in logs and owns its sessions, e.g. ios.")
    var name: String

    func validate() throws {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw ValidationError("--name must be letters, digits, '-' and '_'")
        }
    }

    func run() {
        let (key, entry) = ClientKeys.generate(name: name)
        print("key (give it to the client; it is not stored anywhere): \(key)")
        print("API_KEYS entry (add it, comma-separated, to the service's configuration): \(entry)")
    }
}
