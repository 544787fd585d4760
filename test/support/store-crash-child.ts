// Child process of test/integration/store/kill9.test.ts. Appends events forever from several
// concurrent writers (so group commit batches form) and compacts every so often; prints each seq
// only after its append resolved, which is the acknowledgement the parent holds the store to.
// Lines on stdout: "opening", "ready <last seq>", "ack <seq>", "compacting <seq>".
import { createTestStore, type TestEvent } from './store-fixtures.js';

const WRITERS = 8;
const COMPACT_EVERY = 300;

const dir = process.argv[2];
if (!dir) throw new Error('usage: store-crash-child.js STORE_DIR');

function die(error: unknown): never {
  process.stderr.write(`store-crash-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
}

// stdout is a pipe, and pipe writes are synchronous on Linux: once write returns, the line
// reaches the parent even if SIGKILL follows at once.
process.stdout.write('opening\n');
const store = createTestStore(dir);
const recovered = await store.open();
let lastSeq = recovered.tail.at(-1)?.seq ?? recovered.snapshotSeq;
process.stdout.write(`ready ${lastSeq}\n`);

function nextEvents(): TestEvent[] {
  const count = 1 + (lastSeq % 3); // single- and multi-event appends
  const events: TestEvent[] = [];
  for (let i = 0; i < count; i++) {
    const seq = ++lastSeq;
    events.push({ seq, at: Date.now(), type: 'tick', note: 'x'.repeat(seq % 97) });
  }
  return events;
}

async function writer(): Promise<void> {
  for (;;) {
    const events = nextEvents();
    const last = events[events.length - 1]!.seq;
    const appended = store.append(events);
    if (Math.floor(last / COMPACT_EVERY) > Math.floor((events[0]!.seq - 1) / COMPACT_EVERY)) {
      // The fold of events 1..last is simply their count, so the snapshot is exact.
      process.stdout.write(`compacting ${last}\n`);
      store.compact({ count: last }, last).catch(die);
    }
    await appended;
    process.stdout.write(events.map((event) => `ack ${event.seq}\n`).join(''));
  }
}

for (let i = 0; i < WRITERS; i++) writer().catch(die);
