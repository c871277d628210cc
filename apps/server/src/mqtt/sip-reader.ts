/**
 * Fair reading of device connections beyond saturation. Aedes reads a connection a batch at a
 * time: everything its socket has buffered (up to 64 KiB a read), every packet of it handled at
 * once, the next batch only when they all are done. Beyond saturation, a device whose messages
 * wait for storage goes on sending; its next batch is then everything it sent meanwhile, the
 * batches grow with the wait, the wait with the batches — the server ends up holding all the
 * fleet's unacknowledged messages (memory growing for as long as the overload lasts), and a
 * device waits so long for any PUBACK that it gives up (mqtt.js closes a connection from which
 * nothing came for 1.5 keep-alives).
 *
 * Read in sips instead — about one packet at a time (a sip of SIP_BYTES, more only to complete a
 * packet) — and each device holds at most a message or two in the server; the rest stays in
 * its socket and the device's own queue. Devices are then served in turn, each getting a PUBACK
 * every (devices ÷ messages stored a second) seconds whatever the overload, and the server's
 * memory holds one sip a device. Below saturation nothing changes: a device's socket holds one
 * message at a time.
 */

const SIP_BYTES = 256;

/** What of an Aedes client this reads (none of it is in Aedes' type declarations). */
export interface SippableClient {
  readonly conn: {
    readonly readableLength: number;
    read(size?: number): unknown;
    on(event: 'readable', listener: () => void): unknown;
    removeListener(event: 'readable', listener: () => void): unknown;
  };
  readonly _parser: { parse(data: Buffer): unknown };
  /** Aedes: packets of the current batch still being handled (each one's `done` counts it down). */
  _parsingBatch: number;
  readonly _paused?: boolean;
  /** Aedes: called when a packet is handled and on 'readable'; reads the next batch when none is pending. */
  _nextBatch: (error?: Error | null) => void;
  emit(event: 'error', error: Error): unknown;
}

/** Makes Aedes read the client's connection in sips (call right after `aedes.handle`). */
export function readInSips(client: SippableClient): void {
  const { conn } = client;
  const aedesNextBatch = client._nextBatch;
  let reading = false;
  const sip = (): void => {
    // A packet handled synchronously while a sip is parsed: the loop below reads on.
    if (reading) return;
    reading = true;
    try {
      while (!client._paused && client._parsingBatch <= 0) {
        client._parsingBatch = 0;
        // read() takes what is buffered, or answers null and waits for 'readable' when nothing is.
        const data = conn.readableLength > SIP_BYTES ? conn.read(SIP_BYTES) : conn.read();
        if (!Buffer.isBuffer(data)) return;
        client._parser.parse(data);
      }
    } finally {
      reading = false;
    }
  };
  // Aedes' own: called as each packet is handled, and on 'readable'.
  const nextBatch = (error?: Error | null): void => {
    if (error) {
      client.emit('error', error);
      return;
    }
    if (client._paused) return;
    client._parsingBatch -= 1;
    sip();
  };
  conn.removeListener('readable', aedesNextBatch);
  conn.on('readable', nextBatch);
  client._nextBatch = nextBatch;
}
