// The lookup benches' addresses: 70% IPv4 drawn uniformly from public space, 30% IPv6
// inside allocated prefixes from the ASN data, from a fixed seed (bench/lookup.mjs,
// bench/lookup-compare.mjs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isPublicIp } from '../src/lib/ip-address.ts';
import { seededRandom } from './seeded-random.mjs';

const require = createRequire(import.meta.url);

/** A generator of `count` addresses per call, the same sequence for the same seed. */
export function addressLists(seed, count) {
  const random = seededRandom(seed);
  const v6Prefixes = readFileSync(require.resolve('@ip-location-db/asn/asn-ipv6.csv'), 'utf8')
    .split('\n').filter(Boolean).map((line) => line.slice(0, line.indexOf(',')));
  const hex16 = () => Math.floor(random() * 65536).toString(16);
  return () => {
    const addresses = [];
    while (addresses.length < count) {
      if (random() < 0.7) {
        const ip = [0, 0, 0, 0].map(() => Math.floor(random() * 256)).join('.');
        if (isPublicIp(ip)) addresses.push(ip);
      } else {
        // A random host inside a random allocated prefix: keep its first 48 bits.
        const prefix = v6Prefixes[Math.floor(random() * v6Prefixes.length)];
        const groups = prefix.replace(/::$/, '').split(':').concat(['0', '0', '0']).slice(0, 3);
        addresses.push(`${groups.join(':')}:${hex16()}:${hex16()}:${hex16()}:${hex16()}:${hex16()}`);
      }
    }
    return addresses;
  };
}

/** Request context of a browser, five User-Agents in turn (src/server/http/app.ts hands headers over like this). */
export const BROWSER_CONTEXTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'curl/8.5.0',
].map((ua) => {
  const values = { 'user-agent': ua, 'sec-ch-ua': '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"', 'sec-ch-ua-platform': '"Windows"' };
  return {
    headers: { get: (name) => values[name.toLowerCase()] ?? null },
    clientInfo: { timezone: 'Europe/Berlin', language: 'en-GB' },
    webrtc: { candidates: ['8.8.4.4', 'a1b2c3.local'] },
  };
});
