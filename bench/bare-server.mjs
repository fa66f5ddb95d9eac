// The yardstick: a bare node:http server that only answers the socket address.
// With REPLAY_URL it is the ceiling instead: at start it fetches that URL once (from our
// server) and answers every request with a copy of that response, same status, headers and
// body, so the cost of sending our exact bytes through node:http is measured apart from
// the cost of our code.
import cluster from 'node:cluster';
import { createServer } from 'node:http';

const workers = Number(process.env.WEB_CONCURRENCY || 1);
// Node adds these itself on every response.
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

async function replayed(url) {
  const res = await fetch(url);
  const body = await res.text();
  const headers = [...res.headers].filter(([name]) => !NODE_OWN.has(name)).flat();
  return { status: res.status, headers, body };
}

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
} else {
  const replay = process.env.REPLAY_URL ? await replayed(process.env.REPLAY_URL) : undefined;
  const server = createServer(replay
    ? (_req, res) => {
      const headers = replay.headers.slice();
      headers.push('content-length', String(Buffer.byteLength(replay.body)));
      res.writeHead(replay.status, headers);
      res.end(replay.body);
    }
    : (req, res) => {
      const body = req.socket.remoteAddress + '\n';
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}`);
  });
  process.on('SIGTERM', () => process.exit(0));
}
