/**
 * The DNS leak notes shared beyond one process: a resolver's query and the page's poll for
 * its token may reach different processes. With several workers (WEB_CONCURRENCY > 1) the
 * cluster primary keeps them (a MemoryNotes of notes.ts, asked over the workers' IPC
 * channel); with REDIS_URL, Redis keeps them for every process on every machine: one hash
 * per token that expires TOKEN_TTL_MS after its issue, at most MAX_RESOLVERS resolvers in
 * it, at most MAX_TOKENS tokens (a sorted set by expiry names them, the oldest dropped
 * first), at most MAX_TOKENS_PER_CLIENT per client (a sorted set per client, named by a
 * keyed hash of its key as the rate limit's are: rate-limit/shared-stores.ts; the client's
 * own oldest dropped first). Redis then holds the resolvers' addresses for those two
 * minutes (/trust says so), and no visitor's.
 * A store that does not answer makes the test say so (503), never the process fail.
 */
import cluster from 'node:cluster';
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { Redis } from 'ioredis';
import { hashKey, REDIS_COMMAND_TIMEOUT_MS } from '../rate-limit/shared-stores.ts';
import { oneLine } from '../utils/log.ts';
import { MAX_RESOLVERS, MAX_TOKENS, MAX_TOKENS_PER_CLIENT, MemoryNotes, TOKEN_TTL_MS, type NoteStore, type SeenResolver, type TokenNotes } from './notes.ts';
import type { ResolverNote } from './server.ts';

/** The IPC channel's name, apart from rate-limiter-flexible's. */
const CHANNEL = 'whatismyip:dns-leak';
/** How long a worker waits for the primary, or a request for Redis. */
const TIMEOUT_MS = 500;

interface Ask { channel: typeof CHANNEL; id?: number; op: 'issue' | 'note' | 'read'; token?: string; names?: number; client?: string; note?: ResolverNote }
interface Reply { channel: typeof CHANNEL; id: number; result?: TokenNotes | null; error?: string }

/** In a worker: the primary keeps the notes. */
export class ClusterNotes implements NoteStore {
  #next = 0;
  readonly #pending = new Map<number, { resolve: (value: TokenNotes | null) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  readonly #onMessage = (message: Reply): void => {
    if (message?.channel !== CHANNEL) return;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.error) pending.reject(new Error(message.error));
    else pending.resolve(message.result ?? null);
  };

  constructor() {
    process.on('message', this.#onMessage);
  }

  #ask(ask: Omit<Ask, 'channel' | 'id'>): Promise<TokenNotes | null> {
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`the cluster primary did not answer in ${TIMEOUT_MS} ms`));
      }, TIMEOUT_MS);
      this.#pending.set(id, { resolve, reject, timer });
      process.send!({ channel: CHANNEL, id, ...ask } satisfies Ask);
    });
  }

  issue(token: string, names: number, client?: string): Promise<void> {
    return this.#ask({ op: 'issue', token, names, client }).then(() => undefined);
  }

  note(note: ResolverNote): void {
    process.send?.({ channel: CHANNEL, op: 'note', note } satisfies Ask);
  }

  read(token: string): Promise<TokenNotes | undefined> {
    return this.#ask({ op: 'read', token }).then((notes) => notes ?? undefined);
  }

  state(): string {
    return 'in the cluster primary (shared by this machine\'s workers)';
  }

  close(): Promise<void> {
    process.off('message', this.#onMessage);
    return Promise.resolve();
  }
}

/** In the primary of several workers: keeps their notes in one MemoryNotes and answers them. */
export function serveClusterNotes(): MemoryNotes {
  const store = new MemoryNotes();
  cluster.on('message', (worker, message: Ask) => {
    if (message?.channel !== CHANNEL) return;
    if (message.op === 'note' && message.note) return store.note(message.note);
    if (message.id === undefined || typeof message.token !== 'string') return;
    const reply = (result: TokenNotes | null): void => void worker.send({ channel: CHANNEL, id: message.id!, result } satisfies Reply);
    if (message.op === 'issue') void store.issue(message.token, Number(message.names), typeof message.client === 'string' ? message.client : undefined).then(() => reply(null));
    else reply(store.readNow(message.token) ?? null);
  });
  return store;
}

/**
 * Issues a token: drops the expired from the set of tokens and from the client's; past the
 * client's budget its own oldest, past MAX_TOKENS the oldest of all (each with its hash, and
 * its place in its client's set, named in the hash's `c`); then opens the token's hash with
 * its expiry. Tokens that expire in the same millisecond go in their order as strings.
 * KEYS: the set, the token's hash, the client's set. ARGV: now, expiry (ms), names,
 * MAX_TOKENS, hash prefix, token, the client's hashed key ('' without a budget), its budget.
 */
const ISSUE = `
local prefix = ARGV[5]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if ARGV[7] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
  while redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[8]) do
    local own = redis.call('ZPOPMIN', KEYS[3])[1]
    redis.call('ZREM', KEYS[1], own)
    redis.call('DEL', prefix .. own)
  end
end
while redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) do
  local oldest = redis.call('ZPOPMIN', KEYS[1])[1]
  local owner = redis.call('HGET', prefix .. oldest, 'c')
  if owner then redis.call('ZREM', prefix .. 'c:' .. owner, oldest) end
  redis.call('DEL', prefix .. oldest)
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[6])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], 'names', ARGV[3])
if ARGV[7] ~= '' then
  redis.call('HSET', KEYS[2], 'c', ARGV[7])
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[6])
  redis.call('PEXPIREAT', KEYS[3], ARGV[2])
end
redis.call('PEXPIREAT', KEYS[2], ARGV[2])
return 1
`;

/**
 * Notes one query in a token's hash, if the token lives and the name was issued; a new
 * resolver only while the token has fewer than MAX_RESOLVERS. Fields per resolver ip:
 * `f|ip` first seen, `q|ip` queries, `t|ip|udp`, `t|ip|tcp`, `e|ip` Client Subnet, `d|ip` DO bit;
 * `n|i` for each name seen, `rc` the resolver count.
 * KEYS: the token's hash. ARGV: ip, time, transport, ecs or '', DO ('1' or '0'), name, MAX_RESOLVERS.
 */
const NOTE = `
local names = redis.call('HGET', KEYS[1], 'names')
if not names or tonumber(ARGV[6]) > tonumber(names) then return 0 end
local ip = ARGV[1]
if redis.call('HEXISTS', KEYS[1], 'f|' .. ip) == 0 then
  if tonumber(redis.call('HGET', KEYS[1], 'rc') or '0') >= tonumber(ARGV[7]) then return 0 end
  redis.call('HINCRBY', KEYS[1], 'rc', 1)
  redis.call('HSET', KEYS[1], 'f|' .. ip, ARGV[2])
end
redis.call('HINCRBY', KEYS[1], 'q|' .. ip, 1)
redis.call('HSET', KEYS[1], 't|' .. ip .. '|' .. ARGV[3], 1, 'n|' .. ARGV[6], 1)
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'e|' .. ip, ARGV[4]) end
if ARGV[5] == '1' then redis.call('HSET', KEYS[1], 'd|' .. ip, 1) end
return 1
`;

/** A token's hash as TokenNotes. */
export function notesFromHash(hash: Record<string, string>): TokenNotes | undefined {
  if (hash.names === undefined) return undefined;
  const resolvers = new Map<string, SeenResolver>();
  const seen: number[] = [];
  for (const [field, value] of Object.entries(hash)) {
    const [kind, ip] = field.split('|');
    if (kind === 'n') seen.push(Number(ip));
    if (kind === 'f' && ip) resolvers.set(ip, { ip, transports: [], ecs: null, dnssecOk: false, queries: 0, firstSeen: Number(value) });
  }
  for (const [field, value] of Object.entries(hash)) {
    const [kind, ip, transport] = field.split('|');
    const resolver = resolvers.get(ip ?? '');
    if (!resolver) continue;
    if (kind === 'q') resolver.queries = Number(value);
    if (kind === 't' && (transport === 'udp' || transport === 'tcp')) resolver.transports.push(transport);
    if (kind === 'e') resolver.ecs = value;
    if (kind === 'd') resolver.dnssecOk = true;
  }
  for (const r of resolvers.values()) r.transports.sort((a, b) => (a === 'udp' ? -1 : b === 'udp' ? 1 : 0));
  return { names: Number(hash.names), seen: seen.sort((a, b) => a - b), resolvers: [...resolvers.values()].sort((a, b) => a.firstSeen - b.firstSeen) };
}

/** In Redis (REDIS_URL), for every process on every machine that points at it. */
export class RedisNotes implements NoteStore {
  readonly #client: Redis;
  readonly #prefix: string;
  readonly #host: string;
  readonly #maxTokens: number;
  readonly #perClient: number;
  readonly #secret: KeyObject;
  #failing: string | undefined;

  /**
   * `maxTokens`, `perClient`: MAX_TOKENS and MAX_TOKENS_PER_CLIENT unless a test asks for
   * fewer; `secret`: what client keys are hashed with (RATE_LIMIT_SECRET: the same on every
   * machine that is to share budgets; unset, one drawn for this process).
   */
  constructor(url: string, keyPrefix: string, maxTokens = MAX_TOKENS, perClient = MAX_TOKENS_PER_CLIENT, secret?: string) {
    this.#maxTokens = maxTokens;
    this.#perClient = perClient;
    this.#secret = createSecretKey(secret ? Buffer.from(secret, 'utf8') : randomBytes(32));
    // As the rate limit's client: no offline queue, a command timeout, errors told once.
    this.#client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
    this.#client.on('error', () => {});
    this.#prefix = `${keyPrefix}:dns-leak:`;
    this.#host = new URL(url).host;
  }

  #failed(error: unknown): never {
    if (this.#failing === undefined) {
      this.#failing = `since ${new Date().toISOString()}: ${oneLine(error)}`;
      console.error(`dns leak notes: Redis does not answer (${oneLine(error)}); the test is unavailable until it does`);
    }
    throw error;
  }

  #answered<T>(value: T): T {
    if (this.#failing !== undefined) {
      this.#failing = undefined;
      console.error('dns leak notes: Redis answers again');
    }
    return value;
  }

  /**
   * Resolves once the client is connected, or after TIMEOUT_MS: without an offline queue a
   * command sent while it connects would fail, and the first test after a start with it.
   */
  #connected(): Promise<void> {
    if (this.#client.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => { clearTimeout(timer); this.#client.off('ready', done); resolve(); };
      const timer = setTimeout(done, TIMEOUT_MS);
      this.#client.once('ready', done);
    });
  }

  async issue(token: string, names: number, client?: string): Promise<void> {
    await this.#connected();
    const now = Date.now();
    const owner = client === undefined ? '' : hashKey(this.#secret, client);
    await this.#client.eval(ISSUE, 3, `${this.#prefix}tokens`, this.#prefix + token, `${this.#prefix}c:${owner}`, now, now + TOKEN_TTL_MS, names, this.#maxTokens, this.#prefix, token, owner, this.#perClient)
      .then((v) => this.#answered(v), (error: unknown) => this.#failed(error));
  }

  note(note: ResolverNote): void {
    const send = () => this.#client.eval(NOTE, 1, this.#prefix + note.token, note.resolver, note.at, note.transport, note.ecs ?? '', note.dnssecOk ? '1' : '0', note.name, MAX_RESOLVERS);
    // Connected: sent at once, so that a read after it is answered after it.
    const sent = this.#client.status === 'ready' ? send() : this.#connected().then(send);
    sent.then((v) => this.#answered(v), (error: unknown) => { try { this.#failed(error); } catch { /* logged once; the note is lost */ } });
  }

  async read(token: string): Promise<TokenNotes | undefined> {
    await this.#connected();
    return this.#client.hgetall(this.#prefix + token).then((hash) => notesFromHash(this.#answered(hash)), (error: unknown) => this.#failed(error));
  }

  state(): string {
    if (this.#failing !== undefined) return `in Redis (${this.#host}), does not answer (${this.#failing})`;
    return this.#client.status === 'ready' ? `in Redis (${this.#host}), ok` : `in Redis (${this.#host}), not connected`;
  }

  async close(): Promise<void> {
    this.#client.disconnect();
  }
}
