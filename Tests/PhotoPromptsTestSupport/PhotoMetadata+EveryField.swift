import PhotoPrompts
import PromptDomain

extension PhotoMetadata {
    /// A photo with every property set and `text` in each free-text field, for tests that a property written and
    /// read back survives whatever characters it holds. (`unsetProperties(of:)` finds a property added later.)
    public static func everyField(text: String, peopleCount: Int) -> PhotoMetadata {
        PhotoMetadata(
            takenAt: "2026-11-01T09:30:00.5+01:00",
            location: .init(name: text, locality: "Portimão", country: "PT", latitude: 37.12, longitude: -8.5e-5),
            labels: ["beach", text, ""],
            peopleCount: peopleCount,
            caption: text,
            source: "library"
        )
    }
}
