/**
 * Schema descriptions are written with Markdown code spans (`16:9`, `files`): drawn as code, the
 * rest as plain text (never as HTML: descriptions come from the server).
 */
export function InlineText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/g).filter(Boolean);
  return (
    <>
      {parts.map((part, index) =>
        part.startsWith('`') && part.endsWith('`') && part.length > 2 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string never move.
          <code key={index} className="rounded bg-zinc-100 px-1 font-mono text-[0.95em] dark:bg-zinc-800">
            {part.slice(1, -1)}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}
