// The messages between toolgate's settings page (the webview half) and the extension host (the
// host half). See PROTOCOL.md beside this file. Types of the payloads come from the core's
// generated declarations.
import type { Grant, LogRecord, PageContext, PageSettings, Problem, Proposal } from '../tools/web/toolgate_tools.js';

export type { Grant, LogRecord, PageContext, PageSettings, Problem, Proposal };

/** The page's sections: the settings of each dialect, "Try a call", and the agent's session. */
export type SectionName = 'rules' | 'try' | 'mcp' | 'roo' | 'gasoline' | 'grants' | 'log' | 'proposals';

/**
 * What the embedder chooses (the host's `page` option, sent in `load`): the sections and their
 * order, the page's and the agent's names, each section's words, and the tools with their names.
 * Left out, the page shows the settings sections (and, with a session, its activity) in neutral
 * words that name no other product.
 */
export interface PageOptions {
  /** The sections, in this order. Default: mcp, rules, try, roo, gasoline; and grants, proposals, log with a session. */
  sections?: SectionName[];
  /** The page's heading. Default: "Tool permissions". */
  title?: string;
  /** The agent's name in the page's words ("What Acme Agent may run without asking…"). */
  agentName?: string;
  /** The line under the heading. */
  intro?: string;
  /** A section's heading and help, in the embedder's words; `{agent}` is the agent's name. */
  words?: Partial<Record<SectionName, { heading?: string; help?: string }>>;
  /** The tools the rules and "Try a call" offer, in this order, each with its display name. Default: the policy's catalogue. */
  tools?: Array<{ name: string; label?: string }>;
}

/**
 * Settings as the core returns them (`validateSettings(…).settings`, `load.settings`,
 * `saved.settings`, what the host half persists): every section and each section's fields filled in.
 */
export type CompleteSettings = {
  [K in keyof PageSettings]-?: { [F in keyof NonNullable<PageSettings[K]>]-?: NonNullable<NonNullable<PageSettings[K]>[F]> };
};

/** The version both halves speak. */
export type ProtocolVersion = 1;

/** Webview → host: the page has started (or was reloaded) and wants the settings. */
export interface ReadyMessage {
  type: 'ready';
  protocol: ProtocolVersion;
}

/** Webview → host: save this draft. `id` increases with every save of the page's session. */
export interface SaveMessage {
  type: 'save';
  id: number;
  settings: PageSettings;
}

/** Webview → host: the user revoked the session's grant `id` (only with the host's `activity`). */
export interface RevokeMessage {
  type: 'revoke';
  id: string;
}

/** Every message the webview sends. */
export type WebviewMessage = ReadyMessage | SaveMessage | RevokeMessage;

/**
 * Host → webview: the settings in force and what the host knows besides (MCP catalogue,
 * administrator's state, workspace trust). Sent after `ready`, and again whenever the settings or
 * the context change outside the page. `problems`: why the stored settings could not be used as
 * they are (the page shows them; `settings` is then what could be read, or the defaults).
 */
export interface LoadMessage {
  type: 'load';
  protocol: ProtocolVersion;
  settings: CompleteSettings;
  context: PageContext;
  /** The embedder's choices, when it made any. */
  page?: PageOptions;
  problems?: Problem[];
  /**
   * The host's warnings about the stored settings, lint's findings among them: the page shows
   * them until the rules are edited, when it checks them with lint itself.
   */
  warnings?: Problem[];
  /**
   * Whether the host checked `settings` (absent: it did). A host may send the stored settings
   * first as they are stored (`checked: false`, no `problems`), for the page to draw at once, then
   * checked, with their `problems`: the page keeps the user's edits and focus across the two.
   */
  checked?: boolean;
}

/**
 * Host → webview: the agent's session (the host's `activity`): its grants in force, its recent
 * decisions and answers, and the rules its approvals suggest against the settings in force. Sent
 * after `load`, after a save or a revoke, and when the extension calls `refreshActivity()`.
 */
export interface ActivityMessage {
  type: 'activity';
  grants: Grant[];
  log: LogRecord[];
  proposals: Proposal[];
  /** Why a revoke failed. */
  problems?: Problem[];
}

/** Host → webview: save `id` was validated and persisted; `settings` is what was stored. */
export interface SavedMessage {
  type: 'saved';
  id: number;
  settings: CompleteSettings;
  warnings: Problem[];
}

/** Host → webview: save `id` was refused; nothing was persisted and the previous settings stay in force. */
export interface RejectedMessage {
  type: 'rejected';
  id: number;
  errors: Problem[];
  warnings: Problem[];
}

/** Every message the host sends. */
export type HostMessage = LoadMessage | SavedMessage | RejectedMessage | ActivityMessage;
