extension String {
    /// `replacing(target, with: replacement)`, but `self` at once when the target's first byte is nowhere in it: the
    /// standard `replacing` runs its generic search even with nothing to find, on every line and word judged. The
    /// result is the same for targets with no other canonical spelling (ASCII, curly quotes): every use here.
    package func replacingIfPresent(_ target: String, with replacement: String) -> String {
        guard let first = target.utf8.first, utf8.contains(first) else { return self }
        return replacing(target, with: replacement)
    }
}
