// The stored settings as a host sends them before it checked them (`load` with `checked: false`,
// or in the page's HTML), in the form the page draws.
import { clone } from './dom.js';

/** An object, not an array or null. */
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Stored settings as the host read them, before any check (`load` with `checked: false`), in the
 * form the page draws: each section and field the core fills in when absent (`validateSettings`'
 * defaults) filled in the same way. Undefined when they are not in a form the page can draw (a
 * list where an object belongs, …): the page then waits for the host's checked settings.
 */
export function drawable(stored) {
  const s = isObject(stored) ? stored : {};
  for (const key of ['mcp', 'rules', 'roo', 'gasoline']) if (s[key] !== undefined && !isObject(s[key])) return undefined;
  const rules = s.rules ?? {};
  for (const layer of ['user', 'project']) {
    if (rules[layer] !== undefined && (!isObject(rules[layer]) || (rules[layer].tools !== undefined && !isObject(rules[layer].tools)))) return undefined;
  }
  const settings = clone({
    ...s,
    mcp: { mode: 'yolo', mcpAllowedTools: [], mcpToolsProtection: true, playwrightProtection: true, ...s.mcp },
    rules: { ...rules, user: { tools: {}, ...rules.user }, project: { tools: {}, ...rules.project } },
    roo: { modes: [], ...s.roo },
    gasoline: { yaml: '', ...s.gasoline },
  });
  const { mcp, roo, gasoline } = settings;
  if (!Array.isArray(mcp.mcpAllowedTools) || !mcp.mcpAllowedTools.every((e) => typeof e === 'string')) return undefined;
  if (!Array.isArray(roo.modes) || !roo.modes.every(isObject) || typeof gasoline.yaml !== 'string') return undefined;
  for (const layer of ['user', 'project']) {
    for (const tool of Object.values(settings.rules[layer].tools)) {
      if (!isObject(tool) || ['alwaysAllow', 'alwaysConfirm', 'alwaysDeny'].some((l) => tool[l] !== undefined && !(Array.isArray(tool[l]) && tool[l].every(isObject)))) return undefined;
    }
  }
  return settings;
}

/**
 * The stored settings the host put in the page's HTML (settingsPageHtml's `settings`, with `page`
 * and `context`): `{ settings, page?, context? }`, or undefined when there are none or the block
 * cannot be read (the host's `load` then brings them).
 */
export function storedInHtml(doc = document) {
  const block = doc.getElementById('toolgate-settings-stored');
  if (!block || block.type !== 'application/json') return undefined;
  try {
    const data = JSON.parse(block.textContent);
    if (isObject(data) && isObject(data.settings) && (data.page === undefined || isObject(data.page)) && (data.context === undefined || isObject(data.context))) return data;
  } catch { /* said below */ }
  console.warn('toolgate settings page: the stored settings in the page could not be read; waiting for the extension');
  return undefined;
}
