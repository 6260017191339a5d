// The prompt anatomy webview's page: a shell that loads the view's script and style from the
// extension, under a Content-Security-Policy that allows nothing else (no inline script, no remote
// content; the one script runs by its nonce). Pure: no vscode import.

export interface AnatomyPageParts {
  /** The webview's `cspSource` (the origin its local resources are served from). */
  readonly cspSource: string;
  /** A fresh random nonce per page. */
  readonly nonce: string;
  readonly scriptUri: string;
  readonly styleUri: string;
}

export function anatomyCsp(p: Pick<AnatomyPageParts, 'cspSource' | 'nonce'>): string {
  return [`default-src 'none'`, `style-src ${p.cspSource}`, `script-src 'nonce-${p.nonce}'`, `img-src ${p.cspSource}`, `font-src ${p.cspSource}`].join('; ');
}

export function anatomyHtml(p: AnatomyPageParts): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(anatomyCsp(p))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(p.styleUri)}">
<title>Prompt Anatomy</title>
</head>
<body>
<main id="root" aria-busy="true"><p class="muted">Reading the stored prompt…</p></main>
<script nonce="${attr(p.nonce)}" src="${attr(p.scriptUri)}"></script>
</body>
</html>
`;
}

/** 32 characters of [A-Za-z0-9] from `random` (crypto in the extension). */
export function makeNonce(random: (n: number) => Uint8Array): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...random(32)].map((b) => chars[b % chars.length]).join('');
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
