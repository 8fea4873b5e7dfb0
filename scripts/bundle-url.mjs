// Injected into dist/strata.cjs by scripts/build-cli.mjs: the bundle's own URL, from which the modules
// bundled into it find the dist files they name relative to themselves.
import { pathToFileURL } from 'node:url';

export const strataBundleUrl = pathToFileURL(__filename).href;
