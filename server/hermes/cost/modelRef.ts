// Model names as Hermes stores them (`sessions.model`, `model_config.model`), split into the parts the
// price and tokenizer lookups need. Hermes keeps whatever the user or the router wrote: a vendor id
// (`claude-opus-4-5`), an OpenRouter name with a vendor prefix (`anthropic/claude-sonnet-4.5`), an
// OpenRouter variant (`…:free`, `…:thinking`) or a custom endpoint's own name.

export interface ModelRef {
  /** The whole name, trimmed and lower-cased: what a router's price list is keyed by. */
  readonly full: string;
  /** The last path segment without a `:variant` suffix: what the vendor's own price list is keyed by. */
  readonly bare: string;
  /** The first path segment of a `vendor/model` name (`anthropic`), else undefined. */
  readonly vendor: string | undefined;
  /** A router variant such as `free` (from `…:free`), whose price differs from the vendor's. */
  readonly variant: string | undefined;
}

export function parseModelRef(model: string | undefined): ModelRef | undefined {
  const full = (model ?? '').trim().toLowerCase();
  if (!full) return undefined;
  const segments = full.split('/').filter((segment) => segment.length > 0);
  const last = segments[segments.length - 1] ?? full;
  const colon = last.indexOf(':');
  const bare = colon > 0 ? last.slice(0, colon) : last;
  // OpenRouter's rolling aliases are written `~anthropic/claude-opus-latest`.
  const vendor = segments.length > 1 ? segments[0].replace(/^~/, '') : undefined;
  return { full, bare, vendor, variant: colon > 0 ? last.slice(colon + 1) || undefined : undefined };
}

/** Trimmed, lower-cased provider name, or undefined when blank. */
export function normaliseProviderName(provider: string | undefined): string | undefined {
  const name = (provider ?? '').trim().toLowerCase();
  return name || undefined;
}
