import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The console runs on React 18 (React 19's react-dom client is one module over the 60 KB gzip a chunk may
 * weigh; docs/performance.md, "Why React 18"). React 18 keeps `ref` from a function
 * component's props: a component that declares one, as React 19 allows, never gets it, and a ref handed
 * to it (react-hook-form's register() hands one) silently goes nowhere. Such a component takes its ref
 * through forwardRef instead.
 */

const web = import.meta.dirname;

function componentFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return componentFiles(full);
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [full] : [];
  });
}

/** A member `ref` in a type or interface (`ref?: Ref<…>`, `ref: RefObject<…>`), or `ref` destructured from props. */
const REF_PROP = /^\s*ref\??\s*:|\(\s*\{[^}]*\bref\b[^}]*\}\s*:/m;

describe('refs into components', () => {
  it('no function component takes `ref` as a prop (React 18 drops it): forwardRef instead', () => {
    const offenders = componentFiles(web)
      .filter((file) => REF_PROP.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(web, file));
    expect(offenders).toEqual([]);
  });

  it('recognises the React 19 way of taking a ref', () => {
    expect(REF_PROP.test('interface P {\n  label: string;\n  ref?: Ref<HTMLInputElement>;\n}')).toBe(true);
    expect(REF_PROP.test('export function Field({ label, ref, ...rest }: FieldProps) {')).toBe(true);
    expect(REF_PROP.test('const ref = useRef<HTMLDivElement>(null);\n<div ref={ref} />')).toBe(false);
    expect(REF_PROP.test('  buttonRef: RefObject<HTMLButtonElement>;')).toBe(false);
  });
});
