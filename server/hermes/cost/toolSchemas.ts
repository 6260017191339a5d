// The tool schemas Hermes sends before the system prompt of every request (the start of the cached
// prefix), per Hermes build, as Hermes' own code produced them (tool-schemas.json, written by
// scripts/hermes-corpus/measure.py: bytes and o200k tokens of each tool's JSON, never its text).
// state.db keeps at most the names of a session's tools, so the size of a session's tool block is
// the sum of its tools' measured sizes in the table of the build that wrote it.
import fs = require('node:fs');
import path = require('node:path');
import { memo } from '../memo';

export interface ToolSchemaSize {
  readonly toolset: string;
  /** The tool's JSON as `hermes prompt-size` measures it (`json.dumps(tool, ensure_ascii=False)`). */
  readonly bytes: number;
  /** That JSON in o200k tokens. */
  readonly tokens: number;
  /** False when the tool did not load where it was measured (its availability check failed there). */
  readonly loadsHere?: boolean;
}

export type BuildKind = 'release' | 'fork' | 'derived';

export interface ToolTable {
  /** The corpus build's name (`v0.20.3-schema26`). */
  readonly name: string;
  readonly kind: BuildKind;
  /** Its pyproject version. */
  readonly version: string;
  readonly commit: string;
  readonly tools: Readonly<Record<string, ToolSchemaSize>>;
  /** A gateway session's tools whose JSON differs from the CLI's (or that the CLI lacks): their sizes on the gateway surfaces. */
  readonly gatewayTools: Readonly<Record<string, ToolSchemaSize>>;
  readonly toolsets: Readonly<Record<string, { readonly tools: number; readonly bytes: number; readonly tokens: number }>>;
  /** What a fresh session sent where it was measured: the CLI's first request, and a gateway (telegram) session's. */
  readonly sessionTools: { readonly cli: readonly string[]; readonly telegram: readonly string[] };
}

interface ToolSchemaFile {
  readonly tokenizer: string;
  readonly builds: readonly ToolTable[];
}

// The file's shape as tsc reads it; naming it here also keeps the file in tsc's program, which
// emits it next to this module in out/ (the build copies it next to the bundles in dist/).
type ToolSchemaJson = typeof import('./tool-schemas.json');
let data: ToolSchemaFile | undefined;

/**
 * The tables, oldest build first (the file's order), read when a run first prices a tool: data
 * parsed in a millisecond, not a literal of the bundle that every command compiled (or read
 * from the code cache) and built. Its origin is in its $comment.
 */
export function toolTables(): readonly ToolTable[] {
  data ??= JSON.parse(fs.readFileSync(path.join(__dirname, 'tool-schemas.json'), 'utf8')) as ToolSchemaJson as unknown as ToolSchemaFile;
  return data.builds;
}

export function toolTableNamed(name: string): ToolTable | undefined {
  return toolTables().find((t) => t.name === name);
}

/** What a table's build is called to a user: a release by its version; a fork's or a derived build never as a Hermes release. */
export function toolTableTitle(table: ToolTable): string {
  if (table.kind === 'release') return `Hermes ${table.version}`;
  if (table.kind === 'fork') return `a fork's build of ${table.version} (${table.name}, not a Hermes release)`;
  return `a derived build (${table.name}: Hermes ${table.version} with a later change applied by the lens's authors, not a Hermes release)`;
}

/** The newest Hermes release measured: the table for a build we cannot tell. */
export function newestReleaseTable(): ToolTable {
  return [...toolTables()].reverse().find((t) => t.kind === 'release')!;
}

/** The release of exactly that version, if one was measured (a fork or derived build is never taken for a release). */
export function releaseTableOfVersion(version: string | undefined): ToolTable | undefined {
  return version === undefined ? undefined : [...toolTables()].reverse().find((t) => t.kind === 'release' && t.version === version);
}

/**
 * The tools a session of `source` gets from this build when state.db names none (these builds have
 * no `sessions.tool_names`): the CLI's list for the CLI, the TUI and ACP, a gateway session's for
 * every other surface; without the tools of the toolsets `agent.disabled_toolsets` names.
 */
export function defaultToolsFor(table: ToolTable, source: string | undefined, disabledToolsets: readonly string[] = []): readonly string[] {
  const list = isCliSurface(source) ? table.sessionTools.cli : table.sessionTools.telegram;
  if (disabledToolsets.length === 0) return list;
  return memo(memo(withoutToolsets, list, () => new Map()), disabledToolsets.join('\u0000'), () => list.filter((name) => !disabledToolsets.includes(table.tools[name]?.toolset ?? '')));
}

// One list per build, surface and disabled toolsets: sessions share it (and the sizes worked out for it).
const withoutToolsets = new Map<readonly string[], Map<string, readonly string[]>>();

/** The surfaces whose sessions get the CLI's tools (`hermes-cli`); the others are gateway platforms or cron. */
export function isCliSurface(source: string | undefined): boolean {
  return source === undefined || source === 'cli' || source === 'tui' || source === 'acp';
}

/** Tokens of a tool the table does not know (an MCP server's, a newer build's): the average of the build's CLI tools. */
export function averageToolTokens(table: ToolTable): number {
  return averageOf(table, (t) => t.tokens);
}

function averageOf(table: ToolTable, size: (t: ToolSchemaSize) => number): number {
  const known = table.sessionTools.cli.map((name) => table.tools[name]).filter((t): t is ToolSchemaSize => t !== undefined);
  return known.length === 0 ? 0 : Math.round(known.reduce((n, t) => n + size(t), 0) / known.length);
}

export interface ToolBlockSize {
  readonly count: number;
  /** The tools array's JSON bytes, as `hermes prompt-size` counts `tools.json_bytes`: the tools' JSON plus `[`, `]` and `, ` between them. */
  readonly bytes: number;
  readonly tokens: number;
  /** Tools the table does not know, counted at its average: an estimate. */
  readonly estimated: readonly string[];
}

/** A tool's measured size for a session of `source`, if the table has it. */
export function toolSize(table: ToolTable, name: string, source: string | undefined): ToolSchemaSize | undefined {
  if (!isCliSurface(source) && Object.prototype.hasOwnProperty.call(table.gatewayTools, name)) return table.gatewayTools[name];
  return Object.prototype.hasOwnProperty.call(table.tools, name) ? table.tools[name] : undefined;
}

/** The size of the tool block a request of a session of `source` carrying `names` (duplicates once) sends, by `table`. */
export function toolBlockSize(table: ToolTable, names: readonly string[], source?: string): ToolBlockSize {
  let bytes = 0;
  let tokens = 0;
  const estimated: string[] = [];
  const unique = [...new Set(names.map((n) => n.trim()).filter((n) => n.length > 0))];
  for (const name of unique) {
    const tool = toolSize(table, name, source);
    if (tool) {
      bytes += tool.bytes;
      tokens += tool.tokens;
    } else {
      estimated.push(name);
      bytes += averageOf(table, (t) => t.bytes);
      tokens += averageToolTokens(table);
    }
  }
  return { count: unique.length, bytes: unique.length === 0 ? 2 : bytes + 2 * unique.length, tokens, estimated };
}

export interface ToolsetSize {
  readonly toolset: string;
  readonly toolCount: number;
  readonly bytes: number;
  readonly tokens: number;
}

/** The tools of `names` by toolset, largest first (by bytes, then name), as `hermes prompt-size` lists them. */
export function toolsetsBySize(table: ToolTable, names: readonly string[], source?: string): ToolsetSize[] {
  const groups = new Map<string, { toolset: string; toolCount: number; bytes: number; tokens: number }>();
  for (const name of new Set(names)) {
    const tool = toolSize(table, name, source);
    const toolset = tool?.toolset ?? '(unknown)';
    const group = groups.get(toolset) ?? { toolset, toolCount: 0, bytes: 0, tokens: 0 };
    group.toolCount += 1;
    group.bytes += tool?.bytes ?? averageOf(table, (t) => t.bytes);
    group.tokens += tool?.tokens ?? averageToolTokens(table);
    groups.set(toolset, group);
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes || (a.toolset < b.toolset ? -1 : a.toolset > b.toolset ? 1 : 0));
}
