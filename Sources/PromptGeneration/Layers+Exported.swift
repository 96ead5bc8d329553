// The layers generation stands on: a session renders templates, asks backends and keeps its rounds in the stores, and
// its public API takes their types.
@_exported import PromptBackends
@_exported import PromptStores
@_exported import PromptTemplates
