// The platforms the VSIX serves (VS Code's target names) and the check that, for each, the SQLite
// binding the store would load there (server/hermes/store/connection.ts) is in the package and is a
// shared object of that OS, processor and C library.
import * as assert from 'node:assert/strict';
import { photostructureBinaries } from '../../server/hermes/store/connection';
import { binaryKind, type BinaryKind } from './nativeBinary';
import { zipEntries, zipEntry } from './zip';

interface Target {
  readonly target: string;
  readonly platform: 'linux' | 'darwin' | 'win32';
  readonly arch: 'x64' | 'arm64';
  readonly alpine: boolean;
}

export const VSIX_TARGETS: readonly Target[] = [
  { target: 'linux-x64', platform: 'linux', arch: 'x64', alpine: false },
  { target: 'linux-arm64', platform: 'linux', arch: 'arm64', alpine: false },
  { target: 'alpine-x64', platform: 'linux', arch: 'x64', alpine: true },
  { target: 'alpine-arm64', platform: 'linux', arch: 'arm64', alpine: true },
  { target: 'darwin-x64', platform: 'darwin', arch: 'x64', alpine: false },
  { target: 'darwin-arm64', platform: 'darwin', arch: 'arm64', alpine: false },
  { target: 'win32-x64', platform: 'win32', arch: 'x64', alpine: false },
  { target: 'win32-arm64', platform: 'win32', arch: 'arm64', alpine: false },
];

/** Where the bundle's copy of @photostructure/sqlite lies inside the .vsix. */
const SHIPPED = 'extension/dist/native/photostructure-sqlite/';

/** Each target's first binary as the store would try it, with what its header says it is. */
export function shippedBinaries(vsix: string): Array<{ target: string; entry: string; expected: BinaryKind; actual: BinaryKind | undefined }> {
  const entries = new Set(zipEntries(vsix));
  return VSIX_TARGETS.map((t) => {
    const entry = SHIPPED + photostructureBinaries(t.platform, t.arch, t.alpine)[0];
    assert.ok(entries.has(entry), `${t.target}: ${entry} is not in ${vsix}`);
    const expected: BinaryKind = { os: t.platform, arch: t.arch, sharedObject: true, ...(t.platform === 'linux' ? { libc: t.alpine ? 'musl' : 'glibc' } : {}) };
    return { target: t.target, entry, expected, actual: binaryKind(zipEntry(vsix, entry)) };
  });
}

export function assertBinaryPerTarget(vsix: string): void {
  for (const b of shippedBinaries(vsix)) assert.deepEqual(b.actual, b.expected, `${b.target}: ${b.entry}`);
  assert.ok(zipEntries(vsix).includes(`${SHIPPED}LICENSE`), "the binding's licence ships with it");
}
