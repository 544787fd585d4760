import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';

/** One nats-server process of the test cluster. */
export interface NatsNode {
  name: string;
  clientPort: number;
  /** The node's monitoring port (HTTP: /connz lists its client connections). */
  monitorPort: number;
  url: string;
  child: ChildProcess | undefined;
  /** Everything the node logged so far. */
  output(): string;
}

export interface NatsCluster {
  nodes: NatsNode[];
  /** `nats://127.0.0.1:P1,nats://127.0.0.1:P2,…`: what `fleet serve --store` takes. */
  urls: string;
  /** SIGKILLs one node and waits for it to be gone. */
  kill(name: string): Promise<void>;
  /** SIGSTOPs one node: it hangs, its sockets stay open, nothing answers (a hung server, not a dead one). */
  hang(name: string): void;
  /** SIGCONTs a hung node. */
  wake(name: string): void;
  /** The names of the nodes serving a client connection whose name starts with `prefix` now (asked over each node's monitoring port). */
  nodesServing(prefix: string): Promise<string[]>;
  /** The URLs with `name`'s first: what a plane on that node's machine lists. */
  urlsFrom(name: string): string;
  /** Starts a killed node again on its ports and store; resolves once it serves JetStream and every stream's replicas are current again. */
  restart(name: string): Promise<void>;
  /** The node that leads `stream` now. */
  streamLeader(stream: string): Promise<string>;
  /** Kills every node and removes their stores. */
  stop(): Promise<void>;
}

/** A port the kernel just handed out on loopback (closed again, so nats-server can bind it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts a real `nats-server` JetStream cluster of `size` nodes on free loopback ports, each with
 * its store in a temp folder, and resolves once JetStream answers (a meta leader was elected) —
 * or, with `waitReady: false`, as soon as the processes are spawned (machines that boot together).
 */
export async function startNatsCluster(size = 3, { waitReady = true } = {}): Promise<NatsCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-nats-'));
  const ports = await Promise.all(Array.from({ length: size * 3 }, () => freePort()));
  const nodes: (NatsNode & { config: string; exited: Promise<void> })[] = [];
  for (let i = 0; i < size; i++) {
    const name = `n${i + 1}`;
    const clientPort = ports[i * 2]!;
    const monitorPort = ports[size * 2 + i]!;
    const routes = ports.slice(0, size * 2).filter((_, j) => j % 2 === 1 && j !== i * 2 + 1).map((p) => `nats-route://127.0.0.1:${p}`);
    const config = join(dir, `${name}.conf`);
    writeFileSync(
      config,
      [
        `server_name: ${name}`,
        `listen: 127.0.0.1:${clientPort}`,
        `http: 127.0.0.1:${monitorPort}`,
        `jetstream { store_dir: "${join(dir, name)}" }`,
        // no_advertise: a client keeps to the URLs it was given (a test may route one through a cuttable proxy).
        `cluster { name: fleet-test, listen: 127.0.0.1:${ports[i * 2 + 1]}, no_advertise: true, routes: [${routes.join(', ')}] }`,
      ].join('\n'),
    );
    nodes.push({ name, clientPort, monitorPort, url: `nats://127.0.0.1:${clientPort}`, child: undefined, output: () => '', config, exited: Promise.resolve() });
  }
  const launch = (node: (typeof nodes)[number]) => {
    let output = '';
    const child = spawn('nats-server', ['-c', node.config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => (output += chunk));
    node.child = child;
    node.output = () => output;
    node.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  };
  for (const node of nodes) launch(node);
  const urls = nodes.map((n) => n.url).join(',');
  const cluster: NatsCluster = {
    nodes,
    urls,
    async kill(name) {
      const node = nodes.find((n) => n.name === name)!;
      node.child?.kill('SIGKILL');
      await node.exited;
      node.child = undefined;
    },
    hang(name) {
      nodes.find((n) => n.name === name)!.child!.kill('SIGSTOP');
    },
    wake(name) {
      nodes.find((n) => n.name === name)!.child!.kill('SIGCONT');
    },
    async nodesServing(prefix) {
      const serving: string[] = [];
      for (const node of nodes.filter((n) => n.child)) {
        const connz = (await (await fetch(`http://127.0.0.1:${node.monitorPort}/connz?limit=1024`)).json()) as { connections?: { name?: string }[] };
        if ((connz.connections ?? []).some((c) => c.name?.startsWith(prefix))) serving.push(node.name);
      }
      return serving;
    },
    urlsFrom(name) {
      const first = nodes.findIndex((n) => n.name === name);
      return [...nodes.slice(first), ...nodes.slice(0, first)].map((n) => n.url).join(',');
    },
    async restart(name) {
      const node = nodes.find((n) => n.name === name)!;
      launch(node);
      await jetStreamReady(node.url);
      await streamsCurrent(node.url);
    },
    async streamLeader(stream) {
      const nc = await connect({ servers: nodes.filter((n) => n.child).map((n) => n.url) });
      try {
        const info = await (await jetstreamManager(nc)).streams.info(stream);
        return info.cluster!.leader!;
      } finally {
        await nc.close();
      }
    },
    async stop() {
      for (const node of nodes) node.child?.kill('SIGKILL');
      await Promise.all(nodes.map((n) => n.exited));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (!waitReady) return cluster;
  try {
    await jetStreamReady(urls);
  } catch (error) {
    await cluster.stop();
    throw new Error(`the nats-server cluster did not come up: ${(error as Error).message}\n${nodes.map((n) => `--- ${n.name}\n${n.output()}`).join('\n')}`);
  }
  return cluster;
}

/** Waits (bounded) until JetStream answers account info through `servers`: a meta leader exists. */
function jetStreamReady(servers: string): Promise<void> {
  return probeUntil('JetStream not ready', servers, async (jsm) => {
    await jsm.getAccountInfo();
    return undefined;
  });
}

/**
 * Waits (bounded) until every stream, asked through `server`, has a leader and only current
 * replicas: a restarted node has caught up, so a reader that opens next (the stream's referee)
 * is not left waiting on a stream still settling its peers.
 */
function streamsCurrent(server: string): Promise<void> {
  return probeUntil('streams not current', server, async (jsm) => {
    const lagging: string[] = [];
    for await (const info of jsm.streams.list()) {
      if (!info.cluster?.leader || (info.cluster.replicas ?? []).some((peer) => !peer.current || peer.offline)) lagging.push(info.config.name);
    }
    return lagging.length === 0 ? undefined : `lagging: ${lagging.join(', ')}`;
  });
}

/** Asks `probe` through a fresh connection until it finds nothing missing (undefined), within `boundMs`. */
async function probeUntil(failure: string, servers: string, probe: (jsm: JetStreamManager) => Promise<string | undefined>, boundMs = 30_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    try {
      const nc = await connect({ servers: servers.split(','), timeout: 2_000 });
      try {
        const missing = await probe(await jetstreamManager(nc, { timeout: 2_000 }));
        if (missing === undefined) return;
        last = missing;
      } finally {
        await nc.close();
      }
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100)); // a readiness probe's retry, not a wait for time to pass
  }
  throw new Error(`${failure} after ${boundMs} ms: ${last}`);
}
