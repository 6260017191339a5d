// Counts text that no cache knows in a helper process, for the language server: the tokenizer, its
// vocabulary and what counting allocates then never stay in the server, which runs for hours. The engine counts
// synchronously, so the call blocks on a shared buffer that a relay thread (tokenCountRelay.ts) fills
// with the helper's answer. Relay and helper go after a quiet spell and come back on the next miss;
// while they run they cost the server the relay thread only (about 10 MB).
//
// Whatever goes wrong (no helper file, the helper dies, no answer in time) the text is counted in
// this process instead: a count is never worth a crash, nor a wrong figure.
import fs = require('node:fs');
import path = require('node:path');
import { Worker } from 'node:worker_threads';
import { countWithTokenizer, type ParagraphCount } from '../hermes/cost/countWithTokenizer';
import { answerBuffer, DONE, PENDING, type RelayData, type RelayMessage } from './tokenCountRelayProtocol';

export interface HelperOptions {
  /** Quiet time after which relay and helper go (their next start takes about 0.3–0.6 s). */
  readonly idleMs?: number;
  /** Longest wait for an answer: the helper's start plus counting 2 MB of text, with room. */
  readonly timeoutMs?: number;
  /** Where tokenCountRelay.js and tokenCountHelper.js are (next to this code, in out/ as in dist/). */
  readonly dir?: string;
}

/** How long relay and helper stay after the last count, unless told otherwise. */
export const HELPER_IDLE_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 60_000;

export class HelperTokenCounter {
  private relay: Worker | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly idleMs: number;
  private readonly timeoutMs: number;
  private readonly relayFile: string;
  private readonly helperFile: string;

  constructor(options: HelperOptions = {}) {
    this.idleMs = options.idleMs ?? HELPER_IDLE_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const dir = options.dir ?? __dirname;
    this.relayFile = path.join(dir, 'tokenCountRelay.js');
    this.helperFile = path.join(dir, 'tokenCountHelper.js');
  }

  /** True while relay and helper are up (between a miss and the next quiet spell). */
  get running(): boolean {
    return this.relay !== undefined;
  }

  readonly count = (paragraphs: readonly string[]): ParagraphCount[] => {
    return this.askHelper(paragraphs) ?? paragraphs.map(countWithTokenizer);
  };

  /** Lets relay and helper go now (they come back on the next miss). */
  close(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.relay?.postMessage({ close: true } satisfies RelayMessage);
    this.relay = undefined;
  }

  private askHelper(paragraphs: readonly string[]): ParagraphCount[] | undefined {
    try {
      const relay = this.startRelay();
      if (!relay) return undefined;
      const answer = answerBuffer(paragraphs.length);
      const view = new Int32Array(answer);
      relay.postMessage({ texts: paragraphs, answer } satisfies RelayMessage);
      Atomics.wait(view, 0, PENDING, this.timeoutMs);
      if (Atomics.load(view, 0) !== DONE) {
        this.close();
        return undefined;
      }
      this.closeWhenIdle();
      return paragraphs.map((_, i) => ({ tokens: view[1 + 2 * i]!, sliced: view[2 + 2 * i] === 1 }));
    } catch {
      this.close();
      return undefined;
    }
  }

  private startRelay(): Worker | undefined {
    if (this.relay) return this.relay;
    if (!fs.existsSync(this.relayFile) || !fs.existsSync(this.helperFile)) return undefined;
    const relay = new Worker(this.relayFile, { workerData: { helperFile: this.helperFile } satisfies RelayData });
    relay.unref(); // never what keeps the server running
    relay.on('error', () => {
      if (this.relay === relay) this.close();
    });
    this.relay = relay;
    return relay;
  }

  private closeWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.close(), this.idleMs);
    this.idleTimer.unref();
  }
}
