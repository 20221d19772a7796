import { Button } from '../../../components/button.tsx';
import { downloadCsv } from './csv.ts';

interface ExportButtonProps {
  /** What the panel shows, for the button's accessible name ("Export spend over time as CSV"). */
  label: string;
  filename: string;
  build: () => string;
}

/** Downloads the panel's numbers, built from the same data the panel shows. */
export function ExportButton({ label, filename, build }: ExportButtonProps) {
  return (
    <Button
      variant="secondary"
      size="sm"
      aria-label={`Export ${label} as CSV`}
      onClick={() => downloadCsv(`${filename}-${label.replaceAll(' ', '-')}.csv`, build())}
    >
      Export CSV
    </Button>
  );
}
