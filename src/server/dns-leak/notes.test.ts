import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedis, uniquePrefix } from '../../../tests/support/redis.ts';
import { MAX_RESOLVERS, MAX_TOKENS_PER_CLIENT, MemoryNotes, TOKEN_TTL_MS, type NoteStore } from './notes.ts';
import { notesFromHash, RedisNotes } from './notes-shared.ts';
import type { ResolverNote } from './server.ts';

const TOKEN = 'ab'.repeat(16);
const note = (more: Partial<ResolverNote> = {}): ResolverNote =>
  ({ token: TOKEN, name: 1, ecs: null, dnssecOk: false, resolver: '192.0.2.53', transport: 'udp', at: 1_000, ...more });
// Per case: without Redis its cases skip locally and fail under CI; the memory cases run either way.
const redis = testRedis();

/** Each store the notes can be kept in, made fresh for one test, with few tokens to make the bound cheap to reach. */
const STORES: Array<[string, (maxTokens: number, perClient: number) => NoteStore, boolean]> = [
  ['memory', (maxTokens, perClient) => new MemoryNotes(Date.now, maxTokens, perClient), true],
  ['Redis', (maxTokens, perClient) => new RedisNotes(redis.get(), uniquePrefix('dns-notes'), maxTokens, perClient, 'a secret of the tests'), !redis.skip],
];

describe.each(STORES)('notes in %s', (_, make, available) => {
  const opened: NoteStore[] = [];
  const store = (maxTokens = 5, perClient = MAX_TOKENS_PER_CLIENT) => { const s = make(maxTokens, perClient); opened.push(s); return s; };
  /** Which of `tokens` the store still holds. */
  const held = (s: NoteStore, tokens: string[]) => Promise.all(tokens.map((t) => s.read(t).then(Boolean)));
  /** Tokens in the order they are issued, also as strings (Redis orders those of one millisecond so). */
  const tokensOf = (n: number, from = 1) => Array.from({ length: n }, (_, i) => String(from + i).padStart(2, '0').repeat(16));
  afterAll(() => Promise.all(opened.map((s) => s.close())));

  it.runIf(available)('merges the queries of one resolver: transports, Client Subnet, DO bit, count, first time', async () => {
    const s = store();
    await s.issue(TOKEN, 6);
    s.note(note());
    s.note(note({ name: 2, transport: 'tcp', ecs: '198.51.100.0/24', at: 2_000 }));
    s.note(note({ name: 2, dnssecOk: true, at: 3_000 }));
    s.note(note({ resolver: '2001:db8::53', name: 6, at: 4_000 }));
    expect(await s.read(TOKEN)).toEqual({
      names: 6,
      seen: [1, 2, 6],
      resolvers: [
        { ip: '192.0.2.53', transports: ['udp', 'tcp'], ecs: '198.51.100.0/24', dnssecOk: true, queries: 3, firstSeen: 1_000 },
        { ip: '2001:db8::53', transports: ['udp'], ecs: null, dnssecOk: false, queries: 1, firstSeen: 4_000 },
      ],
    });
  });

  it.runIf(available)('drops notes for a token never issued, and for a name past the ones issued (the 6th kept, the 7th not)', async () => {
    const s = store();
    s.note(note());
    await s.issue(TOKEN, 6);
    s.note(note({ name: 7 }));
    s.note(note({ name: 6, resolver: '192.0.2.6' }));
    expect(await s.read(TOKEN)).toMatchObject({ seen: [6], resolvers: [{ ip: '192.0.2.6' }] });
    expect(await s.read('cd'.repeat(16))).toBeUndefined();
  });

  it.runIf(available)(`keeps ${MAX_RESOLVERS} resolvers per token, and still counts the ones it keeps`, async () => {
    const s = store();
    await s.issue(TOKEN, 36);
    for (let i = 1; i <= MAX_RESOLVERS + 1; i++) s.note(note({ resolver: `192.0.2.${i}`, at: i }));
    s.note(note({ resolver: '192.0.2.1', name: 2 }));
    const read = (await s.read(TOKEN))!;
    expect(read.resolvers.map((r) => r.ip)).toEqual(Array.from({ length: MAX_RESOLVERS }, (_, i) => `192.0.2.${i + 1}`));
    expect(read.resolvers[0]!.queries).toBe(2);
  });

  it.runIf(available)('keeps a client\'s budget: past it, the client\'s own oldest token goes, never another client\'s', async () => {
    const s = store(10, 2);
    const [victim, a1, a2, a3, n1, n2, n3] = tokensOf(7);
    await s.issue(victim!, 6, '198.51.100.7');
    for (const t of [a1, a2, a3]) await s.issue(t!, 6, '203.0.113.9');
    // Without a budget (a client the rate limit exempts): only the store's bound.
    for (const t of [n1, n2, n3]) await s.issue(t!, 6);
    expect(await held(s, [victim!, a1!, a2!, a3!, n1!, n2!, n3!])).toEqual([true, false, true, true, true, true, true]);
  });

  it.runIf(available)('counts in a client\'s budget its live tokens only: one the store\'s bound forgot frees its place', async () => {
    const s = store(3, 2);
    const [a1, b1, c1, a2, a3, a4] = tokensOf(6);
    for (const [t, client] of [[a1, 'a'], [b1, 'b'], [c1, 'c'], [a2, 'a']] as const) await s.issue(t!, 6, client);
    // Past 3: a1 went, the oldest of all. a then holds a2 only: a3 costs it nothing of its own (b1 goes for the bound), a4 its a2.
    await s.issue(a3!, 6, 'a');
    await s.issue(a4!, 6, 'a');
    expect(await held(s, [a1!, b1!, c1!, a2!, a3!, a4!])).toEqual([false, false, true, false, true, true]);
  });

  it.runIf(available)('holds at most its number of tokens, the oldest forgotten first', async () => {
    const s = store(3);
    const tokens = ['01', '02', '03', '04'].map((t) => t.repeat(16));
    for (const t of tokens) await s.issue(t, 6);
    expect(await Promise.all(tokens.map((t) => s.read(t).then(Boolean)))).toEqual([false, true, true, true]);
  });
});

describe('expiry', () => {
  it('keeps a token until 2 minutes after its issue, then forgets it and its notes', async () => {
    let now = 0;
    const s = new MemoryNotes(() => now);
    await s.issue(TOKEN, 6);
    s.note(note());
    now = TOKEN_TTL_MS - 1;
    expect((await s.read(TOKEN))?.resolvers).toHaveLength(1);
    now = TOKEN_TTL_MS;
    expect(await s.read(TOKEN)).toBeUndefined();
    s.note(note());
    expect(s.size).toBe(1);
    s.sweep();
    expect(s.size).toBe(0);
    await s.close();
  });

  it.skipIf(redis.skip)('gives a token\'s key in Redis the same 2 minutes, and no note extends them', async () => {
    const prefix = uniquePrefix('dns-notes');
    const s = new RedisNotes(redis.get(), prefix);
    const client = new Redis(redis.get());
    try {
      await s.issue(TOKEN, 6, '198.51.100.7');
      s.note(note());
      await s.read(TOKEN); // after the note: one connection answers in order
      const ttl = await client.pttl(`${prefix}:dns-leak:${TOKEN}`);
      expect(ttl).toBeGreaterThan(TOKEN_TTL_MS - 5_000);
      expect(ttl).toBeLessThanOrEqual(TOKEN_TTL_MS);
      // What Redis holds for it: the resolver's address, for those 2 minutes only (/trust says so).
      expect(Object.keys(await client.hgetall(`${prefix}:dns-leak:${TOKEN}`))).toContain('f|192.0.2.53');
      // The client's budget: a set of its own, as long-lived, named by a keyed hash, not the client's address.
      const keys = await client.keys(`${prefix}:*`);
      const budget = keys.find((k) => k.startsWith(`${prefix}:dns-leak:c:`))!;
      expect(await client.pttl(budget)).toBeLessThanOrEqual(TOKEN_TTL_MS);
      expect(await client.pttl(budget)).toBeGreaterThan(TOKEN_TTL_MS - 5_000);
      const everything = JSON.stringify([keys, await client.hgetall(`${prefix}:dns-leak:${TOKEN}`), await client.zrange(budget, 0, -1)]);
      expect(everything).not.toContain('198.51.100.7');
    } finally {
      client.disconnect();
      await s.close();
    }
  });
});

describe('notesFromHash', () => {
  it('reads nothing from a hash without its names field (an expired or foreign key)', () => {
    expect(notesFromHash({})).toBeUndefined();
    expect(notesFromHash({ 'f|192.0.2.1': '5' })).toBeUndefined();
  });

  it('lists UDP before TCP, resolvers by first time, and ignores fields of resolvers it has no first time for', () => {
    expect(notesFromHash({ names: '6', 'f|b': '9', 'f|a': '3', 't|a|tcp': '1', 't|a|udp': '1', 'q|a': '2', 'q|c': '4', 'n|2': '1', 'n|10': '1', 'rc': '2' })).toEqual({
      names: 6,
      seen: [2, 10],
      resolvers: [
        { ip: 'a', transports: ['udp', 'tcp'], ecs: null, dnssecOk: false, queries: 2, firstSeen: 3 },
        { ip: 'b', transports: [], ecs: null, dnssecOk: false, queries: 0, firstSeen: 9 },
      ],
    });
  });
});
