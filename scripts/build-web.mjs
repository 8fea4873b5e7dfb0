// Bundles the `strata ui` front end (src/ui/web) into dist/ui/web: app.js + app.css for the server (and boot.js,
// which starts a session's first read before app.js has loaded),
// export.js + export.css inlined by `strata export --html`. Runs after tsc in `npm run build`.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist/ui/web');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: {
    app: join(root, 'src/ui/web/main.ts'),
    boot: join(root, 'src/ui/web/boot.ts'),
    export: join(root, 'src/ui/web/export-entry.ts'),
  },
  outdir: out,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(root, 'src/ui/web/index.html'), join(out, 'index.html'));
