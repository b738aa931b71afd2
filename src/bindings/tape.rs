//! Results cross to JavaScript as a *tape*: one array of numbers and one UTF-8 text, written in
//! wasm memory and read back into plain objects by `tape.js` in a single call.
//!
//! serde-wasm-bindgen builds the same objects with one crossing per field and one decode per
//! string — most of the cost of an explained decision. The tape gives the same JSON-compatible
//! value (`undefined` never appears: `None` and `()` are `null`, maps are objects, enums are
//! externally tagged); a test compares the two on every kind of result.

use super::kept_texts::{Kept, KeptTexts};
use rustc_hash::FxHashMap;
use serde::ser::{self, Serialize};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/bindings/tape.js")]
extern "C" {
    #[wasm_bindgen(js_name = decodeTape)]
    fn decode_tape(memory: &JsValue, slots_ptr: u32, slots_len: u32, text_ptr: u32, text_len: u32) -> JsValue;
    #[wasm_bindgen(js_name = decodeMcpDecision)]
    fn decode_mcp_decision(memory: &JsValue, slots_ptr: u32, slots_len: u32, text_ptr: u32, text_len: u32) -> JsValue;
    #[wasm_bindgen(js_name = decodeDecision)]
    fn decode_decision(memory: &JsValue, slots_ptr: u32, slots_len: u32, text_ptr: u32, text_len: u32) -> JsValue;
}

/// A tape reader in tape.js: memory, slots (pointer, count), text (pointer, bytes).
type Decoder = fn(&JsValue, u32, u32, u32, u32) -> JsValue;

// Opcodes, as tape.js reads them.
const NULL: f64 = 0.0;
const FALSE: f64 = 1.0;
const TRUE: f64 = 2.0;
const NUMBER: f64 = 3.0;
const STRING: f64 = 4.0;
const ARRAY: f64 = 5.0;
const OBJECT: f64 = 6.0;
const KNOWN_KEY: f64 = 7.0;
const NEW_KEY: f64 = 8.0;
const KNOWN_TEXT: f64 = 9.0;
const NEW_TEXT: f64 = 10.0;

/// A value that has no JSON form (bytes), or an error a `Serialize` impl raised.
#[derive(Debug)]
pub struct Unsupported(String);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Unsupported(msg.to_string())
    }
}

/// The tape being written; kept between calls so its buffers are reused.
#[derive(Default)]
struct Tape {
    slots: Vec<f64>,
    text: String,
    /// Length of `text` in UTF-16 code units: string positions are JavaScript string positions.
    utf16: usize,
    /// Ids of the `'static` names (fields, variants) already sent, by address and length.
    keys: FxHashMap<(usize, usize), u32>,
    /// Ids of the short texts already sent, which tape.js keeps as strings: a decision's texts
    /// (messages, names, rule references, suggestions) recur from call to call, and naming them
    /// costs less than decoding and slicing them again. When the table is full it starts again
    /// from id 0: tape.js overwrites the text of each id as it is sent anew, so its own table
    /// stays as small.
    texts: KeptTexts,
}

thread_local! {
    static TAPE: RefCell<Tape> = RefCell::new(Tape::default());
    /// The instance's memory, fetched once: `wasm_bindgen::memory()` crosses to JavaScript and
    /// takes an externref slot on every call. The object stays the same when memory grows (only
    /// its buffer changes, which tape.js checks).
    static MEMORY: JsValue = wasm_bindgen::memory();
}

/// Converts a result to a plain JS value through the tape; `None` when it has no JSON form
/// (the caller then throws: no result type has such a value).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Option<JsValue> {
    through_tape(|tape| value.serialize(tape), decode_tape)
}

/// Cursor's MCP decision, the MCP module's hot result, in the fixed field order tape.js's
/// `decodeMcpDecision` reads: it builds the object from literals (one shape, named stores)
/// where the generic reader adds each key by name. A test compares the two on random decisions.
pub fn mcp_decision_to_js(decision: &crate::mcp::McpDecision) -> Option<JsValue> {
    through_tape(
        |tape| {
            decision.need_approval.serialize(&mut *tape)?;
            decision.reason.serialize(&mut *tape)?;
            tape.string(&decision.message);
            match &decision.matched {
                None => tape.slots.push(NULL),
                Some(matched) => {
                    tape.slots.push(TRUE);
                    matched.list.serialize(&mut *tape)?;
                    matched.index.serialize(&mut *tape)?;
                    tape.string(&matched.entry);
                }
            }
            tape.slots.push(decision.candidates_for_allowlist.len() as f64);
            for candidate in &decision.candidates_for_allowlist {
                tape.string(&candidate.server);
                tape.string(&candidate.tool);
            }
            // `null` when absent: the reader then leaves the key out, as serde's skip does.
            decision.name_error.serialize(&mut *tape)?;
            decision.ignored_entries.serialize(tape)
        },
        decode_mcp_decision,
    )
}

/// The engine's explained decision, its hot result, in the fixed field order tape.js's
/// `decodeDecision` reads (as [`mcp_decision_to_js`]): the decision, its items, rule references
/// and suggestions become object literals; the rarer parts go through the generic writer. Where
/// serde skips a field, `null` (or, for a list, `null` in place of an empty one) tells the reader to
/// leave the key out. A test compares the two readers on decisions of every dialect.
pub fn decision_to_js(decision: &crate::policy::Decision) -> Option<JsValue> {
    use crate::policy::{DefaultSource, MatcherKind, RuleRef};
    fn rule_ref(tape: &mut Tape, rule: Option<&RuleRef>) -> Result<(), Unsupported> {
        let Some(rule) = rule else {
            tape.slots.push(NULL);
            return Ok(());
        };
        tape.slots.push(TRUE);
        tape.string(&rule.layer);
        tape.string(&rule.tool);
        rule.list.serialize(&mut *tape)?;
        rule.index.serialize(&mut *tape)?;
        rule.matcher.serialize(&mut *tape)?;
        tape.string(&rule.pattern);
        Ok(())
    }
    /// Where a default came from, as a literal of one of its three shapes (serde's internally
    /// tagged form: `scope` first). The generic writer's objects are read key by key.
    fn default_source(tape: &mut Tape, source: Option<&DefaultSource>) {
        match source {
            None => tape.slots.push(NULL),
            Some(DefaultSource::Tool { layer }) => {
                tape.slots.push(1.0);
                tape.string(layer);
            }
            Some(DefaultSource::Global { layer: None }) => tape.slots.push(2.0),
            Some(DefaultSource::Global { layer: Some(layer) }) => {
                tape.slots.push(3.0);
                tape.string(layer);
            }
        }
    }
    /// A suggestion's rule: the kind of matcher its pattern is, by its code (its place in
    /// `MatcherKind::ALL`), which the reader turns into a literal object holding the pattern it
    /// has just read in that kind's field. tape.js spells the table out for the kinds suggestions
    /// take, as JavaScript cannot read the Rust one; `tests/matcher_codes.rs` holds them together.
    fn suggested_rule(tape: &mut Tape, rule: MatcherKind) {
        tape.slots.push(f64::from(rule.code()));
    }
    /// A list serde skips when empty: `null` then, else the generic array.
    fn unless_empty<T: Serialize>(tape: &mut Tape, list: &[T]) -> Result<(), Unsupported> {
        if list.is_empty() {
            tape.slots.push(NULL);
            Ok(())
        } else {
            list.serialize(tape)
        }
    }
    through_tape(
        |tape| {
            decision.outcome.serialize(&mut *tape)?;
            decision.reason.serialize(&mut *tape)?;
            tape.string(&decision.message);
            rule_ref(tape, decision.rule.as_deref())?;
            decision.matched_input.serialize(&mut *tape)?;
            decision.protected_path.serialize(&mut *tape)?;
            default_source(tape, decision.default_source.as_ref());
            tape.slots.push(decision.items.len() as f64);
            for item in &decision.items {
                tape.string(&item.text);
                item.kind.serialize(&mut *tape)?;
                item.context.serialize(&mut *tape)?;
                unless_empty(tape, &item.hazards)?;
                rule_ref(tape, item.allowed_by.as_deref())?;
            }
            decision.cannot_vouch.serialize(&mut *tape)?;
            unless_empty(tape, &decision.invalid_patterns)?;
            // A count; the reader leaves the key out at 0.
            tape.slots.push(decision.suggestions.len() as f64);
            for suggestion in &decision.suggestions {
                tape.string(&suggestion.pattern);
                suggested_rule(tape, suggestion.rule);
                tape.string(&suggestion.display);
                tape.string(&suggestion.source);
            }
            unless_empty(tape, &decision.ignored)
        },
        decode_decision,
    )
}

/// Writes a result with `write` into the reused tape and reads it back in one call of `decode`.
fn through_tape(write: impl FnOnce(&mut Tape) -> Result<(), Unsupported>, decode: Decoder) -> Option<JsValue> {
    TAPE.with(|cell| {
        let mut tape = cell.try_borrow_mut().ok()?;
        tape.slots.clear();
        tape.text.clear();
        tape.utf16 = 0;
        let (known, known_texts) = (tape.keys.len(), tape.texts.begin_result());
        if write(&mut tape).is_err() {
            // Names and texts first met in this value never reached tape.js: forget them.
            tape.keys.retain(|_, id| (*id as usize) < known);
            tape.texts.truncate(known_texts);
            return None;
        }
        let (slots, text) = (u32::try_from(tape.slots.len()).ok()?, u32::try_from(tape.text.len()).ok()?);
        Some(MEMORY.with(|memory| decode(memory, tape.slots.as_ptr() as u32, slots, tape.text.as_ptr() as u32, text)))
    })
}

impl Tape {
    fn push_text(&mut self, text: &str) -> (f64, f64) {
        let start = self.utf16;
        self.utf16 += if text.is_ascii() { text.len() } else { text.encode_utf16().count() };
        self.text.push_str(text);
        (start as f64, self.utf16 as f64)
    }

    fn string(&mut self, text: &str) {
        match self.texts.find_or_keep(text) {
            Kept::Known(id) => self.slots.extend([KNOWN_TEXT, f64::from(id)]),
            Kept::New(id) => {
                let (start, end) = self.push_text(text);
                self.slots.extend([NEW_TEXT, f64::from(id), start, end]);
            }
            Kept::Alone => {
                let (start, end) = self.push_text(text);
                self.slots.extend([STRING, start, end]);
            }
        }
    }

    /// A field or variant name: sent once, then named by its id.
    fn key(&mut self, name: &'static str) {
        let address = (name.as_ptr() as usize, name.len());
        if let Some(&id) = self.keys.get(&address) {
            self.slots.extend([KNOWN_KEY, f64::from(id)]);
            return;
        }
        let id = u32::try_from(self.keys.len()).unwrap_or(u32::MAX);
        self.keys.insert(address, id);
        let (start, end) = self.push_text(name);
        self.slots.extend([NEW_KEY, f64::from(id), start, end]);
    }

    /// Starts an array or object; returns where its count goes, filled in by `finish`.
    fn open(&mut self, kind: f64) -> usize {
        self.slots.extend([kind, 0.0]);
        self.slots.len() - 1
    }

    fn finish(&mut self, count_at: usize, count: usize) {
        if let Some(slot) = self.slots.get_mut(count_at) {
            *slot = count as f64;
        }
    }
}

/// An array or object being written: where its count goes and how many entries it has.
pub struct Compound<'a> {
    tape: &'a mut Tape,
    count_at: usize,
    count: usize,
    /// For a variant with data: the outer `{ variant: … }` object to close too.
    outer: Option<usize>,
}

impl<'a> Compound<'a> {
    fn new(tape: &'a mut Tape, kind: f64, variant: Option<&'static str>) -> Self {
        let outer = variant.map(|name| {
            let at = tape.open(OBJECT);
            tape.key(name);
            at
        });
        let count_at = tape.open(kind);
        Compound { tape, count_at, count: 0, outer }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.count += 1;
        value.serialize(&mut *self.tape)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unsupported> {
        self.count += 1;
        self.tape.key(key);
        value.serialize(&mut *self.tape)
    }

    fn close(self) -> Result<(), Unsupported> {
        self.tape.finish(self.count_at, self.count);
        if let Some(at) = self.outer {
            self.tape.finish(at, 1);
        }
        Ok(())
    }
}

impl<'a> ser::Serializer for &'a mut Tape {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        self.slots.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Unsupported> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Unsupported> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Unsupported> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        safe_integer(v as f64, v as i128)?;
        self.serialize_f64(v as f64)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Unsupported> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Unsupported> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Unsupported> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        safe_integer(v as f64, i128::from(v))?;
        self.serialize_f64(v as f64)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Unsupported> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Unsupported> {
        self.slots.extend([NUMBER, v]);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Unsupported> {
        Err(Unsupported("bytes have no JSON form".into()))
    }
    fn serialize_none(self) -> Result<(), Unsupported> {
        self.slots.push(NULL);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unsupported> {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Unsupported> {
        self.key(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        let mut object = Compound::new(self, OBJECT, None);
        object.field(variant, value)?;
        object.close()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::new(self, ARRAY, None))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::new(self, ARRAY, None))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::new(self, ARRAY, None))
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::new(self, ARRAY, Some(variant)))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::new(self, OBJECT, None))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::new(self, OBJECT, None))
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'a>, Unsupported> {
        Ok(Compound::new(self, OBJECT, Some(variant)))
    }
}

/// Integers beyond 2^53 would lose digits as JS numbers: refused, as serde-wasm-bindgen refuses them.
fn safe_integer(as_float: f64, exact: i128) -> Result<(), Unsupported> {
    const MAX_SAFE: i128 = (1 << 53) - 1;
    if (-MAX_SAFE..=MAX_SAFE).contains(&exact) {
        Ok(())
    } else {
        Err(Unsupported(format!("{as_float} is beyond JavaScript's safe integers")))
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        // Counted here, once per entry; the value follows.
        self.count += 1;
        key.serialize(&mut *self.tape)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        value.serialize(&mut *self.tape)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unsupported> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unsupported> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}
