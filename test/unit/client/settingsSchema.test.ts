// The `hermesLens.*` schema in package.json must match DEFAULT_SETTINGS in shared/settings.ts:
// the same keys both ways, the same defaults, and enums that normalizeSettings() accepts.
import * as assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, normalizeSettings, SETTINGS_SECTION, type HermesLensSettings } from '../../../shared/settings';
import { flatDefaults, fullKey, SETTING_KEYS } from '../../../client/settingsKeys';
import { packageJson } from './packageJson';

interface SchemaProperty {
  type?: string | string[];
  default?: unknown;
  enum?: unknown[];
  scope?: string;
  [k: string]: unknown;
}

const properties = (): Record<string, SchemaProperty> => packageJson().contributes.configuration.properties;

/** Every leaf of DEFAULT_SETTINGS as a dotted path (`trace.server`; arrays and records are leaves). */
function leaves(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 ? leaves(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function setLeaf(obj: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let o = obj;
  for (const p of parts.slice(0, -1)) o = o[p] as Record<string, unknown>;
  o[parts[parts.length - 1]!] = value;
}

describe('client: settings schema (package.json ↔ shared/settings.ts)', () => {
  it('uses the section the server pulls', () => {
    assert.equal(SETTINGS_SECTION, 'hermesLens');
    for (const key of Object.keys(properties())) assert.ok(key.startsWith(`${SETTINGS_SECTION}.`), key);
  });

  it('contributes exactly the settings the code knows', () => {
    assert.deepEqual(Object.keys(properties()).sort(), [...flatDefaults().keys()].sort());
  });

  it('maps every field of DEFAULT_SETTINGS to exactly one schema key (and back)', () => {
    for (const leaf of leaves(DEFAULT_SETTINGS as unknown as Record<string, unknown>)) {
      const probe = structuredClone(DEFAULT_SETTINGS) as unknown as Record<string, unknown>;
      const sentinel = `sentinel:${leaf}`;
      setLeaf(probe, leaf, sentinel);
      const readers = SETTING_KEYS.filter((k) => k.read(probe as unknown as HermesLensSettings) === sentinel);
      assert.equal(readers.length, 1, `DEFAULT_SETTINGS.${leaf} has ${readers.length} schema keys`);
    }
    assert.equal(SETTING_KEYS.length, leaves(DEFAULT_SETTINGS as unknown as Record<string, unknown>).length);
  });

  it('has the defaults of DEFAULT_SETTINGS', () => {
    const props = properties();
    for (const [key, value] of flatDefaults()) {
      assert.ok(key in props, `${key} is missing from package.json`);
      assert.deepEqual(props[key]!.default, value, `default of ${key}`);
    }
  });

  it('reads each schema key back through normalizeSettings (the VS Code shape of the section)', () => {
    const props = properties();
    for (const k of SETTING_KEYS) {
      const prop = props[fullKey(k.key)]!;
      const sample = prop.enum ? prop.enum[prop.enum.length - 1] : sampleOf(prop.type);
      assert.deepEqual(k.read(normalizeSettings(k.raw(sample))), sample, `${k.key} does not survive normalizeSettings`);
    }
  });

  it('has enums whose every value normalizeSettings() keeps, and whose default is a member', () => {
    const props = properties();
    const withEnum = Object.entries(props).filter(([, p]) => p.enum);
    assert.deepEqual(withEnum.map(([k]) => k).sort(), ['hermesLens.refreshStrategy', 'hermesLens.trace.server']);
    for (const [key, prop] of withEnum) {
      const k = SETTING_KEYS.find((s) => fullKey(s.key) === key)!;
      assert.ok(prop.enum!.includes(prop.default), `${key}: default not in enum`);
      for (const value of prop.enum!) assert.equal(k.read(normalizeSettings(k.raw(value))), value, `${key}: ${String(value)}`);
      assert.equal(k.read(normalizeSettings(k.raw('not-a-member'))), prop.default, `${key}: an unknown value falls back to the default`);
    }
  });

  it('has types that match the defaults', () => {
    const props = properties();
    for (const [key, value] of flatDefaults()) {
      const type = props[key]!.type;
      const expected = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value === 'object' ? 'object' : typeof value;
      assert.equal(type, expected, `type of ${key}`);
    }
  });

  it('describes priceOverrides entries like PriceOverride', () => {
    const entry = properties()['hermesLens.priceOverrides']!.additionalProperties as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(Object.keys(entry.properties).sort(), ['cacheRead', 'cacheWrite1h', 'cacheWrite5m', 'input']);
    assert.deepEqual([...entry.required].sort(), ['cacheRead', 'input']);
  });

  it('scopes the machine settings and restricts them in untrusted workspaces', () => {
    const props = properties();
    assert.equal(props['hermesLens.home']!.scope, 'machine-overridable');
    assert.equal(props['hermesLens.hermesInstall']!.scope, 'machine-overridable');
    assert.equal(props['hermesLens.server.runtime']!.scope, 'machine-overridable');
    for (const [key, prop] of Object.entries(props)) assert.ok(prop.scope, `${key} has no scope`);
    const trust = packageJson().capabilities.untrustedWorkspaces;
    assert.equal(trust.supported, 'limited');
    assert.deepEqual([...trust.restrictedConfigurations].sort(), ['hermesLens.hermesInstall', 'hermesLens.home', 'hermesLens.server.runtime']);
    for (const key of trust.restrictedConfigurations) assert.ok(key in props, key);
  });
});

function sampleOf(type: SchemaProperty['type']): unknown {
  switch (type) {
    case 'string':
      return '/some/value';
    case 'boolean':
      return false;
    case 'array':
      return ['work', 'default'];
    case 'object':
      return { 'claude-*': { input: 3, cacheRead: 0.3 } };
    default:
      throw new Error(`no sample for type ${String(type)}`);
  }
}
