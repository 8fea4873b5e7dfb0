// Bundles the CLI (tsc's dist/cli/main.js and the packages it imports) into dist/strata.cjs, the one file
// bin/strata.cjs loads: one read and one compile-cache entry instead of hundreds of module files per start.
// Runs after tsc in `npm run build`. better-sqlite3 stays outside (a native addon found through its package).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist/strata.cjs');
const ownDist = join(root, 'dist') + sep;

// A module of ours keeps the URL of its own dist file (workers, schemas and the web app are found next to
// it), written relative to the bundle so an installed copy anywhere resolves the same files.
const ownUrls = {
  name: 'own-module-urls',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(ownDist)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (/import\.meta(?!\.url)/.test(text)) throw new Error(`${args.path}: only import.meta.url can be bundled`);
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      const fromBundle = relative(dirname(outfile), args.path).split(sep).join('/');
      const url = `new URL(${JSON.stringify(fromBundle)}, strataBundleUrl).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: [join(root, 'dist/cli/main.js')],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // bin/strata.cjs compiles the bundle as a script: every import() must become a require().
  supported: { 'dynamic-import': false },
  external: ['better-sqlite3'],
  // jsonc-parser's `main` is a UMD build whose inner require()s a bundler cannot follow: take its ES modules.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  inject: [join(root, 'scripts/bundle-url.mjs')],
  plugins: [ownUrls],
  // Smaller to read and to cache (1.3 against 2.6 MB); names are kept, so stack traces and error names read.
  minify: true,
  keepNames: true,
  metafile: true,
  logLevel: 'warning',
});
const dynamic = Object.values(result.metafile.outputs).flatMap((o) =>
  o.imports.filter((i) => i.kind === 'dynamic-import'),
);
if (dynamic.length > 0)
  throw new Error(`dist/strata.cjs keeps dynamic imports: ${dynamic.map((i) => i.path).join(', ')}`);
// bin/strata.cjs compiles the bundle inside a function wrapper, where a hashbang line is a syntax error. Pure
// ASCII (esbuild leaves some regular expressions' characters as they are) makes a one-byte string, quicker
// to read and to compile; \u escapes mean the same in string, template and regular expression literals.
let text = readFileSync(outfile, 'utf8');
if (text.startsWith('#!')) text = text.slice(text.indexOf('\n') + 1);
text = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
// The stamp bin/strata.cjs names its compile cache by (a code cache used with other text would misbehave).
const stamp = createHash('sha256').update(text).digest('hex').slice(0, 16);
writeFileSync(outfile, `// bundle ${stamp}\n${text}`);
