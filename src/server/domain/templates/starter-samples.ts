/**
 * Sample pictures of the starter templates: small SVGs drawn here, so the gallery shows them with no
 * network and no render at start-up. Served as data URLs (the console's CSP allows `data:` images).
 */
const SAMPLES = {
  'title-card': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180">
<rect width="320" height="180" fill="#0f172a"/>
<text x="160" y="84" font-family="sans-serif" font-size="22" fill="#fff" text-anchor="middle">Your title</text>
<text x="160" y="112" font-family="sans-serif" font-size="11" fill="#cbd5e1" text-anchor="middle">A film by you</text>
</svg>`,
  slideshow: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180">
<rect width="320" height="180" fill="#000"/>
<rect x="20" y="30" width="86" height="110" fill="#1e3a8a"/><circle cx="63" cy="70" r="16" fill="#facc15"/>
<rect x="117" y="30" width="86" height="110" fill="#14532d"/><path d="M125 130l30-45 25 30 15-15 8 30z" fill="#86efac"/>
<rect x="214" y="30" width="86" height="110" fill="#7c2d12"/><rect x="234" y="60" width="46" height="50" fill="#fdba74"/>
<path d="M40 160h240" stroke="#64748b" stroke-width="2"/><path d="M150 152v16l12-8z" fill="#e2e8f0"/>
</svg>`,
  'captioned-clip': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180">
<rect width="320" height="180" fill="#334155"/><path d="M0 180l90-90 60 60 50-40 120 70z" fill="#475569"/>
<circle cx="250" cy="45" r="18" fill="#fde68a"/>
<rect x="40" y="146" width="240" height="22" rx="3" fill="#000" opacity="0.55"/>
<text x="160" y="162" font-family="sans-serif" font-size="12" fill="#fff" text-anchor="middle">Your caption here</text>
</svg>`,
  'square-post': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
<rect width="200" height="200" fill="#581c87"/>
<text x="100" y="82" font-family="sans-serif" font-size="20" fill="#fff" text-anchor="middle">Big news</text>
<text x="100" y="106" font-family="sans-serif" font-size="9" fill="#e2e8f0" text-anchor="middle">Something worth sharing.</text>
<text x="100" y="178" font-family="sans-serif" font-size="8" fill="#94a3b8" text-anchor="middle">@you</text>
</svg>`,
} as const;

export function starterSample(name: keyof typeof SAMPLES): string {
  return `data:image/svg+xml;base64,${Buffer.from(SAMPLES[name]).toString('base64')}`;
}
