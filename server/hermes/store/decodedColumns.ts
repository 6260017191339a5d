// Hermes' JSON columns decoded once per distinct text: thousands of sessions carry a handful of
// different `model_config` and `tool_names` values (the same model, the same tool set), and
// JSON.parse per row was a good part of reading 2,000 live sessions. The decoded values are shared
// between records, so they are frozen.
import { parseModelConfig, parseToolNames } from './codec';

/** Distinct texts kept per column before the memo starts again (a long-running server reads many). */
const KEPT = 4096;

export class DecodedColumns {
  private readonly configs = new Map<string, Readonly<Record<string, unknown>>>();
  private readonly tools = new Map<string, readonly string[]>();

  modelConfig(raw: unknown): Readonly<Record<string, unknown>> {
    return typeof raw === 'string' ? decoded(this.configs, raw, parseModelConfig) : parseModelConfig(raw);
  }

  toolNames(raw: unknown): readonly string[] {
    return typeof raw === 'string' ? decoded(this.tools, raw, parseToolNames) : parseToolNames(raw);
  }
}

function decoded<T extends object>(memo: Map<string, Readonly<T>>, raw: string, parse: (raw: string) => T): Readonly<T> {
  let value = memo.get(raw);
  if (value === undefined) {
    if (memo.size >= KEPT) memo.clear();
    memo.set(raw, (value = Object.freeze(parse(raw))));
  }
  return value;
}
