// The yaml library on its own: scripts/build.mjs bundles this file apart (dist/yamlBundle.js, a
// quarter of a megabyte) and yamlLibrary.ts requires it only for YAML the plain readers cannot take
// (plainYaml.ts, frontmatter.ts's simple mappings), so most runs never load or even parse it.
export * from 'yaml';
