// The seed's allowlist matching (seed 000: ihe, vOh, f4c) in plain JavaScript, as Cursor
// runs it: every decision parses and validates every entry, then `list.some(f4c)`.
const SEPARATOR = ':';
const WILDCARD = '*';
const RESERVED = [SEPARATOR, WILDCARD];

export function ihe(name) {
  if (!name || name.length === 0) return false;
  if (name.length > 256) return false;
  if (name.trim().length === 0) return false;
  if (name !== WILDCARD && RESERVED.some((c) => name.includes(c))) return false;
  return true;
}

export function vOh(entry) {
  const parts = entry.split(SEPARATOR);
  if (parts.length !== 2) return null;
  const [serverId, toolName] = parts;
  if (!ihe(serverId) || !ihe(toolName)) return null;
  return { serverId, toolName };
}

export function f4c(serverId, toolName, entry) {
  const parsed = vOh(entry);
  if (!parsed) return false;
  if (parsed.serverId === WILDCARD) {
    if (parsed.toolName === WILDCARD) return true;
    return parsed.toolName === toolName;
  }
  if (parsed.serverId !== serverId) return false;
  if (parsed.toolName === WILDCARD) return true;
  return parsed.toolName === toolName;
}

/** The seed's check, names validated first as `m4c` does. */
export function isAllowlisted(list, serverId, toolName) {
  return ihe(serverId) && ihe(toolName) && list.some((entry) => f4c(serverId, toolName, entry));
}
