// The two keys of a pyproject.toml the lens needs, `name` and `version` of its [project] table,
// read line by line: Hermes writes them as plain `key = "value"` lines, and a TOML library would
// be a dependency for two strings.

export interface ProjectKeys {
  readonly name: string | undefined;
  /** A version number (PEP 440 shape), when the line holds one. */
  readonly version: string | undefined;
  /** The version line's value when it is not a version number. */
  readonly notAVersion: string | undefined;
}

const TABLE = /^\s*\[([^[\]]+)\]\s*(?:#.*)?$/;
const KEY_VALUE = /^\s*(name|version)\s*=\s*(?:"([^"\\]*)"|'([^']*)')\s*(?:#.*)?$/;
const VERSION = /^v?\d+(?:\.\d+)*(?:[-_.+!]?[0-9A-Za-z]+)*$/;

/** Whether `text` has the shape of a version number (PEP 440's, loosely). */
export function isVersionNumber(text: string): boolean {
  return VERSION.test(text);
}

export function projectOfPyproject(text: string): ProjectKeys {
  let table = '';
  let name: string | undefined;
  let value: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const header = TABLE.exec(line);
    if (header) {
      table = header[1]!.trim();
      continue;
    }
    if (table !== 'project') continue;
    const pair = KEY_VALUE.exec(line);
    if (!pair) continue;
    const found = (pair[2] ?? pair[3]!).trim();
    if (pair[1] === 'name') name ??= found;
    else value ??= found;
  }
  const isVersion = value !== undefined && isVersionNumber(value);
  return { name, version: isVersion ? value : undefined, notAVersion: isVersion ? undefined : value };
}
