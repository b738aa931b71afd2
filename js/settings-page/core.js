// The settings page's only way to the toolgate core (wasm). Four parts, each loaded when the page
// first needs it, each resolving to the members the page uses of it:
//   - linkNow() / loadLink(): the gloo glue to the host (`HostLink`, `Debouncer`), all the page
//     needs to start, compiled from the bytes the page's own file carries;
//   - loadValidator(): checking the settings and what drawing them asks of the core;
//   - loadDecider(): what "Try a call" decides with: `Policy` over `settingsPolicy`, `decideMcp`
//     over `settingsMcp`, and `applySettingsChange` for its permission options;
//   - loadTools(): importing another agent's settings, and checking them with lint's findings.
// The link and the validator are the page's own small modules (their glue, and the link's .wasm,
// bundled into the page's file); the decider and the tools are the tools' module (the engine
// with lint and the importers), loaded once when the first is used.
// Nothing the page holds from one part (a `Policy`, a class) is given to another part's functions;
// only plain JSON values pass between them. No other file of the page imports the wasm modules.

import * as linkGlue from './link/toolgate_link.js';
import linkWasm from './link/toolgate_link_bg.wasm'; // its bytes (the build's binary loader)
import * as validatorGlue from './validator/toolgate_validator.js';

/**
 * Where each part comes from: its glue (the page's own modules' glue is in the page's file: the
 * build bundles it; the tools' is imported, relative to this file, and finds its own .wasm), and
 * its .wasm: the link's bytes, carried by the page's file, else a path relative to this file,
 * fetched when the part is first asked for and compiled while it downloads (the validator's while
 * the page lays itself out).
 */
const MODULES = {
  link: [linkGlue, linkWasm],
  validator: [validatorGlue, './validator/toolgate_validator_bg.wasm'],
  decider: ['../tools/web/toolgate_tools_raw.js'],
  tools: ['../tools/web/toolgate_tools_raw.js'],
};

/** The members of each part the page uses. */
const MEMBERS = {
  link: ['HostLink', 'Debouncer'],
  validator: ['validateSettings', 'settingsPreview', 'settingsTools', 'parseEntry', 'addToAllowlist', 'removeFromAllowlist'],
  decider: ['Policy', 'decideMcp', 'settingsPolicy', 'settingsMcp', 'applySettingsChange'],
  tools: ['importPolicy', 'validateSettings'],
};

const modules = new Map(); // specifier → promise of the initialised module (each initialised once)
const parts = new Map(); // part → promise of its members

/** A module, imported and its wasm fetched (from the page's own source: CSP `connect-src`) and compiled once. */
function initialised([glue, wasm]) {
  const specifier = typeof glue === 'string' ? glue : wasm;
  if (!modules.has(specifier)) {
    const response = typeof wasm === 'string' ? fetch(new URL(wasm, import.meta.url)) : wasm;
    if (typeof wasm === 'string') response.catch(() => {}); // its failure is the init's, below
    const loading = (typeof glue === 'string' ? import(glue) : Promise.resolve(glue)).then(async (module) => {
      await module.default(response === undefined ? undefined : { module_or_path: response });
      return module;
    });
    // A failed load may be tried again.
    loading.catch(() => modules.delete(specifier));
    modules.set(specifier, loading);
  }
  return modules.get(specifier);
}

function load(part) {
  if (!parts.has(part)) {
    const loading = initialised(MODULES[part]).then((module) => members(part, module));
    loading.catch(() => parts.delete(part));
    parts.set(part, loading);
  }
  return parts.get(part);
}

/** The members of a part, from its initialised module. */
function members(part, module) {
  const found = {};
  for (const name of MEMBERS[part]) {
    if (module[name] === undefined) throw new Error(`toolgate settings page: the core's ${part} has no ${name}`);
    found[name] = module[name];
  }
  return Object.freeze(found);
}

let linked; // the link's members, once compiled

/**
 * The glue to the host, compiled at once from the bytes the page's file carries, so the page
 * draws the settings its HTML holds before it yields to the browser even once; undefined where the
 * browser does not compile synchronously (then `loadLink()`).
 */
export function linkNow() {
  if (linked) return linked;
  try {
    linkGlue.initSync({ module: linkWasm });
  } catch {
    return undefined;
  }
  linked = members('link', linkGlue);
  parts.set('link', Promise.resolve(linked));
  return linked;
}

/** The glue to the host: `HostLink` (messages, drafts) and `Debouncer`. */
export const loadLink = () => load('link');

/** What checking and drawing the settings need: `validateSettings`, `parseEntry`, `settingsTools`, … */
export const loadValidator = () => load('validator');

/** What "Try a call" decides with: `Policy` (over `settingsPolicy`'s plain spec), `decideMcp`, `applySettingsChange`. */
export const loadDecider = () => load('decider');

/** Importing another agent's settings (`importPolicy`), and `validateSettings` with lint's findings. */
export const loadTools = () => load('tools');

/** What the page needs to validate (the validator), for embedders that load it ahead. */
export const loadCore = () => loadValidator();
