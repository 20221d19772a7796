import { useState } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { useUpdateTeamTimezone } from '../../../queries/budgets.ts';

/** Every IANA zone the browser knows (UTC first, which `supportedValuesOf` leaves out). */
function zones(current: string): string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return [...new Set(['UTC', current, ...known])];
}

/** Owners and managers choose the team's time zone: where budgets' days, weeks and months begin. */
export function TeamTimezone({ timezone }: { timezone: string }) {
  const [chosen, setChosen] = useState(timezone);
  const update = useUpdateTeamTimezone();
  return (
    <form
      className="mb-6 flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate(chosen);
      }}
    >
      <LabelledField label="Team time zone" className="w-72">
        {(id) => (
          <select id={id} className={FIELD_SELECT} value={chosen} onChange={(e) => setChosen(e.target.value)}>
            {zones(timezone).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        )}
      </LabelledField>
      <Button type="submit" variant="secondary" pending={update.isPending} disabled={chosen === timezone}>
        Save time zone
      </Button>
      {update.error && (
        <Alert tone="error" className="w-full">
          {errorMessage(update.error)}
        </Alert>
      )}
    </form>
  );
}
