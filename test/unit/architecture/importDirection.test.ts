// Imports run one way (docs/ARCHITECTURE.md): the domain never imports the open home, the language
// server or the CLI; the open home never imports the language server; shared imports nothing of
// server or client; inside the domain each layer imports only the layers below it.
import assert = require('node:assert/strict');
import fs = require('node:fs');
import os = require('node:os');
import path = require('node:path');
import { importViolations } from '../../support/importDirection';

const REPO = path.resolve(__dirname, '../../../..');

describe('architecture/import direction', () => {
  it('every import of server/, shared/ and client/ runs in the documented direction', () => {
    assert.deepEqual(importViolations(REPO), []);
  });

  describe('the checker', () => {
    let root: string;
    beforeEach(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-lens-imports-'));
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };

    it('accepts imports that run downwards', () => {
      write('server/hermes/text/pyText.ts', 'export const x = 1;\n');
      write('server/hermes/engine/judge.ts', "import { x } from '../text/pyText';\nexport const y = x;\n");
      write('server/lsp/hover.ts', "import { y } from '../hermes/engine/judge';\nimport type { Z } from '../../shared/protocol';\n");
      write('shared/protocol.ts', 'export type Z = 1;\n');
      assert.deepEqual(importViolations(root), []);
    });

    it('fails on a domain layer importing one above it', () => {
      write('server/hermes/text/pyText.ts', "import { y } from '../engine/judge';\nexport const x = y;\n");
      write('server/hermes/engine/judge.ts', 'export const y = 1;\n');
      assert.deepEqual(importViolations(root), ["server/hermes/text/pyText.ts imports ../engine/judge: the layer text is below engine"]);
    });

    it('fails on the domain importing the language server, the open home or the CLI', () => {
      write('server/hermes/engine/a.ts', "import '../../lsp/hover';\nimport '../../workspace/hermesModel';\nimport x = require('../../cli/codeCache');\n");
      assert.deepEqual(importViolations(root), [
        'server/hermes/engine/a.ts imports ../../lsp/hover: server/hermes may not import server/lsp',
        'server/hermes/engine/a.ts imports ../../workspace/hermesModel: server/hermes may not import server/workspace',
        'server/hermes/engine/a.ts imports ../../cli/codeCache: server/hermes may not import server/cli',
      ]);
    });

    it('fails on the open home importing the language server, and on shared or client importing the server', () => {
      write('server/workspace/model.ts', "import { Log } from '../lsp/log';\n");
      write('shared/protocol.ts', "import type { R } from '../server/hermes/engine/types';\n");
      write('client/status.ts', "import { x } from '../server/hermes/text/pyText';\n");
      assert.deepEqual(importViolations(root).sort(), [
        'client/status.ts imports ../server/hermes/text/pyText: client may not import server/hermes',
        'server/workspace/model.ts imports ../lsp/log: server/workspace may not import server/lsp',
        'shared/protocol.ts imports ../server/hermes/engine/types: shared may not import server/hermes',
      ]);
    });

    it('fails on a folder of the domain that is no layer', () => {
      write('server/hermes/misc/a.ts', "import '../text/pyText';\n");
      write('server/hermes/engine/b.ts', "import '../misc/a';\n");
      assert.deepEqual(importViolations(root), [
        'server/hermes/engine/b.ts imports ../misc/a: server/hermes/misc is no layer of the domain (HERMES_LAYERS)',
        'server/hermes/misc/a.ts imports ../text/pyText: server/hermes/misc is no layer of the domain (HERMES_LAYERS)',
      ]);
    });
  });
});
