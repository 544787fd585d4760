/** Where one fleet lives on a NATS cluster; FLEET_NAME keeps several fleets apart on one. */
export interface FleetNames {
  fleet: string;
  /** The replicated stream: the total order of every plane's mutations. */
  stream: string;
  /** The one subject the stream captures; each message is one decided command's events. */
  logSubject: string;
  /** Snapshots of the replayed state, so a plane's start replays only the stream after one. */
  snapshotBucket: string;
  /** Where every event is mirrored for watchers (`.<type>` appended); outside the stream. */
  eventsPrefix: string;
}

/** Stream and subject tokens: no dots, wildcards or spaces, so a name is one token everywhere. */
export const FLEET_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function fleetNames(fleet: string): FleetNames {
  return {
    fleet,
    stream: `FLEET_${fleet}`,
    logSubject: `fleet.${fleet}.log`,
    snapshotBucket: `fleet_${fleet}_snapshots`,
    eventsPrefix: `fleet.${fleet}.events`,
  };
}
