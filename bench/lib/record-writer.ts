// How the floors make a small record durable: appended and fdatasynced (the durable floor of
// DESIGN §7), or written into zeros reserved ahead of it and fdatasynced, as the plane's event log
// writes (server/store/event-log.ts). The second leaves the file's size alone, so the file system
// has no metadata to journal; both rows are measured so the difference is seen, not assumed.
import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { RESERVE_BYTES } from '../../server/store/event-log.js';

export type RecordPlacement = 'append' | 'reserved';

export class RecordWriter {
  private position = 0;

  private constructor(
    private readonly fd: number,
    private readonly placement: RecordPlacement,
  ) {}

  static open(path: string, placement: RecordPlacement): RecordWriter {
    if (placement === 'append') return new RecordWriter(openSync(path, 'a', 0o600), placement);
    const fd = openSync(path, 'w+', 0o600);
    writeSync(fd, Buffer.alloc(RESERVE_BYTES));
    fdatasyncSync(fd);
    return new RecordWriter(fd, placement);
  }

  /** Writes `record` and fdatasyncs it. Reserved: round the reserve again when it is used up. */
  write(record: Buffer): void {
    if (this.placement === 'append') {
      writeSync(this.fd, record);
    } else {
      if (this.position + record.length > RESERVE_BYTES) this.position = 0;
      writeSync(this.fd, record, 0, record.length, this.position);
      this.position += record.length;
    }
    fdatasyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
