//! Known findings: property failures already reported, each kept as a `crash-*` input with a
//! regression test of its own. A long campaign (and the smoke run) may pass their ids in
//! `TOOLGATE_FUZZ_KNOWN` (comma-separated; `fuzz/known-findings.txt` lists them) so it goes on
//! looking for new failures instead of stopping at the same one. The corpus replay tolerates them
//! for its own thread only ([`tolerating`]), since the corpus a campaign kept may reach them; the
//! crash tests never do, so a known finding fails there until it is fixed.

use std::cell::RefCell;

/// The variable a campaign sets to tolerate known findings.
pub const VARIABLE: &str = "TOOLGATE_FUZZ_KNOWN";

thread_local! {
    /// Ids tolerated on this thread, over the variable (tests run in parallel threads of one process).
    static TOLERATED: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Whether the finding `id` is tolerated in this run.
pub fn tolerated(id: &str) -> bool {
    let local = TOLERATED.with(|t| t.borrow().as_ref().map(|ids| ids.iter().any(|known| known == id)));
    local.unwrap_or_else(|| std::env::var(VARIABLE).is_ok_and(|ids| ids.split(',').any(|known| known.trim() == id)))
}

/// The ids listed in a known-findings file: the first word of each line that is not a comment.
pub fn ids_in(listing: &str) -> Vec<String> {
    listing.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split_whitespace().next()).map(str::to_owned).collect()
}

/// Runs `f` with these findings tolerated on this thread.
pub fn tolerating<R>(ids: Vec<String>, f: impl FnOnce() -> R) -> R {
    TOLERATED.with(|t| *t.borrow_mut() = Some(ids));
    let result = f();
    TOLERATED.with(|t| *t.borrow_mut() = None);
    result
}
