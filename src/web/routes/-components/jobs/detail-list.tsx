import type { ReactNode } from 'react';

export interface DetailItem {
  label: string;
  value: ReactNode;
}

/** A titled section of label/value pairs; empty values show as a dash. */
export function DetailSection({
  title,
  items,
  children,
}: {
  title: string;
  items?: DetailItem[];
  children?: ReactNode;
}) {
  return (
    <section className="mb-6" aria-label={title}>
      <h3 className="mb-2 text-sm font-semibold text-zinc-900 dark:text-zinc-100">{title}</h3>
      {items && (
        <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1.5 rounded-xl border border-zinc-200 bg-white px-4 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900">
          {items.map((item) => (
            <div key={item.label} className="contents">
              <dt className="text-zinc-600 dark:text-zinc-400">{item.label}</dt>
              <dd className="min-w-0 break-words">
                {item.value === null || item.value === undefined || item.value === '' ? (
                  <span className="text-zinc-500 dark:text-zinc-500">—</span>
                ) : (
                  item.value
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {children}
    </section>
  );
}

export function Mono({ children }: { children: ReactNode }) {
  return <code className="font-mono text-xs break-all">{children}</code>;
}
