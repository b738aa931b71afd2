//! Freed small blocks kept by size for the next allocation of that size, in front of the system
//! allocator (dlmalloc in wasm).
//!
//! A decision allocates and frees a few dozen short strings and vectors (words, items, rule
//! references, the message). In wasm each of those went through dlmalloc's bins and chunk
//! headers, about a tenth of a terminal decision; taking a block from a list of freed blocks of
//! its size is a few instructions. The lists are bounded, so what they hold back from the system
//! allocator stays small (64 blocks or 4 KiB of each size, whichever is fewer: at most 235 KiB in
//! all).
//!
//! Single-threaded by design: the wasm build has no threads (no `atomics` target feature), and
//! only that build installs it as the global allocator.
//!
//! The one place `unsafe` is allowed in shipped code (the crate denies it): a global allocator is
//! an unsafe trait. It pays: 1.11–1.12× on explained terminal decisions and 1.07–1.10× on MCP
//! decisions against dlmalloc alone (`bench/ab.mjs`, docs/benchmark.md "Mechanisms beyond the
//! plain algorithm").
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;

/// Blocks of up to this many bytes are kept; larger ones go straight to the system allocator.
/// A line's character table and its items' vectors are a few hundred bytes.
const LARGEST: usize = 512;
/// Sizes are rounded up to a multiple of this, which is also the alignment of every kept block.
const GRAIN: usize = 8;
const CLASSES: usize = LARGEST / GRAIN;
/// At most this many freed blocks of one size are kept, and at most `MOST_BYTES_PER_CLASS` of
/// them; the rest are freed.
const MOST_BLOCKS_PER_CLASS: usize = 64;
const MOST_BYTES_PER_CLASS: usize = 4096;

/// The system allocator `A` with lists of freed blocks of up to [`LARGEST`] bytes.
pub struct SmallBlocks<A> {
    system: A,
    lists: [Cell<FreeList>; CLASSES],
}

/// Freed blocks of one size, linked through their first bytes.
#[derive(Clone, Copy)]
struct FreeList {
    head: *mut u8,
    len: usize,
}

// SAFETY: wasm32 without the `atomics` feature runs one thread, so the lists are never touched
// from two threads at once. No other build installs this as a shared (static) allocator.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl<A: Sync> Sync for SmallBlocks<A> {}

impl<A> SmallBlocks<A> {
    pub const fn new(system: A) -> Self {
        SmallBlocks { system, lists: [const { Cell::new(FreeList { head: std::ptr::null_mut(), len: 0 }) }; CLASSES] }
    }

    /// How many freed blocks of `size` bytes are kept (for tests).
    #[cfg(test)]
    fn kept(&self, size: usize) -> usize {
        let class = Layout::from_size_align(size, 1).ok().and_then(class_of).unwrap_or(usize::MAX);
        self.lists.get(class).map_or(0, |l| l.get().len)
    }
}

/// The size class of a block, or `None` when it is not kept (too large, over-aligned, or empty).
fn class_of(layout: Layout) -> Option<usize> {
    (layout.size() > 0 && layout.size() <= LARGEST && layout.align() <= GRAIN).then(|| layout.size().div_ceil(GRAIN) - 1)
}

/// How many freed blocks of `class` are kept at most: fewer of the larger sizes.
fn kept_limit(class: usize) -> usize {
    (MOST_BYTES_PER_CLASS / ((class + 1) * GRAIN)).min(MOST_BLOCKS_PER_CLASS)
}

/// The layout every block of `class` is allocated with from the system allocator.
fn class_layout(class: usize) -> Layout {
    // The size is a non-zero multiple of GRAIN up to LARGEST and GRAIN is a power of two: always valid.
    Layout::from_size_align((class + 1) * GRAIN, GRAIN).unwrap_or(Layout::new::<u64>())
}

// SAFETY: a kept block was allocated from `system` with its class's layout, which is at least as
// large and as aligned as any layout of that class, and is handed out to one owner at a time: it
// is in a list only between its `dealloc` and the next `alloc` that takes it. Blocks outside the
// classes go to `system` with the caller's own layout.
unsafe impl<A: GlobalAlloc> GlobalAlloc for SmallBlocks<A> {
    // Out of line, as are `dealloc` and `realloc`: inlined into every call site that allocates,
    // they grew the .wasm by 3–4%.
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class_of(layout) else {
            // SAFETY: the caller's contract is `system.alloc`'s.
            return unsafe { self.system.alloc(layout) };
        };
        if let Some(cell) = self.lists.get(class) {
            let list = cell.get();
            if !list.head.is_null() {
                // SAFETY: a kept block holds the next one's address in its first bytes (a block
                // is at least GRAIN bytes and GRAIN-aligned).
                let next = unsafe { list.head.cast::<*mut u8>().read() };
                cell.set(FreeList { head: next, len: list.len - 1 });
                return list.head;
            }
        }
        // SAFETY: a valid, non-zero layout.
        unsafe { self.system.alloc(class_layout(class)) }
    }

    #[inline(never)] // As `alloc`.
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let Some(class) = class_of(layout) else {
            // SAFETY: the caller's contract is `system.dealloc`'s; the block came from `system`
            // with this layout.
            return unsafe { self.system.dealloc(ptr, layout) };
        };
        if let Some(cell) = self.lists.get(class) {
            let list = cell.get();
            if list.len < kept_limit(class) {
                // SAFETY: the caller gives the block up; it is at least GRAIN bytes, GRAIN-aligned.
                unsafe { ptr.cast::<*mut u8>().write(list.head) };
                cell.set(FreeList { head: ptr, len: list.len + 1 });
                return;
            }
        }
        // SAFETY: the block came from `system` with its class's layout.
        unsafe { self.system.dealloc(ptr, class_layout(class)) }
    }

    #[inline(never)] // As `alloc`.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size`, rounded up to the alignment, fits in isize.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (class_of(layout), class_of(new_layout)) {
            // The block already has room for the new size.
            (Some(old), Some(new)) if old == new => ptr,
            // SAFETY: the caller's contract is `system.realloc`'s; the block came from `system`
            // with this layout.
            (None, None) => unsafe { self.system.realloc(ptr, layout, new_size) },
            _ => {
                // SAFETY: a valid layout; the old block is live and not overlapped by the new one.
                unsafe {
                    let moved = self.alloc(new_layout);
                    if !moved.is_null() {
                        std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                    moved
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::indexing_slicing)]

    use super::*;
    use crate::test_support::random_below;
    use std::alloc::System;

    struct Live {
        ptr: *mut u8,
        layout: Layout,
        fill: u8,
    }

    fn check(block: &Live) {
        // SAFETY: the block is live and `layout.size()` bytes long.
        let bytes = unsafe { std::slice::from_raw_parts(block.ptr, block.layout.size()) };
        assert!(bytes.iter().all(|&b| b == block.fill), "a live block's bytes changed");
    }

    fn fill(block: &Live) {
        // SAFETY: as in `check`.
        unsafe { block.ptr.write_bytes(block.fill, block.layout.size()) };
    }

    /// Random allocations, frees and reallocations of every size and alignment around the kept
    /// classes: each block is aligned, keeps its bytes (through a realloc, the smaller size's),
    /// and never overlaps another live block.
    #[test]
    fn blocks_stay_aligned_intact_and_apart() {
        let blocks = SmallBlocks::new(System);
        let mut next = random_below(0x9E37_79B9_7F4A_7C15);
        let mut live: Vec<Live> = Vec::new();
        for step in 0..60_000 {
            let largest = [700, 300, 140, 140][next(4)];
            let size = 1 + next(largest);
            let layout = Layout::from_size_align(size, 1 << next(6)).unwrap();
            match next(3) {
                0 if !live.is_empty() => {
                    let block = live.swap_remove(next(live.len()));
                    check(&block);
                    // SAFETY: the block is live and was allocated with this layout.
                    unsafe { blocks.dealloc(block.ptr, block.layout) };
                }
                1 if !live.is_empty() => {
                    let at = next(live.len());
                    let block = &mut live[at];
                    check(block);
                    // SAFETY: as above; the alignment is kept, the size is non-zero.
                    let moved = unsafe { blocks.realloc(block.ptr, block.layout, size) };
                    assert!(!moved.is_null());
                    let kept = block.layout.size().min(size);
                    // SAFETY: `moved` is live for `size` bytes.
                    let bytes = unsafe { std::slice::from_raw_parts(moved, kept) };
                    assert!(bytes.iter().all(|&b| b == block.fill), "realloc lost bytes");
                    block.ptr = moved;
                    block.layout = Layout::from_size_align(size, block.layout.align()).unwrap();
                    block.fill = step as u8;
                    fill(block);
                }
                _ => {
                    // SAFETY: a valid, non-zero layout.
                    let ptr = unsafe { blocks.alloc(layout) };
                    assert!(!ptr.is_null());
                    let block = Live { ptr, layout, fill: step as u8 };
                    fill(&block);
                    live.push(block);
                }
            }
            assert!(live.iter().all(|b| (b.ptr as usize).is_multiple_of(b.layout.align())), "misaligned");
            if step % 1_000 == 0 {
                let mut spans: Vec<(usize, usize)> = live.iter().map(|b| (b.ptr as usize, b.ptr as usize + b.layout.size())).collect();
                spans.sort_unstable();
                assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0), "two live blocks overlap");
                live.iter().for_each(check);
            }
        }
        for block in live {
            check(&block);
            // SAFETY: the block is live and was allocated with this layout.
            unsafe { blocks.dealloc(block.ptr, block.layout) };
        }
    }

    /// A freed block is handed out again for the next request of its size, and a list keeps at
    /// most `kept_limit` blocks: 64 of the small sizes, 4 KiB of the larger ones.
    #[test]
    fn freed_blocks_are_reused_and_bounded() {
        // Every class's own layout is the class's size (its fallback is never taken).
        for class in 0..CLASSES {
            assert_eq!(class_layout(class), Layout::from_size_align((class + 1) * GRAIN, GRAIN).unwrap());
        }
        let blocks = SmallBlocks::new(System);
        let layout = Layout::from_size_align(24, 8).unwrap();
        // SAFETY: valid layouts; every block is freed once, with its own layout.
        unsafe {
            let first = blocks.alloc(layout);
            blocks.dealloc(first, layout);
            assert_eq!(blocks.kept(24), 1);
            assert_eq!(blocks.alloc(Layout::from_size_align(17, 4).unwrap()), first, "same class, same block");
            assert_eq!(blocks.kept(24), 0);
            blocks.dealloc(first, Layout::from_size_align(17, 4).unwrap());
            let many: Vec<*mut u8> = (0..200).map(|_| blocks.alloc(layout)).collect();
            many.iter().for_each(|&p| blocks.dealloc(p, layout));
            assert_eq!(blocks.kept(24), MOST_BLOCKS_PER_CLASS);
            let large = Layout::from_size_align(500, 8).unwrap();
            let many: Vec<*mut u8> = (0..20).map(|_| blocks.alloc(large)).collect();
            many.iter().for_each(|&p| blocks.dealloc(p, large));
            assert_eq!(blocks.kept(500), 8, "4 KiB of 512-byte blocks");
            let drain: Vec<*mut u8> = (0..8).map(|_| blocks.alloc(large)).collect();
            drain.iter().for_each(|&p| System.dealloc(p, class_layout(class_of(large).unwrap())));
            let big = Layout::from_size_align(LARGEST + 1, 8).unwrap();
            let p = blocks.alloc(big);
            blocks.dealloc(p, big);
            assert_eq!(blocks.kept(LARGEST + 1), 0, "larger blocks are not kept");
            let again: Vec<*mut u8> = (0..MOST_BLOCKS_PER_CLASS + 1).map(|_| blocks.alloc(layout)).collect();
            assert_eq!(blocks.kept(24), 0);
            again.iter().for_each(|&p| blocks.dealloc(p, layout));
            // Return what is kept, so the test leaks nothing.
            let drain: Vec<*mut u8> = (0..MOST_BLOCKS_PER_CLASS).map(|_| blocks.alloc(layout)).collect();
            drain.iter().for_each(|&p| System.dealloc(p, class_layout(class_of(layout).unwrap())));
        }
    }
}
