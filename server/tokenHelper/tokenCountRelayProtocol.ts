// What the language server's main thread and the token-count relay (a worker thread) exchange: the
// request message, and the shared buffer the relay writes the answer into while the main thread
// waits on it (Int32Array: [state, tokens, sliced, tokens, sliced, …], one pair per text).

export const PENDING = 0;
export const DONE = 1;
export const FAILED = 2;

export interface RelayCount {
  readonly texts: readonly string[];
  readonly answer: SharedArrayBuffer;
}

export interface RelayClose {
  readonly close: true;
}

export type RelayMessage = RelayCount | RelayClose;

export interface RelayData {
  /** The helper process's script (tokenCountHelper.js). */
  readonly helperFile: string;
}

/** A buffer for the answer about `count` texts. */
export function answerBuffer(count: number): SharedArrayBuffer {
  return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (1 + 2 * count));
}
