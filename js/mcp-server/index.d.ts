// Gasoline's YAML allowlist guarding an MCP server built with `@modelcontextprotocol/sdk`.
import type { AllowlistSummary, ToolNotAllowed } from '../engine/node/toolgate_engine';

export type { AllowlistSummary, ToolNotAllowed };

/**
 * The part of the SDK's `McpServer` the guard patches. Structural, so the guard works with the
 * server's own copy of the SDK without depending on it.
 */
export interface McpServerLike {
  registerTool(name: string, config: any, handler: (...params: any[]) => any): unknown;
  tool(name: string, ...rest: any[]): unknown;
}

export interface GuardOptions {
  /** The YAML file (`allowed_tools:` list); a relative path is resolved against `process.cwd()`. */
  allowlistFile: string;
  /**
   * The action of a call: `interact({action: "navigate"})` is checked as `interact.navigate`.
   * Default: `args.action`. A result that is not a non-empty string means the call has no action:
   * it is matched as the tool alone, which only `*` and `tool.*` allow. A tool registered without
   * an input schema never sees its arguments, so it is always checked without an action.
   */
  actionOf?: (toolName: string, args: Record<string, unknown>) => unknown;
  /** Where log lines go. Default: one line each on stderr (stdout is the stdio transport's). */
  log?: (message: string, level: 'info' | 'warn' | 'error') => void;
  /**
   * Reload when the file changes on disk. Default: true. While a list is in force, a file with no
   * list (empty, cut short, `allowed_tools:` alone) is refused and the list stays; a file that
   * would permit every tool/action (`allowed_tools: []`, `*`) applies only once it reads the same
   * twice, `debounceMs` apart.
   */
  watch?: boolean;
  /** How long the file must stay quiet before it is re-read, in milliseconds. Default: 100. */
  debounceMs?: number;
}

/** What `observe({what: "server_config"})` reports about the allowlist. */
export interface AllowlistConfig extends AllowlistSummary {
  /** The absolute path of the allowlist file. */
  config_file: string;
}

export declare class AllowlistGuard {
  /** Loads the file (throws, naming file, line and column, if it is unreadable or invalid) and watches it. */
  constructor(options: GuardOptions);
  /** The absolute path of the allowlist file. */
  readonly allowlistFile: string;
  /** `null` when the call may run, else the seed's error object (the same on every retry); denials are logged. */
  check(toolName: string, args?: Record<string, unknown>): ToolNotAllowed | null;
  /** For a server's config tool: `{ allowlist: { enabled, allowed_tools, count, message, config_file } }`. */
  serverConfig(): { allowlist: AllowlistConfig };
  /**
   * Re-reads the file now; on any error the previous list stays in force (and the error is logged).
   * A file with no list while a list is in force is such an error: it must say `allowed_tools: []`.
   */
  reload(): boolean;
  /** Patches `registerTool` and `tool` so every tool registered afterwards is checked first. */
  protect<S extends McpServerLike>(server: S): S;
  /** Stops watching the file. */
  close(): void;
}

/**
 * Loads the allowlist, watches it, and guards every tool registered on `server` afterwards: a denied
 * call returns `{ isError: true, content: [{ type: 'text', text: JSON of the error object }],
 * structuredContent: the error object }` (no `structuredContent` for tools with an output schema)
 * and the handler is not invoked. Throws if the file is unreadable or invalid: the server must not start.
 */
export declare function guardServer(server: McpServerLike, options: GuardOptions): AllowlistGuard;
