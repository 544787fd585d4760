// The worker side of bystander-probe.ts: calls fleet_control_get back to back until told to stop,
// then posts every round-trip time (ms).
import { parentPort, workerData } from 'node:worker_threads';
import { PlaneClient, type PlaneAddress } from '../../server/client/plane-client.js';

const { address, token } = workerData as { address: PlaneAddress; token: string };
const client = await PlaneClient.connect(address, token, 'bystander');
const latencies: number[] = [];
let running = true;
parentPort!.once('message', () => (running = false));
parentPort!.postMessage('ready');
while (running) {
  const started = performance.now();
  await client.call('fleet_control_get', {});
  latencies.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, 5));
}
client.close();
parentPort!.postMessage(latencies);
