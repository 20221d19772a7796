import { useEffect, useState } from 'react';
import { Button } from './button.tsx';

/** Copies a value people quote elsewhere (an id), and says so for a moment. */
export function CopyButton({ value, label = 'Copy id' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2_000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant="ghost"
      size="sm"
      className="h-6 px-1.5 text-xs"
      onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}
    >
      <span aria-live="polite">{copied ? 'Copied' : label}</span>
    </Button>
  );
}
