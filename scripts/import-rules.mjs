/**
 * Where code in src/ may import from (architecture.md), checked by dependency-cruiser on the resolved
 * module graph (every static, dynamic, type-only and re-export import), not on the text of the import:
 *   web -> client -> contract, cli -> client -> contract, server -> contract, and contract imports nothing of ours;
 *   only the server's tests (`*.test.ts`, `server/testing/`) use the client, as any client would;
 *   inside the server, domain holds the rules and imports neither providers (which build on domain) nor
 *   http (which calls domain). Domain's own tests may still use real engines.
 * Paths are relative to the folder cruised from (the repository root).
 */

const SERVER_TEST = ['\\.test\\.ts$', '^src/server/testing/'];

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
export const IMPORT_RULES = [
  {
    name: 'contract-imports-nothing-of-ours',
    comment: 'The contract is pure and isomorphic: zod and itself.',
    severity: 'error',
    from: { path: '^src/contract/' },
    to: { path: '^src/(client|web|server)/' },
  },
  {
    name: 'client-only-contract',
    comment: 'The SDK is built from the contract and runs anywhere: no console, no server.',
    severity: 'error',
    from: { path: '^src/client/' },
    to: { path: '^src/(web|server)/' },
  },
  {
    name: 'cli-only-client-contract',
    comment:
      'The `media` command is a client like any other: the SDK and the contract, never the console or the server. Its tests start the real server.',
    severity: 'error',
    from: { path: '^src/cli/', pathNot: SERVER_TEST },
    to: { path: '^src/(web|server)/' },
  },
  {
    name: 'web-not-server',
    comment: 'The console talks to any v2 server through the client, never to our server code.',
    severity: 'error',
    from: { path: '^src/web/' },
    to: { path: '^src/server/' },
  },
  {
    name: 'server-not-web',
    severity: 'error',
    from: { path: '^src/server/' },
    to: { path: '^src/web/' },
  },
  {
    name: 'server-client-only-in-tests',
    comment: "The server's tests use the SDK as any client would; its production code does not.",
    severity: 'error',
    from: { path: '^src/server/', pathNot: SERVER_TEST },
    to: { path: '^src/client/' },
  },
  {
    name: 'src-stays-in-src',
    comment: 'Nothing in src/ imports scripts/, e2e/, bench/ or other files of the repository.',
    severity: 'error',
    from: { path: '^src/' },
    to: { pathNot: '^(src|node_modules)/', dependencyTypesNot: ['core'], couldNotResolve: false },
  },
  {
    name: 'domain-not-providers',
    comment:
      'Providers build on domain; what domain needs from an engine it declares and is given at start-up.',
    severity: 'error',
    from: { path: '^src/server/domain/', pathNot: SERVER_TEST },
    to: { path: '^src/server/providers/' },
  },
  {
    name: 'domain-not-http',
    comment: 'HTTP calls domain, never the other way: domain has no requests, routes or HTTP errors.',
    severity: 'error',
    from: { path: '^src/server/domain/', pathNot: SERVER_TEST },
    to: { path: '^src/server/http/' },
  },
  {
    name: 'relative-imports-resolve',
    comment: 'An import of ours that does not resolve would pass every rule above unchecked.',
    severity: 'error',
    from: { path: '^src/' },
    to: { couldNotResolve: true, path: '^\\.' },
  },
];
