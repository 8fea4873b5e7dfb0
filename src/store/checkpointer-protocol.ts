// Owns the shared counter slots between the writer and its checkpointer thread (see checkpointer.ts).

/** Int32 slot the writer sets to 1 to stop the thread. */
export const STOP = 0;
/** Int32 slot: WAL frames after the thread's last checkpoint. */
export const FRAMES = 1;
/** Int32 slot: whole seconds since the thread started, at its last checkpoint (-1: it failed). */
export const BEAT = 2;
/**
 * How often the thread checkpoints. Pages the writer rewrites at every commit (the right edges of the
 * indexes) are copied once per checkpoint: every 500 ms rather than 100 cut the thread's CPU by a
 * third on a 1 GB ingest, while the WAL still restarts long before the writer's own threshold.
 */
export const CHECKPOINT_EVERY_MS = 500;
