//! Which of a rule set's required literals a text contains, found in one pass over its bytes.
//!
//! Rules that pin no leading word (`mkfs\.`, `/etc/shadow`, `dd\s+if=/dev/`) are checked against
//! every item; each carries a literal every match must contain. Searching for each literal in
//! turn costs one substring search per rule per item; the sieve reads the text once and marks
//! every literal that starts at each byte, so the regex runs only for rules whose literal is
//! there. It answers exactly what `text.contains(literal)` answers (a test compares them).

/// At most this many literals are sieved (one bit each); the rest are searched one by one.
pub const CAPACITY: usize = 64;

/// Up to [`CAPACITY`] literals, indexed by their first byte.
#[derive(Debug, Clone)]
pub struct LiteralSieve {
    /// Each literal's bytes (ASCII-lowercased when it ignores case) and whether it ignores case.
    literals: Vec<(Box<[u8]>, bool)>,
    /// For each byte value, the literals that can start with it.
    starting_with: Box<[u64; 256]>,
}

impl Default for LiteralSieve {
    fn default() -> Self {
        LiteralSieve { literals: Vec::new(), starting_with: Box::new([0; 256]) }
    }
}

impl LiteralSieve {
    /// Adds a literal and returns its bit, or `None` when the sieve is full or the literal empty.
    /// A case-insensitive literal must already be ASCII-lowercased.
    pub fn add(&mut self, literal: &str, ignore_case: bool) -> Option<u32> {
        let first = *literal.as_bytes().first()?;
        if self.literals.len() >= CAPACITY {
            return None;
        }
        let bit = u32::try_from(self.literals.len()).ok()?;
        let mask = 1u64 << bit;
        for b in [first, if ignore_case { first.to_ascii_uppercase() } else { first }] {
            if let Some(slot) = self.starting_with.get_mut(usize::from(b)) {
                *slot |= mask;
            }
        }
        self.literals.push((literal.as_bytes().into(), ignore_case));
        Some(bit)
    }

    /// The bits of the literals `text` contains.
    pub fn present(&self, text: &str) -> u64 {
        let all = if self.literals.len() >= CAPACITY { u64::MAX } else { (1u64 << self.literals.len()) - 1 };
        let bytes = text.as_bytes();
        let starts = |b: u8| self.starting_with.get(usize::from(b)).copied().unwrap_or(0);
        let mut found = 0u64;
        let mut at = 0;
        // Most bytes start no literal still missing: a tight scan skips them.
        while let Some(skip) = bytes.get(at..).and_then(|rest| rest.iter().position(|&b| starts(b) & !found != 0)) {
            at += skip;
            let rest = bytes.get(at..).unwrap_or_default();
            let mut candidates = rest.first().map_or(0, |&b| starts(b)) & !found;
            while candidates != 0 {
                let bit = candidates.trailing_zeros();
                candidates &= candidates - 1;
                if self.literals.get(bit as usize).is_some_and(|(literal, ignore_case)| starts_with(rest, literal, *ignore_case)) {
                    found |= 1 << bit;
                }
            }
            if found == all {
                break;
            }
            at += 1;
        }
        found
    }
}

fn starts_with(text: &[u8], literal: &[u8], ignore_case: bool) -> bool {
    match text.get(..literal.len()) {
        Some(head) if ignore_case => head.iter().zip(literal).all(|(t, l)| t.to_ascii_lowercase() == *l),
        Some(head) => head == literal,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sieve against `contains` on random texts over a small alphabet, with both cases.
    #[test]
    fn the_sieve_finds_exactly_what_contains_finds() {
        let alphabet = ["a", "b", "A", "B", "ab", "/", "é", " ", "x"];
        let mut seed = 11u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..3000 {
            let mut sieve = LiteralSieve::default();
            let mut literals = Vec::new();
            for _ in 0..1 + next(6) {
                let ignore_case = next(2) == 0;
                let mut literal: String = (0..1 + next(3)).map(|_| alphabet[next(alphabet.len())]).collect();
                if ignore_case {
                    literal = literal.to_ascii_lowercase();
                }
                if let Some(bit) = sieve.add(&literal, ignore_case) {
                    literals.push((bit, literal, ignore_case));
                }
            }
            let text: String = (0..next(12)).map(|_| alphabet[next(alphabet.len())]).collect();
            let present = sieve.present(&text);
            for (bit, literal, ignore_case) in &literals {
                let expected =
                    if *ignore_case { text.to_ascii_lowercase().contains(literal.as_str()) } else { text.contains(literal.as_str()) };
                assert_eq!(present & (1 << bit) != 0, expected, "{literal:?} (ignore case: {ignore_case}) in {text:?}");
            }
        }
    }

    #[test]
    fn a_full_sieve_refuses_more_literals() {
        let mut sieve = LiteralSieve::default();
        for i in 0..CAPACITY {
            assert!(sieve.add(&format!("<{i}>"), false).is_some());
        }
        assert_eq!(sieve.add("more", false), None);
        assert_eq!(sieve.add("", false), None);
        assert_eq!(sieve.present("<0> <63>"), 1 | 1 << 63);
    }
}
