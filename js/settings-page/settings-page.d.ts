// The webview half of toolgate's settings page (`toolgate/settings-page`): loaded by the page's
// HTML as a module, it starts itself in `#toolgate-settings`. See PROTOCOL.md.

/** Loads the page's wasm module once (from a script: no `connect-src` needed). */
export declare function loadCore(): Promise<unknown>;

export interface StartOptions {
  /** Where drafts live in local storage when VS Code's state is unavailable. */
  storageKey?: string;
  /** VS Code's webview API, if the embedder already called `acquireVsCodeApi()` (it can only be called once). */
  vscodeApi?: object;
  /**
   * Outside VS Code, the origin of the page that frames this one (`https://host.example`): the
   * page posts only to it and takes host messages only from its parent frame at that origin.
   * Default: the root's `data-host-origin` (`settingsPageHtml`'s `hostOrigin`), else the page's
   * own origin. `*` is refused. In VS Code, messages go through its API and are taken from
   * VS Code's own frame; given, its origin is required too.
   */
  hostOrigin?: string;
}

/** Starts the page in `root` (default `#toolgate-settings`); the module does this by itself on load. */
export declare function startSettingsPage(root?: HTMLElement | null, options?: StartOptions): Promise<unknown>;
