/**
 * The console's Content-Security-Policy. The console keeps its session in localStorage, so what matters
 * most is that no script runs but its own files: scripts and workers from 'self' only, nothing inline, no
 * plugins, no <base> tricks, and no framing (clickjacking). Connections, images and media may go to any
 * http(s) origin because the console can be pointed at another v2 server (Settings on the sign-in page),
 * whose API and media URLs live there; blob: and data: serve previews and CSV downloads.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self'",
  "font-src 'self'",
  "img-src 'self' data: blob: http: https:",
  "media-src 'self' data: blob: http: https:",
  "connect-src 'self' http: https:",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on every file of the console (index.html above all); nosniff and the referrer policy come from respond(). */
export const CONSOLE_HEADERS: Record<string, string> = {
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), display-capture=()',
};

/**
 * The API reference page's policy (api-reference.ts): the console's, but its renderer (RapiDoc, a web
 * component) styles its shadow DOM with <style> elements and style attributes, so styles may be inline
 * there. Scripts stay 'self' only, with no eval: a style cannot run code.
 */
export const API_REFERENCE_CSP = CONSOLE_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

export const API_REFERENCE_HEADERS: Record<string, string> = {
  ...CONSOLE_HEADERS,
  'content-security-policy': API_REFERENCE_CSP,
};
