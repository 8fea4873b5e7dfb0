// Owns `strata export --html`: one self-contained HTML file of a session — the bundled renderer and styles
// inline, the session's data (as stored, so redacted) embedded as JSON — that opens offline anywhere.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionDetail } from '../../core/browse/session-detail.js';
import { StrataError } from '../../shared/errors.js';
import { defaultAssetsDir } from './server.js';

/** JSON safe inside a <script> element: no `<` can close it or open a comment. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function asset(dir: string, name: string): string {
  try {
    return readFileSync(join(dir, name), 'utf8');
  } catch {
    throw new StrataError('IO', `the session renderer is not built (${name} missing in ${dir}); run npm run build`);
  }
}

/** The HTML text of an exported session. */
export function sessionHtml(detail: SessionDetail, assetsDir = defaultAssetsDir()): string {
  const js = asset(assetsDir, 'export.js').replace(/<\/script/gi, '<\\/script');
  const css = asset(assetsDir, 'export.css').replace(/<\/style/gi, '<\\/style');
  const title = `${detail.title ?? detail.id} · strata`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; \
style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="strata export">
<title>${escapeHtml(title)}</title>
<style>${css}</style>
</head>
<body>
<script type="application/json" id="strata-session">${scriptSafeJson(detail)}</script>
<script>${js}</script>
</body>
</html>
`;
}
