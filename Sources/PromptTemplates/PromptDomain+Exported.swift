// The domain is this layer's vocabulary: every file here speaks it, and so does every client of this module.
@_exported import PromptDomain
