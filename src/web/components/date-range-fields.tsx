import { FIELD_SELECT, LabelledField } from './labelled-field.tsx';

interface DateRangeFieldsProps {
  /** ISO days (`YYYY-MM-DD`), each absent when unset. */
  from: string | undefined;
  to: string | undefined;
  labels: { from: string; to: string };
  onChange: (range: { from?: string | undefined; to?: string | undefined }) => void;
  /** The inputs' classes; the filter bars' select style unless a bar has its own. */
  inputClassName?: string;
  compact?: boolean;
}

/**
 * Two labelled date inputs of a filter bar, each end bounded by the other (the picker offers no "from"
 * after "to"), and cleared to undefined rather than an empty string.
 */
export function DateRangeFields({
  from,
  to,
  labels,
  onChange,
  inputClassName = FIELD_SELECT,
  compact,
}: DateRangeFieldsProps) {
  return (
    <>
      <LabelledField label={labels.from} compact={compact}>
        {(id) => (
          <input
            id={id}
            type="date"
            className={inputClassName}
            value={from ?? ''}
            max={to}
            onChange={(e) => onChange({ from: e.target.value || undefined })}
          />
        )}
      </LabelledField>
      <LabelledField label={labels.to} compact={compact}>
        {(id) => (
          <input
            id={id}
            type="date"
            className={inputClassName}
            value={to ?? ''}
            min={from}
            onChange={(e) => onChange({ to: e.target.value || undefined })}
          />
        )}
      </LabelledField>
    </>
  );
}
