// file: URIs ↔ paths (other schemes, e.g. untitled:, are not Hermes files). A URI of a Windows
// file (`file:///c%3A/…`, `file://server/share/…`) gives a Windows path on any machine, with the
// drive letter in upper case as Hermes and the lens's own paths spell it (hermes/pathFlavour.ts).
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isWindowsPath, upperDrive } from '../hermes/pathFlavour';

const WINDOWS_URI = /^file:(?:\/\/\/[A-Za-z](?::|%3[Aa])(?:\/|$)|\/\/(?!\/)(?!localhost\/)[^/]+\/)/;

export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return upperDrive(fileURLToPath(uri, { windows: WINDOWS_URI.test(uri) }));
  } catch {
    return undefined;
  }
}

export function pathToUri(file: string): string {
  return pathToFileURL(file, { windows: isWindowsPath(file) }).toString();
}
