// Owns the bounded one-way channel between two ingest threads that both stay synchronous: messages go
// over a MessagePort and are taken with receiveMessageOnPort, and two shared counters (weight sent,
// weight taken) let the sender wait with Atomics when it is too far ahead and the receiver wait when
// there is nothing to take. Neither side needs its event loop to turn, so a SQLite transaction or a
// parse is never interrupted to deliver a message.
import { receiveMessageOnPort, type MessagePort, type Transferable } from 'node:worker_threads';

/** Int32 slot counting the weight of the messages sent. */
const PRODUCED = 0;
/** Int32 slot counting the weight of the messages taken. */
const CONSUMED = 1;
/** Int32 slot the sender sets to 1 once its thread runs. */
const STARTED = 2;

/** The shared memory of one channel: give it to both ends. */
export function channelCounters(): SharedArrayBuffer {
  return new SharedArrayBuffer(12);
}

export class AheadSender {
  private readonly counters: Int32Array;

  /** `limit`: the weight that may wait untaken; a message is always let through once the backlog is below it. */
  constructor(
    private readonly port: MessagePort,
    shared: SharedArrayBuffer,
    private readonly limit: number,
  ) {
    this.counters = new Int32Array(shared);
    Atomics.store(this.counters, STARTED, 1);
    Atomics.notify(this.counters, PRODUCED);
  }

  send(message: unknown, weight: number, transfer?: Transferable[]): void {
    for (;;) {
      const consumed = Atomics.load(this.counters, CONSUMED);
      if (((Atomics.load(this.counters, PRODUCED) - consumed) | 0) < this.limit) break;
      Atomics.wait(this.counters, CONSUMED, consumed, 1000);
    }
    this.port.postMessage(message, transfer);
    Atomics.add(this.counters, PRODUCED, weight);
    Atomics.notify(this.counters, PRODUCED);
  }
}

/** The sender will not deliver: it failed to start, stopped responding, or the caller knows it is gone. */
export class ChannelDown extends Error {}

export interface ReceiverTimeouts {
  /** The sender has not started by then: it never will. */
  startMs: number;
  /** Nothing arrived for this long: the sender is gone. */
  stallMs: number;
}

export class AheadReceiver<T> {
  private readonly counters: Int32Array;
  private readonly created = Date.now();

  constructor(
    private readonly port: MessagePort,
    shared: SharedArrayBuffer,
    private readonly weightOf: (message: T) => number,
    private readonly timeouts: ReceiverTimeouts,
  ) {
    this.counters = new Int32Array(shared);
  }

  /**
   * The next message, waiting for it. Throws ChannelDown with the reason `gone()` returns (one the caller
   * already knows) or with the timeout that passed.
   */
  receive(gone: () => string | undefined = () => undefined): T {
    const started = Date.now();
    for (;;) {
      const reason = gone();
      if (reason !== undefined) throw new ChannelDown(reason);
      const produced = Atomics.load(this.counters, PRODUCED);
      const message = receiveMessageOnPort(this.port);
      if (message) {
        const value = message.message as T;
        Atomics.add(this.counters, CONSUMED, this.weightOf(value));
        Atomics.notify(this.counters, CONSUMED);
        return value;
      }
      const now = Date.now();
      if (Atomics.load(this.counters, STARTED) === 0 && now - this.created > this.timeouts.startMs)
        throw new ChannelDown('it did not start');
      if (now - started > this.timeouts.stallMs) throw new ChannelDown('it stopped responding');
      Atomics.wait(this.counters, PRODUCED, produced, 1000);
    }
  }
}
