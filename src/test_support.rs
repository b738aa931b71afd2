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

thread_local! {
    /// Steps of work counted on this thread by code that promises a bound on its work (a reader
    /// that reads each character a bounded number of times, a matcher without backtracking).
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `n` steps of work; shipped code calls it in test builds only.
pub fn steps(n: usize) {
    STEPS.with(|s| s.set(s.get() + n as u64));
}

/// The steps of work `f` took on this thread: tests bound work by comparing inputs of different
/// sizes, without timing anything.
pub fn steps_of(f: impl FnOnce()) -> u64 {
    let before = STEPS.with(std::cell::Cell::get);
    f();
    STEPS.with(std::cell::Cell::get) - before
}
