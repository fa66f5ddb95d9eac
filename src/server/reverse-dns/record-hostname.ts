/**
 * The host name in the answers: set on a record, or spliced into a serialized one (the
 * /json memo keeps bodies without it, since a name changes with its TTL and the body
 * does not), and looked up for many records at once with a bound on concurrency.
 */
import type { IpInfo } from '../../lib/record.ts';
import type { HostnameAnswer, ReverseDns } from './reverse-dns.ts';

/** Sets `hostname` and `hostname_confirmed` on the record. */
export function setHostname(record: IpInfo, answer: HostnameAnswer): IpInfo {
  record.hostname = answer.hostname;
  record.hostname_confirmed = answer.hostname_confirmed;
  return record;
}

/** The two fields as JSON members with their leading comma, to splice before a body's closing brace. */
export const hostnameMembers = (answer: HostnameAnswer): string =>
  `,"hostname":${JSON.stringify(answer.hostname)},"hostname_confirmed":${answer.hostname_confirmed}`;

/** Lookups one bulk request runs at once. */
export const BULK_DNS_CONCURRENCY = 10;

/** Sets the host name on every record, at most `concurrency` lookups at a time. */
export async function setHostnames(records: readonly IpInfo[], dns: ReverseDns, concurrency = BULK_DNS_CONCURRENCY): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < records.length) {
      const record = records[next++]!;
      setHostname(record, await dns.lookup(record.ip));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, records.length) }, worker));
}

/**
 * For an answer that never waits for DNS (a page): the record carries its name when it is
 * cached, else the lookup starts now (and the page's network card asks /hostname for it).
 */
export function nameIfCached(record: IpInfo | undefined, dns: ReverseDns): void {
  if (!record) return;
  const known = dns.cached(record.ip);
  if (known) setHostname(record, known);
  else void dns.lookup(record.ip);
}
