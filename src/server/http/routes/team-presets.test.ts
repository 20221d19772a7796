import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Preset, TEAM_PRESETS_MAX } from '../../../contract/presets.ts';
import { imageStylePresetId } from '../../domain/presets/image-styles.ts';
import { failure, type Person, person } from '../../testing/team-test-support.ts';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

let t: TestApp;
let ada: Person;
let bea: Person;
beforeAll(async () => {
  t = await createTestApp();
  [ada, bea] = await Promise.all([person(t), person(t)]);
});
afterAll(() => t.close());

const inkSketch = imageStylePresetId('ink-sketch');
const styled = (prompt: string) => ({
  model: 'local-sketch',
  prompt,
  provider_options: { local: { style: inkSketch } },
});

describe('image style fragments', () => {
  it('change what the local sketch engine draws, and an unknown style is refused', async () => {
    const plain = await waitForTerminal(
      ada.client,
      (await ada.client.createImage({ body: { model: 'local-sketch', prompt: 'a fox' } })).id,
    );
    const inked = await waitForTerminal(
      ada.client,
      (await ada.client.createImage({ body: styled('a fox') })).id,
    );
    expect(plain.status).toBe('completed');
    expect(inked.status).toBe('completed');
    expect(inked.output!.outputs[0]!.file_id).not.toBe(plain.output!.outputs[0]!.file_id);
    const wrong = await failure(
      ada.client.createImage({
        body: {
          model: 'local-sketch',
          prompt: 'a fox',
          provider_options: { local: { style: 'preset_000000000000' } },
        },
      }),
    );
    expect(wrong.status).toBe(422);
  });
});

describe('the style parameter', () => {
  it('is published with one choice per style preset, titled with its name', async () => {
    const styles = (
      await ada.client.listPresets({ query: { type: 'style', namespace: 'local', limit: 100 } })
    ).data;
    expect(styles.length).toBeGreaterThanOrEqual(12);
    const tool = await ada.client.getTool({
      params: { tool_key: 'image' },
      query: { model: 'local-sketch' },
    });
    const schema = JSON.stringify(tool.input_schema);
    for (const style of styles) {
      expect(schema).toContain(JSON.stringify({ type: 'string', const: style.id, title: style.name }));
    }
  });
});

describe('private presets of a team', () => {
  it('saves a finished job input, seen by the team only; built-in presets answer the same to everyone', async () => {
    const job = await waitForTerminal(
      ada.client,
      (await ada.client.createImage({ body: styled('a quiet harbour') })).id,
    );
    const saved = Preset.parse(
      await ada.client.createPreset({
        body: {
          name: '  Harbour ink  ',
          tool: 'image',
          type: 'style',
          fragment: { ...job.input, options: { webhook_url: 'https://hooks.example/x' } },
        },
      }),
    );
    expect(saved).toEqual({
      id: expect.stringMatching(/^preset_[0-9a-f]{12}$/),
      kind: 'provider_value',
      type: 'style',
      namespace: 'team',
      name: 'Harbour ink',
      description: '',
      // The fragment uses the ink sketch style: its sample stands for the preset.
      preview_url: `${TEST_PUBLIC_URL}/v2/presets/${inkSketch}/preview`,
      metadata: { tool: 'image', model: 'local-sketch' },
      status: 'active',
      tools: { image: styled('a quiet harbour') },
    });

    expect(await ada.client.getPreset({ params: { id: saved.id } })).toEqual(saved);
    expect(await failure(bea.client.getPreset({ params: { id: saved.id } }))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    expect(await failure(t.clientFor(null).getPreset({ params: { id: saved.id } }))).toMatchObject({
      status: 404,
    });

    const mine = await ada.client.listPresets({ query: { namespace: 'team' } });
    expect(mine.data).toEqual([saved]);
    expect((await bea.client.listPresets({ query: { namespace: 'team' } })).data).toEqual([]);
    expect((await t.clientFor(null).listPresets({ query: { namespace: 'team' } })).data).toEqual([]);
    // Filters see private presets like any other.
    expect((await ada.client.listPresets({ query: { type: 'style', metadata: 'tool:image' } })).data).toEqual(
      [saved],
    );

    const builtIn = await t.clientFor(null).getPreset({ params: { id: inkSketch } });
    expect(await ada.client.getPreset({ params: { id: inkSketch } })).toEqual(builtIn);
  });

  it('renames and deletes only its own private presets', async () => {
    const saved = await ada.client.createPreset({
      body: { name: 'Loud', tool: 'speech', fragment: { model: 'local-flite', text: 'hello' } },
    });
    expect(saved.type).toBe('input');
    // No built-in preset in it: a drawn picture, carried inline.
    expect(saved.preview_url).toMatch(/^data:image\/svg\+xml;base64,/);

    expect(
      await failure(bea.client.updatePreset({ params: { id: saved.id }, body: { name: 'Mine now' } })),
    ).toMatchObject({ status: 404 });
    expect(await failure(bea.client.deletePreset({ params: { id: saved.id } }))).toMatchObject({
      status: 404,
    });
    expect(
      await failure(ada.client.updatePreset({ params: { id: inkSketch }, body: { name: 'Mine' } })),
    ).toMatchObject({ status: 404 });
    expect(await failure(ada.client.deletePreset({ params: { id: inkSketch } }))).toMatchObject({
      status: 404,
    });
    expect(await failure(ada.client.updatePreset({ params: { id: saved.id }, body: {} }))).toMatchObject({
      status: 422,
    });
    expect(
      await failure(ada.client.updatePreset({ params: { id: saved.id }, body: { name: ' ' } })),
    ).toMatchObject({ status: 422 });

    const renamed = await ada.client.updatePreset({
      params: { id: saved.id },
      body: { name: 'Quiet', description: 'Softly' },
    });
    expect(renamed).toEqual({ ...saved, name: 'Quiet', description: 'Softly' });
    expect(await ada.client.getPreset({ params: { id: saved.id } })).toEqual(renamed);

    await ada.client.deletePreset({ params: { id: saved.id } });
    expect(await failure(ada.client.getPreset({ params: { id: saved.id } }))).toMatchObject({ status: 404 });
    expect(await failure(ada.client.deletePreset({ params: { id: saved.id } }))).toMatchObject({
      status: 404,
    });
  });

  it('refuses a fragment the tool cannot take, saving without credentials, and a team past its limit', async () => {
    const unknownField = await failure(
      ada.client.createPreset({
        body: { name: 'x', tool: 'image', fragment: { voice: 'preset_000000000000' } },
      }),
    );
    expect(unknownField).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(unknownField.message).toContain('voice');
    const onlyOptions = await failure(
      ada.client.createPreset({
        body: { name: 'x', tool: 'image', fragment: { options: { cache: false } } },
      }),
    );
    expect(onlyOptions.status).toBe(422);
    const badPreview = await failure(
      ada.client.createPreset({
        body: { name: 'x', tool: 'image', fragment: { prompt: 'p' }, preview_url: 'javascript:alert(1)' },
      }),
    );
    expect(badPreview.status).toBe(422);
    expect(
      await failure(
        t.clientFor(null).createPreset({ body: { name: 'x', tool: 'image', fragment: { prompt: 'p' } } }),
      ),
    ).toMatchObject({ status: 401, code: 'unauthorized' });

    const crowd = await person(t);
    await t.db.query(
      `INSERT INTO team_presets (id, team_id, type, name, description, metadata, tools, preview_url)
       SELECT 'preset_' || lpad(to_hex(n), 12, '0'), $1, 'input', 'p' || n, '', '{}', '{}', 'data:,'
         FROM generate_series(1, $2::int) n`,
      [crowd.teamId, TEAM_PRESETS_MAX - 1],
    );
    await crowd.client.createPreset({ body: { name: 'last', tool: 'image', fragment: { prompt: 'p' } } });
    const over = await failure(
      crowd.client.createPreset({ body: { name: 'one more', tool: 'image', fragment: { prompt: 'p' } } }),
    );
    expect(over).toMatchObject({ status: 409, code: 'conflict' });
  });
});
