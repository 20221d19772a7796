import { Button } from '../../../components/button.tsx';
import { downloadCsv } from './csv.ts';

interface ExportButtonProps {
  /** What the panel shows, for the button's accessible name ("Export CSV of spend over time"). */
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
      aria-label={`Export CSV of ${label}`}
      onClick={() => downloadCsv(`${filename}-${label.replaceAll(' ', '-')}.csv`, build())}
    >
      Export CSV
    </Button>
  );
}
