import PromptDomain

extension SeenPrompts {
    /// Framed against `photo`'s own words, signed by the rules of the prompts' language, as a request's plan signs
    /// them (``RequestPlan/photoSignature``).
    package func framing(_ photo: PhotoMetadata, angles: Angles) -> SeenPrompts {
        framing(PromptSignature(photo: photo, language: language), angles: angles)
    }
}
