import { StorageType, type JetStreamManager, type StreamInfo } from '@nats-io/jetstream';
import { NatsStartError } from './nats-connect.js';
import type { FleetNames } from './nats-names.js';

/** What a stream's messages look like; a plane refuses a stream written in another format. */
export const STREAM_FORMAT = 1;

const DESCRIPTION = /^fleet-coordination event log, format (\d+), created by plane (\S+)$/;

/**
 * Finds the fleet's stream, or creates it: file storage, three replicas when the cluster has
 * them (one on a single server), nothing ever discarded (snapshots bound replay, not retention).
 * A stream some other format or program made is refused with both versions named. Any other
 * failure is thrown as it is, for start-up to retry: a cluster still forming answers "not
 * enabled" or times out, and a plane started at the same instant may be creating the stream
 * (the next attempt finds it). A cluster that cannot place three replicas gets one only once
 * `mayTakeOneReplica` says the peers had their time to come up.
 */
export async function ensureStream(jsm: JetStreamManager, names: FleetNames, planeVersion: string, clustered: boolean, mayTakeOneReplica: () => boolean): Promise<StreamInfo> {
  const existing = await jsm.streams.info(names.stream).catch((error: Error) => {
    if (/stream not found/i.test(error.message)) return undefined;
    throw error;
  });
  if (existing) {
    const found = DESCRIPTION.exec(existing.config.description ?? '');
    if (!found) throw new NatsStartError(`stream ${names.stream} exists but was not created by fleet-coordination (description "${existing.config.description ?? ''}"): pick another FLEET_NAME, or remove that stream if it is a leftover`);
    if (Number(found[1]) !== STREAM_FORMAT) {
      throw new NatsStartError(`stream ${names.stream} holds format ${found[1]} (created by plane ${found[2]}); this plane (${planeVersion}) reads format ${STREAM_FORMAT}: run planes of one version on a fleet, or start this one under another FLEET_NAME`);
    }
    return existing;
  }
  const config = {
    name: names.stream,
    subjects: [names.logSubject],
    storage: StorageType.File,
    description: `fleet-coordination event log, format ${STREAM_FORMAT}, created by plane ${planeVersion}`,
    duplicate_window: 120_000_000_000, // ns: a resent message id within 2 min is not stored twice
  };
  try {
    return await jsm.streams.add({ ...config, num_replicas: clustered ? 3 : 1 });
  } catch (error) {
    // A cluster of fewer than three JetStream servers cannot hold three replicas.
    if (!clustered || !mayTakeOneReplica()) throw error;
    return jsm.streams.add({ ...config, num_replicas: 1 });
  }
}
