/** Bumped when a client and a plane can no longer understand each other's frames. */
export const PROTOCOL_VERSION = 1;

/** Version of the persisted snapshot shape; older snapshots are migrated forward on load. */
export const SNAPSHOT_SCHEMA_VERSION = 3;

export const PLANE_VERSION = '0.1.0';

export const DEFAULT_PORT = 8765;

/** Largest WebSocket frame the plane accepts; bigger frames close the connection (ws maxPayload). */
export const MAX_FRAME_BYTES = 1024 * 1024;
