//! Helpers shared by the unit tests.

/// Deterministic pseudo-random strings over `alphabet` (xorshift), for no-panic tests.
pub fn random_strings(alphabet: &[char], count: usize, max_len: u64, seed: u64) -> impl Iterator<Item = String> + '_ {
    let mut below = random_below(seed);
    (0..count).map(move |_| {
        let len = below(max_len as usize);
        (0..len).map(|_| alphabet[below(alphabet.len())]).collect()
    })
}

/// A deterministic pseudo-random number generator (xorshift): each call gives a number below `n`.
pub fn random_below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}
