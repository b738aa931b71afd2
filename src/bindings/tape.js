// Rebuilds a result from the tape src/bindings/tape.rs wrote into wasm memory: one crossing and
// one UTF-8 decode per result, instead of one crossing per field and per string.
// Opcodes (keep in step with tape.rs): 0 null, 1 false, 2 true, 3 number, 4 string [start, end),
// 5 array of n, 6 object of n key/value pairs, 7 known key, 8 new key [id, start, end).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
// Field and variant names by id, per wasm instance (its memory): each instance numbers its own.
const keysOf = new WeakMap();

export function decodeTape(memory, slotsPtr, slotsLen, textPtr, textLen) {
  const slots = new Float64Array(memory.buffer, slotsPtr, slotsLen);
  const text = textLen === 0 ? '' : decoder.decode(new Uint8Array(memory.buffer, textPtr, textLen));
  let keys = keysOf.get(memory);
  if (keys === undefined) keysOf.set(memory, (keys = []));
  let at = 0;
  const read = () => {
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
      default: throw new Error(`toolgate: unreadable result (opcode ${slots[at - 1]} at ${at - 1})`);
    }
  };
  return read();
}
