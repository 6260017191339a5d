// Decoding Hermes' column encodings (docs/HERMES-FORMATS.md §7).

/** `model_config` is a JSON object; NULL, invalid JSON or a non-object counts as `{}`. */
export function parseModelConfig(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string' || raw === '') return {};
  try {
    const value = JSON.parse(raw) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const JSON_CONTENT_PREFIX = '\x00json:';

/** Message content: a list/dict is stored as `\x00json:` + JSON; give it back as JSON text. */
export function decodeMessageContent(raw: unknown): string {
  if (raw == null) return '';
  const text = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw);
  return text.startsWith(JSON_CONTENT_PREFIX) ? text.slice(JSON_CONTENT_PREFIX.length) : text;
}

export function encodeMessageContent(value: unknown): string {
  return typeof value === 'string' ? value : JSON_CONTENT_PREFIX + JSON.stringify(value);
}

/** `tool_names` may be a JSON list or comma-separated text. */
export function parseToolNames(raw: unknown): string[] {
  if (typeof raw !== 'string' || raw.trim() === '') return [];
  const text = raw.trim();
  if (text.startsWith('[')) {
    try {
      const list = JSON.parse(text) as unknown;
      if (Array.isArray(list)) return list.map(String);
    } catch {
      /* fall through to the comma form */
    }
  }
  return text.split(',').map((s) => s.trim()).filter(Boolean);
}

export function optionalNumber(raw: unknown): number | undefined {
  if (raw == null || raw === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

export function optionalString(raw: unknown): string | undefined {
  return raw == null ? undefined : String(raw);
}
