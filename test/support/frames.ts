// Seeded generators of malformed and random JSON-RPC frames for the fuzz test, each paired with the
// reply the contract promises for it. The method table's own zod schemas are the oracle for params:
// params that fail them must be answered -32602 naming the parameter; params that pass them may
// succeed or fail with a project code, but never with -32603.
import { errorTable, isMethodName, methods, MAX_FRAME_BYTES, type MethodName } from '../../contracts/index.js';
import { seededRandom as mulberry32 } from '../../server/core/seeded-random.js';

export interface Random {
  next(): number;
  int(below: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: tiny and seedable, so a failing run can be replayed exactly. */
export function seededRandom(seed: number): Random {
  const next = mulberry32(seed);
  const int = (below: number) => Math.floor(next() * below);
  return { next, int, chance: (p) => next() < p, pick: (items) => items[int(items.length)]! };
}

export type JsonRpcId = string | number;

/** What the plane must answer a frame with. */
export type Expectation =
  /** A reply carrying this id: a result (if allowed) or an error with one of `codes` whose message contains every `mentions`. */
  | { reply: 'by-id'; id: JsonRpcId; codes: readonly number[]; resultAllowed: boolean; mentions: readonly string[] }
  /** The frame cannot be read as a request with an id: one error reply with id null and this code. */
  | { reply: 'null-id'; code: number }
  /** A notification: no reply at all. */
  | { reply: 'none' };

export interface Frame {
  kind: string;
  data: string | Buffer;
  binary: boolean;
  expect: Expectation;
}

export const CODE = { parse: -32700, invalidRequest: -32600, unknownMethod: -32601, invalidParams: -32602, internal: -32603, notJoined: -32001, forbidden: -32002, outsideRepository: -32008 } as const;

/** Codes a schema-valid call may fail with: the project's own, and -32602 for what only the handler can judge. */
const PROJECT_CODES: readonly number[] = Object.values(errorTable)
  .map((entry) => entry.code)
  .filter((code) => code <= -32000 && code >= -32099);
const ANY_DOMAIN_ERROR = [CODE.invalidParams, ...PROJECT_CODES];

/**
 * Deeper memo values than this are kept off joined connections: JSON.stringify in the event log and
 * structuredClone in compaction overflow the stack beyond ~3,500 levels and take the plane down
 * (see the "deep memo" tests in fuzz.test.ts). Elsewhere deep nesting goes to 100,000 levels.
 */
export const MEMO_DEPTH_ON_JOINED = 1000;

export interface FrameContext {
  connection: number;
  /** Whether the connection joined as an agent (worker) before fuzzing. */
  joined: boolean;
  /** A real git repository: the root for path-bearing methods. */
  repo: string;
}

const methodNames = Object.keys(methods) as MethodName[];
/** Stands in for deeply nested JSON, spliced into the frame text (JSON.stringify would overflow on it). */
const DEEP_MARK = '@@deep-nesting@@';

export class FrameFactory {
  private counter = 0;
  private readonly templates: Record<string, () => Record<string, unknown>>;

  constructor(
    private readonly random: Random,
    private readonly ctx: FrameContext,
  ) {
    this.templates = this.buildTemplates();
  }

  next(): Frame {
    for (;;) {
      const frame = this.generate();
      if (frame && Buffer.byteLength(frame.data) < MAX_FRAME_BYTES - 64) {
        if (!frame.binary && this.random.chance(0.05)) return { ...frame, kind: `${frame.kind}+binary`, data: Buffer.from(frame.data), binary: true };
        return frame;
      }
    }
  }

  private generate(): Frame | undefined {
    const roll = this.random.next();
    if (roll < 0.06) return this.notJson();
    if (roll < 0.09) return this.truncated();
    if (roll < 0.12) return this.randomBytes();
    if (roll < 0.2) return this.notARequest();
    if (roll < 0.36) return this.envelopeDefect();
    if (roll < 0.45) return this.unknownMethod();
    if (roll < 0.8) return this.mutatedParams();
    if (roll < 0.9) return this.badTerritory();
    if (roll < 0.97) return this.validCall();
    return this.notification();
  }

  // ---- frames that are not JSON: -32700 with id null -------------------------------------------

  private notJson(): Frame | undefined {
    const r = this.random;
    const junk = [
      '', ' ', '\n\t', 'NaN', 'undefined', 'Infinity', "{'jsonrpc':'2.0'}", '{"a":1,}', '[1,]', '{"jsonrpc":"2.0"}}', '// c\n{}', '\uFEFF{}',
      '01', '1.', '.5', '+1', '"unterminated', '{"a":"\u0001"}', '{"a" 1}', '{a:1}', 'nul', 'tru', '{"id":1 "method":"x"}',
    ];
    const text = r.chance(0.4) ? r.pick(junk) : this.randomString(r.int(r.chance(0.01) ? 50_000 : 200), '{}[]":,\\ 0123456789.eE+-truefalsn');
    return parses(text) ? undefined : { kind: 'not-json', data: text, binary: false, expect: { reply: 'null-id', code: CODE.parse } };
  }

  private truncated(): Frame | undefined {
    const whole = JSON.stringify({ jsonrpc: '2.0', id: this.nextId(), method: this.random.pick(methodNames), params: this.template(this.random.pick(methodNames)) });
    const text = whole.slice(0, this.random.int(whole.length));
    return parses(text) ? undefined : { kind: 'truncated-json', data: text, binary: false, expect: { reply: 'null-id', code: CODE.parse } };
  }

  private randomBytes(): Frame | undefined {
    const bytes = Buffer.alloc(this.random.int(this.random.chance(0.01) ? 100_000 : 512));
    for (let i = 0; i < bytes.length; i++) bytes[i] = this.random.int(256);
    return parses(bytes.toString('utf8')) ? undefined : { kind: 'random-bytes', data: bytes, binary: true, expect: { reply: 'null-id', code: CODE.parse } };
  }

  // ---- JSON that is not a request object: -32600 with id null ----------------------------------

  private notARequest(): Frame {
    const r = this.random;
    const request = () => ({ jsonrpc: '2.0', id: this.nextId(), method: 'fleet_roster', params: {} });
    const value = r.pick<() => unknown>([
      () => r.int(1e9) * (r.chance(0.5) ? -1 : 1) + r.pick([0, 0.5]),
      () => r.pick([0, -0, 1e308, -1e308, 5e-324]),
      () => this.randomString(r.int(50)),
      () => r.pick([null, true, false]),
      () => [],
      () => [request()],
      () => [request(), request()],
      () => Array.from({ length: r.int(20) }, () => r.pick([1, 'x', null, {}, []])),
    ])();
    const text = r.chance(0.05) ? `${'['.repeat(50_000)}${']'.repeat(50_000)}` : JSON.stringify(value);
    return { kind: Array.isArray(value) ? 'batch-array' : 'json-not-object', data: text, binary: false, expect: { reply: 'null-id', code: CODE.invalidRequest } };
  }

  // ---- objects with one broken envelope field --------------------------------------------------

  private envelopeDefect(): Frame {
    const r = this.random;
    const id = this.nextId();
    const frame: Record<string, unknown> = { jsonrpc: '2.0', id, method: r.chance(0.7) ? r.pick(methodNames) : 'fleet_nope', params: {} };
    const defect = r.pick(['missing-jsonrpc', 'wrong-jsonrpc', 'method-not-string', 'params-not-object', 'params-array', 'bad-id'] as const);
    let code: number = CODE.invalidRequest;
    let mention: string;
    let rawId: string | undefined;
    switch (defect) {
      case 'missing-jsonrpc':
        delete frame.jsonrpc;
        mention = 'jsonrpc';
        break;
      case 'wrong-jsonrpc':
        frame.jsonrpc = r.pick<unknown>(['1.0', '2', '2.00', '', ' 2.0', '2.0\n', null, 2, 2.5, true, [], {}, ['2.0'], '２.０']);
        mention = 'jsonrpc';
        break;
      case 'method-not-string':
        if (r.chance(0.2)) delete frame.method;
        else frame.method = r.pick<unknown>([1, 0, null, true, [], {}, ['fleet_roster'], { name: 'fleet_roster' }]);
        mention = 'method';
        break;
      case 'params-not-object':
        frame.params = r.pick<unknown>(['x', '', 1, 0, -1, null, true, false]);
        mention = 'params';
        break;
      case 'params-array':
        frame.params = r.pick<unknown>([[], [1, 2], [{}], ['src/**']]);
        code = CODE.invalidParams;
        mention = 'params';
        break;
      case 'bad-id':
        if (r.chance(0.3)) rawId = r.pick(['1e400', '-1e400']);
        else frame.id = r.pick<unknown>([{}, [], true, false, [1], { id: 1 }]);
        mention = 'id';
        break;
    }
    const form = defect === 'bad-id' ? 'bad-id' : r.chance(0.2) ? 'notification' : r.chance(0.1) ? 'null-id' : 'with-id';
    if (form === 'notification') delete frame.id;
    if (form === 'null-id') frame.id = null;
    let text = JSON.stringify(frame);
    if (rawId) text = text.replace(`"id":${JSON.stringify(id)}`, `"id":${rawId}`);
    const expect: Expectation = form === 'with-id' ? { reply: 'by-id', id, codes: [code], resultAllowed: false, mentions: [mention] } : { reply: 'null-id', code };
    return { kind: `envelope:${defect}`, data: text, binary: false, expect };
  }

  // ---- well-formed requests for methods that do not exist: -32601 ------------------------------

  private unknownMethod(): Frame {
    const r = this.random;
    const name = r.pick<() => string>([
      () => `fleet_${this.randomString(r.int(20) + 1, 'abcdefghijklmnopqrstuvwxyz_')}`,
      () => r.pick(['', ' ', 'fleet_roster ', ' fleet_roster', 'FLEET_ROSTER', 'fleet_Roster', 'fleet', 'fleet_', 'rpc.discover', '$/cancelRequest']),
      () => r.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__']),
      () => this.randomString(r.int(r.chance(0.02) ? 20_000 : 40)),
      () => `${r.pick(methodNames)}\u0000`,
    ])();
    if (isMethodName(name)) return this.unknownMethod();
    const id = this.nextId();
    const params = r.chance(0.2) ? undefined : r.chance(0.5) ? {} : this.template(r.pick(methodNames));
    const text = JSON.stringify({ jsonrpc: '2.0', id, method: name, ...(params && { params }) });
    const mentions = /^[\x20-\x7e]{1,40}$/.test(name) ? [`"${name}"`] : [];
    return { kind: 'unknown-method', data: text, binary: false, expect: { reply: 'by-id', id, codes: [CODE.unknownMethod], resultAllowed: false, mentions } };
  }

  // ---- known methods, params mutated (wrong types, extra keys, huge, deep, odd numbers) ---------

  private mutatedParams(): Frame | undefined {
    const r = this.random;
    const method = r.pick(methodNames);
    const params = r.chance(0.05) ? {} : this.template(method);
    let deep: string | undefined;
    for (let n = 1 + r.int(3); n > 0; n--) {
      const keys = [...new Set([...Object.keys(params), ...schemaKeys(method)])];
      const key = r.chance(0.15) ? this.extraKey() : r.pick(keys);
      // Huge strings and very deep nesting are rare: each costs the plane (and the pipe) hundreds of kilobytes.
      const mutation = r.chance(0.01) ? 'huge-string' : r.pick(['wrong-type', 'string-edge', 'number-edge', 'array-edge', 'deep', 'delete'] as const);
      if (mutation === 'delete') delete params[key];
      else if (mutation === 'deep') {
        const limit = key === 'value' && this.ctx.joined ? MEMO_DEPTH_ON_JOINED : r.chance(0.01) ? 100_000 : 200;
        const depth = 1 + r.int(limit);
        const open = r.chance(0.5) ? '[' : '{"a":';
        const close = open === '[' ? ']' : '}';
        deep = `${open.repeat(depth)}0${close.repeat(depth)}`;
        setKey(params, key, DEEP_MARK);
      } else setKey(params, key, this.mutant(mutation));
    }
    return this.call('mutated-params', method, params, deep);
  }

  private mutant(kind: 'wrong-type' | 'string-edge' | 'number-edge' | 'array-edge' | 'huge-string'): unknown {
    const r = this.random;
    switch (kind) {
      case 'wrong-type':
        return r.pick<unknown>([null, true, false, 0, -1, 1.5, '', 'x', [], ['x'], [1], {}, { a: 1 }, [[]]]);
      case 'string-edge':
        return r.pick<unknown>([
          '', ' ', 'a'.repeat(33), '1ABC', 'ATLAS!', 'ÅTLAS', '\u0000', 'a'.repeat(65), 'x'.repeat(501), 'coordination/', 'coordination/x', 'notes/../x',
          '../x', '!x', '+(a)', '/etc/passwd', 'exclusive', 'shared', 'pause', 'acquire', 'worker', 'operator', 'rte', 'edge', this.randomString(20),
        ]);
      case 'number-edge':
        return r.pick<unknown>([-1, 0, -0, 0.5, -0.5, 1, 2, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, 1.5e-300, 604_801, 3601, 86_401, -2147483648]);
      case 'array-edge':
        return r.pick<unknown>([[], ['x'.repeat(2000)], Array(65).fill('a/**'), Array(1001).fill('a'), [1, 2], [null], [''], ['ok', 5], ['src/**', '../x']]);
      case 'huge-string':
        return (r.chance(0.5) ? '/' : '') + 'x'.repeat(16_000 + r.int(r.chance(0.2) ? 200_000 : 40_000));
    }
  }

  // ---- schema-valid calls whose paths, globs or root the territory must refuse ------------------

  private badTerritory(): Frame | undefined {
    const r = this.random;
    const { repo } = this.ctx;
    const defect = r.pick(['pattern', 'path', 'root'] as const);
    const badPatterns = [
      '../x', 'a/../../x', '!x', '!(a)', '+(a)', '@(a|b)', '*(a)', '?(a)', '#x', '/etc/passwd', `${repo}/../elsewhere`, '{..,a}/x', '{/etc,a}', 'a\\b',
      'x\u0000y', '[[:alpha:]]', `${'**/'.repeat(40)}x`, '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}', '   ', '.', './', '{1..1000}', repo,
    ];
    const badPaths = ['../x', '/etc/passwd', `${repo}/../elsewhere/a.ts`, 'a/../../b', 'x\u0000y', 'a\\b', '.', '   ', repo, 'C:/x'];
    if (defect === 'path') {
      const bad = r.pick(badPaths);
      return this.call('bad-territory:path', 'fleet_check_path', { paths: shuffle(r, ['src/a.ts', bad]), root: repo }, undefined, { codes: [CODE.invalidParams], mention: bad });
    }
    if (defect === 'pattern') {
      const bad = r.pick(badPatterns);
      const method = r.pick(['fleet_claim_path', 'fleet_release_path'] as const);
      return this.call(`bad-territory:${method}`, method, { patterns: shuffle(r, ['src/**', bad]), root: repo }, undefined, { codes: [CODE.invalidParams], mention: bad });
    }
    const method = r.pick(['fleet_claim_path', 'fleet_release_path', 'fleet_check_path', 'fleet_claims'] as const);
    const body: Record<string, unknown> = method === 'fleet_check_path' ? { paths: ['src/a.ts'] } : method === 'fleet_claims' ? {} : { patterns: ['src/**'] };
    const root = r.pick(method === 'fleet_claims' ? ['relative', 'outside'] : ['missing', 'relative', 'outside']);
    if (root === 'missing') return this.call('bad-territory:no-root', method, body, undefined, { codes: [CODE.invalidParams], mention: 'root' });
    if (root === 'relative') {
      const rel = r.pick(['repo', '.', 'src', '~/repo', 'file:///tmp']);
      return this.call('bad-territory:relative-root', method, { ...body, root: rel }, undefined, { codes: [CODE.invalidParams], mention: rel });
    }
    const outside = r.pick(['/nonexistent-fleet-fuzz/x', '/', '/proc/self', `${repo}-not-a-repo`]);
    return this.call('bad-territory:outside-root', method, { ...body, root: outside }, undefined, { codes: [CODE.outsideRepository], mention: outside });
  }

  // ---- plausible calls, and notifications ------------------------------------------------------

  private validCall(): Frame | undefined {
    const method = this.random.pick(methodNames);
    return this.call('valid-call', method, this.template(method));
  }

  private notification(): Frame | undefined {
    const r = this.random;
    const method = r.chance(0.3) ? 'fleet_nope' : r.pick(methodNames);
    const params = isMethodName(method) ? this.template(method) : {};
    if (r.chance(0.5)) setKey(params, this.extraKey(), 1);
    if (isMethodName(method) && methods[method].params.safeParse(params).success && !safeWhenValid(method, params, this.ctx)) return undefined;
    return { kind: 'notification', data: JSON.stringify({ jsonrpc: '2.0', method, params }), binary: false, expect: { reply: 'none' } };
  }

  /**
   * Builds a request and decides what it must get, from the method table: params failing its
   * schema get -32602 naming the parameter; an agent-only method on an unjoined connection gets
   * NOT_JOINED; a territory defect gets its code; anything else may succeed or fail in the domain.
   */
  private call(kind: string, method: MethodName, params: Record<string, unknown>, deep?: string, territory?: { codes: number[]; mention: string }): Frame | undefined {
    const id = this.nextId();
    let text = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    if (deep) text = text.replaceAll(JSON.stringify(DEEP_MARK), deep);
    const sent = (JSON.parse(text) as { params: unknown }).params;
    const spec = methods[method];
    const parsed = spec.params.safeParse(sent);
    const byId = (codes: readonly number[], resultAllowed: boolean, mentions: string[]): Frame => ({
      kind,
      data: text,
      binary: false,
      expect: { reply: 'by-id', id, codes, resultAllowed, mentions },
    });
    if (!parsed.success) return byId([CODE.invalidParams], false, [`${method}:`, ...issueMention(parsed.error.issues[0]!)]);
    // Authorization comes before the handler, so these are safe to send even for risky methods.
    if (spec.access === 'agent' && !this.ctx.joined) return byId([CODE.notJoined], false, [method]);
    if ((spec.access === 'operator' || spec.access === 'rte_or_operator') && this.ctx.joined) return byId([CODE.forbidden], false, [method]);
    if (!safeWhenValid(method, sent as Record<string, unknown>, this.ctx)) return undefined;
    if (territory) return byId(territory.codes, false, printable(territory.mention) ? [territory.mention] : []);
    return byId(ANY_DOMAIN_ERROR, true, []);
  }

  private template(method: MethodName): Record<string, unknown> {
    return this.templates[method]?.() ?? {};
  }

  /** Valid params of the methods it knows, varied a little; `{}` for the others. */
  private buildTemplates(): Record<string, () => Record<string, unknown>> {
    const r = this.random;
    const { repo, connection } = this.ctx;
    const maybe = (p: number, key: string, value: () => unknown) => (r.chance(p) ? { [key]: value() } : {});
    const patterns = () => Array.from({ length: 1 + r.int(3) }, () => r.pick(['src/**', 'README.md', 'docs/*.md', 'src/a.ts', 'lib/{a,b}.ts', `fuzz/${connection}/**`, '.github/**', 'src/']));
    const ids = () => Array.from({ length: 1 + r.int(2) }, () => `cl_${this.randomString(8, 'abcdefghijklmnop0123456789')}`);
    return {
      fleet_agent_join: () => ({ callsign: r.pick(['ATLAS', 'BOREAS', `F${connection}x${r.int(1000)}`]), runtime: 'fuzz', ...maybe(0.3, 'role', () => r.pick(['worker', 'builder', 'verifier'])), ...maybe(0.2, 'tier', () => r.pick(['local', 'edge'])) }),
      fleet_agent_heartbeat: () => ({ ...maybe(0.5, 'status', () => r.pick(['active', 'idle', 'blocked'])), ...maybe(0.5, 'note', () => this.randomString(30)), ...maybe(0.3, 'task', () => 'fuzzing') }),
      fleet_agent_leave: () => ({}),
      fleet_roster: () => ({ ...maybe(0.5, 'includeGone', () => r.chance(0.5)) }),
      fleet_claim_path: () => ({ patterns: patterns(), root: repo, ...maybe(0.3, 'mode', () => r.pick(['exclusive', 'shared'])), ...maybe(0.2, 'ttlSeconds', () => 1 + r.int(600)), ...maybe(0.2, 'reason', () => 'fuzz'), ...maybe(0.2, 'requestId', () => `rq${r.int(50)}`) }),
      fleet_claim_renew: () => ({ ...maybe(0.5, 'claimIds', ids), ...maybe(0.5, 'ttlSeconds', () => 1 + r.int(600)) }),
      fleet_release_path: () => (r.chance(0.5) ? { patterns: patterns(), root: repo } : { claimIds: ids() }),
      fleet_check_path: () => ({ paths: Array.from({ length: 1 + r.int(4) }, () => r.pick(['src/a.ts', 'README.md', 'docs/x.md', `${repo}/src/a.ts`, '.github/ci.yml', 'lib/a.ts'])), root: repo }),
      fleet_claim_transfer: () => ({ claimIds: ids(), to: r.pick(['FUZZ0', 'FUZZ1', 'NOBODY']) }),
      fleet_claim_force_release: () => ({ claimIds: ids(), reason: 'fuzz' }),
      fleet_claims: () => ({ ...maybe(0.5, 'root', () => repo), ...maybe(0.3, 'holder', () => r.pick(['FUZZ0', 'NOBODY'])) }),
      fleet_rte_lease: () => ({ action: r.pick(['acquire', 'renew', 'release']), ...maybe(0.5, 'name', () => r.pick(['coordination/rte-lock', 'coordination/rte-lock/fuzz'])), ...maybe(0.3, 'ttlSeconds', () => 1 + r.int(600)) }),
      fleet_agent_memo_write: () => ({ key: r.pick(['fuzz/a', 'fuzz/b', 'notes/x']), value: r.pick<unknown>([1, 'x', null, { a: [1, 2] }, [true]]), ...maybe(0.3, 'expectedVersion', () => r.int(3)) }),
      fleet_memo_read: () => (r.chance(0.5) ? { key: r.pick(['fuzz/a', 'nope']) } : { prefix: 'fuzz/' }),
      fleet_control_get: () => ({}),
      fleet_control_set: () => ({ state: r.pick(['run', 'drain', 'pause', 'stop']), ...maybe(0.5, 'reason', () => 'fuzz') }),
      fleet_plane_hello: () => ({ protocolVersion: r.chance(0.8) ? 1 : r.int(5), ...maybe(0.5, 'client', () => 'fuzz') }),
      fleet_status: () => ({ ...maybe(0.3, 'includeGone', () => true) }),
      fleet_events_subscribe: () => ({ ...maybe(0.5, 'fromSeq', () => r.int(10)) }),
      fleet_plane_shutdown: () => ({}),
    };
  }

  /** Ids of every JSON type the contract allows, unique per connection. */
  private nextId(): JsonRpcId {
    const n = ++this.counter;
    return this.random.pick<() => JsonRpcId>([() => n, () => -n, () => n + 0.25, () => `c${this.ctx.connection}-${n}`, () => `ü"\\\n${n}`])();
  }

  private extraKey(): string {
    return this.random.pick(['extra', 'x', '__proto__', 'constructor', 'prototype', 'toString', 'Patterns', 'root ', 'callSign', '', 'jsonrpc', this.randomString(12)]);
  }

  /** Random text of whole code points (no lone surrogates, so it survives UTF-8 unchanged). */
  private randomString(length: number, alphabet?: string): string {
    const r = this.random;
    let out = '';
    for (let i = 0; i < length; i++) {
      if (alphabet && r.chance(0.9)) out += alphabet[r.int(alphabet.length)];
      else {
        const cp = r.pick([() => 0x20 + r.int(0x5f), () => r.int(0x20), () => 0xa0 + r.int(0xd700 - 0xa0), () => 0xe000 + r.int(0x2000), () => 0x1f300 + r.int(0x300)])();
        out += String.fromCodePoint(cp);
      }
    }
    return out;
  }
}

/**
 * Methods the fuzzer may call with valid params, and when. Everything else (shutting the plane down,
 * moving the fleet switch, subscribing to events, configuring or running builds, methods added to
 * the table later) is only ever sent with params its schema refuses. Joined connections never leave
 * or queue a claim for up to an hour, and never store a memo deeper than MEMO_DEPTH_ON_JOINED.
 */
const SAFE_WHEN_VALID: Record<string, (params: Record<string, unknown>, ctx: FrameContext) => boolean> = {
  fleet_agent_join: (_, ctx) => ctx.joined,
  fleet_agent_leave: (_, ctx) => !ctx.joined,
  fleet_plane_shutdown: (_, ctx) => ctx.joined,
  fleet_claim_path: (params, ctx) => !(ctx.joined && typeof params.waitSeconds === 'number' && params.waitSeconds > 0),
  fleet_agent_memo_write: (params, ctx) => !(ctx.joined && depthOf(params.value) > MEMO_DEPTH_ON_JOINED),
  ...Object.fromEntries(
    [
      'fleet_agent_heartbeat', 'fleet_roster', 'fleet_claims', 'fleet_check_path', 'fleet_control_get', 'fleet_plane_hello', 'fleet_status', 'fleet_memo_read',
      'fleet_claim_renew', 'fleet_release_path', 'fleet_claim_transfer', 'fleet_claim_force_release', 'fleet_rte_lease', 'fleet_inbox', 'fleet_work_list',
    ].map((name) => [name, () => true]),
  ),
};

function safeWhenValid(method: MethodName, params: Record<string, unknown>, ctx: FrameContext): boolean {
  return SAFE_WHEN_VALID[method]?.(params, ctx) ?? false;
}

function depthOf(value: unknown): number {
  let depth = 0;
  for (let level: unknown[] = [value]; level.length > 0; depth++) {
    level = level.flatMap((v) => (v !== null && typeof v === 'object' ? Object.values(v as object) : []));
  }
  return depth;
}

function issueMention(issue: { path: readonly PropertyKey[]; code: string; keys?: readonly string[] }): string[] {
  if (issue.path.length > 0) return [issue.path.map(String).join('.')];
  const key = issue.code === 'unrecognized_keys' ? issue.keys?.[0] : undefined;
  return key !== undefined && /^[A-Za-z_][\w-]{0,40}$/.test(key) ? [key] : [];
}

function schemaKeys(method: MethodName): string[] {
  const schema = methods[method].params as unknown as { shape?: Record<string, unknown> };
  return Object.keys(schema.shape ?? {});
}

/** Sets even "__proto__" as an own, serializable key. */
function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function shuffle<T>(random: Random, items: T[]): T[] {
  return random.chance(0.5) ? items.reverse() : items;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Mentions are checked only for short printable text that is not blank (a blank pattern is reported as "empty"). */
const printable = (text: string) => /^[\x20-\x7e]{1,200}$/.test(text) && text.trim() !== '';
