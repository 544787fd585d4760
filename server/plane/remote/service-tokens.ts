import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { callsignSchema, FleetError, serviceRoleSchema, type ServiceTokenView } from '../../../contracts/index.js';
import type { Clock } from '../../core/clock.js';
import type { ServiceCredential } from '../../core/context.js';
import { writeFileDurably } from '../../store/durable-write.js';

const TOKEN_PREFIX = 'fst';

const tokenRecordSchema = z.object({
  id: z.string(),
  callsign: callsignSchema,
  role: serviceRoleSchema,
  /** sha256 of the secret part: the token itself is shown once and never stored. */
  hash: z.string(),
  createdAt: z.number(),
  createdBy: z.string(),
  expiresAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
});
type TokenRecord = z.infer<typeof tokenRecordSchema>;

const tokensFileSchema = z.object({
  version: z.literal(1),
  /** Derives each service callsign's session token, so a remote agent re-attaches itself after a reconnect. */
  sessionSecret: z.string(),
  tokens: z.array(tokenRecordSchema),
});

export class ServiceTokensFileError extends Error {}

/**
 * The service tokens of this plane's TLS listener, in FLEET_HOME/service-tokens.json (0600): the
 * plane is the only writer (the operator creates and revokes through operator-only methods), so its
 * table in memory is the truth and a revocation holds from the next call on, without re-reading.
 */
export class ServiceTokens {
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly clock: Clock,
    private readonly sessionSecret: string,
    private readonly records: Map<string, TokenRecord>,
  ) {}

  /** Loads the file (a missing one is an empty table); a damaged one refuses start-up, naming it. */
  static async load(path: string, clock: Clock): Promise<ServiceTokens> {
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text === undefined) return new ServiceTokens(path, clock, randomBytes(32).toString('base64url'), new Map());
    let parsed;
    try {
      parsed = tokensFileSchema.parse(JSON.parse(text));
    } catch (error) {
      throw new ServiceTokensFileError(`${path} is not a service-token file this plane can read (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): restore it from a backup, or move it away and create the tokens again (\`fleet token create\`)`);
    }
    return new ServiceTokens(path, clock, parsed.sessionSecret, new Map(parsed.tokens.map((record) => [record.id, record])));
  }

  /** Creates a token; the returned string is the only time the secret exists outside its holder. */
  async create(callsign: string, role: ServiceCredential['role'], ttlSeconds: number | undefined, createdBy: string): Promise<{ token: string; info: ServiceTokenView }> {
    const id = `tok_${randomBytes(6).toString('base64url')}`;
    const secret = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const record: TokenRecord = { id, callsign, role, hash: digest(secret), createdAt: now, createdBy, expiresAt: ttlSeconds === undefined ? null : now + ttlSeconds * 1000, revokedAt: null };
    this.records.set(id, record);
    await this.save();
    return { token: `${TOKEN_PREFIX}.${id}.${secret}`, info: this.view(record) };
  }

  list(): ServiceTokenView[] {
    return [...this.records.values()].map((record) => this.view(record));
  }

  /** Revokes by id or every token of a callsign; returns the ids revoked now. */
  async revoke(by: { id?: string | undefined; callsign?: string | undefined }): Promise<string[]> {
    const matching = [...this.records.values()].filter((record) => (by.id !== undefined ? record.id === by.id : record.callsign === by.callsign));
    if (matching.length === 0) throw new FleetError('NOT_FOUND', by.id !== undefined ? `no service token ${by.id}: \`fleet token list\` shows the ids` : `${by.callsign} has no service token`);
    const now = this.clock.now();
    const revoked = matching.filter((record) => record.revokedAt === null);
    for (const record of revoked) record.revokedAt = now;
    if (revoked.length > 0) await this.save();
    return revoked.map((record) => record.id);
  }

  /** The credential a presented bearer proves, or why it proves none (said to the remote client). */
  authenticate(presented: string): ServiceCredential | { refused: string } {
    // fst.<id>.<secret>: base64url never contains a dot.
    const [prefix, id, secret, ...rest] = presented.split('.');
    const record = prefix === TOKEN_PREFIX && id !== undefined && secret !== undefined && rest.length === 0 ? this.records.get(id) : undefined;
    // Compared in constant time whether or not the id was known, so timing tells nothing of either.
    const matches = timingSafeEqual(Buffer.from(digest(secret ?? presented), 'hex'), Buffer.from(record?.hash ?? digest(''), 'hex'));
    if (!record || !matches) return { refused: 'not a service token of this plane: ask the operator for one (`fleet token create --callsign X --role R`); the plane token and the operator credential are never accepted here' };
    const problem = this.problemWith(record);
    if (problem !== undefined) return { refused: problem };
    return { kind: 'service', tokenId: record.id, callsign: record.callsign, role: record.role };
  }

  /** Throws SERVICE_TOKEN_INVALID once the token a session opened with is revoked or expired. */
  assertStillValid(credential: ServiceCredential): void {
    const record = this.records.get(credential.tokenId);
    const problem = record === undefined ? `service token ${credential.tokenId} no longer exists` : this.problemWith(record);
    if (problem !== undefined) throw new FleetError('SERVICE_TOKEN_INVALID', problem, { tokenId: credential.tokenId });
  }

  /** The session token a service callsign joins with: the same for every token of that callsign, so a rotated token re-attaches the same agent. */
  sessionTokenFor(callsign: string): string {
    return createHmac('sha256', this.sessionSecret).update(callsign).digest('base64url');
  }

  private problemWith(record: TokenRecord): string | undefined {
    if (record.revokedAt !== null) return `service token ${record.id} (${record.callsign}) was revoked at ${iso(record.revokedAt)}: ask the operator for a new one`;
    if (record.expiresAt !== null && this.clock.now() >= record.expiresAt) return `service token ${record.id} (${record.callsign}) expired at ${iso(record.expiresAt)}: ask the operator for a new one`;
    return undefined;
  }

  private view(record: TokenRecord): ServiceTokenView {
    const status = record.revokedAt !== null ? 'revoked' : record.expiresAt !== null && this.clock.now() >= record.expiresAt ? 'expired' : 'active';
    return {
      id: record.id,
      callsign: record.callsign,
      role: record.role,
      createdAt: iso(record.createdAt),
      createdBy: record.createdBy,
      expiresAt: record.expiresAt === null ? null : iso(record.expiresAt),
      revokedAt: record.revokedAt === null ? null : iso(record.revokedAt),
      status,
    };
  }

  /** Writes one after another, so the last change is the one on disk; the caller's reply waits for it. */
  private save(): Promise<void> {
    const content = JSON.stringify({ version: 1, sessionSecret: this.sessionSecret, tokens: [...this.records.values()] });
    this.writes = this.writes.catch(() => undefined).then(() => writeFileDurably(this.path, content, 0o600));
    return this.writes;
  }
}

const digest = (secret: string): string => createHash('sha256').update(secret).digest('hex');
const iso = (ms: number): string => new Date(ms).toISOString();
