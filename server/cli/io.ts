// What a command may touch of the outside world, so tests can run commands in-process.
import fs = require('node:fs');
import { systemTimers, type Timers } from '../hermes/timers';
import { jsonPieces } from './jsonPieces';

export interface CommandIO {
  out(text: string): void;
  /**
   * `out` of a text `make` hands over in pieces, written as they come where that helps (a pipe: the
   * reader takes them while the next are made). Without it, the pieces are joined for `out`.
   */
  outPieces?(make: (emit: (piece: string) => void) => void): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Epoch seconds. */
  now(): number;
  /** Whether `out` goes to a terminal (a person reads it) rather than a pipe or a file. */
  readonly terminal?: boolean;
  /** For a command that waits (`refresh --when-free`): its timers (tests pass a clock they move). */
  readonly timers?: Timers;
  /** Whether `err` goes to a terminal: a progress line is then redrawn in place (`errInPlace`). */
  readonly errTerminal?: boolean;
  /** Writes `text` to `err` as it is, without a line break. */
  errInPlace?(text: string): void;
  /** What Ctrl-C does while a command waits; returns what undoes it. */
  onInterrupt?(stop: () => void): () => void;
}

/**
 * A standard stream of this process, written with write(2) on its descriptor where it is a pipe,
 * a file or a socket. Node's own stream (`process.stdout`) costs a cold command two things this
 * avoids: setting it up (loading `net` and its streams, about 5 ms) and a copy of the whole text
 * into one new buffer (a status of 2,000 sessions is 1.1 MB: fresh memory, page by page). Here the
 * text is encoded into one reused 64 KiB buffer at a time.
 *
 * A terminal gets Node's stream (it knows consoles and their quirks). So does everything after a
 * write that would block (a descriptor a parent made non-blocking, with its pipe full), in order.
 */
class StandardOutput {
  private viaNode: NodeJS.WriteStream | undefined;
  private direct: boolean | undefined;

  constructor(
    private readonly fd: 1 | 2,
    private readonly nodeStream: () => NodeJS.WriteStream,
  ) {}

  /** Whether a person reads this stream: a terminal, not a pipe or a file. */
  get terminal(): boolean {
    return !this.writesDirectly() && this.nodeStream().isTTY === true;
  }

  /**
   * The pieces `make` hands over, encoded one after the other into the reused buffer and written
   * each time it is full: no text longer than a piece is ever made for the output.
   */
  write(make: (emit: (piece: string) => void) => void): void {
    if (this.viaNode || !this.writesDirectly()) {
      const pieces: string[] = [];
      make((piece) => void pieces.push(piece));
      return void this.stream().write(pieces.join(''));
    }
    let filled = 0;
    const flush = () => {
      const bytes = CHUNK.subarray(0, filled);
      filled = 0;
      const unwritten = this.viaNode ? bytes : this.writeAll(bytes);
      if (unwritten) this.stream().write(Buffer.from(unwritten));
    };
    make((piece) => {
      let rest = piece;
      for (;;) {
        // encodeInto stops before a character that does not fit: no pair of surrogates is split.
        const { read, written } = ENCODER.encodeInto(rest, CHUNK.subarray(filled));
        filled += written!;
        if (read === rest.length) return;
        rest = rest.slice(read);
        flush();
      }
    });
    flush();
  }

  /** Whether something written is still queued in Node's stream (then the process must not exit yet). */
  get pending(): boolean {
    return (this.viaNode?.writableLength ?? 0) > 0;
  }

  /** Writes every byte, or returns those left when a write would block. */
  private writeAll(bytes: Uint8Array): Uint8Array | undefined {
    let at = 0;
    while (at < bytes.length) {
      try {
        at += fs.writeSync(this.fd, bytes, at, bytes.length - at);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') return bytes.subarray(at);
        if (code === 'EPIPE') readerWent();
        throw error;
      }
    }
    return undefined;
  }

  private writesDirectly(): boolean {
    if (this.direct === undefined) {
      try {
        const stat = fs.fstatSync(this.fd);
        this.direct = stat.isFIFO() || stat.isFile() || stat.isSocket();
      } catch {
        this.direct = false;
      }
    }
    return this.direct;
  }

  private stream(): NodeJS.WriteStream {
    if (!this.viaNode) {
      this.viaNode = this.nodeStream();
      if (this.fd === 1) {
        this.viaNode.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EPIPE') throw error;
          readerWent();
        });
      }
    }
    return this.viaNode;
  }
}

const ENCODER = new TextEncoder();
const CHUNK = new Uint8Array(64 * 1024);

/**
 * A reader that stops early (`hermes-lens status --json | head`) closes the pipe, and the rest has
 * nowhere to go: that ends the run quietly, as it ends `cat` or `git log`, instead of with an
 * EPIPE error and its stack.
 */
function readerWent(): never {
  process.exit();
}

const stdout = new StandardOutput(1, () => process.stdout);
const stderr = new StandardOutput(2, () => process.stderr);

/** `text` and, unless it ends one, a line break (written apart: no copy of a long text to append one). */
function writeLine(to: StandardOutput, text: string): void {
  to.write((emit) => {
    emit(text);
    if (!text.endsWith('\n')) emit('\n');
  });
}

export const processIO: CommandIO = {
  out: (text) => writeLine(stdout, text),
  outPieces: (make) =>
    stdout.write((emit) => {
      make(emit);
      emit('\n');
    }),
  err: (text) => writeLine(stderr, text),
  env: process.env,
  now: () => Date.now() / 1000,
  get terminal() {
    return stdout.terminal;
  },
  timers: systemTimers(true),
  get errTerminal() {
    return stderr.terminal;
  },
  errInPlace: (text) => stderr.write((emit) => emit(text)),
  onInterrupt(stop) {
    process.on('SIGINT', stop);
    return () => void process.off('SIGINT', stop);
  },
};

/** Whether output is still queued in Node's streams (see StandardOutput). */
export function outputPending(): boolean {
  return stdout.pending || stderr.pending;
}

/**
 * `--json` output: indented at a terminal, compact into a pipe (as `gh` and `kubectl` do). A status
 * of 2,000 sessions is 1.7 MB indented and 1.1 MB compact, and the program reading it (jq, a
 * script, an editor) has no use for the whitespace.
 */
export function outJson(io: CommandIO, value: unknown): void {
  if (io.terminal) return io.out(JSON.stringify(value, null, 2));
  if (!io.outPieces) return io.out(JSON.stringify(value));
  io.outPieces((emit) => jsonPieces(value, emit));
}
