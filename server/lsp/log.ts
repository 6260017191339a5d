// Logging for the server. Prompt and memory text is private: it is never logged at the default
// level; only `hermesLens.trace.server: verbose` lets `debug` through, and even then callers log
// sizes and ids, not text.
import type { Connection } from 'vscode-languageserver/node';

export type LogLevel = 'info' | 'debug';

export class Log {
  private level: LogLevel = 'info';
  constructor(private readonly connection: Pick<Connection, 'console'>) {}

  setLevel(level: LogLevel): void {
    this.level = level;
  }

  info(message: string): void {
    this.connection.console.info(message);
  }

  warn(message: string): void {
    this.connection.console.warn(message);
  }

  error(message: string): void {
    this.connection.console.error(message);
  }

  debug(message: () => string): void {
    if (this.level === 'debug') this.connection.console.log(message());
  }
}
