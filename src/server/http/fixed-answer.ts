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
import { requestHeader } from './request-header.ts';
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
  private readonly allTags: string[];

  constructor(
    body: string,
    private readonly headers: Record<string, string>,
  ) {
    const bytes = Buffer.from(body) as Buffer<ArrayBuffer>;
    this.etag = entityTag(bytes);
    this.identity = bytes;
    this.negotiable = bytes.length >= COMPRESS_MIN_BYTES && isCompressible(headers['content-type']);
    this.allTags = [this.etag, codedTag(this.etag, 'br'), codedTag(this.etag, 'gzip')];
  }

  async respond(c: Context<AppEnv>): Promise<Response> {
    // HEAD sends no body, so it is answered uncompressed rather than compressing for nothing.
    const coding =
      this.negotiable && c.req.method !== 'HEAD' ? chooseCoding(requestHeader(c, 'accept-encoding')) : null;
    const headers: Record<string, string> = {
      ...this.headers,
      etag: coding ? codedTag(this.etag, coding) : this.etag,
    };
    if (this.negotiable) headers.vary = 'accept-encoding';
    if (noneMatchHits(requestHeader(c, 'if-none-match'), this.allTags)) {
      delete headers['content-type'];
      return respond(c, 304, null, headers);
    }
    if (!coding) return respond(c, 200, this.identity, headers);
    headers['content-encoding'] = coding;
    return respond(c, 200, await this.variant(coding), headers);
  }

  /** Each coding is compressed once, on first demand; concurrent first requests share the work. */
  private variant(coding: ContentCoding): Promise<Bytes> {
    let made = this.coded.get(coding);
    if (!made) {
      made = compress(this.identity as Buffer, coding) as Promise<Buffer<ArrayBuffer>>;
      this.coded.set(coding, made);
    }
    return made;
  }
}
