// config.yaml is usually plain block YAML: nested `key: value` mappings and `- item` lists of
// words. Parsing that through the yaml library cost a cold status ~25 ms (a profile's
// `skills.disabled` list can run to hundreds of names), and loading the library a few more. This
// reads that plain subset alone and gives exactly what `yaml.parse` (YAML 1.2, core schema) gives;
// anything outside it (flow collections, multi-line or escaped scalars, anchors, tags, tabs,
// floats, duplicate keys, odd indentation, …) returns undefined and goes to the library, which
// also words every error.

type Container = Record<string, unknown> | unknown[];

interface Block {
  readonly indent: number;
  readonly container: Container;
}

/** A line's key and the rest after `key:`, or undefined. */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]{0,127}):(?: +(.*))?$/;
/** Core-schema words that do not read as strings when written as keys. */
const NON_STRING_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
/** Plain scalars of words: letters, digits and a few marks, single spaces between words. */
const PLAIN = /^(?:[A-Za-z0-9_./~]|[-+][A-Za-z0-9_.])[A-Za-z0-9_./~+@=,()$%^-]*(?: [A-Za-z0-9_./~+@=,()$%^-]+)*$/;
const NULL_WORD = /^(?:~|[Nn]ull|NULL)$/;
const BOOL_WORD = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const DECIMAL_INT = /^[-+]?[0-9]+$/;
/** The core schema's other numbers (octal, hex, floats, infinities): left to the library. */
const OTHER_NUMBER = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
/** Characters YAML does not allow or reads specially (controls, tabs, CR, NEL, LS, PS, BOM, surrogates, non-characters). */
const UNSUPPORTED_CHAR = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/;
/** After a quoted scalar: spaces, and a comment after at least one of them. */
const AFTER_QUOTED = /^(?: +(?:#.*)?)?$/;

class NotPlain extends Error {}

/** The value `yaml.parse(text)` gives, when `text` is plain block YAML; otherwise undefined. */
export function readPlainYaml(text: string): unknown {
  if (UNSUPPORTED_CHAR.test(text)) return undefined;
  try {
    return new PlainReader().read(text);
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
}

class PlainReader {
  private readonly blocks: Block[] = [];
  private root: Record<string, unknown> | undefined;
  /** A `key:` with nothing after it: its value is the block below it, or null. */
  private pending: { readonly map: Record<string, unknown>; readonly key: string; readonly indent: number } | undefined;

  read(text: string): unknown {
    for (const line of text.split('\n')) {
      let indent = 0;
      while (line.charCodeAt(indent) === 0x20) indent++; // only spaces indent in YAML
      const content = line.slice(indent);
      if (content === '' || content.startsWith('#')) continue;
      this.line(indent, content);
    }
    this.settlePending();
    return this.root ?? null;
  }

  private line(indent: number, content: string): void {
    const item = content === '-' || content.startsWith('- ');
    const block = this.blockFor(indent, item);
    if (item) {
      if (!Array.isArray(block)) throw new NotPlain();
      block.push(scalar(content.slice(2)));
    } else {
      if (Array.isArray(block)) throw new NotPlain();
      const match = KEY_LINE.exec(content);
      if (!match || NON_STRING_KEY.test(match[1]!) || match[1] === '__proto__') throw new NotPlain();
      const key = match[1]!;
      if (Object.prototype.hasOwnProperty.call(block, key)) throw new NotPlain(); // the library reports it
      const rest = match[2] ?? '';
      if (rest === '' || rest.startsWith('#')) {
        this.pending = { map: block, key, indent };
        return;
      }
      block[key] = scalar(rest);
    }
  }

  /**
   * The block a line at `indent` belongs to: a new one under a pending key, or an open one at
   * exactly that indent. A deeper line anywhere else (a scalar continued, a key under a list item)
   * or one between two levels is not plain.
   */
  private blockFor(indent: number, item: boolean): Container {
    if (this.root === undefined) {
      if (indent !== 0 || item) throw new NotPlain(); // a list or an indented document
      this.root = {};
      this.blocks.push({ indent: 0, container: this.root });
      return this.root;
    }
    const pending = this.pending;
    if (pending && indent > pending.indent) {
      this.pending = undefined;
      const container: Container = item ? [] : {};
      pending.map[pending.key] = container;
      this.blocks.push({ indent, container });
      return container;
    }
    this.settlePending();
    while (this.blocks.length > 0 && this.blocks[this.blocks.length - 1]!.indent > indent) this.blocks.pop();
    const open = this.blocks[this.blocks.length - 1];
    if (!open || open.indent !== indent) throw new NotPlain(); // between two levels
    return open.container;
  }

  private settlePending(): void {
    if (this.pending) this.pending.map[this.pending.key] = null;
    this.pending = undefined;
  }
}

/** A one-line scalar as the core schema reads it: plain words, null, a boolean, a decimal integer, or simply quoted. */
function scalar(written: string): unknown {
  const quote = written[0];
  if (quote === "'" || quote === '"') {
    const close = written.indexOf(quote, 1);
    const inner = close < 0 ? '' : written.slice(1, close);
    // No escapes ('' or backslashes) and nothing but a comment after the closing quote.
    if (close < 0 || (quote === '"' && inner.includes('\\')) || !AFTER_QUOTED.test(written.slice(close + 1))) throw new NotPlain();
    return inner;
  }
  const comment = written.indexOf(' #');
  const value = (comment < 0 ? written : written.slice(0, comment)).trimEnd();
  if (!PLAIN.test(value)) throw new NotPlain();
  if (NULL_WORD.test(value)) return null;
  if (BOOL_WORD.test(value)) return value[0] === 't' || value[0] === 'T';
  if (DECIMAL_INT.test(value)) return parseInt(value, 10);
  if (OTHER_NUMBER.test(value)) throw new NotPlain();
  return value;
}
