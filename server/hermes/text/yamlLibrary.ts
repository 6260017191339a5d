// The yaml library, loaded on first use: most config.yaml files and skill frontmatter are read
// without it (plainYaml.ts, frontmatter.ts's simple mappings), and a cold CLI run should not pay
// for initialising it then.
import type * as Yaml from 'yaml';

let library: typeof Yaml | undefined;

export function yamlLibrary(): typeof Yaml {
  // A bundle of its own next to this one (yamlBundle.ts).
  library ??= require('./yamlBundle.js') as typeof Yaml;
  return library;
}
