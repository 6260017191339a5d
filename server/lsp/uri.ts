// file: URIs ↔ paths (other schemes, e.g. untitled:, are not Hermes files).
import { fileURLToPath, pathToFileURL } from 'node:url';

export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

export function pathToUri(file: string): string {
  return pathToFileURL(file).toString();
}
