// The worker thread between the language server's main thread and the token-count helper process.
// The engine counts synchronously, so the main thread posts a request and blocks in Atomics.wait;
// this thread's event loop keeps running: it starts the helper when needed, passes the request on,
// and writes the answer into the request's shared buffer. It ends, and with it the helper, when the
// main thread says close (after a quiet spell, see helperTokenCounter.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import readline = require('node:readline');
import { parentPort, workerData } from 'node:worker_threads';
import type { HelperResponse } from './tokenCountHelper';
import { DONE, FAILED, type RelayCount, type RelayData, type RelayMessage } from './tokenCountRelayProtocol';

class Relay {
  private helper: ChildProcess | undefined;
  /** The request the helper is answering (the main thread sends one at a time). */
  private current: RelayCount | undefined;

  constructor(private readonly data: RelayData) {}

  handle(message: RelayMessage): void {
    if ('close' in message) {
      this.helper?.stdin?.end();
      parentPort?.close();
      return;
    }
    this.current = message;
    try {
      this.ensureHelper().stdin!.write(JSON.stringify({ texts: message.texts }) + '\n');
    } catch {
      this.settle(undefined);
    }
  }

  private ensureHelper(): ChildProcess {
    if (this.helper) return this.helper;
    // process.execPath: the runtime that runs the server (VS Code's own runs as Node through the
    // ELECTRON_RUN_AS_NODE the server inherited).
    const helper = spawn(process.execPath, [this.data.helperFile], { stdio: ['pipe', 'pipe', 'ignore'] });
    helper.stdin!.on('error', () => undefined); // a helper gone is reported by 'exit'
    readline.createInterface({ input: helper.stdout!, crlfDelay: Infinity }).on('line', (line) => this.settle(parse(line)));
    const gone = () => {
      if (this.helper === helper) this.helper = undefined;
      this.settle(undefined);
    };
    helper.on('error', gone);
    helper.on('exit', gone);
    this.helper = helper;
    return helper;
  }

  private settle(response: HelperResponse | undefined): void {
    const request = this.current;
    if (!request) return;
    this.current = undefined;
    const view = new Int32Array(request.answer);
    if (response && 'counts' in response && response.counts.length === request.texts.length) {
      response.counts.forEach(([tokens, sliced], i) => {
        view[1 + 2 * i] = tokens;
        view[2 + 2 * i] = sliced;
      });
      Atomics.store(view, 0, DONE);
    } else {
      Atomics.store(view, 0, FAILED);
    }
    Atomics.notify(view, 0);
  }
}

function parse(line: string): HelperResponse | undefined {
  try {
    return JSON.parse(line) as HelperResponse;
  } catch {
    return undefined;
  }
}

if (parentPort) {
  const relay = new Relay(workerData as RelayData);
  parentPort.on('message', (message: RelayMessage) => relay.handle(message));
}
