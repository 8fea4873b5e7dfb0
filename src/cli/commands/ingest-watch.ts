// Owns `strata ingest --watch`: runs the watcher until Ctrl-C (or SIGTERM), printing one line per batch
// on stderr (or one JSON object per batch on stdout with --json).
import type { AgentName } from '../../shared/model.js';
import { tildify } from '../../shared/paths.js';
import { printLine, type CliIo } from '../io.js';
import { embeddingModels } from '../../store/embeddings.js';
import { openStoreForWrite } from '../store-access.js';

export interface WatchFlags {
  agents?: AgentName[];
  redact: boolean;
  json?: boolean;
  debounceMs?: number;
}

export async function runIngestWatch(io: CliIo, paths: string[], flags: WatchFlags): Promise<void> {
  const { watchAndIngest } = await import('../../core/ingest/watch.js');
  const store = openStoreForWrite(io);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await watchAndIngest({
      store,
      paths,
      ...(flags.agents ? { agents: flags.agents } : {}),
      redact: flags.redact,
      env: io.env,
      cwd: io.cwd,
      ...(flags.debounceMs !== undefined ? { debounceMs: flags.debounceMs } : {}),
      signal: stop.signal,
      onWatching: (roots) => {
        printLine(io.stderr, `strata: watching ${roots.map((r) => tildify(r, io.env)).join(', ')} (Ctrl-C to stop)`);
        // Embedding would hold up the next batch (a model on this thread, a slow server): it is left to later.
        if (embeddingModels(store.db).length > 0)
          printLine(io.stderr, 'strata: new passages are not embedded while watching: `strata embed` embeds them');
      },
      onRescan: (slice) =>
        printLine(
          io.stderr,
          `strata: scanned ${slice.blocksScanned} stored blocks again with the current secret rules` +
            (slice.complete ? '; the scan is done' : '; more to come'),
        ),
      onBatch: (batch) => {
        if (flags.json) return printLine(io.stdout, JSON.stringify({ at: new Date().toISOString(), ...batch }));
        const parts = [
          `${batch.files} file${batch.files === 1 ? '' : 's'} ingested, ${batch.messagesAdded} messages added`,
        ];
        if (batch.deferred > 0) parts.push(`${batch.deferred} waiting for another writer`);
        printLine(io.stderr, `strata: ${parts.join('; ')}`);
        for (const problem of batch.problems.slice(0, 10)) printLine(io.stderr, `  problem: ${problem}`);
      },
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    store.close();
  }
}
