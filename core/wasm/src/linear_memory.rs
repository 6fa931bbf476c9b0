//! The module's linear memory, as the stores use it: grown in large steps,
//! and a staging area JavaScript writes text into.
//!
//! **Growth.** Rust's allocator on wasm (dlmalloc) grows the memory by the
//! few 64 KiB pages each allocation lacks, so a store filling up with
//! serialized values grows it every other `put`. Each growth makes V8
//! account a new `ArrayBuffer` of the whole memory as external memory, and
//! once the memory is past 64 MiB (V8's external-memory allowance) every
//! growth sets off a full garbage collection "for external memory
//! pressure": LangGraph.js's W1 at 2,000 iterations spent its last quarter
//! collecting, 4–6 ms per `put` instead of 0.6 (BENCHMARKS.md, "LangGraph.js
//! savers"). [`keep_headroom`] makes the growth geometric instead: when the
//! memory grew, it grows it again by as much as it holds (up to
//! [`MAX_STEP`]) through the allocator itself, which keeps the new pages as
//! free space; a W1 run then grows it a handful of times. The pages are
//! reserved, not touched, so the process's resident memory does not change.
//!
//! **Staging.** wasm-bindgen copies a string into the memory one UTF-16
//! unit at a time in JavaScript, ~20x slower than `TextEncoder.encodeInto`;
//! for the values of a long thread (a W1 checkpoint's list is 32 KB of
//! text) that loop was a tenth of the run. [`stage_text`] hands out a
//! buffer in the memory that the TypeScript layer fills with
//! `encodeInto`; the store's methods then read the texts from it
//! ([`with_staged`]).

use crate::error::invalid_argument;
use crate::error::JsResult;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// The largest step [`keep_headroom`] grows the memory by at once.
pub const MAX_STEP: usize = 256 << 20;

/// A staging buffer larger than this is let go once read, not kept for
/// the next call.
const KEPT_STAGE: usize = 1 << 20;

thread_local! {
    /// The memory's size in pages when [`keep_headroom`] last looked.
    static KNOWN_PAGES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The staging buffer: zero-filled to its length, so that every byte
    /// Rust reads is initialized whatever JavaScript wrote.
    static STAGE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// When the memory grew since the last call, grows it again by as much as
/// it holds (at most [`MAX_STEP`]): a reservation taken from the allocator
/// and given back at once, which leaves the new pages to it as free space.
/// Called at the end of the stores' methods that allocate. Does nothing
/// outside wasm.
pub fn keep_headroom() {
    #[cfg(target_arch = "wasm32")]
    {
        const PAGE: usize = 64 << 10;
        let pages = core::arch::wasm32::memory_size::<0>();
        if pages == KNOWN_PAGES.get() {
            return;
        }
        let mut spare: Vec<u8> = Vec::new();
        // A refusal (the memory is at its maximum) leaves things as they
        // are: the allocator grows by what each allocation needs, as before.
        if spare
            .try_reserve_exact((pages * PAGE).min(MAX_STEP))
            .is_ok()
        {
            // Kept from being optimized away: the allocation is the point.
            std::hint::black_box(&spare);
        }
        drop(spare);
        KNOWN_PAGES.set(core::arch::wasm32::memory_size::<0>());
    }
}

/// The module's `WebAssembly.Memory`, for the TypeScript layer's views on
/// the staging buffer.
#[wasm_bindgen(js_name = wasmMemory, unchecked_return_type = "WebAssembly.Memory")]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Makes the staging buffer at least `bytes` long (its content kept) and
/// returns its address in the memory, where JavaScript writes the texts
/// of the next store call one after the other (UTF-8, e.g. with
/// `TextEncoder.encodeInto`). The address holds until the next call that
/// stages; the memory's `buffer` may have changed (re-read it).
#[wasm_bindgen(js_name = stageText)]
pub fn stage_text(bytes: usize) -> usize {
    STAGE.with_borrow_mut(|stage| {
        if stage.len() < bytes {
            stage.resize(bytes, 0);
        }
        stage.as_ptr() as usize
    })
}

/// Calls `f` with the staged texts: `lengths[i]` bytes each, one after the
/// other from the buffer's start, checked to be UTF-8. An error names
/// `what` when they are not, or do not fit in the buffer.
pub fn with_staged<R>(
    lengths: &[u32],
    what: &str,
    f: impl FnOnce(&[&str]) -> JsResult<R>,
) -> JsResult<R> {
    STAGE.with_borrow_mut(|stage| {
        let mut texts = Vec::with_capacity(lengths.len());
        let mut at = 0usize;
        for &len in lengths {
            let bytes = at
                .checked_add(len as usize)
                .and_then(|end| stage.get(at..end))
                .ok_or_else(|| invalid_argument(format!("{what}: staged text out of bounds")))?;
            let text = std::str::from_utf8(bytes)
                .map_err(|e| invalid_argument(format!("{what}: staged text: {e}")))?;
            texts.push(text);
            at += bytes.len();
        }
        let out = f(&texts);
        if stage.len() > KEPT_STAGE {
            *stage = Vec::new();
        }
        out
    })
}

/// Stages `texts` as the TypeScript layer does with `encodeInto`, for
/// native tests; returns their lengths.
#[cfg(test)]
pub(crate) fn stage_for_tests(texts: &[&str]) -> Vec<u32> {
    let total: usize = texts.iter().map(|t| t.len()).sum();
    stage_text(total);
    STAGE.with_borrow_mut(|stage| {
        let mut at = 0;
        for t in texts {
            stage[at..at + t.len()].copy_from_slice(t.as_bytes());
            at += t.len();
        }
    });
    texts.iter().map(|t| t.len() as u32).collect()
}

#[cfg(test)]
mod tests {
    use super::{stage_for_tests, stage_text, with_staged};

    #[test]
    fn staged_texts_are_read_back_in_order() {
        let lengths = stage_for_tests(&["{\"a\":1}", "", "[\"é\"]"]);
        let texts = with_staged(&lengths, "t", |t| {
            Ok(t.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        })
        .unwrap();
        assert_eq!(texts, ["{\"a\":1}", "", "[\"é\"]"]);
    }

    #[test]
    fn staging_grows_and_keeps_what_was_written() {
        stage_for_tests(&["abc"]);
        stage_text(1 << 16);
        let text = with_staged(&[3], "t", |t| Ok(t[0].to_owned())).unwrap();
        assert_eq!(text, "abc");
    }
}
