// toolgate's resilient wrapper: the package's entries are the wasm-bindgen glue behind this.
//
// A panic or an out-of-memory in wasm32 is a trap (`WebAssembly.RuntimeError`): the instance's
// memory and state are unreliable afterwards. So when a call into the module traps,
//   1. that call fails closed: a deciding function answers "ask" (or "deny" where its API cannot
//      ask), a reader or validator answers `{ ok: false, errors: [{ code: 'internalError' }] }`,
//      anything else throws a clear Error — never "allow" (the table ON_TRAP below);
//   2. the module is re-instantiated from the same compiled `WebAssembly.Module`
//      (`raw.__toolgate.reinstantiate()`, added to the glue by js/resilient/prepare.mjs);
//   3. objects made before the trap (a `Policy`, an `McpPolicy`, …) rebuild their Rust side in the
//      new instance, on their next call, from the arguments they were made with (and the last
//      successful call of a mutating method, such as `GasolineAllowlist.reload`).
// Objects the caller never frees do not pile up in wasm memory: when a wrapper is collected its
// Rust side is freed, and since the collector cannot see how much wasm memory a wrapper holds, at
// most MAX_RESIDENT compiled objects stay resident — the least recently used beyond that are
// released and rebuilt on their next call, exactly as after a trap.
//
// This file is the one source of both flavours: pkg/resilient/resilient.js (ES module, the web
// builds) and resilient.cjs (CommonJS, the Node builds), written by js/resilient/prepare.mjs.

const INTERNAL_ERROR = 'internalError';

/** A short description of what trapped, for messages: "RuntimeError: unreachable". */
function describe(error) {
  return error && typeof error === 'object' ? `${error.name}: ${error.message}` : String(error);
}

const asks = (error) => `toolgate hit an internal error (${describe(error)}) and asks instead`;
const refuses = (error) => `toolgate hit an internal error (${describe(error)}) and refuses the call instead`;
const problems = (error) => ({
  ok: false,
  errors: [{ code: INTERNAL_ERROR, message: `toolgate hit an internal error (${describe(error)}) and could not read this; try again` }],
});
const decision = (outcome, message) => ({ outcome, reason: INTERNAL_ERROR, message, items: [] });
const mcpDecision = (error) => ({
  needApproval: true, reason: INTERNAL_ERROR, message: asks(error), candidatesForAllowlist: [], ignoredEntries: [],
});
/** The export has no fail-closed answer: the call throws a clear Error (the module is still restarted). */
const THROWS = null;

/**
 * What each export answers when its call traps: `(error, ...the call's arguments) => answer`.
 * Keys are `name` for functions, `Class.method` / `Class.getter` / `Class.staticMethod`, and
 * `new Class` for constructors. An export missing here throws a clear Error, like THROWS
 * (tests/js/resilience.test.mjs checks that every export of the built package is listed).
 */
const ON_TRAP = {
  // The MCP allowlist (`toolgate`).
  'McpPolicy.decide': (error) => mcpDecision(error),
  'McpPolicy.needsApproval': () => true,
  'McpPolicy.isAllowlisted': () => false,
  'McpPolicy.invalidEntries': THROWS,
  'new McpPolicy': THROWS,
  decideMcp: (error) => mcpDecision(error),
  entryMatches: () => false,
  validateName: problems,
  formatEntry: problems,
  parseEntry: problems,
  addToAllowlist: THROWS,
  removeFromAllowlist: THROWS,
  normalizeAllowlist: THROWS,
  splitToolName: THROWS,

  // The rule engine (`toolgate/engine`). A hook that answered "reject" keeps its refusal.
  'Policy.decide': (error, tool, input, hook) => (hook === 'reject' ? decision('deny', refuses(error)) : decision('confirm', asks(error))),
  'Policy.outcome': () => 'confirm',
  'Policy.fromZedSettings': problems,
  'Policy.suggestions': THROWS,
  'Policy.permissionOptions': THROWS,
  'Policy.invalidPatterns': THROWS,
  'Policy.problems': THROWS,
  'Policy.spec': THROWS,
  'Policy.findings': THROWS,
  'Policy.exampleFailures': THROWS,
  'new Policy': THROWS,
  analyzeCommand: THROWS,
  // An agent's call that cannot be read is refused by the hook that asked.
  readAgentCall: problems,
  // A session asks when its decision traps; its grants and log were in the lost instance, so it
  // cannot be rebuilt (see MUTATORS) and every later call throws until the host creates it again.
  'Session.decide': (error, tool, input, options) => ({
    callId: 0,
    decision: options != null && options.hook === 'reject' ? decision('deny', refuses(error)) : decision('confirm', asks(error)),
    grantedBy: [],
    cappedByParent: false,
    options: [],
    review: { reviewable: false, why: asks(error) },
  }),
  'Session.answer': THROWS,
  'Session.grants': THROWS,
  'Session.permissionOptions': THROWS,
  'Session.reviewOptions': THROWS,
  'Session.revoke': THROWS,
  'Session.end': THROWS,
  'Session.setPolicy': THROWS,
  'Session.child': THROWS,
  'Session.log': THROWS,
  'Session.logLines': THROWS,
  'Session.spec': THROWS,
  'new Session': THROWS,
  applyPolicyChange: THROWS,
  applyZedSettingsChange: problems,
  lint: THROWS,
  presetLayer: THROWS,

  // Importers and exporters of peers' permission files.
  importPolicy: problems,
  exportPolicy: THROWS,
  // Learning from history: reports, nothing decided.
  readSessionLog: THROWS,
  replayHistory: THROWS,
  unusedRules: THROWS,

  // The settings page's document: validating and previewing a draft.
  validateSettings: (error) => ({ ...problems(error), warnings: [] }),
  applySettingsChange: problems,
  settingsPolicy: THROWS,
  settingsMcp: THROWS,
  settingsPreview: THROWS,
  settingsTools: THROWS,

  // Gasoline's allowlist has no "ask": it refuses.
  'GasolineAllowlist.parse': problems,
  'GasolineAllowlist.reload': problems,
  'GasolineAllowlist.check': (error, tool, action) => ({
    error: 'internal_error', message: refuses(error), tool: String(tool), action: String(action), allowed_tools: [],
  }),
  'GasolineAllowlist.decide': (error) => decision('deny', refuses(error)),
  'GasolineAllowlist.patterns': THROWS,
  'GasolineAllowlist.summary': THROWS,
  'new GasolineAllowlist': THROWS,

  // Roo's mode restrictions have no "ask": the error text refuses; the mode sees no tools.
  'RooMode.checkTool': refuses,
  'RooMode.checkResource': refuses,
  'RooMode.filterCatalogue': () => [],
  'new RooMode': THROWS,
  validateModeRestrictions: (error) => ({ ...problems(error), warnings: [] }),

  // Cursor's approval flow.
  decideTerminalCommand: (error) => ({
    needApproval: true, reason: INTERNAL_ERROR, message: asks(error), candidatesForAllowlist: [], approvalType: 'user', subCommands: [],
  }),
  decideFileOperation: (error, operation, path) => ({
    needApproval: true, reason: INTERNAL_ERROR, message: asks(error), normalizedPath: String(path),
  }),
  migrateComposerState: THROWS,
  applyAdminControls: THROWS,
  requestReview: THROWS,
  reviewView: THROWS,
  answerReview: THROWS,
  cancelReview: THROWS,
};

/**
 * Methods that change their object: after a re-instantiation the object is rebuilt and then the
 * last call that `applied` is replayed (each replaces the whole state, so one is enough).
 * A mutating method or setter missing here makes its object refuse, clearly, to be rebuilt
 * (tests/js/resilience.test.mjs checks every `&mut self` method in src/bindings is listed).
 */
const MUTATORS = {
  'GasolineAllowlist.reload': { applied: (result) => result != null && result.ok === true },
  // A session's grants, prompts and log build up call by call: none of it can be replayed, so a
  // session in use is never released, and after a trap it asks to be created again.
  'Session.decide': null,
  'Session.answer': null,
  'Session.revoke': null,
  'Session.end': null,
  'Session.setPolicy': null,
  'Session.grants': null,
};

/** Exports the wrapper passes through unwrapped: the web build's initialisation. */
const PASS_THROUGH = new Set(['default', 'initSync']);

/**
 * A trap, or an exception that unwound through wasm frames and left the instance's shadow stack
 * and borrow flags behind: a stack overflow (RangeError; Firefox's InternalError). The module's
 * own errors (TypeError, Error) are returned by Rust, not thrown through it, and are not traps.
 */
function isTrap(error) {
  return (typeof WebAssembly === 'object' && error instanceof WebAssembly.RuntimeError) ||
    error instanceof RangeError || (error != null && error.name === 'InternalError');
}

function internalError(where, cause) {
  const error = new Error(`toolgate hit an internal error in ${where} (${describe(cause)}); ` +
    'this call did not complete, and the module was restarted so later calls work', { cause });
  error.code = 'TOOLGATE_INTERNAL_ERROR';
  return error;
}

/** Arguments kept for a rebuild: data is copied as JSON (the form Rust reads it in), so later changes by the caller do not leak in. */
class Kept {
  constructor(json) {
    this.json = json;
  }
}
function keep(args) {
  return args.map((value) => {
    if (value === null || typeof value !== 'object') return value;
    try {
      const json = JSON.stringify(value);
      return json === undefined ? value : new Kept(json);
    } catch {
      return value;
    }
  });
}
const restore = (kept) => kept.map((value) => (value instanceof Kept ? JSON.parse(value.json) : value));

/** A wrapper's one own property: its Record (below). */
const RECORD = Symbol('toolgate.record');

/**
 * At most this many compiled objects stay in wasm memory. JavaScript's garbage collector sees a
 * wrapper's few hundred bytes, not the ~20 KB its Rust side holds, so it may leave thousands of
 * dropped policies unfinalized; past this many, the least recently used are released (and
 * rebuilt on their next call, as after a trap). Dropped wrappers are also released when the
 * collector finalizes them.
 */
const MAX_RESIDENT = 1000;
/** …and the same release happens when wasm memory has grown this much since the last one. */
const RELEASE_AFTER_GROWTH = 32 * 1024 * 1024;

/** The most arguments a generated wrapper passes through (fixed, so the hot path allocates nothing). */
const MAX_ARITY = 6;

/**
 * Wraps a glue module (`require('./toolgate_raw.js')` or `import * as raw`) and returns the same
 * API: the same export names, classes, methods, getters and statics.
 */
function resilient(raw, { warn = (message) => console.warn(message) } = {}) {
  const control = raw.__toolgate;
  if (!control || typeof control.reinstantiate !== 'function') {
    throw new Error('toolgate: this glue cannot be re-instantiated (it was not prepared by js/resilient/prepare.mjs)');
  }
  /** generation: bumped at every trap; objects made in an older one rebuild before their next call. */
  const state = { generation: 0, poisoned: false, pending: null, restarts: 0, traps: 0, lastTrap: null };

  // Glue objects Rust hands out inside a result (`Policy.fromZedSettings` → `{ ok, policy }`) are
  // made by their class's `__wrap`: note them, so the result can carry wrappers instead.
  const born = [];
  const wrappers = new Map(); // glue class → wrapper class

  function restart() {
    try {
      const pending = control.reinstantiate();
      if (pending && typeof pending.then === 'function') {
        // Where synchronous instantiation is refused, calls fail closed until this settles.
        state.pending = pending.then(() => {
          state.pending = null;
          state.poisoned = false;
          state.restarts += 1;
        }, (error) => {
          state.pending = null;
          state.lastTrap = error;
        });
        return;
      }
      state.poisoned = false;
      state.restarts += 1;
    } catch (error) {
      state.lastTrap = error; // still poisoned: tried again before the next call
    }
  }

  function trapped(where, error) {
    state.generation += 1;
    state.poisoned = true;
    state.traps += 1;
    state.lastTrap = error;
    born.length = 0;
    resident.clear(); // their Rust side died with the instance
    restart();
    releasedAtBytes = memoryBytes();
    warn(`toolgate: the WebAssembly module trapped in ${where} (${describe(error)}); that call failed closed` +
      (state.poisoned ? ', and the module could not be restarted yet' : ', and the module was restarted'));
  }

  /** False while the module cannot be used (a restart failed or is still pending). */
  function usable() {
    if (!state.poisoned) return true;
    if (!state.pending) restart();
    return !state.poisoned;
  }

  /** A trap (or an unusable module) becomes the export's fail-closed answer, or a clear Error. */
  function failClosed(where, error, a, b, c, d, e, f) {
    const answer = ON_TRAP[where];
    if (typeof answer === 'function') return answer(error, a, b, c, d, e, f);
    throw internalError(where, error);
  }

  // --- objects ---------------------------------------------------------------------------------
  // Each wrapper owns a Record: its glue object (`inner`, null once released), the generation it
  // was made in, when it was last used, and how to make it again (`recipe`, then `replay`).
  // `resident` holds the records whose glue object is alive in the current instance.

  const resident = new Set();
  let clock = 0;
  let releasedAtBytes = 0;
  const memoryBytes = () => {
    const memory = control.memory();
    return memory === undefined ? 0 : memory.buffer.byteLength;
  };
  // When a wrapper is collected, its Rust side is freed (this module keeps the glue object, so
  // the glue's own registry never sees it become unreachable).
  const finalization = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((record) => {
      try {
        release(record);
      } catch (error) {
        if (isTrap(error)) trapped('a finalizer', error); // no call failed, but the module is poisoned
      }
    })
    : { register() {}, unregister() {} };

  function attach(wrapper, inner, recipe) {
    const record = { inner, generation: state.generation, used: ++clock, recipe, replay: null, freed: false };
    wrapper[RECORD] = record;
    finalization.register(wrapper, record, record);
    admit(record);
    return wrapper;
  }

  function admit(record) {
    resident.add(record);
    if (resident.size > MAX_RESIDENT || (resident.size > 16 && memoryBytes() - releasedAtBytes >= RELEASE_AFTER_GROWTH)) {
      // Release the least recently used half: dropped wrappers first, since nothing calls them.
      // (An object changed in a way that cannot be replayed is never released while in use.)
      const coldest = [...resident].filter((r) => r.recipe !== null).sort((x, y) => x.used - y.used);
      for (const cold of coldest.slice(0, coldest.length >> 1)) release(cold);
      releasedAtBytes = memoryBytes();
    }
  }

  /**
   * Frees a record's Rust side; its wrapper, if still in use, rebuilds it on its next call. A trap
   * while freeing propagates, so the call that caused the release fails closed.
   */
  function release(record) {
    const inner = record.inner;
    resident.delete(record);
    if (inner === null) return;
    record.inner = null;
    if (record.generation === state.generation) inner.free();
    else inner.__destroy_into_raw(); // made in an instance that is gone: never free it into this one
  }

  /** The glue object behind a wrapper, rebuilt in the current instance if it was released or made in an older one. */
  function innerOf(wrapper) {
    const record = wrapper[RECORD];
    record.used = ++clock;
    if (record.generation === state.generation && record.inner !== null) return record.inner;
    if (record.freed) throw new Error(`toolgate: this ${wrapper.constructor.name} was freed`);
    if (record.recipe === null) {
      throw new Error(`toolgate: this ${wrapper.constructor.name} was changed in a way that cannot be replayed, ` +
        'and its compiled form was released since: create it again');
    }
    const inner = record.recipe();
    if (record.replay !== null) record.replay.method.apply(inner, restore(record.replay.args));
    born.length = 0;
    record.inner = inner;
    record.generation = state.generation;
    admit(record);
    return inner;
  }

  /** Replaces glue objects made during a call by wrappers that can rebuild them by calling again. */
  function adopt(result, again) {
    const made = born.splice(0);
    const visit = (value, path, depth) => {
      if (value === null || typeof value !== 'object') return value;
      if (made.includes(value)) {
        const Wrapper = wrappers.get(value.constructor);
        if (!Wrapper) return value;
        const Glue = value.constructor;
        return attach(Object.create(Wrapper.prototype), value, () => {
          let rebuilt = again();
          for (const key of path) rebuilt = rebuilt == null ? rebuilt : rebuilt[key];
          if (!(rebuilt instanceof Glue)) throw new Error(`toolgate: could not rebuild a ${Glue.name} after a restart`);
          return rebuilt;
        });
      }
      if (depth >= 3) return value;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) value[i] = visit(value[i], [...path, i], depth + 1);
      } else if (Object.getPrototypeOf(value) === Object.prototype) {
        for (const key of Object.keys(value)) value[key] = visit(value[key], [...path, key], depth + 1);
      }
      return value;
    };
    return visit(result, [], 0);
  }

  // --- generated wrappers ----------------------------------------------------------------------

  /** A function or static method: `call(a..f)` calls the glue. */
  function wrapCall(where, call) {
    return function (a, b, c, d, e, f) {
      if (!usable()) return failClosed(where, state.lastTrap, a, b, c, d, e, f);
      try {
        if (born.length !== 0) born.length = 0;
        const result = call(a, b, c, d, e, f);
        if (born.length === 0) return result;
        const kept = keep([a, b, c, d, e, f]);
        return adopt(result, () => call(...restore(kept)));
      } catch (error) {
        if (!isTrap(error)) throw error;
        trapped(where, error);
        return failClosed(where, error, a, b, c, d, e, f);
      }
    };
  }

  /** A method (or getter, with no arguments) of a wrapper: runs on its current glue object. */
  function wrapMethod(where, method, mutator) {
    return function (a, b, c, d, e, f) {
      if (!usable()) return failClosed(where, state.lastTrap, a, b, c, d, e, f);
      try {
        if (born.length !== 0) born.length = 0;
        const result = method.call(innerOf(this), a, b, c, d, e, f);
        if (mutator !== undefined) {
          const record = this[RECORD];
          if (mutator === null) record.recipe = null;
          else if (mutator.applied(result)) record.replay = { method, args: keep([a, b, c, d, e, f]) };
        }
        if (born.length === 0) return result;
        const self = this;
        const kept = keep([a, b, c, d, e, f]);
        return adopt(result, () => method.apply(innerOf(self), restore(kept)));
      } catch (error) {
        if (!isTrap(error)) throw error;
        trapped(where, error);
        return failClosed(where, error, a, b, c, d, e, f);
      }
    };
  }

  function wrapClass(name, Glue) {
    const constructorWhere = `new ${name}`;
    const Wrapper = {
      [name]: class {
        constructor(...args) {
          // A constructor has no fail-closed answer: it throws a clear Error.
          if (!usable()) throw internalError(constructorWhere, state.lastTrap);
          try {
            const inner = new Glue(...args);
            born.length = 0;
            const kept = keep(args);
            attach(this, inner, () => new Glue(...restore(kept)));
          } catch (error) {
            if (!isTrap(error)) throw error;
            trapped(constructorWhere, error);
            throw internalError(constructorWhere, error);
          }
        }
      },
    }[name];
    const proto = Wrapper.prototype;
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(Glue.prototype))) {
      if (key === 'constructor' || key === 'free' || key.startsWith('__')) continue;
      const where = `${name}.${key}`;
      if (typeof descriptor.value === 'function') {
        if (descriptor.value.length > MAX_ARITY) throw new Error(`toolgate: ${where} takes more than ${MAX_ARITY} arguments`);
        Object.defineProperty(proto, key, { ...descriptor, value: wrapMethod(where, descriptor.value, MUTATORS[where]) });
      } else if (descriptor.get || descriptor.set) {
        const get = descriptor.get && wrapMethod(where, descriptor.get, MUTATORS[where]);
        // A setter changes the object: replayed if it is listed as a mutator, else the object refuses to be rebuilt.
        const set = descriptor.set && wrapMethod(`${where} =`, descriptor.set, MUTATORS[`${where} =`] ?? null);
        Object.defineProperty(proto, key, { configurable: true, enumerable: descriptor.enumerable, get, set });
      }
    }
    const free = function free() {
      const record = this[RECORD];
      if (record.freed) return;
      record.freed = true;
      record.recipe = null;
      record.replay = null;
      finalization.unregister(record);
      try {
        release(record);
      } catch (error) {
        if (!isTrap(error)) throw error;
        trapped(`${name}.free`, error); // the object is gone either way
      }
    };
    Object.defineProperty(proto, 'free', { value: free, writable: true, configurable: true });
    if (typeof Symbol.dispose === 'symbol') Object.defineProperty(proto, Symbol.dispose, { value: free, writable: true, configurable: true });

    for (const key of Object.getOwnPropertyNames(Glue)) {
      if (['length', 'name', 'prototype'].includes(key) || key.startsWith('__')) continue;
      const descriptor = Object.getOwnPropertyDescriptor(Glue, key);
      if (typeof descriptor.value !== 'function') continue;
      const staticMethod = descriptor.value;
      Object.defineProperty(Wrapper, key, {
        ...descriptor,
        value: wrapCall(`${name}.${key}`, (a, b, c, d, e, f) => staticMethod.call(Glue, a, b, c, d, e, f)),
      });
    }
    // Objects Rust returns inside results come through `__wrap`: count them as born.
    if (typeof Glue.__wrap === 'function') {
      const wrap = Glue.__wrap;
      Glue.__wrap = function (ptr) {
        const object = wrap.call(this, ptr);
        born.push(object);
        return object;
      };
    }
    wrappers.set(Glue, Wrapper);
    return Wrapper;
  }

  // A trap while the glue's own FinalizationRegistry frees an object: the module is poisoned.
  if (typeof control.onTrap === 'function') {
    control.onTrap((error) => {
      if (isTrap(error)) trapped('a finalizer', error);
    });
  }

  const api = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name === '__toolgate') continue;
    if (PASS_THROUGH.has(name) || typeof value !== 'function') {
      api[name] = value;
    } else if (typeof value.prototype === 'object' && typeof value.prototype.free === 'function') {
      api[name] = wrapClass(name, value);
    } else {
      if (value.length > MAX_ARITY) throw new Error(`toolgate: ${name} takes more than ${MAX_ARITY} arguments`);
      const wrapped = wrapCall(name, value);
      Object.defineProperty(wrapped, 'name', { value: name });
      api[name] = wrapped;
    }
  }
  /** For tests and diagnostics: traps seen, restarts done, and the current wasm memory. */
  api.__toolgate = Object.freeze({
    status: () => ({ generation: state.generation, traps: state.traps, restarts: state.restarts, poisoned: state.poisoned }),
    memory: () => control.memory(),
  });
  return api;
}

export { resilient, ON_TRAP, MUTATORS, MAX_RESIDENT, isTrap };
