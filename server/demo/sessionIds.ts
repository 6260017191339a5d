// Session ids shaped like Hermes' own (docs/HERMES-HOMES.md): `YYYYMMDD_HHMMSS_<6 hex>` for sessions started
// from a terminal or by Hermes itself, 8 hex digits for gateway sessions.
import type { Rng } from './prng';

/** Sources whose sessions are created by a messaging/HTTP gateway. */
const GATEWAY_SOURCES = new Set(['telegram', 'discord', 'slack', 'whatsapp', 'signal', 'email', 'webhook', 'api_server', 'matrix', 'mattermost']);

export function isGatewaySource(source: string): boolean {
  return GATEWAY_SOURCES.has(source);
}

/** A new id for a session of `source` started at `startedAt` (epoch seconds; the stamp is UTC). */
export function newSessionId(source: string, startedAt: number, rng: Rng): string {
  if (isGatewaySource(source)) return rng.hex(8);
  const d = new Date(Math.floor(startedAt) * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}_${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
  return `${stamp}_${rng.hex(6)}`;
}
