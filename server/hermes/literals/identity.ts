// Hermes' built-in identity (used without SOUL.md) opens with these words; its wording changes.
// The renderers write it, and the anatomy parser and staleness look for it.

export const DEFAULT_IDENTITY_OPENING = 'You are Hermes Agent';
