import http from 'node:http';

/**
 * A minimal webhook receiver for bench:webhooks, in its own process: answers 200 and reports how many
 * requests and distinct bodies it has seen to its parent, which may reset the counts between runs.
 */
const port = Number(process.argv[2] ?? 0);
let requests = 0;
const seen = new Set<string>();
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    requests++;
    seen.add(body);
    res.writeHead(200).end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ listening: typeof address === 'object' && address ? address.port : port });
});
setInterval(() => process.send?.({ requests, distinct: seen.size }), 100).unref();
process.on('message', (m: { stop?: boolean; reset?: boolean }) => {
  if (m.reset) {
    requests = 0;
    seen.clear();
    process.send?.({ requests, distinct: 0, reset: true });
  }
  if (m.stop) {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
