// The tools array a session's requests carry, sent before its system prompt: the names state.db
// pinned (`sessions.tool_names`, where Hermes has the column), else the build's list for the
// session's platform and config, marked as inferred. Each tool is keyed by what makes its schema's
// bytes: its name, its size in the build that sizes it and, for a schema naming the profile's home
// (homeNamingTools.ts), that home as Hermes writes it.
import type { SessionReport } from '../engine/types';
import { digestOf } from '../anatomy/prefixPrint';
import { toolSize, toolTableNamed, type ToolTable } from '../cost/toolSchemas';
import { memo } from '../memo';
import { displayedHome, namesHome } from './homeNamingTools';
import type { MemberTools } from './types';

/** A tool's measured size in a build, if the build's schemas were measured. */
export type ToolSizer = (tool: string, platform: string) => { readonly bytes: number; readonly tokens: number } | undefined;

export interface ToolsBasis {
  readonly names: readonly string[];
  readonly recorded: boolean;
  readonly build: string | undefined;
  readonly tokens: number;
  readonly sizeOf: ToolSizer | undefined;
}

/** What the session report says of its tools: the names state.db pinned or the build's list for its platform and config, and whose sizes price them. */
export function toolsBasisOf(report: SessionReport): ToolsBasis {
  const use = report.toolTable;
  const table = toolTableNamed(use.build);
  return { names: use.names, recorded: use.recorded, build: use.build, tokens: report.toolTokens, sizeOf: table ? memo(sizers, table, sizerOf) : undefined };
}

// One sizer per build's table (members of a build share it).
const sizers = new Map<ToolTable, ToolSizer>();

function sizerOf(table: ToolTable): ToolSizer {
  return (tool, platform) => toolSize(table, tool, platform);
}

export function memberTools(basis: ToolsBasis, platform: string, profileDir: string): MemberTools {
  const home = displayedHome(profileDir);
  const keys: string[] = [];
  const namingHome: string[] = [];
  let starts: number[] | undefined = basis.sizeOf ? [] : undefined;
  // `[`, then each tool's JSON with `, ` between them (json.dumps of the list).
  let at = 1;
  for (const name of basis.names) {
    const size = basis.sizeOf?.(name, platform);
    if (starts) {
      if (!size) starts = undefined;
      else {
        starts.push(at);
        at += size.bytes + 2;
      }
    }
    const naming = namesHome(name);
    if (naming) namingHome.push(name);
    keys.push(`${name}${size ? `#${size.bytes}` : ''}${naming ? `@${home}` : ''}`);
  }
  const bytes = starts ? (basis.names.length === 0 ? 2 : at - 2 + 1) : undefined;
  // Unknown tools of an inferred list are as the platform and build would give them: keyed by those.
  const base = basis.recorded ? 'pinned' : `inferred:${basis.build ?? ''}`;
  return { names: basis.names, recorded: basis.recorded, build: basis.build, tokens: basis.tokens, bytes, keys, starts, namingHome, digest: digestOf(`${base}\u0000${keys.join('\u0000')}`) };
}
