// Rebuilds a result from the tape src/bindings/tape.rs wrote into wasm memory: one crossing and
// one UTF-8 decode per result, instead of one crossing per field and per string.
// Opcodes (keep in step with tape.rs): 0 null, 1 false, 2 true, 3 number, 4 string [start, end),
// 5 array of n, 6 object of n key/value pairs, 7 known key, 8 new key [id, start, end),
// 9 known text, 10 new text [id, start, end).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
// Field and variant names, and the short texts tape.rs keeps, by id, per wasm instance (its
// memory): each instance numbers its own.
const keysOf = new WeakMap();
const textsOf = new WeakMap();

// The reader's state for the result being decoded. Module-level rather than a closure per call:
// decoding is re-entrant-free (nothing calls back into wasm while it runs).
let slots = new Float64Array(0);
let text = '';
let keys = [];
let texts = [];
let at = 0;
// Views over the whole memory of the instance read last, made again only when the instance
// changes or its memory grows (a new buffer).
let lastMemory = null;
let view = new Float64Array(0);
let buffer = new ArrayBuffer(0);

export function decodeTape(memory, slotsPtr, slotsLen, textPtr, textLen) {
  const end = begin(memory, slotsPtr, slotsLen, textPtr, textLen);
  const value = read();
  finish(end);
  return value;
}

// Cursor's MCP decision in the fixed order tape.rs's `mcp_decision_to_js` writes it: literals give
// every decision the same shape at once, where `read` adds key after key. Keys in serde's order.
export function decodeMcpDecision(memory, slotsPtr, slotsLen, textPtr, textLen) {
  const end = begin(memory, slotsPtr, slotsLen, textPtr, textLen);
  const decision = { needApproval: read(), reason: read(), message: read() };
  if (slots[at++] !== 0) decision.matched = { list: read(), index: read(), entry: read() };
  const candidates = [];
  for (let n = slots[at++]; n > 0; n--) candidates.push({ server: read(), tool: read() });
  decision.candidatesForAllowlist = candidates;
  const nameError = read();
  if (nameError !== null) decision.nameError = nameError;
  decision.ignoredEntries = read();
  finish(end);
  return decision;
}

// The engine's explained decision in the fixed order tape.rs's `decision_to_js` writes it; a
// `null` where serde skips a field leaves the key out. Keys in serde's order.
export function decodeDecision(memory, slotsPtr, slotsLen, textPtr, textLen) {
  const end = begin(memory, slotsPtr, slotsLen, textPtr, textLen);
  const decision = { outcome: read(), reason: read(), message: read() };
  const rule = readRuleRef();
  if (rule !== null) decision.rule = rule;
  const matchedInput = read();
  if (matchedInput !== null) decision.matchedInput = matchedInput;
  const protectedPath = read();
  if (protectedPath !== null) decision.protectedPath = protectedPath;
  const defaultSource = readDefaultSource();
  if (defaultSource !== null) decision.defaultSource = defaultSource;
  const items = [];
  for (let n = slots[at++]; n > 0; n--) {
    const item = { text: read(), kind: read(), context: read() };
    const hazards = read();
    if (hazards !== null) item.hazards = hazards;
    const allowedBy = readRuleRef();
    if (allowedBy !== null) item.allowedBy = allowedBy;
    items.push(item);
  }
  decision.items = items;
  const cannotVouch = read();
  if (cannotVouch !== null) decision.cannotVouch = cannotVouch;
  const invalidPatterns = read();
  if (invalidPatterns !== null) decision.invalidPatterns = invalidPatterns;
  const count = slots[at++];
  if (count !== 0) {
    const suggestions = [];
    for (let n = count; n > 0; n--) {
      const pattern = read();
      suggestions.push({ pattern, rule: readSuggestedRule(pattern), display: read(), source: read() });
    }
    decision.suggestions = suggestions;
  }
  const ignored = read();
  if (ignored !== null) decision.ignored = ignored;
  finish(end);
  return decision;
}

/** A rule reference, or `null` when the slot says there is none. */
function readRuleRef() {
  if (slots[at++] === 0) return null;
  return { layer: read(), tool: read(), list: read(), index: read(), matcher: read(), pattern: read() };
}

/** Where a default came from: one of its three shapes, or `null` (tape.rs's `default_source`). */
function readDefaultSource() {
  switch (slots[at++]) {
    case 0: return null;
    case 1: return { scope: 'tool', layer: read() };
    case 2: return { scope: 'global' };
    case 3: return { scope: 'global', layer: read() };
    default: throw new Error(`toolgate: unreadable result (default source ${slots[at - 1]} at slot ${at - 1})`);
  }
}

/** A suggestion's rule: its pattern in the field of the matcher kind the slot names (tape.rs's `suggested_rule`). */
function readSuggestedRule(pattern) {
  switch (slots[at++]) {
    case 1: return { pattern };
    case 2: return { prefix: pattern };
    case 3: return { mcp: pattern };
    case 4: return { toolAction: pattern };
    default: throw new Error(`toolgate: unreadable result (rule ${slots[at - 1]} at slot ${at - 1})`);
  }
}

/** Points the reader at a result in `memory`; returns the slot where it must end. */
function begin(memory, slotsPtr, slotsLen, textPtr, textLen) {
  // The same instance as last time, and its memory has not grown (growing detaches the old
  // buffer, whose length then reads 0): the views still hold. Checked this way because the
  // `buffer` getters and the WeakMap cost more than the rest of reading a small result.
  if (memory !== lastMemory || buffer.byteLength === 0) {
    buffer = memory.buffer;
    view = new Float64Array(buffer);
    keys = keysOf.get(memory);
    if (keys === undefined) keysOf.set(memory, (keys = []));
    texts = textsOf.get(memory);
    if (texts === undefined) textsOf.set(memory, (texts = []));
    lastMemory = memory;
  }
  // Slots are 8-byte aligned (a Vec<f64>), so they index the whole-memory view directly.
  slots = view;
  at = slotsPtr / 8;
  // A view made by the constructor: `subarray` looks up the species constructor on every call.
  text = textLen === 0 ? '' : decoder.decode(new Uint8Array(buffer, textPtr, textLen));
  return at + slotsLen;
}

function finish(end) {
  if (at !== end) throw new Error(`toolgate: unreadable result (${end - at} slot(s) left over)`);
}

function read() {
  switch (slots[at++]) {
    case 0: return null;
    case 1: return false;
    case 2: return true;
    case 3: return slots[at++];
    case 4: { const start = slots[at++]; return text.slice(start, slots[at++]); }
    case 5: {
      const array = [];
      for (let n = slots[at++]; n > 0; n--) array.push(read());
      return array;
    }
    case 6: {
      const object = {};
      for (let n = slots[at++]; n > 0; n--) {
        const key = read();
        object[key] = read();
      }
      return object;
    }
    case 7: return keys[slots[at++]];
    case 8: {
      const id = slots[at++];
      const start = slots[at++];
      return (keys[id] = text.slice(start, slots[at++]));
    }
    case 9: return texts[slots[at++]];
    case 10: {
      const id = slots[at++];
      const start = slots[at++];
      return (texts[id] = text.slice(start, slots[at++]));
    }
    default: throw new Error(`toolgate: unreadable result (opcode ${slots[at - 1]} at slot ${at - 1})`);
  }
}
