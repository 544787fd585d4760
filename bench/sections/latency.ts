// Floors, claim/check latency against them, and how latency holds up with 10, 1,000 and 10,000
// live claims over a realistic tree. Floor and plane samples are taken in short alternating blocks
// from the same client process, so drift of the machine hits both alike; client and server are
// pinned to CPUs so that both pay the same wake-ups (see lib/affinity.ts).
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tempHome } from '../../test/support/plane-process.js';
import { allCpus, CLIENT_CPU, pin, SERVER_CPU } from '../lib/affinity.js';
import { settleDisk } from '../lib/disk.js';
import { FloorPeer, paddedReply } from '../lib/floor-client.js';
import { RecordWriter } from '../lib/record-writer.js';
import { PlaneHandle } from '../lib/plane-handle.js';
import { RawClient } from '../lib/raw-client.js';
import { count, Report, times, us } from '../lib/report.js';
import { microsSince, seededRandom, shuffle, summarize, type Summary } from '../lib/stats.js';
import { AREAS, backgroundPatterns, PACKAGES, packageFiles, probeFile, sharedTreeRepo } from '../lib/tree.js';

export const LEVELS = [10, 1_000, 10_000] as const;
const CLAIMS_PER_REQUEST = 64;

interface Options {
  quick: boolean;
}

/** Every series one round of blocks adds to. */
interface Samples {
  floorCheck: number[];
  floorClaim: number[];
  floorDurable: number[];
  floorDurableReserved: number[];
  fdatasync: number[];
  fdatasyncReserved: number[];
  check: number[];
  claim: number[];
  release: number[];
}

const newSamples = (): Samples => ({ floorCheck: [], floorClaim: [], floorDurable: [], floorDurableReserved: [], fdatasync: [], fdatasyncReserved: [], check: [], claim: [], release: [] });

function summarizeAll(samples: Samples): Record<keyof Samples, Summary> {
  return Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, summarize(values)])) as Record<keyof Samples, Summary>;
}

async function sample(n: number, once: (i: number) => Promise<unknown>, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    await once(i);
    into.push(microsSince(start));
  }
}

/** Size in bytes of the last claim.granted line in the plane's event log. */
async function lastGrantLineBytes(home: string): Promise<number> {
  const dir = join(home, 'state', 'events');
  const segments = (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();
  const lines = (await readFile(join(dir, segments[segments.length - 1]!), 'utf8')).split('\n');
  const line = lines.reverse().find((l) => l.includes('"claim.granted"'));
  return Buffer.byteLength(`${line}\n`);
}

export async function latencyAndScale(options: Options, report: Report): Promise<void> {
  // Many short alternating blocks rather than a few long ones: a burst of noise on the machine
  // then lands on floor and plane samples alike.
  const rounds = options.quick ? 6 : 20;
  const checksPerBlock = options.quick ? 100 : 250;
  const claimsPerBlock = options.quick ? 30 : 100;
  const root = sharedTreeRepo();
  settleDisk();
  const plane = await PlaneHandle.start();
  const floorDir = tempHome('fleet-bench-floor-');
  const peer = await FloorPeer.start();
  const pinned = pin(process.pid, CLIENT_CPU) && pin(plane.pid, SERVER_CPU) && pin(peer.pid, SERVER_CPU);
  // Over loopback TCP, like the floors it is compared with (DESIGN §7); the throughput section
  // connects through the plane's Unix socket, as local clients do by default.
  const tcp = { port: plane.port };
  const probe = await RawClient.agent(tcp, plane.token, 'probe');
  const random = seededRandom(7);
  const loadedSources = Array.from({ length: PACKAGES }, (_, p) => packageFiles(p).filter((f) => f.endsWith('.ts'))).flat();
  const checkPaths = shuffle(loadedSources, random).slice(0, 256);
  const claimPaths = shuffle(
    Array.from({ length: PACKAGES * AREAS.length }, (_, i) => probeFile(Math.floor(i / AREAS.length), AREAS[i % AREAS.length]!)),
    random,
  );
  const check = (i: number) => probe.call('fleet_check_path', { paths: [checkPaths[i % checkPaths.length]], root });
  let claimIndex = 0;
  const claimCycle = async (claimInto: number[], releaseInto: number[]) => {
    const start = process.hrtime.bigint();
    const result = await probe.call<{ granted: boolean; claims: { id: string }[] }>('fleet_claim_path', { patterns: [claimPaths[claimIndex++ % claimPaths.length]], root });
    claimInto.push(microsSince(start));
    if (!result.granted) throw new Error('a probe claim was refused: the background load overlaps the probe files');
    const releasing = process.hrtime.bigint();
    await probe.call('fleet_release_path', { claimIds: [result.claims[0]!.id] });
    releaseInto.push(microsSince(releasing));
  };

  // Background load: package p's claims are held by agent bg-p, in the order of its shuffled pool.
  const pools = Array.from({ length: PACKAGES }, (_, p) => backgroundPatterns(p, seededRandom(1000 + p)));
  const held = new Array<number>(PACKAGES).fill(0);
  const owners = new Map<number, RawClient>();
  let liveClaims = 0;
  const loadTo = async (level: number) => {
    const packages = Math.min(PACKAGES, level);
    const perPackage = level / packages;
    await Promise.all(
      Array.from({ length: packages }, async (_, i) => {
        const p = Math.floor((i * PACKAGES) / packages);
        let owner = owners.get(p);
        if (!owner) {
          owner = await RawClient.agent(tcp, plane.token, `bg-${p}`);
          owners.set(p, owner);
        }
        while (held[p]! < perPackage) {
          const patterns = pools[p]!.slice(held[p], Math.min(perPackage, held[p]! + CLAIMS_PER_REQUEST));
          const result = await owner.call<{ granted: boolean; claims: unknown[] }>('fleet_claim_path', { patterns, root });
          if (!result.granted) throw new Error(`background claims of package ${p} were refused`);
          held[p]! += patterns.length;
          liveClaims += result.claims.length;
        }
      }),
    );
  };

  const alone = RecordWriter.open(join(floorDir, 'fdatasync-alone.log'), 'append');
  const aloneReserved = RecordWriter.open(join(floorDir, 'fdatasync-alone-reserved.log'), 'reserved');
  try {
    await loadTo(LEVELS[0]);
    // Warm up (V8 needs a few thousand calls to optimise the plane's request path: with only a few
    // hundred, the first level measured the JIT, not the plane; --quick too, where 400 claim
    // cycles read ~25% slower), then take the frame sizes the floors must reproduce.
    await sample(6000, check, []);
    for (let i = 0; i < 1500; i++) await claimCycle([], []);
    await check(0);
    const checkRequest = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'fleet_check_path', params: { paths: [checkPaths[0]], root } });
    const checkReply = paddedReply(probe.lastReplyBytes);
    const claimRequest = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'fleet_claim_path', params: { patterns: [claimPaths[0]], root } });
    const granted = await probe.call<{ claims: { id: string }[] }>('fleet_claim_path', { patterns: [claimPaths[0]], root });
    const claimReply = paddedReply(probe.lastReplyBytes);
    await probe.call('fleet_release_path', { claimIds: [granted.claims[0]!.id] });
    const eventLineBytes = await lastGrantLineBytes(plane.home);
    const record = Buffer.alloc(eventLineBytes, 'x');

    const floorBlock = (request: string, n: number, into: number[]) => sample(n, () => peer.client.exchange(request), into);
    const round = async (into: Samples) => {
      await peer.mode('rtt', checkReply, 0, floorDir);
      await floorBlock(checkRequest, 20, []);
      await floorBlock(checkRequest, checksPerBlock, into.floorCheck);
      await sample(20, check, []);
      await sample(checksPerBlock, check, into.check);
      await peer.mode('rtt', claimReply, 0, floorDir);
      await floorBlock(claimRequest, 20, []);
      await floorBlock(claimRequest, claimsPerBlock, into.floorClaim);
      await peer.mode('durable', claimReply, eventLineBytes, floorDir);
      await floorBlock(claimRequest, 20, []);
      await floorBlock(claimRequest, claimsPerBlock, into.floorDurable);
      await peer.mode('durable-reserved', claimReply, eventLineBytes, floorDir);
      await floorBlock(claimRequest, 20, []);
      await floorBlock(claimRequest, claimsPerBlock, into.floorDurableReserved);
      await sample(claimsPerBlock, async () => alone.write(record), into.fdatasync);
      await sample(claimsPerBlock, async () => aloneReserved.write(record), into.fdatasyncReserved);
      for (let i = 0; i < 5; i++) await claimCycle([], []);
      for (let i = 0; i < claimsPerBlock; i++) await claimCycle(into.claim, into.release);
    };

    // Every level in the same placement and the same interleaving, floors pooled over the levels.
    const crossCore = newSamples();
    const levels: { liveClaims: number; figures: Record<keyof Samples, Summary> }[] = [];
    let sameCore: Record<keyof Samples, Summary> | undefined;
    for (const level of LEVELS) {
      await loadTo(level);
      settleDisk();
      await sample(100, check, []); // re-warm after the load changed the shape of the index
      const samples = newSamples();
      for (let r = 0; r < rounds; r++) await round(samples);
      levels.push({ liveClaims, figures: summarizeAll(samples) });
      for (const key of Object.keys(samples) as (keyof Samples)[]) crossCore[key].push(...samples[key]);
      // At 10 claims, also with client and server on one core, where wake-ups cost least and the
      // plane's own work weighs most.
      if (level === LEVELS[0] && pinned && pin(plane.pid, CLIENT_CPU) && pin(peer.pid, CLIENT_CPU)) {
        const same = newSamples();
        await sample(500, check, []);
        for (let r = 0; r < Math.ceil(rounds / 2); r++) await round(same);
        sameCore = summarizeAll(same);
        pin(plane.pid, SERVER_CPU);
        pin(peer.pid, SERVER_CPU);
      }
    }
    const floors = summarizeAll(crossCore);
    const sizes = { checkRequestBytes: checkRequest.length, checkReplyBytes: checkReply.length, claimRequestBytes: claimRequest.length, claimReplyBytes: claimReply.length, eventLineBytes };
    report.set('latency', { placement: pinned ? { client: CLIENT_CPU, server: SERVER_CPU } : 'not pinned', sizes, floorsPooled: floors, levels, sameCoreAt10: sameCore });

    const s = 'floors';
    const placement = pinned ? `client on CPU ${CLIENT_CPU}, server on CPU ${SERVER_CPU}` : 'NOT pinned (no taskset or one core): figures vary with scheduling';
    report.add({ section: s, figure: 'placement of the latency section', value: placement });
    report.add({ section: s, figure: `round-trip floor p50 / p99 (check-sized: ${sizes.checkRequestBytes} B → ${sizes.checkReplyBytes} B)`, value: `${us(floors.floorCheck.p50)} / ${us(floors.floorCheck.p99)}` });
    report.add({ section: s, figure: `round-trip floor p50 / p99 (claim-sized: ${sizes.claimRequestBytes} B → ${sizes.claimReplyBytes} B)`, value: `${us(floors.floorClaim.p50)} / ${us(floors.floorClaim.p99)}` });
    report.add({ section: s, figure: `durable floor p50 / p99 (claim-sized round trip + ${eventLineBytes} B write + fdatasync)`, value: `${us(floors.floorDurable.p50)} / ${us(floors.floorDurable.p99)}` });
    report.add({ section: s, figure: "  same, the record written into zeros reserved ahead (as the plane's log writes)", value: `${us(floors.floorDurableReserved.p50)} / ${us(floors.floorDurableReserved.p99)}` });
    report.add({ section: s, figure: 'write + fdatasync alone, no network (p50 / p99): appended', value: `${us(floors.fdatasync.p50)} / ${us(floors.fdatasync.p99)}` });
    report.add({ section: s, figure: '  into reserved zeros', value: `${us(floors.fdatasyncReserved.p50)} / ${us(floors.fdatasyncReserved.p99)}` });

    const base = levels[0]!;
    reportAgainstFloors(report, `${base.liveClaims} live claims`, base.figures, floors);
    if (sameCore) {
      report.add({ section: s, figure: 'same core: round-trip floor p50 (check-sized) / durable floor p50', value: `${us(sameCore.floorCheck.p50)} / ${us(sameCore.floorDurable.p50)}` });
      reportAgainstFloors(report, `${base.liveClaims} live claims, client and plane on one core`, sameCore, sameCore);
    }

    const sc = 'scale';
    for (const level of levels) {
      report.add({ section: sc, figure: `${count(level.liveClaims)} live claims: check p50 / p99`, value: `${us(level.figures.check.p50)} / ${us(level.figures.check.p99)}` });
      report.add({ section: sc, figure: `${count(level.liveClaims)} live claims: claim p50 / p99`, value: `${us(level.figures.claim.p50)} / ${us(level.figures.claim.p99)}` });
    }
    const top = levels[levels.length - 1]!;
    for (const kind of ['check', 'claim'] as const) {
      const at10 = base.figures[kind].p50;
      const atTop = top.figures[kind].p50;
      report.target(
        { section: sc, figure: `${kind} p50 at ${count(top.liveClaims)} vs at ${count(base.liveClaims)}`, value: us(atTop), reference: `2× ${us(at10)} = ${us(2 * at10)}`, ratio: times(atTop / at10) },
        atTop,
        2 * at10,
        '≤ 2× p50 at 10',
      );
    }
  } finally {
    alone.close();
    aloneReserved.close();
    pin(process.pid, allCpus());
    await probe.close();
    await Promise.all([...owners.values()].map((owner) => owner.close()));
    await peer.stop();
    await plane.stop();
    await rm(plane.home, { recursive: true, force: true });
    await rm(floorDir, { recursive: true, force: true });
  }
}

function reportAgainstFloors(report: Report, what: string, plane: Record<keyof Samples, Summary>, floors: Record<keyof Samples, Summary>): void {
  const l = 'latency';
  report.target(
    { section: l, figure: `check p50 (${what})`, value: us(plane.check.p50), reference: `2× RTT floor = ${us(2 * floors.floorCheck.p50)}`, ratio: `${times(plane.check.p50 / floors.floorCheck.p50)} floor` },
    plane.check.p50,
    2 * floors.floorCheck.p50,
    '≤ 2× RTT floor',
  );
  report.add({ section: l, figure: 'check p99', value: us(plane.check.p99), reference: `RTT floor p99 ${us(floors.floorCheck.p99)}`, ratio: `${times(plane.check.p99 / floors.floorCheck.p99)} floor p99` });
  report.target(
    { section: l, figure: `claim p50 (${what})`, value: us(plane.claim.p50), reference: `1.5× durable floor = ${us(1.5 * floors.floorDurable.p50)}`, ratio: `${times(plane.claim.p50 / floors.floorDurable.p50)} floor` },
    plane.claim.p50,
    1.5 * floors.floorDurable.p50,
    '≤ 1.5× durable floor',
  );
  report.add({ section: l, figure: 'claim p99', value: us(plane.claim.p99), reference: `durable floor p99 ${us(floors.floorDurable.p99)}`, ratio: `${times(plane.claim.p99 / floors.floorDurable.p99)} floor p99` });
  // The plane writes into reserved zeros, which syncs faster than the append the floor is defined
  // by: against a floor that writes the same way, what is left is the plane's own work.
  report.add({ section: l, figure: `claim p50 (${what}) vs a durable floor writing as the plane does (into reserved zeros)`, value: us(plane.claim.p50), reference: `floor ${us(floors.floorDurableReserved.p50)}`, ratio: `${times(plane.claim.p50 / floors.floorDurableReserved.p50)} floor` });
  report.add({ section: l, figure: 'release p50 / p99', value: `${us(plane.release.p50)} / ${us(plane.release.p99)}`, ratio: `${times(plane.release.p50 / floors.floorDurable.p50)} durable floor` });
}
