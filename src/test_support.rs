//! Helpers shared by the unit tests.

/// Deterministic pseudo-random strings over `alphabet` (xorshift), for no-panic tests.
pub fn random_strings(alphabet: &[char], count: usize, max_len: u64, mut seed: u64) -> impl Iterator<Item = String> + '_ {
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..count).map(move |_| {
        let len = next() % max_len;
        (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect()
    })
}
