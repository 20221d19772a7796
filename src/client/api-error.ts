/** A non-2xx answer, parsed from the spec's error envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly requestId: string | null;
  /** Seconds to wait before trying again, from `Retry-After` (429, 503). */
  readonly retryAfter: number | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: unknown;
    requestId?: string | null;
    retryAfter?: number | null;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }
}

/** Reads an error answer; a body that is not the envelope still gives a useful error. */
export async function apiErrorFrom(response: Response): Promise<ApiError> {
  const requestId = response.headers.get('x-request-id');
  const retryHeader = response.headers.get('retry-after');
  const retryAfter = retryHeader && /^\d+$/.test(retryHeader) ? Number(retryHeader) : null;
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; details?: unknown } };
    if (parsed.error && typeof parsed.error.code === 'string') {
      return new ApiError({
        status: response.status,
        code: parsed.error.code,
        message: typeof parsed.error.message === 'string' ? parsed.error.message : parsed.error.code,
        details: parsed.error.details,
        requestId,
        retryAfter,
      });
    }
  } catch {
    // not JSON: fall through
  }
  return new ApiError({
    status: response.status,
    code: `http_${response.status}`,
    message: text.slice(0, 200) || response.statusText || `HTTP ${response.status}`,
    requestId,
    retryAfter,
  });
}
