// Floors for bench/api.mjs: node:http servers that do one part of our work and nothing else,
// so that a row of ours can be read against what no design on Node can go under. Each takes
// its status and headers from one answer of our server (REPLAY_URL, as bare-server.mjs's
// replay does) and makes the body per request, by FLOOR:
//   answers    the /json body of each address (FLOOR_ADDRESSES, one per line), made at start
//              by our /json handler, sent from a Map: distinct bodies, no lookup, no JSON;
//   stringify  the record of each address, looked up at start, put through JSON.stringify per
//              request: the serializing alone, as if the lookup cost nothing;
//   lookup     our engine's lookup and JSON.stringify of its record per request: the lookup
//              and its JSON, without the routing, limits and headers around them;
//   page       the page of REPLAY_URL (asked for uncompressed), its address replaced by the
//              request's X-Forwarded-For, compressed whole per request in zstd at the level a
//              first visit gets, through the same kept stream (src/server/shell/page-compress.ts);
//   page-record  the same, with the visitor looked up and its record's JSON in the page's data
//              block (src/islands/page-record.ts), as the islands need it to hydrate: what any
//              page that carries its visitor does before it renders a byte of their details.
// /json requests name their address as `?ip=`; a page request as X-Forwarded-For.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { openSources } from '../src/server/data/sources.ts';
import { engineFrom } from '../src/server/lookup/engine.ts';
import { createTextEndpoints } from '../src/server/handlers/command-line-api.ts';
import { ifconfigFields } from '../src/lib/ifconfig-fields.ts';
import { PageZstd } from '../src/server/shell/page-compress.ts';
import { FIRST_LEVEL } from '../src/server/shell/page-shell.ts';
import { PAGE_RECORD_ID, pageRecordJson } from '../src/islands/page-record.ts';

// Node adds these itself on every response; a page's length and coding are the floor's own.
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding']);
const FLOOR = process.env.FLOOR;

const res0 = await fetch(process.env.REPLAY_URL, { headers: JSON.parse(process.env.REPLAY_HEADERS || '{}') });
const template = await res0.text();
const headers = [...res0.headers].filter(([name]) => !NODE_OWN.has(name)).flat();

/** A /json request's address. */
const askedIp = (url) => decodeURIComponent(url.slice(url.indexOf('ip=') + 3));
const send = (res, body, extra = []) => {
  res.writeHead(res0.status, [...headers, ...extra, 'content-length', String(body.length)]);
  res.end(body);
};

let handle;
// Every floor holds the databases, as our server does, the page's too though it looks nothing up.
const { sources } = await openSources({ distDir: path.resolve('dist') });
const engine = engineFrom(sources);
if (FLOOR === 'page' || FLOOR === 'page-record') {
  const asked = JSON.parse(process.env.REPLAY_HEADERS);
  const zstd = new PageZstd(FIRST_LEVEL.zstd);
  const compressed = (page) => zstd.compress(Buffer.from(page));
  // The page cut around its data block's text, and each part around the address.
  const open = template.indexOf('>', template.indexOf(`id="${PAGE_RECORD_ID}"`)) + 1;
  const close = template.indexOf('</script>', open);
  if (open === 0 || close === -1) throw new Error(`the page has no data block #${PAGE_RECORD_ID}`);
  const [before, after] = [template.slice(0, open), template.slice(close)].map((part) => part.split(asked['x-forwarded-for']));
  const block = template.slice(open, close);
  const withIp = (parts, ip) => parts.join(ip);
  const context = { headers: { get: (name) => asked[name] ?? null } };
  // The visitor: the request's X-Forwarded-For, else (the bench's readiness check) the page's own.
  const visitor = (req) => req.headers['x-forwarded-for'] ?? asked['x-forwarded-for'];
  handle = FLOOR === 'page'
    ? (req, res) => { const ip = visitor(req); send(res, compressed(withIp(before, ip) + block + withIp(after, ip)), ['content-encoding', 'zstd']); }
    : (req, res) => {
      const ip = visitor(req);
      send(res, compressed(withIp(before, ip) + pageRecordJson(engine.lookup(ip, context)) + withIp(after, ip)), ['content-encoding', 'zstd']);
    };
} else {
  const record = (ip) => { const { data } = engine.lookup(ip); return Object.assign(data, ifconfigFields(data)); };
  const addresses = readFileSync(process.env.FLOOR_ADDRESSES, 'utf8').split('\n').filter(Boolean);
  if (FLOOR === 'answers') {
    const json = createTextEndpoints(engine);
    const bodies = new Map();
    for (const ip of addresses) {
      const answer = await json({ method: 'GET', path: '/json', query: new URLSearchParams({ ip }), headers: { get: () => null }, clientIp: '127.0.0.1' });
      bodies.set(ip, Buffer.from(answer.body));
    }
    handle = (req, res) => send(res, bodies.get(askedIp(req.url)));
  } else if (FLOOR === 'stringify') {
    const records = new Map(addresses.map((ip) => [ip, record(ip)]));
    handle = (req, res) => send(res, Buffer.from(JSON.stringify(records.get(askedIp(req.url))) + '\n'));
  } else if (FLOOR === 'lookup') {
    handle = (req, res) => send(res, Buffer.from(JSON.stringify(record(askedIp(req.url))) + '\n'));
  } else {
    throw new Error(`FLOOR must be answers, stringify, lookup, page or page-record, not ${FLOOR}`);
  }
}

const server = createServer(handle);
server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => process.exit(0));
