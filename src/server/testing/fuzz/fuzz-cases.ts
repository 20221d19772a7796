import {
  branch,
  type FieldTarget,
  fieldTargets,
  resolve,
  type SampleContext,
  type Schema,
  sample,
  typeOf,
  withField,
} from './json-schema-sample.ts';

/**
 * Malformed requests for one operation of the OpenAPI document. A case is `refused` when the request is
 * certainly wrong (the server must answer 4xx, with `statuses` and named `fields` when given); `any` when it
 * may be right (at a limit, unknown fields): then it must only never be a 5xx.
 */
export interface FuzzCase {
  operation: string;
  label: string;
  method: string;
  /** Path and query, already percent-encoded as sent. */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** Sent with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
  expect: 'refused' | 'any';
  statuses?: number[];
  fields?: string[];
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  path: string;
  security?: Array<Record<string, unknown>>;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
}

export interface FuzzFixture {
  ctx: SampleContext;
  /** A session token: good for every authenticated route. */
  token: string;
  /** An API key of the same person: refused where only a session is. */
  apiKey: string;
  /** A real value for a path parameter of an operation (the object exists and belongs to the caller). */
  pathValue(path: string, name: string): string;
}

/** Small, seeded, good enough to pick samples: mulberry32. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    sampleOf: <T>(items: readonly T[], count: number): T[] => {
      const pool = [...items];
      const out: T[] = [];
      while (out.length < count && pool.length > 0)
        out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
      return out;
    },
  };
}

export function hashSeed(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const NUL_TEXTS = ['a\u0000b', '\u0000'];
const SURROGATE_TEXTS = ['a\ud800b', '\udc00', 'x\ud83d'];
const MALFORMED_JSON = ['{', '{"a":', "{'a':1}", 'nul', '[1,2', '{"a":1}{"b":2}', '{"a":01}', '{"a":"\\x"}'];
const NOT_AN_OBJECT = ['"text"', '[]', '[{"a":1}]', '1', 'null', 'true'];
const WRONG_TYPES = [12345, true, { a: 1 }, ['a'], 1.5];
const DEEP = 10_000;
/** Just past the 1 MiB JSON limit. */
const OVERSIZE_BYTES = 1_048_576 + 64;
/** Under the limit, but far past any string field's own. */
const MEGABYTE_STRING = 1_000_000;

export const isSecured = (op: Operation) => (op.security ?? []).some((s) => Object.keys(s).length > 0);
const isOptional = (op: Operation) => (op.security ?? []).some((s) => Object.keys(s).length === 0);

/** Routes that change something without a body: only requests that are certainly wrong are sent there. */
const changesWithoutBody = (op: Operation) => op.method !== 'get' && !op.requestBody;

const idPrefix = (value: string) => value.match(/^[a-z]+_/)?.[0] ?? '';

export function casesFor(op: Operation, fixture: FuzzFixture, seed: number): FuzzCase[] {
  const operation = `${op.method.toUpperCase()} ${op.path}`;
  const random = seededRandom(hashSeed(operation, seed));
  const address = () =>
    `100.${64 + Math.floor(random.next() * 64)}.${Math.floor(random.next() * 256)}.${1 + Math.floor(random.next() * 250)}`;
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const headerParams = params.filter((p) => p.in === 'header' && p.name !== 'content-type');
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  const ctx = fixture.ctx;
  const baseBody = bodySchema ? sample(bodySchema, ctx) : undefined;
  const realPath = (values: Record<string, string> = {}) =>
    op.path.replace(
      /\{(\w+)\}/g,
      (_, name: string) => values[name] ?? encodeURIComponent(fixture.pathValue(op.path, name)),
    );
  const headers = (extra: Record<string, string | undefined> = {}) => {
    const out: Record<string, string> = { 'x-forwarded-for': address(), accept: 'application/json' };
    if (isSecured(op)) out.authorization = `Bearer ${fixture.token}`;
    if (bodySchema) out['content-type'] = 'application/json';
    for (const [name, value] of Object.entries(extra)) {
      if (value === undefined) delete out[name];
      else out[name] = value;
    }
    return out;
  };
  const cases: FuzzCase[] = [];
  const add = (c: Omit<FuzzCase, 'operation' | 'method' | 'target' | 'headers'> & Partial<FuzzCase>) =>
    cases.push({
      operation,
      method: op.method.toUpperCase(),
      target: realPath(),
      headers: headers(),
      body: bodySchema ? JSON.stringify(baseBody) : undefined,
      ...c,
    });

  // Wrong or missing credentials.
  if (isSecured(op)) {
    const expect = isOptional(op) ? 'any' : 'refused';
    for (const [label, authorization] of [
      ['no Authorization', undefined],
      ['an empty Bearer', 'Bearer'],
      ['an unknown Bearer token', `Bearer mc_${'0'.repeat(40)}`],
      ['a Basic credential', 'Basic dXNlcjpwYXNz'],
      ['a 4,000-character token', `Bearer ${'x'.repeat(4000)}`],
      ['a token with a NUL escape', 'Bearer abc%00def'],
    ] as const) {
      add({
        label,
        headers: headers({ authorization }),
        expect,
        statuses: expect === 'refused' ? [401] : undefined,
      });
    }
    // An API key where some routes take only a session (spec 5.3): read-only routes, so nothing is undone.
    if (op.method === 'get') {
      add({
        label: 'an API key',
        headers: headers({ authorization: `Bearer ${fixture.apiKey}` }),
        expect: 'any',
      });
    }
  }

  // Path ids that cannot exist.
  for (const param of pathParams) {
    const prefix = idPrefix(fixture.pathValue(op.path, param.name));
    const sendable = [
      [`${prefix}%00`, [404]],
      ['%00', [404]],
      [`${prefix}a%00b`, [404]],
      [`${prefix}%ED%A0%80`, undefined],
      ['%C0%80', undefined],
      [`${prefix}%FF%FE`, undefined],
      [`${prefix}${'z'.repeat(3000)}`, undefined],
      [`${prefix}doesnotexist`, undefined],
      ['%20', undefined],
      [`${prefix}%2F..%2F`, undefined],
    ] as const;
    for (const [value, statuses] of sendable) {
      add({
        label: `path ${param.name}=${value.slice(0, 40)}`,
        target: realPath({ [param.name]: value }),
        expect: 'refused',
        statuses: statuses ? [...statuses] : undefined,
      });
    }
  }

  // Query strings: NUL anywhere is refused naming the parameter; other values at and past the limits.
  const withQuery = (query: string) => `${realPath()}?${query}`;
  add({
    label: 'unknown query parameter with NUL',
    target: withQuery('zz=%00'),
    expect: 'refused',
    statuses: [422],
    fields: ['query.zz'],
  });
  add({
    label: 'query parameter name with NUL',
    target: withQuery('a%00=1'),
    expect: 'refused',
    statuses: [422],
  });
  for (const param of queryParams) {
    const { schema: s, union } = branch(param.schema, ctx);
    const name = encodeURIComponent(param.name);
    add({
      label: `query ${param.name} with NUL`,
      target: withQuery(`${name}=a%00b`),
      expect: 'refused',
      statuses: [422],
      fields: [`query.${param.name}`],
    });
    if (changesWithoutBody(op)) continue;
    const values: Array<[string, 'refused' | 'any']> = [
      ['', 'any'],
      ['x'.repeat(5000), 'any'],
      ['%FF%FE', 'any'],
      ['-1', 'any'],
      ['1e999', 'any'],
      ['a,b,,%2C,none', 'any'],
    ];
    const type = typeOf(s);
    if (!union && s.maxLength !== undefined) values.push(['a'.repeat(s.maxLength + 1), 'refused']);
    if (!union && (type === 'integer' || type === 'number')) {
      values.push(['abc', 'refused']);
      if (s.maximum !== undefined)
        values.push([String(s.maximum + 1), 'refused'], [String(s.maximum), 'any']);
      if (s.minimum !== undefined) values.push([String(s.minimum - 1), 'refused']);
    }
    if (!union && s.enum) values.push(['not-a-member', 'refused']);
    for (const [value, expect] of random.sampleOf(values, 4)) {
      add({
        label: `query ${param.name}=${value.slice(0, 30)}`,
        target: withQuery(`${name}=${value}`),
        expect,
      });
    }
    add({
      label: `query ${param.name} repeated`,
      target: withQuery(`${name}=1&${name}=%00`),
      expect: 'refused',
      statuses: [422],
    });
  }

  // Declared request headers with odd values.
  if (!changesWithoutBody(op)) {
    for (const param of headerParams) {
      const { schema: s } = branch(param.schema, ctx);
      const values = [
        'nope',
        '00000000-0000-0000-0000-000000000000',
        'x'.repeat((s.maxLength ?? 200) + 1),
        ' ',
      ];
      for (const value of random.sampleOf(values, 2)) {
        add({
          label: `header ${param.name}=${value.slice(0, 30)}`,
          headers: headers({ [param.name]: value }),
          expect: 'any',
        });
      }
    }
  }

  if (bodySchema) addBodyCases(fixture.ctx, bodySchema, baseBody, random, add, headers);
  return cases;
}

/** Bodies that are not JSON objects, are not declared JSON, are too big or too deep, and bad values per field. */
function addBodyCases(
  ctx: SampleContext,
  bodySchema: Schema,
  baseBody: unknown,
  random: ReturnType<typeof seededRandom>,
  add: (c: Partial<FuzzCase> & Pick<FuzzCase, 'label' | 'expect'>) => void,
  headers: (extra?: Record<string, string | undefined>) => Record<string, string>,
): void {
  const root = resolve(bodySchema, ctx);
  const withValue = (target: FieldTarget, value: unknown) =>
    JSON.stringify(withField(baseBody, bodySchema, target.path, value, ctx));
  const base = JSON.stringify(baseBody);

  add({ label: 'the sampled body', body: base, expect: 'any' });
  for (const text of MALFORMED_JSON)
    add({ label: `malformed JSON ${text}`, body: text, expect: 'refused', statuses: [400] });
  for (const text of NOT_AN_OBJECT)
    add({ label: `JSON that is not an object: ${text}`, body: text, expect: 'refused', statuses: [400] });
  add({ label: 'no body', body: '', expect: 'refused' });
  for (const [type, body] of [
    ['text/plain', base],
    ['application/x-www-form-urlencoded', 'a=1&b=2'],
    ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--`],
    ['application/xml', '<a/>'],
    [undefined, base],
  ] as const) {
    add({
      label: `content type ${type ?? '(none)'}`,
      body,
      headers: headers({ 'content-type': type }),
      expect: 'refused',
      statuses: [415],
    });
  }
  add({ label: 'empty object', body: '{}', expect: (root.required ?? []).length > 0 ? 'refused' : 'any' });
  add({
    label: 'an unknown field',
    body: JSON.stringify({ ...(baseBody as object), zz_unknown: 'x' }),
    expect: 'any',
  });
  add({
    label: '__proto__ and constructor fields',
    body: base
      .replace(/^\{/, '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},')
      .replace(/,\}$/, '}'),
    expect: 'any',
  });
  add({
    label: `${DEEP} levels of nesting`,
    body: `{"zz":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`,
    expect: 'refused',
    statuses: [422],
  });
  add({
    label: 'a body past 1 MiB (Content-Length)',
    body: `{"zz":"${'a'.repeat(OVERSIZE_BYTES)}"}`,
    expect: 'refused',
    statuses: [413],
  });
  add({
    label: 'a chunked body past 1 MiB',
    body: `{"zz":"${'a'.repeat(2 * OVERSIZE_BYTES)}"}`,
    chunked: true,
    expect: 'refused',
    statuses: [413],
  });

  const targets = fieldTargets(bodySchema, ctx);
  const firstString = targets.find((t) => typeOf(t.schema) === 'string');
  if (firstString)
    add({
      label: `1 MB string in ${firstString.path.join('.')}`,
      body: withValue(firstString, 'a'.repeat(MEGABYTE_STRING)),
      expect: 'any',
    });

  for (const target of targets) {
    const field = target.path.join('.');
    const s = target.schema;
    const type = typeOf(s);
    const strict = target.loose ? 'any' : 'refused';
    const checks: Array<{
      label: string;
      value: unknown;
      expect: 'refused' | 'any';
      statuses?: number[];
      fields?: string[];
    }> = [];
    if (type === 'string') {
      // The text the database cannot hold: always sent, for every string field.
      checks.push({
        label: 'NUL',
        value: random.pick(NUL_TEXTS),
        expect: 'refused',
        statuses: [422],
        fields: [field],
      });
      checks.push({
        label: 'lone surrogate',
        value: random.pick(SURROGATE_TEXTS),
        expect: 'refused',
        statuses: [422],
        fields: [field],
      });
      const more: typeof checks = [
        { label: 'wrong type', value: random.pick(WRONG_TYPES), expect: strict },
        { label: 'null', value: null, expect: 'any' },
      ];
      if (s.maxLength !== undefined) {
        more.push({ label: 'at maxLength', value: 'a'.repeat(s.maxLength), expect: 'any' });
        more.push({ label: 'past maxLength', value: 'a'.repeat(s.maxLength + 1), expect: strict });
      }
      if (s.minLength)
        more.push({ label: 'under minLength', value: 'a'.repeat(s.minLength - 1), expect: strict });
      if (s.enum) more.push({ label: 'not in the enum', value: 'not-a-member', expect: strict });
      if (s.pattern || s.format)
        more.push({ label: 'not the pattern or format', value: ' ~\u00ff ', expect: strict });
      checks.push(...random.sampleOf(more, 3));
    } else if (type === 'integer' || type === 'number') {
      const more: typeof checks = [
        { label: 'a string', value: '12', expect: strict },
        { label: 'a boolean', value: true, expect: strict },
        { label: 'huge', value: 1e308, expect: s.maximum !== undefined ? strict : 'any' },
        { label: 'negative', value: -1e308, expect: 'any' },
      ];
      if (type === 'integer') more.push({ label: 'a fraction', value: 1.5, expect: strict });
      if (s.maximum !== undefined) {
        more.push({ label: 'at maximum', value: s.maximum, expect: 'any' });
        more.push({ label: 'past maximum', value: s.maximum + 1, expect: strict });
      }
      if (s.minimum !== undefined)
        more.push({ label: 'under minimum', value: s.minimum - 1, expect: strict });
      if (s.exclusiveMinimum !== undefined)
        more.push({ label: 'at exclusiveMinimum', value: s.exclusiveMinimum, expect: strict });
      checks.push(...random.sampleOf(more, 4));
    } else if (type === 'boolean') {
      checks.push(
        { label: 'a string', value: 'true', expect: strict },
        { label: 'a number', value: 1, expect: strict },
      );
    } else if (type === 'array') {
      const item = s.items ? sample(s.items, ctx) : 'x';
      const more: typeof checks = [
        { label: 'a string', value: 'x', expect: strict },
        { label: 'an object', value: { 0: item }, expect: strict },
        {
          label: 'a NUL item',
          value: ['\u0000'],
          expect: 'refused',
          statuses: [422],
          fields: [`${field}.0`],
        },
      ];
      if (s.maxItems !== undefined) {
        more.push({
          label: 'past maxItems',
          value: Array.from({ length: s.maxItems + 1 }, () => item),
          expect: strict,
        });
      }
      if (s.minItems) more.push({ label: 'under minItems', value: [], expect: strict });
      checks.push(...random.sampleOf(more, 3));
    } else if (type === 'object') {
      checks.push(
        { label: 'a string', value: 'x', expect: strict },
        { label: 'an array', value: [], expect: strict },
      );
      if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
        checks.push(
          {
            label: 'a key with NUL',
            value: { 'k\u0000': 'v' },
            expect: 'refused',
            statuses: [422],
            fields: [`${field}.k\\u0000`],
          },
          {
            label: 'a value with a lone surrogate',
            value: { k: '\ud800' },
            expect: 'refused',
            statuses: [422],
            fields: [`${field}.k`],
          },
        );
      }
    }
    for (const check of checks) {
      add({
        label: `${field}: ${check.label}`,
        body: withValue(target, check.value),
        expect: check.expect,
        statuses: check.statuses,
        fields: check.fields,
      });
    }
  }
}
