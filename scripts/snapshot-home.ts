// One-off: renders `/` through the per-request Astro path (dist/server/entry.mjs) for a few
// records and writes what it produced to tests/fixtures/home-page/, the reference the
// prebuilt shell must reproduce (tests/home-page.test.ts). Run after `npm run build`.
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createEngine } from '../src/server/lookup/engine.ts';
import { clientConfigFromEnv } from '../src/lib/client-config.ts';
import type { LookupResponse } from '../src/lib/record.ts';

process.env.NODE_ENV = 'production';
const OUT = 'tests/fixtures/home-page';
const engine = await createEngine({ distDir: 'dist' });
const headers = (ua: string) => ({ get: (n: string) => (n.toLowerCase() === 'user-agent' ? ua : null) });
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

const ipv4 = engine.lookup('8.8.8.8', { headers: headers(CHROME) });
const ipv6 = engine.lookup('2001:4860:4860::8888', { headers: headers(FIREFOX) });
const reserved = engine.lookup('10.1.2.3', { headers: headers(IPHONE) });
// A datacenter address: the VPN verdict fires with indicators.
const datacenter = engine.lookup('52.94.236.248', { headers: headers(CHROME) });
const u = 'Unknown';
const missing: LookupResponse = {
  success: true,
  data: {
    ...ipv4.data, ip: '203.0.113.77', city: u, region: u, country: u, country_name: u, country_code: u, postal: u,
    latitude: 0, longitude: 0, timezone: u, isp: u, org: u, asn: u, asn_org: u, confidence_score: 0.1,
    distance_consensus: null, rtt_ms: null, network_type: 'other', accuracy_radius: 0, accuracy_tier: 'region',
    vpn_detected: false, vpn: { detected: false, confidence: 0, indicators: [] }, risk_level: 'medium', reserved: null,
  },
  device: null,
  confidence: 0.1,
  sources_used: [],
};
const evil = '</script><script>alert(1)</script>';
const hostile: LookupResponse = {
  ...datacenter,
  data: {
    ...datacenter.data,
    city: `${evil}"'&<>&amp;&quot;`,
    region: 'Île-de-France "quoted" & <b>bold</b> \u2028\u2029 \uE000',
    country_name: "Côte d'Ivoire & <Co>",
    postal: '-->',
    timezone: '<!--',
    isp: `O'Brien & Sons <ISP> ${evil}`,
    org: 'org {"a":1} \\ back\\slash',
    asn_org: '\u{1F600} emoji & \t tab',
    distance_consensus: 12.6,
    vpn_detected: true,
    risk_level: 'high',
    accuracy_tier: 'low',
    vpn: { detected: true, confidence: 0.7, indicators: [...datacenter.data.vpn.indicators, '<img src=x onerror=alert(1)>'] },
  },
  device: { browser: 'Chrome', os: 'Linux', device: 'Desktop', userAgent: `Mozilla/5.0 "><script>alert(1)</script>`, bot: false },
};
const records: Record<string, LookupResponse> = { ipv4, ipv6, reserved, datacenter, missing, hostile };

const entry = pathToFileURL(path.resolve('dist/server/entry.mjs')).href;
type Middleware = (req: unknown, res: unknown, next: (e?: unknown) => void, locals: object) => Promise<void>;
const { handler } = (await import(entry)) as { handler: Middleware };
const clientConfig = clientConfigFromEnv({});
const server = createServer((req, res) => {
  const name = String(req.headers['x-fixture']);
  void handler(req, res, (e) => { if (e) throw e; }, { clientIp: records[name]!.data.ip, lookup: records[name], clientConfig });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address() as AddressInfo;
for (const [name, record] of Object.entries(records)) {
  const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'x-fixture': name } });
  writeFileSync(path.join(OUT, `${name}.html`), await res.text());
  writeFileSync(path.join(OUT, `${name}.json`), JSON.stringify(record, null, 2) + '\n');
}
server.close();
console.log(`wrote ${Object.keys(records).length} records and pages to ${OUT}`);
