// The host half of toolgate's settings page (`toolgate/settings-page/host`). See PROTOCOL.md.
import type { PageContext, PageSettings, Problem, SettingsValidation } from '../tools/web/toolgate_tools.js';
import type { CompleteSettings, HostMessage, WebviewMessage } from './protocol.js';

export type { CompleteSettings, HostMessage, WebviewMessage } from './protocol.js';
export type { PageContext, PageSettings, Problem, SettingsValidation } from '../tools/web/toolgate_tools.js';

/** The protocol version this host speaks. */
export declare const PROTOCOL_VERSION: 1;

/** What the host needs of a webview: VS Code's `Webview` has both. */
export interface WebviewLike {
  postMessage(message: HostMessage): unknown;
  onDidReceiveMessage(listener: (message: WebviewMessage) => unknown): { dispose(): unknown } | undefined | void;
}

/** The part of toolgate's core the host uses (the tools module, `toolgate/tools`: its Node build by default). */
export interface SettingsCore {
  validateSettings(draft: unknown, context?: PageContext | null): SettingsValidation;
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
}

export interface SettingsHost {
  /** The last settings that validated (after a save: that were persisted): decide with these. */
  readonly settings: CompleteSettings | undefined;
  /** The context last sent to the page. */
  readonly context: PageContext;
  /** Re-reads settings and context and sends `load` (they changed outside the page). */
  refresh(): Promise<void>;
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
}

/**
 * The page's HTML, with the strict CSP `default-src 'none'; script-src ${cspSource} 'wasm-unsafe-eval';
 * style-src ${cspSource}; connect-src ${cspSource}`, and the page's module preloaded.
 */
export declare function settingsPageHtml(options: SettingsPageHtmlOptions): string;

/**
 * The `<link>`s that preload the page's module (the tools' web glue, its snippets and its .wasm)
 * for a page whose `settings-page.js` is at `scriptUri`: for a page whose HTML is not
 * `settingsPageHtml`'s.
 */
export declare function pagePreloads(scriptUri: string | { toString(): string }): string;
