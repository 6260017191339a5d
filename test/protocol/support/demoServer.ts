// A fresh demo Hermes home and a language server client on it for every test of a suite, so that
// refreshes and Hermes-side writes never leak from one test into the next.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { TestLspClient } from '../../support/lspClient';

export interface DemoServer {
  /** The test's temp folder (the home is its `demo/`). */
  dir: string;
  demo: DemoManifest;
  /** Not yet initialized: each test starts the conversation itself. */
  client: TestLspClient;
}

/** Registers the per-test set-up and clean-up (call inside `describe`); read the fields in tests or later hooks. */
export function demoServerPerTest(prefix: string): DemoServer {
  const current = {} as DemoServer;
  beforeEach(() => {
    current.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    current.demo = generateDemoHome(path.join(current.dir, 'demo'));
    current.client = new TestLspClient({ home: current.demo.root });
  });
  afterEach(() => {
    current.client.kill();
    fs.rmSync(current.dir, { recursive: true, force: true });
  });
  return current;
}
