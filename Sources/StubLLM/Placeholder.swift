import Hummingbird
public enum StubPlaceholder {}
