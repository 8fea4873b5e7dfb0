// Owns the shared counter slots between the writer and its checkpointer thread (see checkpointer.ts).

/** Int32 slot the writer sets to 1 to stop the thread. */
export const STOP = 0;
/** Int32 slot: WAL frames after the thread's last checkpoint. */
export const FRAMES = 1;
/** Int32 slot: whole seconds since the thread started, at its last checkpoint (-1: it failed). */
export const BEAT = 2;
/** How often the thread checkpoints. */
export const CHECKPOINT_EVERY_MS = 100;
