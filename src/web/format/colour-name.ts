/*
 * A colour in words: "#0f172a" reads "Navy". Choices of colours (a template's background) were shown as
 * raw hex codes; a person picks by name and swatch, and the code stays on hover.
 */

/** Named colours people use, with a representative value each; the nearest one names a colour. */
const NAMED: ReadonlyArray<readonly [string, number, number, number]> = [
  ['Black', 0, 0, 0],
  ['Charcoal', 40, 40, 45],
  ['Grey', 128, 128, 128],
  ['Silver', 192, 192, 192],
  ['White', 255, 255, 255],
  ['Navy', 15, 23, 60],
  ['Dark blue', 30, 58, 138],
  ['Blue', 37, 99, 235],
  ['Sky blue', 125, 200, 240],
  ['Teal', 13, 148, 136],
  ['Dark green', 20, 83, 45],
  ['Green', 34, 160, 70],
  ['Olive', 110, 115, 35],
  ['Lime', 170, 220, 60],
  ['Yellow', 250, 215, 40],
  ['Orange', 245, 130, 30],
  ['Rust', 124, 45, 18],
  ['Brown', 120, 75, 40],
  ['Red', 220, 38, 38],
  ['Maroon', 110, 20, 35],
  ['Pink', 240, 130, 180],
  ['Purple', 88, 28, 135],
  ['Violet', 150, 100, 230],
  ['Beige', 235, 220, 190],
];

const HEX = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i;

/** Whether a value is a colour code (#rgb or #rrggbb). */
export function isHexColour(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value);
}

/** The name of the nearest named colour ("Navy"), or null for a value that is not a colour code. */
export function colourName(value: string): string | null {
  const match = HEX.exec(value);
  if (!match) return null;
  const hex = match[1]!.length === 3 ? [...match[1]!].map((c) => c + c).join('') : match[1]!;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  let best = NAMED[0]!;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const named of NAMED) {
    // Weighted for how the eye sees differences (green most, blue least).
    const distance = 2 * (r - named[1]) ** 2 + 4 * (g - named[2]) ** 2 + 3 * (b - named[3]) ** 2;
    if (distance < bestDistance) {
      best = named;
      bestDistance = distance;
    }
  }
  return best[0];
}
