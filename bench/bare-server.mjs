// The yardstick: a bare node:http server that only answers the socket address.
import cluster from 'node:cluster';
import { createServer } from 'node:http';

const workers = Number(process.env.WEB_CONCURRENCY || 1);
if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
} else {
  const server = createServer((req, res) => {
    const body = req.socket.remoteAddress + '\n';
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}`);
  });
  process.on('SIGTERM', () => process.exit(0));
}
