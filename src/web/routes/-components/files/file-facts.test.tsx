import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fileRecord } from '../../../uploads/file-fixture.ts';
import { FileFacts } from './file-facts.tsx';
import { renderWithFileRoutes } from './files-test-harness.tsx';

describe('FileFacts', () => {
  it("names a generated file's prompt, model and play time", async () => {
    const clip = fileRecord({
      origin: 'job',
      job_id: 'job_1',
      media_type: 'video/mp4',
      metadata: { prompt: 'waves at dusk', model: 'local-motion', tool: 'video', duration_seconds: 2 },
    });
    renderWithFileRoutes(<FileFacts file={clip} folder={undefined} />);
    const facts = await screen.findByRole('region', { name: 'Facts' });
    expect(facts).toHaveTextContent('Promptwaves at dusk');
    expect(facts).toHaveTextContent('Modellocal-motion');
    expect(facts).toHaveTextContent('Duration2.0 s');
  });
});
