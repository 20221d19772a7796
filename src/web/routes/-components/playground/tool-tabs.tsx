import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { ToolKey } from '../../../../contract/common.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { cx } from '../../../components/cx.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import { pluralNoun } from '../../../format/words.ts';

interface ToolTabsProps {
  tools: readonly ToolKey[];
  catalog: readonly PriceCatalogEntry[];
  selected: ToolKey;
}

/**
 * One tab per tool (links: `?tool=` in the URL), with how many of its models run here. The strip
 * scrolls sideways on small screens; it is positioned so its screen-reader-only text scrolls with it
 * instead of widening the page.
 */
export function ToolTabs({ tools, catalog, selected }: ToolTabsProps) {
  const { ref, more } = useMoreToTheRight();
  const activeRef = useRef<HTMLAnchorElement>(null);
  // On a phone the chosen tool may be past the edge of the strip: centre it, sideways only (the page
  // itself must not move).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the chosen tool changes.
  useEffect(() => {
    const nav = ref.current;
    const link = activeRef.current;
    if (nav && link) nav.scrollLeft = link.offsetLeft - (nav.clientWidth - link.offsetWidth) / 2;
  }, [selected]);
  return (
    // While tabs are hidden past the right edge, that edge fades out: a sign that the strip scrolls.
    <nav
      ref={ref}
      aria-label="Tools"
      className={cx(
        'relative overflow-x-auto pb-1',
        more && '[mask-image:linear-gradient(to_right,black_calc(100%_-_3rem),transparent)]',
      )}
    >
      <ul className="flex min-w-max gap-1 border-b border-zinc-200 px-1 dark:border-zinc-800">
        {tools.map((tool) => {
          const available = catalog.filter((e) => e.tool === tool && e.available).length;
          const active = tool === selected;
          return (
            <li key={tool}>
              <Link
                ref={active ? activeRef : undefined}
                to="/playground"
                search={{ tool }}
                aria-current={active ? 'page' : undefined}
                className={
                  active
                    ? '-mb-px flex items-center gap-2 border-b-2 border-zinc-900 px-3 py-2 text-sm font-semibold text-zinc-950 dark:border-zinc-100 dark:text-white'
                    : '-mb-px flex items-center gap-2 border-b-2 border-transparent px-3 py-2 text-sm font-medium text-zinc-600 hover:border-zinc-300 hover:text-zinc-900 dark:text-zinc-400 dark:hover:border-zinc-700 dark:hover:text-zinc-100'
                }
              >
                {toolLabel(tool)}
                <span className="rounded-full bg-zinc-100 px-1.5 text-xs font-normal text-zinc-600 tabular-nums dark:bg-zinc-800 dark:text-zinc-400">
                  {available}
                  <span className="sr-only">{` ${pluralNoun(available, 'model', 'models')} available`}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Whether a sideways-scrolling element has content past its right edge, kept up to date. */
function useMoreToTheRight() {
  const ref = useRef<HTMLElement>(null);
  const [more, setMore] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => setMore(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(element);
    return () => {
      element.removeEventListener('scroll', update);
      observer?.disconnect();
    };
  }, []);
  return { ref, more };
}
