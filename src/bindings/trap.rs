//! Traps on demand, for the resilience tests only (`--features trap-test`, never in the
//! published package). A trap — a panic, an out-of-memory, an `unreachable` — kills the wasm
//! instance; `tests/js/resilience.test.mjs` shows the JavaScript wrapper answering that call
//! fail-closed and re-instantiating the module.
// An allocator that can trap is an unsafe trait's implementation; never in a shipped build.
#![allow(unsafe_code)]

use super::small_blocks::SmallBlocks;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU32, Ordering};
use wasm_bindgen::prelude::*;

/// Allocations left before the armed allocator traps; 0 when disarmed. It lives in linear
/// memory, so a fresh instance starts disarmed.
static TRAP_AFTER: AtomicU32 = AtomicU32::new(0);

/// The published builds' allocator, which can be armed to trap inside a later call (so the trap
/// happens in the middle of a real decision, not only in this module's own export).
struct ArmedAllocator(SmallBlocks<System>);

// SAFETY: every call is forwarded unchanged to the published builds' allocator; arming only adds
// a trap before it.
unsafe impl GlobalAlloc for ArmedAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        trap_if_due();
        // SAFETY: the caller's contract is the inner allocator's.
        unsafe { self.0.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is the inner allocator's.
        unsafe { self.0.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        trap_if_due();
        // SAFETY: the caller's contract is the inner allocator's.
        unsafe { self.0.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: ArmedAllocator = ArmedAllocator(SmallBlocks::new(System));

fn trap_if_due() {
    match TRAP_AFTER.load(Ordering::Relaxed) {
        0 => {}
        1 => core::arch::wasm32::unreachable(),
        n => TRAP_AFTER.store(n - 1, Ordering::Relaxed),
    }
}

/// Disarms the allocator (takes no argument, so calling it allocates nothing).
#[wasm_bindgen(js_name = __toolgateDisarmForTest)]
pub fn disarm_for_test() {
    TRAP_AFTER.store(0, Ordering::Relaxed);
}

/// Traps the instance. `kind`: `"unreachable"` (now), `"panic"` (a Rust panic, which aborts),
/// `"outOfMemory"` (the allocation-failure path), or `"allocation"` (arms the allocator: the
/// `after`-th allocation from now traps, inside whichever call makes it; default 1).
#[wasm_bindgen(js_name = __toolgateTrapForTest)]
#[allow(clippy::panic)]
pub fn trap_for_test(kind: &str, after: Option<u32>) {
    match kind {
        "panic" => panic!("toolgate trap-test: a panic on demand"),
        "outOfMemory" => std::alloc::handle_alloc_error(Layout::new::<[u8; 1 << 20]>()),
        "allocation" => TRAP_AFTER.store(after.unwrap_or(1).max(1), Ordering::Relaxed),
        _ => core::arch::wasm32::unreachable(),
    }
}
