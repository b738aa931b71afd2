// The settings page's shared words and names: the sections and their default headings and help,
// the outcome and rule-list names, the keys of a rule.

export const VALIDATE_DELAY_MS = 150;
export const OUTCOME_TEXT = { allow: 'Runs without asking', confirm: 'Asks first', deny: 'Refused' };
export const LIST_TEXT = { alwaysAllow: 'Always allow', alwaysConfirm: 'Always confirm', alwaysDeny: 'Always deny' };
export const LISTS = ['alwaysAllow', 'alwaysConfirm', 'alwaysDeny'];
/** The keys of a rule that qualify its matcher; every other key is the matcher (exactly one is set). */
export const RULE_OPTIONS = new Set(['caseSensitive', 'root', 'examples', 'human']);
/** A rule's matcher, by its key in the rule: a regex `pattern` unless another is set. */
export const matcherOf = (rule) => Object.keys(rule).find((k) => !RULE_OPTIONS.has(k) && rule[k] !== undefined) ?? 'pattern';
/** The page's sections by name, in the default order, with the id of their element. */
export const SECTION_IDS = { mcp: 'tg-mcp', rules: 'tg-rules', try: 'tg-try', roo: 'tg-roo', gasoline: 'tg-gasoline', grants: 'tg-grants', proposals: 'tg-proposals', log: 'tg-log' };
export const DEFAULT_SECTIONS = ['mcp', 'rules', 'try', 'roo', 'gasoline'];
export const ACTIVITY_SECTIONS = ['grants', 'proposals', 'log'];
/**
 * Each section's heading and help, naming no other product; `{agent}` is the agent's name. An
 * embedder replaces any of them (`page.words`).
 */
export const DEFAULT_WORDS = {
  mcp: { heading: 'MCP allowlist', help: 'MCP tools named here run without asking when the mode uses the allowlist: server:tool, with * for any server or tool.' },
  rules: { heading: 'Terminal and tool rules', help: 'Per tool, regular expressions that always allow, always confirm or always deny a call, and a default. A terminal line is checked per sub-command. Deny and confirm rules of any layer win; a line runs only if every sub-command is allowed.' },
  try: { heading: 'Try a call', help: 'See what a call by {agent} would do with these settings (saved or not): the decision the extension makes.' },
  roo: { heading: 'Per-mode MCP restrictions', help: 'Which MCP servers and tools each mode may use. Disallowed wins over allowed; with nothing allowed, every server enabled by default may be used.' },
  gasoline: { heading: 'Tool and action allowlist (YAML)', help: 'The MCP server\'s allowlist.yaml: patterns *, tool.* and tool.action, matched ignoring case. An empty list allows everything.' },
  grants: { heading: 'What you allowed', help: 'Answers that last: for this session, for a while, in this workspace or always. Revoke one and {agent} asks again.' },
  proposals: { heading: 'Suggested rules', help: 'Rules that would have let the calls you approved run without asking; none would have let a call you refused run. Add one to your rules, then save.' },
  log: { heading: 'Recent decisions', help: 'What {agent} asked to do and what happened, newest first.' },
};
