//! How much text one analysis may read, counting every `sh -c` payload and backtick body it
//! reads again.
//!
//! Reading a payload again is what makes nesting expensive: in `sh -c "x $(sh -c "x $(…)")"` the
//! outer parser follows each substitution where it stands, and then again inside every payload
//! around it, so the work doubles per level. Within 24 levels a 2 KiB line made 1.5 million items
//! in 2.4 s (fuzzing found it). The budget is a constant, not a multiple of the line's length, so
//! a sub-command analysed on its own never runs out where the whole line did not.

/// Text one analysis reads in all, the line included: four times the longest input, so a 64 KiB
/// script in `bash -c '…'` with its backticks is read in full.
pub(super) const READ_BUDGET_BYTES: usize = 4 * crate::limits::MAX_INPUT_BYTES;

/// Why a payload or backtick body was not read: the line is not vouched for.
pub(super) const EXHAUSTED: &str = "the line reads its own text again (nested shell payloads) more than toolgate follows";

/// The bytes an analysis may still read.
#[derive(Debug)]
pub(super) struct ReadBudget {
    left: usize,
}

impl ReadBudget {
    /// The budget of one analysis after reading `line`. A line longer than the budget is still read
    /// once (that is linear); nothing in it is read again.
    pub(super) fn for_line(line: &str) -> Self {
        ReadBudget { left: READ_BUDGET_BYTES.saturating_sub(line.len()) }
    }

    /// Takes `text` from the budget; `false`, taking nothing, when it does not fit.
    pub(super) fn take(&mut self, text: &str) -> bool {
        match self.left.checked_sub(text.len()) {
            Some(left) => {
                self.left = left;
                true
            }
            None => false,
        }
    }

    /// Hands the whole budget to a nested reader; give it back with `restore`.
    pub(super) fn lend(&mut self) -> ReadBudget {
        ReadBudget { left: std::mem::take(&mut self.left) }
    }

    /// Takes back what a nested reader left.
    pub(super) fn restore(&mut self, returned: ReadBudget) {
        self.left = returned.left;
    }
}
