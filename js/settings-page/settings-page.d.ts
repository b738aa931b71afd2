// The webview half of toolgate's settings page (`toolgate/settings-page`): loaded by the page's
// HTML as a module, it starts itself in `#toolgate-settings`. See PROTOCOL.md.

/** Loads the page's wasm module once (from a script: no `connect-src` needed). */
export declare function loadCore(): Promise<unknown>;

export interface StartOptions {
  /** Where drafts live in local storage when VS Code's state is unavailable. */
  storageKey?: string;
  /** VS Code's webview API, if the embedder already called `acquireVsCodeApi()` (it can only be called once). */
  vscodeApi?: object;
}

/** Starts the page in `root` (default `#toolgate-settings`); the module does this by itself on load. */
export declare function startSettingsPage(root?: HTMLElement | null, options?: StartOptions): Promise<unknown>;
