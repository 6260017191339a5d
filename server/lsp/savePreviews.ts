// What saving an open document would do, for the hover, the code lens and the client's status item:
// worked out only while the document's text differs from its file on disk, and once per document
// version and model revision (a hover after the lens that asked first costs a lookup). Each
// preview starts from the document's last one (engine/savePreview.ts).
import fs = require('node:fs');
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { PreviewJudgements } from '../hermes/engine/savePreview';
import type { SavePreviewDto } from '../../shared/protocol';
import { MAX_DIAGNOSED_CHARS } from './features/diagnostics';
import type { HermesModel } from '../workspace/hermesModel';
import { savePreviewDto } from '../workspace/savePreviewDto';
import { uriToPath } from './uri';

interface Kept {
  readonly version: number;
  readonly revision: number;
  readonly preview: SavePreviewDto | undefined;
  /** The judgements the preview was made of, to start the next one from. */
  readonly judged: PreviewJudgements | undefined;
}

export class SavePreviews {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly model: HermesModel) {}

  /** The preview of `document`; undefined when it is no Hermes source, has no unsaved change, or is too large to judge as one types. */
  of(document: TextDocument | undefined): SavePreviewDto | undefined {
    if (!document) return undefined;
    const kept = this.kept.get(document.uri);
    if (kept && kept.version === document.version && kept.revision === this.model.revision) return kept.preview;
    const { preview, judged } = this.work(document, kept?.judged) ?? {};
    this.kept.set(document.uri, { version: document.version, revision: this.model.revision, preview, judged });
    return preview;
  }

  /** The document was closed. */
  forget(uri: string): void {
    this.kept.delete(uri);
  }

  private work(document: TextDocument, earlier: PreviewJudgements | undefined) {
    const file = uriToPath(document.uri);
    const text = document.getText();
    if (!file || text.length > MAX_DIAGNOSED_CHARS || withoutBom(text) === savedText(file)) return undefined;
    const preview = this.model.previewSave(file, text, earlier);
    return preview && { preview: savePreviewDto(document.uri, preview), judged: preview.judged };
  }
}

/** The file's text on disk as an editor shows it (BOM dropped); undefined when it cannot be read. */
function savedText(file: string): string | undefined {
  try {
    return withoutBom(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
