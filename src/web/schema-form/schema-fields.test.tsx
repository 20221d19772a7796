import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { catalogSchema } from './testing/catalog-schemas.ts';
import { renderSchemaForm } from './testing/render-schema-form.tsx';

const send = () => userEvent.click(screen.getByRole('button', { name: 'Send' }));

/** The error shown for a control, read the way a screen reader gets it (aria-describedby). */
function describedBy(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe('generated forms, on the catalog’s schemas', () => {
  it('strings: a required text area with a counter; the error is in place and tied to the field', async () => {
    const form = renderSchemaForm(catalogSchema('speech/local-flite'));
    const text = screen.getByRole('textbox', { name: /^Text/ });
    expect(text.tagName).toBe('TEXTAREA');
    expect(text).toHaveAttribute('aria-required', 'true');
    expect(screen.getByText('0 / 10,000')).toBeInTheDocument();
    await send();
    expect(await screen.findByText('Required.')).toBeInTheDocument();
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(describedBy(text)).toContain('Required.');
    expect(form.onSend).not.toHaveBeenCalled();

    await userEvent.type(text, 'Hello');
    expect(screen.getByText('5 / 10,000')).toBeInTheDocument();
    await send();
    await waitFor(() => expect(form.sent()).toEqual([{ text: 'Hello' }]));
  });

  it('strings: maxLength shows as a limit and refuses a longer prompt', async () => {
    const form = renderSchemaForm(catalogSchema('image/local-sketch'));
    const prompt = screen.getByRole('textbox', { name: 'Prompt' });
    await userEvent.click(prompt);
    await userEvent.paste('x'.repeat(2001));
    await send();
    expect(await screen.findByText('At most 2,000 characters.')).toBeInTheDocument();
    expect(form.onSend).not.toHaveBeenCalled();
  });

  it('strings: format uri and pattern, with messages people read', async () => {
    renderSchemaForm(catalogSchema('transcription/local-pocketsphinx'));
    await userEvent.type(screen.getByRole('textbox', { name: /Audio URL/ }), 'talk.wav');
    await userEvent.type(screen.getByRole('textbox', { name: 'Language' }), 'english!');
    await send();
    expect(await screen.findByText('Enter a full URL (https://…).')).toBeInTheDocument();
    expect(screen.getByText('Use a language code such as en or pt-BR.')).toBeInTheDocument();
    // The description is the hint, its code spans drawn as code.
    expect(screen.getByText('en', { selector: 'code' })).toBeInTheDocument();
  });

  it('numbers: bounds as the hint; too big, not a number, exclusive minimum', async () => {
    const form = renderSchemaForm(catalogSchema('video/local-motion'));
    const duration = screen.getByRole('textbox', { name: 'Duration' });
    expect(describedBy(duration)).toBe('Seconds, 1 to 60.');
    await userEvent.type(duration, '61');
    await send();
    expect(await screen.findByText('At most 60.')).toBeInTheDocument();
    await userEvent.clear(duration);
    await userEvent.type(duration, 'two');
    expect(await screen.findByText('Enter a number.')).toBeInTheDocument();
    await userEvent.clear(duration);
    await userEvent.type(duration, '1.5');
    await send();
    await waitFor(() => expect(form.sent()).toEqual([{ duration: 1.5 }]));
  });

  it('integers: whole numbers only, with the provider’s bounds', async () => {
    renderSchemaForm(catalogSchema('video/local-motion'));
    const fps = screen.getByRole('textbox', { name: 'FPS' });
    expect(describedBy(fps)).toBe('Frames per second; default 24. Whole number, 10 to 30.');
    await userEvent.type(fps, '12.5');
    await send();
    expect(await screen.findByText('Enter a whole number.')).toBeInTheDocument();
  });

  it('enums: a select for many values, with "Default" when optional', async () => {
    const form = renderSchemaForm(catalogSchema('speech/eleven-multilingual-v2'), { text: 'Hi' });
    const format = screen.getByRole('combobox', { name: 'Output format' });
    expect(within(format).getByRole('option', { name: 'Default' })).toBeInTheDocument();
    await userEvent.selectOptions(format, 'pcm_44100');
    await send();
    await waitFor(() =>
      expect(form.sent()).toEqual([
        { text: 'Hi', provider_options: { elevenlabs: { output_format: 'pcm_44100' } } },
      ]),
    );
  });

  it('numeric enums and the model’s aspect ratios: segmented choices that send the value’s type', async () => {
    const form = renderSchemaForm(catalogSchema('video/kling-2.1-master'));
    const duration = screen.getByRole('group', { name: 'Duration' });
    expect(
      within(duration)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['Default', '5 s', '10 s']);
    await userEvent.click(within(duration).getByRole('radio', { name: '10 s' }));
    const ratio = screen.getByRole('group', { name: 'Aspect ratio' });
    expect(within(ratio).getAllByRole('radio')).toHaveLength(4);
    await userEvent.click(within(ratio).getByRole('radio', { name: '9:16' }));
    await send();
    await waitFor(() => expect(form.sent()).toEqual([{ duration: 10, aspect_ratio: '9:16' }]));
  });

  it('aspect ratios: common ones, or another typed as w:h; focus goes to the one in error', async () => {
    const form = renderSchemaForm(catalogSchema('image/local-sketch'));
    const other = screen.getByRole('textbox', { name: 'Aspect ratio, another ratio' });
    await userEvent.type(other, 'wide');
    await send();
    expect(await screen.findByText('Use the form w:h, for example 16:9.')).toBeInTheDocument();
    // The typed ratio is what is wrong, not the hidden "Default" radio.
    expect(other).toHaveFocus();
    await userEvent.clear(other);
    await userEvent.type(other, '5:4');
    await send();
    await waitFor(() => expect(form.sent()).toEqual([{ aspect_ratio: '5:4' }]));
  });

  it('anyOf of consts: a choice that sends the number', async () => {
    const form = renderSchemaForm(catalogSchema('image/local-upscale'), {
      files: [{ url: 'https://example.com/a.png' }],
      provider_options: { local: {} },
    });
    const factor = screen.getByRole('group', { name: 'Factor' });
    await userEvent.click(within(factor).getByRole('radio', { name: '4' }));
    await send();
    await waitFor(() =>
      expect(form.sent()).toEqual([
        { files: [{ url: 'https://example.com/a.png' }], provider_options: { local: { factor: 4 } } },
      ]),
    );
  });

  it('booleans: optional ones keep the provider’s default until set', async () => {
    const form = renderSchemaForm(catalogSchema('image/flux-1.1-pro'), { prompt: 'x' });
    const raw = screen.getByRole('group', { name: 'Raw' });
    expect(within(raw).getByRole('radio', { name: 'Default' })).toBeChecked();
    await send();
    await waitFor(() => expect(form.sent()).toEqual([{ prompt: 'x' }]));
    await userEvent.click(within(raw).getByRole('radio', { name: 'On' }));
    await send();
    await waitFor(() =>
      expect(form.sent()[1]).toEqual({ prompt: 'x', provider_options: { fal: { raw: true } } }),
    );
  });

  it('nested objects: a titled group; untouched it is not sent, filled it nests', async () => {
    const form = renderSchemaForm(catalogSchema('speech/eleven-multilingual-v2'), { text: 'Hi' });
    const settings = screen.getByRole('group', { name: 'Voice settings' });
    await userEvent.type(within(settings).getByRole('textbox', { name: 'Stability' }), '0.5');
    await send();
    await waitFor(() =>
      expect(form.sent()).toEqual([
        { text: 'Hi', provider_options: { elevenlabs: { voice_settings: { stability: 0.5 } } } },
      ]),
    );
  });

  it('arrays of objects: rows added, moved and removed, up to maxItems', async () => {
    const form = renderSchemaForm(catalogSchema('image/recraft-v3'), { prompt: 'x' });
    const add = screen.getByRole('button', { name: 'Add color' });
    for (let i = 0; i < 5; i++) await userEvent.click(add);
    expect(add).toBeDisabled();
    expect(screen.getByText('Up to 5 colors.')).toBeInTheDocument();
    await userEvent.type(
      within(screen.getByRole('listitem', { name: 'Color 1' })).getByRole('textbox', { name: 'R' }),
      '255',
    );
    await userEvent.type(
      within(screen.getByRole('listitem', { name: 'Color 2' })).getByRole('textbox', { name: 'G' }),
      '128',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Move Color 2 up' }));
    for (const n of [5, 4, 3])
      await userEvent.click(screen.getByRole('button', { name: `Remove Color ${n}` }));
    expect(add).toBeEnabled();
    await send();
    await waitFor(() =>
      expect(form.sent()).toEqual([
        { prompt: 'x', provider_options: { fal: { colors: [{ g: 128 }, { r: 255 }] } } },
      ]),
    );
  });

  it('unions (oneOf tagged by a const): pick the shape, its required fields are checked, the tag is sent', async () => {
    const form = renderSchemaForm(catalogSchema('image/local-edit'), {
      files: [{ url: 'https://example.com/a.png' }],
      provider_options: { local: { operations: [] } },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Add operation' }));
    const row = screen.getByRole('listitem', { name: 'Operation 1' });
    const shape = within(row).getByRole('combobox', { name: /Operation/ });
    expect(shape).toHaveDisplayValue('Resize');
    await userEvent.selectOptions(shape, 'Crop');
    expect(within(row).queryByRole('group', { name: 'Fit' })).not.toBeInTheDocument();
    await userEvent.type(within(row).getByRole('textbox', { name: /^Left/ }), '0');
    await send();
    expect(await within(row).findAllByText('Required.')).toHaveLength(3);
    for (const [name, value] of [
      ['Top', '0'],
      ['Width', '10'],
      ['Height', '20'],
    ] as const) {
      await userEvent.type(within(row).getByRole('textbox', { name: new RegExp(`^${name}`) }), value);
    }
    await send();
    await waitFor(() =>
      expect(form.sent()).toEqual([
        {
          files: [{ url: 'https://example.com/a.png' }],
          provider_options: {
            local: { operations: [{ op: 'crop', left: 0, top: 0, width: 10, height: 20 }] },
          },
        },
      ]),
    );
  });

  it('unions through $ref and lists with a minimum: the list’s own error is shown', async () => {
    renderSchemaForm(catalogSchema('ffmpeg/ffmpeg'));
    await send();
    expect(await screen.findAllByText('Add at least one.')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Add operation' }));
    const row = screen.getByRole('listitem', { name: 'Operation 1' });
    expect(within(row).getByRole('combobox', { name: /Operation/ })).toHaveDisplayValue('Transcode');
    expect(within(row).getByRole('combobox', { name: /Format/ })).toBeInTheDocument();
  });

  it('input files: URLs added, the model’s count enforced', async () => {
    const form = renderSchemaForm(catalogSchema('image/local-edit'));
    await send();
    expect(await screen.findByText('Add at least one.')).toBeInTheDocument();
    expect(screen.getByText(/Exactly 1 file/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add a file URL' }));
    expect(screen.getByRole('button', { name: 'Add a file URL' })).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', { name: /File 1/ }), 'https://example.com/a.png');
    await send();
    await waitFor(() => expect(form.sent()).toEqual([{ files: [{ url: 'https://example.com/a.png' }] }]));
  });

  it('records (additionalProperties schema) are written as JSON', async () => {
    const form = renderSchemaForm(catalogSchema('pipeline/pipeline'));
    await userEvent.click(screen.getByRole('button', { name: 'Add step' }));
    const row = screen.getByRole('listitem', { name: 'Step 1' });
    await userEvent.type(within(row).getByRole('textbox', { name: /^ID/ }), 'sketch');
    await userEvent.selectOptions(within(row).getByRole('combobox', { name: /Tool/ }), 'image');
    const input = within(row).getByRole('textbox', { name: /^Input/ });
    await userEvent.click(input);
    await userEvent.paste('{ "prompt": ');
    await send();
    expect(await within(row).findByText('Enter a JSON object.')).toBeInTheDocument();
    await userEvent.paste('"a kite" }');
    await send();
    await waitFor(() =>
      expect(form.sent()).toEqual([
        { steps: [{ id: 'sketch', tool: 'image', input: { prompt: 'a kite' } }] },
      ]),
    );
  });

  it('defaults show as placeholders and are left to the server', async () => {
    const form = renderSchemaForm(catalogSchema('render/local-render'), {
      duration: 2,
      layers: [{ type: 'text', text: 'Hi' }],
    });
    expect(screen.getByRole('textbox', { name: 'Width' })).toHaveAttribute('placeholder', 'Default: 1280');
    expect(screen.getByRole('group', { name: 'Format' })).toHaveTextContent('Default (mp4)');
    await send();
    await waitFor(() =>
      expect(form.sent()).toEqual([{ duration: 2, layers: [{ type: 'text', text: 'Hi' }] }]),
    );
  });

  it('closed objects (additionalProperties: false) offer only their fields, and a provider with none says so', () => {
    renderSchemaForm(catalogSchema('transcription/local-pocketsphinx'));
    const group = screen.getByRole('group', { name: 'Provider options' });
    expect(within(group).getByText('Nothing to set here.')).toBeInTheDocument();
    expect(within(group).queryByRole('textbox')).not.toBeInTheDocument();
  });
});
