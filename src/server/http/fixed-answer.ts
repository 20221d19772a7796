import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import {
  COMPRESS_MIN_BYTES,
  type ContentCoding,
  chooseCoding,
  compress,
  isCompressible,
} from './compression.ts';
import type { AppEnv } from './env.ts';
import { entityTag, noneMatchHits } from './etag.ts';
import type { FastAnswer } from './fast-path.ts';
import { nodeHeader, requestHeader } from './request-header.ts';
import { respond } from './respond.ts';

type Bytes = Uint8Array<ArrayBuffer>;

/** A strong tag per content coding (RFC 9110 8.8.3: each coding is its own representation). */
const codedTag = (etag: string, coding: ContentCoding) => `${etag.slice(0, -1)}-${coding}"`;

/**
 * An answer whose body never changes once built (the price catalog, the tool list): its bytes, ETag and
 * compressed forms are made once, so each request only picks one. A match of If-None-Match is a 304.
 */
export class FixedAnswer {
  readonly etag: string;
  private readonly identity: Bytes;
  private readonly negotiable: boolean;
  private readonly coded = new Map<ContentCoding, Promise<Bytes>>();
  /** The codings compressed so far, for answers that cannot wait (the fast path). */
  private readonly ready = new Map<ContentCoding, Bytes>();
  private readonly allTags: string[];
  /** The headers of each coding's 200 and 304, made once (spreading them per request was a tenth of the work). */
  private readonly headerSets: Record<
    ContentCoding | 'identity',
    { ok: Readonly<Record<string, string>>; notModified: Readonly<Record<string, string>> }
  >;

  constructor(body: string, headers: Record<string, string>) {
    const bytes = Buffer.from(body) as Buffer<ArrayBuffer>;
    this.etag = entityTag(bytes);
    this.identity = bytes;
    this.negotiable = bytes.length >= COMPRESS_MIN_BYTES && isCompressible(headers['content-type']);
    this.allTags = [this.etag, codedTag(this.etag, 'br'), codedTag(this.etag, 'gzip')];
    const headerSet = (coding: ContentCoding | null) => {
      const vary: Record<string, string> = this.negotiable ? { vary: 'accept-encoding' } : {};
      const ok: Record<string, string> = {
        ...headers,
        etag: coding ? codedTag(this.etag, coding) : this.etag,
        ...vary,
      };
      const notModified = { ...ok };
      delete notModified['content-type'];
      return {
        ok: Object.freeze(coding ? { ...ok, 'content-encoding': coding } : ok),
        notModified: Object.freeze(notModified),
      };
    };
    this.headerSets = { identity: headerSet(null), br: headerSet('br'), gzip: headerSet('gzip') };
  }

  async respond(c: Context<AppEnv>): Promise<Response> {
    const { status, coding, headers } = this.negotiate(
      c.req.method,
      requestHeader(c, 'accept-encoding'),
      requestHeader(c, 'if-none-match'),
    );
    if (status === 304) return respond(c, 304, null, headers);
    return respond(c, 200, coding ? await this.variant(coding) : this.identity, headers);
  }

  /**
   * The same answer for the fast path (a GET), when it needs nothing that is not made yet: a coding not
   * compressed so far is started here and left to respond() this time.
   */
  answerNow(req: IncomingMessage): FastAnswer | undefined {
    const { status, coding, headers } = this.negotiate(
      'GET',
      nodeHeader(req, 'accept-encoding'),
      nodeHeader(req, 'if-none-match'),
    );
    if (status === 304) return { status, headers, body: null };
    if (!coding) return { status, headers, body: this.identity };
    const body = this.ready.get(coding);
    if (!body) {
      this.variant(coding);
      return undefined;
    }
    return { status, headers, body };
  }

  private negotiate(method: string, acceptEncoding: string | undefined, ifNoneMatch: string | undefined) {
    // HEAD sends no body, so it is answered uncompressed rather than compressing for nothing.
    const coding = this.negotiable && method !== 'HEAD' ? chooseCoding(acceptEncoding) : null;
    const made = this.headerSets[coding ?? 'identity'];
    if (noneMatchHits(ifNoneMatch, this.allTags))
      return { status: 304 as const, coding: null, headers: made.notModified };
    return { status: 200 as const, coding, headers: made.ok };
  }

  /** Each coding is compressed once, on first demand; concurrent first requests share the work. */
  private variant(coding: ContentCoding): Promise<Bytes> {
    let made = this.coded.get(coding);
    if (!made) {
      made = compress(this.identity as Buffer, coding) as Promise<Buffer<ArrayBuffer>>;
      this.coded.set(coding, made);
      made.then((bytes) => this.ready.set(coding, bytes)).catch(() => this.coded.delete(coding));
    }
    return made;
  }
}
