/**
 * What the DNS responder noted per token, for GET /api/dns-leak/{token}: which resolvers
 * asked for the token's names, over which transports, with which Client Subnet and DO bit,
 * how often and from when. In memory only (here; or in the cluster primary's or Redis,
 * notes-shared.ts), for TOKEN_TTL_MS from the token's issue, and bounded: MAX_TOKENS tokens
 * (the oldest forgotten first) and MAX_RESOLVERS resolvers per token (later ones ignored).
 * Each client (an IPv4 address or an IPv6 /64) holds at most MAX_TOKENS_PER_CLIENT live
 * tokens: one past it forgets its own oldest, never another's, so that filling the store
 * takes MAX_TOKENS / MAX_TOKENS_PER_CLIENT clients (2,000), not a few dozen scripts. Clients
 * the rate limit exempts (private and loopback: our own proxies) have no such budget.
 * A note for a token not issued, or expired, is dropped: spoofed queries fill nothing.
 * Never written to disk, never given to analytics.
 */
import type { ResolverNote } from './server.ts';

/** How long a token and its notes live, from its issue. */
export const TOKEN_TTL_MS = 120_000;
/** Tokens held at most per store. */
export const MAX_TOKENS = 20_000;
/** Live tokens at most per client; a visitor starts a test or two in its 2 minutes. */
export const MAX_TOKENS_PER_CLIENT = 10;
/** Resolvers noted at most per token; a visitor's test sees a handful. */
export const MAX_RESOLVERS = 32;

/** One resolver as seen for one token. */
export interface SeenResolver {
  ip: string;
  transports: Array<'udp' | 'tcp'>;
  /** The last Client Subnet it forwarded, or null. */
  ecs: string | null;
  /** Whether any of its queries set the DO bit. */
  dnssecOk: boolean;
  queries: number;
  /** ms since the epoch. */
  firstSeen: number;
}

/** A token's notes. */
export interface TokenNotes {
  /** How many names were issued (6 or 36). */
  names: number;
  /** Which of them (1-based) some resolver asked for. */
  seen: number[];
  resolvers: SeenResolver[];
}

/** Where notes are kept: this process, the cluster primary or Redis. */
export interface NoteStore {
  /**
   * Opens a token for `names` names, issued to `client` (its key: an IPv4 address or an IPv6
   * /64; undefined for a client without a budget); it expires TOKEN_TTL_MS later. Rejects
   * when the store cannot take it.
   */
  issue(token: string, names: number, client?: string): Promise<void>;
  /** Notes one query (fire and forget: a store that fails loses the note). */
  note(note: ResolverNote): void;
  /** The token's notes, or undefined when it was never issued or has expired. */
  read(token: string): Promise<TokenNotes | undefined>;
  /** One line for /healthz. */
  state(): string;
  close(): Promise<void>;
}

interface Entry {
  expires: number;
  names: number;
  seen: Set<number>;
  resolvers: Map<string, SeenResolver>;
  /** Whose budget it counts in. */
  client: string | undefined;
}

/** Adds a note to a token's entry, within the bounds; the one merge every store uses. */
export function mergeNote(entry: { seen: Set<number>; resolvers: Map<string, SeenResolver> }, note: ResolverNote): void {
  let resolver = entry.resolvers.get(note.resolver);
  if (!resolver) {
    if (entry.resolvers.size >= MAX_RESOLVERS) return;
    resolver = { ip: note.resolver, transports: [], ecs: null, dnssecOk: false, queries: 0, firstSeen: note.at };
    entry.resolvers.set(note.resolver, resolver);
  }
  entry.seen.add(note.name);
  resolver.queries++;
  if (!resolver.transports.includes(note.transport)) resolver.transports.push(note.transport);
  if (note.ecs) resolver.ecs = note.ecs;
  resolver.dnssecOk ||= note.dnssecOk;
}

/** Notes in this process's memory; forgotten on time by a sweep each second. */
export class MemoryNotes implements NoteStore {
  readonly #entries = new Map<string, Entry>();
  /** Per client, its tokens, oldest first (at most perClient). */
  readonly #byClient = new Map<string, string[]>();
  readonly #now: () => number;
  readonly #maxTokens: number;
  readonly #perClient: number;
  readonly #sweep: NodeJS.Timeout;

  /** `now`: the clock in ms (tests move it); `maxTokens`, `perClient`: MAX_TOKENS and MAX_TOKENS_PER_CLIENT unless a test asks for fewer. */
  constructor(now: () => number = Date.now, maxTokens = MAX_TOKENS, perClient = MAX_TOKENS_PER_CLIENT) {
    this.#now = now;
    this.#maxTokens = maxTokens;
    this.#perClient = perClient;
    this.#sweep = setInterval(() => this.sweep(), 1000).unref();
  }

  /** Deletes a token, and its place in its client's budget. */
  #forget(token: string): void {
    const entry = this.#entries.get(token);
    if (!entry) return;
    this.#entries.delete(token);
    if (entry.client === undefined) return;
    const own = this.#byClient.get(entry.client)!;
    own.splice(own.indexOf(token), 1);
    if (own.length === 0) this.#byClient.delete(entry.client);
  }

  /** Deletes the expired tokens. Every token lives as long, so the oldest issued expire first. */
  sweep(): void {
    const now = this.#now();
    for (const [token, entry] of this.#entries) {
      if (entry.expires > now) break;
      this.#forget(token);
    }
  }

  issue(token: string, names: number, client?: string): Promise<void> {
    this.sweep();
    if (client !== undefined) {
      const own = this.#byClient.get(client);
      while (own && own.length >= this.#perClient) this.#forget(own[0]!);
    }
    this.#entries.set(token, { expires: this.#now() + TOKEN_TTL_MS, names, seen: new Set(), resolvers: new Map(), client });
    if (client !== undefined) {
      const own = this.#byClient.get(client);
      if (own) own.push(token);
      else this.#byClient.set(client, [token]);
    }
    // Past the bound, the oldest token of all: only as many clients as fill their budgets reach it.
    if (this.#entries.size > this.#maxTokens) this.#forget(this.#entries.keys().next().value!);
    return Promise.resolve();
  }

  #live(token: string): Entry | undefined {
    const entry = this.#entries.get(token);
    return entry && entry.expires > this.#now() ? entry : undefined;
  }

  note(note: ResolverNote): void {
    const entry = this.#live(note.token);
    if (entry && note.name <= entry.names) mergeNote(entry, note);
  }

  /** The same as read, synchronously (the cluster primary answers from it). */
  readNow(token: string): TokenNotes | undefined {
    const entry = this.#live(token);
    if (!entry) return undefined;
    return { names: entry.names, seen: [...entry.seen].sort((a, b) => a - b), resolvers: [...entry.resolvers.values()].map((r) => ({ ...r, transports: [...r.transports] })) };
  }

  read(token: string): Promise<TokenNotes | undefined> {
    return Promise.resolve(this.readNow(token));
  }

  /** Tokens held now, expired ones not yet swept included. */
  get size(): number {
    return this.#entries.size;
  }

  state(): string {
    return `in this process's memory, ${this.#entries.size} tokens`;
  }

  close(): Promise<void> {
    clearInterval(this.#sweep);
    this.#entries.clear();
    this.#byClient.clear();
    return Promise.resolve();
  }
}
