// The layers the server stands on, down to the domain: the server's public API (AppConfiguration, buildApplication,
// the controllers) takes their types, so a client of PhotoPrompts sees them without more imports.
@_exported import PromptGeneration
