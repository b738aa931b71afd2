// The host half of toolgate's settings page (`toolgate/settings-page/host`). See PROTOCOL.md.
import type { PageContext, PageSettings, Problem, SettingsValidation } from '../tools/web/toolgate_tools.js';
import type { CompleteSettings, HostMessage, PageOptions, SectionName, WebviewMessage } from './protocol.js';

export type { ActivityMessage, CompleteSettings, HostMessage, PageOptions, SectionName, WebviewMessage } from './protocol.js';
export type { PageContext, PageSettings, Problem, SettingsValidation } from '../tools/web/toolgate_tools.js';

/** The protocol version this host speaks. */
export declare const PROTOCOL_VERSION: 1;

/** The page's sections, in the order `page.sections` may name them. */
export declare const SECTIONS: readonly SectionName[];

/** What the host needs of a webview: VS Code's `Webview` has both. */
export interface WebviewLike {
  postMessage(message: HostMessage): unknown;
  onDidReceiveMessage(listener: (message: WebviewMessage) => unknown): { dispose(): unknown } | undefined | void;
}

/** The part of toolgate's core the host uses (the tools module, `toolgate/tools`: its Node build by default). */
export interface SettingsCore {
  validateSettings(draft: unknown, context?: PageContext | null): SettingsValidation;
  /** With these three, the page's "Suggested rules" are the session's approvals learned from. */
  settingsPolicy?(settings: PageSettings, context?: PageContext | null): unknown;
  readSessionLog?(text: string): { calls: unknown[] };
  learnRules?(spec: unknown, calls: unknown[], options?: { layer?: string; minCalls?: number }): { proposals: unknown[] };
}

/** What the page needs of the agent's permission session (`Session` of `toolgate/tools` or `toolgate/engine`). */
export interface SessionLike {
  grants(now: number): unknown[];
  revoke(id: string, now: number): unknown;
  log(): { records: unknown[]; dropped: number };
  logLines(after?: number | null): string;
}

/** The agent's session the page shows: its grants (revocable), recent decisions and suggested rules. */
export interface ActivityOptions {
  /** The session, or a function giving the current one (it may be replaced, or absent). */
  session: SessionLike | (() => SessionLike | undefined | Promise<SessionLike | undefined>);
  /** The host's clock in milliseconds, the one the session decides with. Default: `Date.now`. */
  now?(): number;
  /**
   * A workspace or user grant was revoked in the page: its rule is to be taken out of the stored
   * settings (`persist.changes` name it, `persist.spec` is the policy without it).
   */
  onRevoke?(persist: unknown): void | Promise<void>;
  /** How many decisions and answers the page shows. Default: 200. */
  logLimit?: number;
}

export interface SettingsHostOptions {
  /** The panel's webview (or anything with its two members). */
  webview: WebviewLike;
  /** The stored settings (anything: they are validated before use), or a promise of them. */
  load(): unknown | Promise<unknown>;
  /** Stores validated settings; a throw or a rejected promise rejects the save. */
  persist(settings: CompleteSettings): void | Promise<void>;
  /** The MCP catalogue, the administrator's state and workspace trust, or a function giving them. */
  context?: PageContext | (() => PageContext | Promise<PageContext>);
  /** toolgate's core; `toolgate/settings-page/host` uses the tools' Node build when absent. */
  core?: SettingsCore;
  /** Called after a save was persisted, with the settings now in force. */
  onDidSave?(settings: CompleteSettings): void;
  /** Where the host reports what it did and what went wrong. */
  log?(message: string, level: 'info' | 'warn' | 'error'): void;
  /** The embedder's choices: which sections, in what order, in whose words, for which tools. */
  page?: PageOptions;
  /** The agent's session: the page then shows its grants, recent decisions and suggested rules. */
  activity?: ActivityOptions;
}

export interface SettingsHost {
  /** The last settings that validated (after a save: that were persisted): decide with these. */
  readonly settings: CompleteSettings | undefined;
  /** The context last sent to the page. */
  readonly context: PageContext;
  /** Re-reads settings and context and sends `load` (they changed outside the page). */
  refresh(): Promise<void>;
  /** Sends the session's grants, decisions and suggestions again (after a decision or an answer). */
  refreshActivity(): Promise<void>;
  /** Resolves once every message received so far has been handled. */
  idle(): Promise<void>;
  /** Stops listening to the webview. */
  dispose(): void;
}

/** Connects a settings page in `webview` to the extension (see PROTOCOL.md). */
export declare function createSettingsHost(options: SettingsHostOptions): SettingsHost;
/** The same as `createSettingsHost`. */
export declare function attachSettingsPage(options: SettingsHostOptions): SettingsHost;

export interface SettingsPageHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** The webview URI of `settings-page.js` (`webview.asWebviewUri(…)`). */
  scriptUri: string | { toString(): string };
  /** The webview URI of `settings-page.css`. */
  styleUri: string | { toString(): string };
  /** The document's title. Default: "Tool permissions". */
  title?: string;
  /** The document's language. Default: "en". */
  lang?: string;
  /** Where drafts live in local storage when VS Code's state is unavailable. */
  storageKey?: string;
  /**
   * For a page framed by a web page rather than a VS Code webview: that page's origin
   * (`https://host.example`), the only one the settings page posts to and takes messages from.
   * Without it, outside VS Code, the settings page speaks only with a host of its own origin.
   * A value that is not an origin (`*` included) is a `TypeError`.
   */
  hostOrigin?: string;
  /**
   * The stored settings, as stored: written into the HTML as data (a JSON block, never run), so
   * the page draws them before any message; the host's `load` then checks them. Not an object:
   * left out (the host's `load` says what is wrong with them).
   */
  settings?: object;
  /** With `settings`: the page options, as given to `createSettingsHost` (checked the same way). */
  page?: PageOptions;
  /** With `settings`: the host's context (the MCP catalogue, the administrator's state, workspace trust). */
  context?: PageContext;
}

/**
 * The page's HTML, with the strict CSP `default-src 'none'; script-src ${cspSource} 'wasm-unsafe-eval';
 * style-src ${cspSource}; connect-src ${cspSource}`, the page's module and style, and (given
 * `settings`) the stored settings as data the page draws first.
 */
export declare function settingsPageHtml(options: SettingsPageHtmlOptions): string;

