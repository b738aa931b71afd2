//! Two string arguments copied into wasm memory in one crossing, for the hot paths (an MCP
//! call's server and tool; a tool and its command line), instead of wasm-bindgen's two string
//! conversions, each of which allocates in wasm from JavaScript.

#[cfg(feature = "mcp")]
use super::string_arg;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
// The hot path's only hand-written glue: copies two ASCII strings into a buffer the policy
// owns, in one crossing. Anything else returns -1 and Rust takes the checked path.
let memory = null;
let bytes = new Uint8Array(0);
// A new instance (re-instantiated after a trap) brings new memory: drop the old view.
export function attach_memory(m) { memory = m; bytes = new Uint8Array(0); }
function put(s, at, room) {
  const n = s.length;
  if (n > room) return -1;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return -1;
    bytes[at + i] = c;
  }
  return n;
}
export function copy_ascii_pair(a, b, ptr, cap) {
  if (typeof a !== 'string' || typeof b !== 'string' || memory === null) return -1;
  if (bytes.byteLength === 0) bytes = new Uint8Array(memory.buffer);
  const la = put(a, ptr, cap);
  if (la < 0) return -1;
  const lb = put(b, ptr + la, cap - la);
  if (lb < 0) return -1;
  return la * 65536 + lb;
}
"#)]
extern "C" {
    fn attach_memory(memory: JsValue);
    fn copy_ascii_pair(a: &JsValue, b: &JsValue, ptr: *mut u8, cap: usize) -> i32;
}

/// The largest buffer: both lengths must fit the 16 bits `copy_ascii_pair` gives each.
const MAX_CAPACITY: usize = 0x7FFF;

/// A reusable buffer for [`copy_ascii_pair`], so the hot path allocates nothing.
#[derive(Debug)]
pub(crate) struct PairBuffer(std::cell::RefCell<Box<[u8]>>);

impl PairBuffer {
    /// A buffer for two strings of `capacity` bytes together; longer pairs take the checked path.
    pub(crate) fn new(capacity: usize) -> Self {
        attach_memory(wasm_bindgen::memory());
        PairBuffer(std::cell::RefCell::new(vec![0; capacity.min(MAX_CAPACITY)].into_boxed_slice()))
    }

    /// Copies both strings in one crossing when both are ASCII strings that fit; the buffer stays
    /// borrowed with them, and the code says where each ends.
    fn copied(&self, a: &JsValue, b: &JsValue) -> Option<(std::cell::RefMut<'_, Box<[u8]>>, usize)> {
        let mut buffer = self.0.try_borrow_mut().ok()?;
        let code = usize::try_from(copy_ascii_pair(a, b, buffer.as_mut_ptr(), buffer.len())).ok()?;
        Some((buffer, code))
    }

    /// Runs `f` on the two strings when both are ASCII strings that fit, copied in one crossing;
    /// `None` otherwise (anything else, of any type, is left to the caller's checked path).
    #[cfg(feature = "engine")]
    pub(crate) fn try_with_pair<R>(&self, a: &JsValue, b: &JsValue, f: impl FnOnce(&str, &str) -> R) -> Option<R> {
        let (buffer, code) = self.copied(a, b)?;
        let (first, second) = split(&buffer, code)?;
        Some(f(first, second))
    }

    /// Runs `f` on the two strings: copied in one crossing when both are short ASCII strings,
    /// else through [`string_arg`] with its type and well-formedness checks.
    #[cfg(feature = "mcp")]
    pub(crate) fn with_pair<R>(
        &self,
        a: &JsValue,
        a_name: &str,
        b: &JsValue,
        b_name: &str,
        f: impl FnOnce(&str, &str) -> R,
    ) -> Result<R, JsValue> {
        if let Some((buffer, code)) = self.copied(a, b) {
            if let Some((first, second)) = split(&buffer, code) {
                return Ok(f(first, second));
            }
        }
        let a = string_arg(a, a_name)?;
        let b = string_arg(b, b_name)?;
        Ok(f(&a, &b))
    }
}

/// The two strings `copy_ascii_pair` wrote: its code is the first's length times 65,536 plus the second's.
fn split(buffer: &[u8], code: usize) -> Option<(&str, &str)> {
    let (first, second) = (code >> 16, code & 0xFFFF);
    let text = |range: std::ops::Range<usize>| buffer.get(range).and_then(|bytes| std::str::from_utf8(bytes).ok());
    Some((text(0..first)?, text(first..first + second)?))
}
