import type { Decision } from '../engine/node/toolgate_engine.js';

/** Anything that decides a call: a `Policy` of `toolgate/engine`. */
export interface Decides {
  decide(tool: string, input: string | string[]): Decision;
}

/** A decision made on the paths as the file system resolves them. */
export type DiskDecision = Decision & {
  /** The paths as written, when the resolved paths decided (the items then name the paths on disk). */
  resolvedFrom?: string[];
};

/**
 * Where `path` lands on disk: absolute (against `cwd`, default the process's), symlinks of its
 * existing part followed, the part that does not exist yet appended. `null` when no ancestor resolves.
 */
export function resolveOnDisk(path: string, cwd?: string): string | null;

/**
 * Decides `tool` on `input` (a path, or a source and destination) as written and as resolved on
 * disk; the stricter decision is returned.
 */
export function decideOnDisk(policy: Decides, tool: string, input: string | string[], options?: { cwd?: string }): DiskDecision;
