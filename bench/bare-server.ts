import http from 'node:http';

// A bare node:http server answering every request with the same body and the headers it is given (the
// bench gives it our answer's Content-Type only; ours also sends its request id and security headers).
const body = Buffer.from(process.env.BARE_BODY_B64 ?? '', 'base64');
const headers = JSON.parse(process.env.BARE_HEADERS ?? '{}') as Record<string, string>;
const server = http.createServer((_req, res) => {
  res.writeHead(200, { ...headers, 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
