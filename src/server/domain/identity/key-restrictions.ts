import { BlockList, isIP } from 'node:net';
import { AppError } from '../../errors.ts';

/**
 * What a restricted key may do (issue #31). Carried on the key's principal and on the AuthContext of every
 * request made with it, so each check reads it from memory; an edit evicts cached lookups everywhere (as a
 * revocation does), so the next request sees the new rules. Null lists and limits: no restriction.
 * (A key's `spend_limit` is not here: it is a cap budget, counted where the hold is taken.)
 */
export interface KeyRestrictions {
  allowedTools: readonly string[] | null;
  /** Catalog model ids (a pinned `<provider>:<model>` is stored as the model it names). */
  allowedModels: readonly string[] | null;
  /** Normalised CIDRs (`203.0.113.0/24`, `2001:db8::/32`; a single address gets /32 or /128). */
  allowedIps: readonly string[] | null;
  readOnly: boolean;
  ratePerMinute: number | null;
  maxConcurrentJobs: number | null;
}

export const NO_RESTRICTIONS: KeyRestrictions = Object.freeze({
  allowedTools: null,
  allowedModels: null,
  allowedIps: null,
  readOnly: false,
  ratePerMinute: null,
  maxConcurrentJobs: null,
});

/** True when any rule applies (an unrestricted key skips every check). */
export function isRestricted(r: KeyRestrictions): boolean {
  return (
    r.allowedTools !== null ||
    r.allowedModels !== null ||
    r.allowedIps !== null ||
    r.readOnly ||
    r.ratePerMinute !== null ||
    r.maxConcurrentJobs !== null
  );
}

/** A key's restrictions as stored (null: none), read by every key lookup and written by create and edit. */
export interface RestrictionColumns {
  allowed_tools: string[] | null;
  allowed_models: string[] | null;
  allowed_ips: string[] | null;
  read_only: boolean;
  rate_limit_per_minute: number | null;
  max_concurrent_jobs: number | null;
}

export function restrictionsOf(row: RestrictionColumns): KeyRestrictions {
  return {
    allowedTools: row.allowed_tools,
    allowedModels: row.allowed_models,
    allowedIps: row.allowed_ips,
    readOnly: row.read_only,
    ratePerMinute: row.rate_limit_per_minute,
    maxConcurrentJobs: row.max_concurrent_jobs,
  };
}

/**
 * `entry` as a normalised CIDR, or null when it is neither an address nor a CIDR. Host bits are kept as
 * given in the text but ignored when matching (BlockList masks them), so `10.1.2.3/8` means `10.0.0.0/8`.
 */
export function normaliseCidr(entry: string): string | null {
  const [address, prefix, ...rest] = entry.trim().split('/');
  if (rest.length || !address) return null;
  const family = isIP(address);
  if (!family) return null;
  const max = family === 4 ? 32 : 128;
  if (prefix === undefined) return `${address.toLowerCase()}/${max}`;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return null;
  return `${address.toLowerCase()}/${Number(prefix)}`;
}

const allowLists = new WeakMap<readonly string[], BlockList>();

function allowListOf(cidrs: readonly string[]): BlockList {
  let list = allowLists.get(cidrs);
  if (!list) {
    list = new BlockList();
    for (const cidr of cidrs) {
      const [address, prefix] = cidr.split('/') as [string, string];
      list.addSubnet(address, Number(prefix), isIP(address) === 4 ? 'ipv4' : 'ipv6');
    }
    allowLists.set(cidrs, list);
  }
  return list;
}

/** Whether `address` (as client-address.ts gives it) is inside one of `cidrs`. An unknown address is not. */
export function addressAllowed(cidrs: readonly string[], address: string): boolean {
  const list = allowListOf(cidrs);
  // A dual-stack socket reports IPv4 callers as `::ffff:a.b.c.d`: matched against IPv4 entries as well.
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : null;
  const family = isIP(address);
  if (!family) return false;
  if (list.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
  return mapped !== null && isIP(mapped) === 4 && list.check(mapped, 'ipv4');
}

/** 403 when the caller's address is outside the key's allow-list (checked at authentication). */
export function refuseAddress(r: KeyRestrictions, address: string): void {
  if (r.allowedIps && !addressAllowed(r.allowedIps, address)) {
    throw new AppError('forbidden', `This API key may not be used from ${address}.`, {
      details: { client_address: address, allowed_ips: r.allowedIps },
    });
  }
}

/**
 * 403 when the key may not run `tool` with `model`. `requested` is the model the request named, when it
 * differs from what runs (an image start frame on a video model runs its image-to-video variant): either
 * being allowed is enough.
 */
export function refuseToolOrModel(
  r: KeyRestrictions | undefined,
  tool: string,
  model: string,
  requested?: string,
): void {
  if (!r) return;
  if (r.allowedTools && !r.allowedTools.includes(tool)) {
    throw new AppError(
      'forbidden',
      `This API key may not use the ${tool} tool; it may use: ${r.allowedTools.join(', ')}.`,
      { details: { tool, allowed_tools: r.allowedTools } },
    );
  }
  const allowed = r.allowedModels;
  if (allowed && !allowed.includes(model) && !(requested && allowed.includes(requested))) {
    throw new AppError(
      'forbidden',
      `This API key may not use the model ${model}; it may use: ${allowed.join(', ')}. Name one in \`model\`.`,
      { details: { model, allowed_models: allowed } },
    );
  }
}

/** POSTs that only read: a read-only key may make them. */
const READING_POSTS = new Set(['/v2/files/archive']);

/** 403 for a read-only key on any request that creates or changes something. */
export function refuseWrite(r: KeyRestrictions | undefined, method: string, path: string): void {
  if (!r?.readOnly || method === 'GET' || method === 'HEAD' || READING_POSTS.has(path)) return;
  throw new AppError(
    'forbidden',
    'This key is read-only: it may read jobs, files and analytics, but not create or change anything.',
    { details: { read_only: true } },
  );
}
