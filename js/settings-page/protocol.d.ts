// The messages between toolgate's settings page (the webview half) and the extension host (the
// host half). See PROTOCOL.md beside this file. Types of the payloads come from the core's
// generated declarations.
import type { PageContext, PageSettings, Problem } from '../tools/web/toolgate_tools.js';

export type { PageContext, PageSettings, Problem };

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

/** Every message the webview sends. */
export type WebviewMessage = ReadyMessage | SaveMessage;

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
export type HostMessage = LoadMessage | SavedMessage | RejectedMessage;
