// Owns lazy loading of optional vendor SDKs: imported only when their provider is used, with an
// error that names the package to install when it is missing.
import { StrataError } from '../../../shared/errors.js';

export type SdkImporter = (specifier: string) => Promise<unknown>;

const defaultImporter: SdkImporter = (specifier) => import(specifier);

export async function loadSdk<T>(
  specifier: string,
  provider: string,
  importer: SdkImporter = defaultImporter,
): Promise<T> {
  try {
    return (await importer(specifier)) as T;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new StrataError(
        'CONFIG',
        `the ${provider} provider needs the package ${specifier}; install it with \`npm install ${specifier}\``,
        { cause: error },
      );
    }
    throw error;
  }
}
