import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { Job } from '../../../contract/jobs.ts';
import { Template, TemplateUseResponse } from '../../../contract/templates.ts';
import { pendingTemplates } from '../../domain/templates/template-store.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

const OPERATOR = 'templates-operator@example.com';
const TITLE_CARD = 'tpl_starter_title_card';

let t: TestApp;
let key: string;
let client: ReturnType<TestApp['clientFor']>;
let other: ReturnType<TestApp['clientFor']>;
let operator: ReturnType<TestApp['clientFor']>;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: `someone@example.com, ${OPERATOR.toUpperCase()}` });
  key = (await signUp(t)).api_key;
  client = t.clientFor(key);
  other = t.clientFor((await signUp(t)).api_key);
  operator = t.clientFor((await signUp(t, OPERATOR)).api_key);
});
afterAll(() => t.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );

const published = (name: string, tags: string[] = ['mine']) => ({
  name,
  description: 'A card for our launches',
  tags,
  tool: 'render' as const,
  request: {
    duration: 1,
    format: 'png',
    layers: [{ type: 'text', text: '{{headline}}' }],
  },
  variables: [{ name: 'headline', label: 'Headline', type: 'text' as const }],
});

describe('POST /v2/templates/{id}/use (spec 4.8)', () => {
  it("answers each text variable's limit where the template places it (a title card's title: 500, as a text layer)", async () => {
    const template = await client.getTemplate({ params: { id: TITLE_CARD } });
    expect(template.variables.find((v) => v.name === 'title')?.max_length).toBe(500);
    expect(template.variables.find((v) => v.name === 'background')?.max_length).toBeNull();
  });

  it('counts one use and answers { success, useCount }', async () => {
    const before = (await client.getTemplate({ params: { id: TITLE_CARD } })).use_count;
    const response = await t.request(`/v2/templates/${TITLE_CARD}/use`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    expect(TemplateUseResponse.strict().parse(await response.json())).toEqual({
      success: true,
      useCount: before + 1,
    });
    expect((await other.useTemplate({ params: { id: TITLE_CARD } })).useCount).toBe(before + 2);
  });

  it('answers 400 for a malformed id, 401 without credentials, 404 for an unknown one', async () => {
    const malformed = await t.request('/v2/templates/not-a-template/use', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe('invalid_request');

    const anonymous = await t.request(`/v2/templates/${TITLE_CARD}/use`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe('unauthorized');

    const unknown = await failure(client.useTemplate({ params: { id: 'tpl_nothing_here' } }));
    expect([unknown?.status, unknown?.code]).toEqual([404, 'not_found']);
  });

  it('does not check approval (a pending template of its own team counts), but another team sees 404', async () => {
    const mine = (await client.publishTemplate({ body: published('Pending use') })).id;
    expect((await client.useTemplate({ params: { id: mine } })).useCount).toBe(1);
    expect((await client.useTemplate({ params: { id: mine } })).useCount).toBe(2);
    const theirs = await failure(other.useTemplate({ params: { id: mine } }));
    expect(theirs?.status).toBe(404);
  });
});

describe('GET /v2/templates/tags (spec 4.8)', () => {
  it('lists the tags of approved templates only, sorted', async () => {
    const tags = (await client.listTemplateTags({})).data;
    expect(tags).toEqual([...tags].sort());
    expect(tags).toEqual(expect.arrayContaining(['title', 'slideshow', 'captions', 'social']));

    const pending = await client.publishTemplate({ body: published('Tagged', ['zz-unreviewed']) });
    expect((await client.listTemplateTags({})).data).not.toContain('zz-unreviewed');
    await operator.reviewTemplate({ params: { id: pending.id }, body: { decision: 'approve' } });
    expect((await other.listTemplateTags({})).data).toContain('zz-unreviewed');
  });
});

describe('the starter set', () => {
  it('ships four approved templates with a sample picture each', async () => {
    const page = await client.listTemplates({ query: { tag: 'title,slideshow,captions,social' } });
    const starters = page.data.filter((tpl) => tpl.id.startsWith('tpl_starter_'));
    expect(starters.map((tpl) => tpl.name).sort()).toEqual([
      'Captioned clip',
      'Slideshow with narration and music',
      'Square social post',
      'Title card',
    ]);
    for (const starter of starters) {
      Template.strict().parse(starter);
      expect(starter).toMatchObject({ status: 'approved', author: null, team_id: null });
      const svg = Buffer.from(starter.preview_url?.split(',')[1] ?? '', 'base64');
      const picture = await sharp(svg).metadata();
      expect(picture.width).toBeGreaterThan(100);
    }
  });
});

describe('browsing', () => {
  it('lists approved templates by tag and text, paginated', async () => {
    const ids: string[] = [];
    for (const name of ['Alpha poster', 'Beta poster', 'Gamma poster']) {
      const tpl = await client.publishTemplate({ body: published(name, ['poster-test']) });
      await operator.reviewTemplate({ params: { id: tpl.id }, body: { decision: 'approve' } });
      ids.push(tpl.id);
    }
    const first = await other.listTemplates({ query: { tag: 'poster-test', limit: 2 } });
    expect(first.data.map((tpl) => tpl.name)).toEqual(['Gamma poster', 'Beta poster']);
    expect(first.next_cursor).not.toBeNull();
    const second = await other.listTemplates({
      query: { tag: 'poster-test', limit: 2, cursor: first.next_cursor ?? '' },
    });
    expect(second.data.map((tpl) => tpl.name)).toEqual(['Alpha poster']);
    expect(second.next_cursor).toBeNull();

    const byText = await other.listTemplates({ query: { q: 'BETA post' } });
    expect(byText.data.map((tpl) => tpl.id)).toEqual([ids[1]]);
    // `%` matches itself, not everything.
    expect((await other.listTemplates({ query: { q: '%' } })).data).toEqual([]);
  });

  it('sorts by use count with `popular`', async () => {
    const [a, b] = await Promise.all(
      ['Seldom', 'Often'].map((name) => client.publishTemplate({ body: published(name, ['popular-test']) })),
    );
    for (const tpl of [a, b]) {
      await operator.reviewTemplate({ params: { id: tpl!.id }, body: { decision: 'approve' } });
    }
    await client.useTemplate({ params: { id: b!.id } });
    const page = await client.listTemplates({ query: { tag: 'popular-test', sort: 'popular', limit: 1 } });
    expect(page.data.map((tpl) => tpl.name)).toEqual(['Often']);
    const next = await client.listTemplates({
      query: { tag: 'popular-test', sort: 'popular', limit: 1, cursor: page.next_cursor ?? '' },
    });
    expect(next.data.map((tpl) => tpl.name)).toEqual(['Seldom']);
  });

  it('answers a bad cursor with 422', async () => {
    const bad = await failure(client.listTemplates({ query: { cursor: 'garbage' } }));
    expect([bad?.status, bad?.code]).toEqual([422, 'invalid_request']);
  });
});

describe('publishing', () => {
  it('starts pending: listed to its own team with author=me, hidden from everyone else', async () => {
    const tpl = await client.publishTemplate({ body: published('Team only', ['team-only']) });
    expect(Template.strict().parse(tpl)).toMatchObject({
      status: 'pending',
      approved_at: null,
      use_count: 0,
    });
    expect(tpl.author?.user_id).toBe((await client.getMe({})).person?.id);

    expect((await client.getTemplate({ params: { id: tpl.id } })).id).toBe(tpl.id);
    expect((await client.listTemplates({ query: { author: 'me' } })).data.map((x) => x.id)).toContain(tpl.id);
    expect((await client.listTemplates({ query: { tag: 'team-only' } })).data).toEqual([]);

    expect((await failure(other.getTemplate({ params: { id: tpl.id } })))?.status).toBe(404);
    expect((await other.listTemplates({ query: { author: 'me' } })).data.map((x) => x.id)).not.toContain(
      tpl.id,
    );
  });

  it('refuses an undeclared placeholder and a choice without choices (422)', async () => {
    const body = published('Broken');
    const undeclared = await failure(
      client.publishTemplate({ body: { ...body, request: { ...body.request, background: '{{colour}}' } } }),
    );
    expect([undeclared?.status, undeclared?.code]).toEqual([422, 'invalid_request']);
    const choice = await failure(
      client.publishTemplate({
        body: { ...body, variables: [{ name: 'headline', label: 'Headline', type: 'choice' }] },
      }),
    );
    expect(choice?.status).toBe(422);
  });

  it('refuses a request its tool would refuse even with the defaults filled in, naming the field', async () => {
    const body = published('Never renders');
    // `{{headline}}` in a number field can never be a number.
    const refused = await failure(
      client.publishTemplate({ body: { ...body, request: { ...body.request, duration: '{{headline}}' } } }),
    );
    expect([refused?.status, refused?.code]).toEqual([422, 'invalid_request']);
    expect(refused?.message).toContain('request.duration');
    // A colour from a text variable is fine when its default is a colour.
    const colour = await client.publishTemplate({
      body: {
        ...body,
        request: { ...body.request, background: '{{colour}}' },
        variables: [...body.variables, { name: 'colour', label: 'Colour', type: 'text', default: '#112233' }],
      },
    });
    expect(colour.status).toBe('pending');
  });
});

describe('publishing limit', () => {
  it('takes 20 templates an hour from one person, then answers 429 with Retry-After', async () => {
    const busy = t.clientFor((await signUp(t)).api_key);
    for (let i = 0; i < 20; i++) await busy.publishTemplate({ body: published(`Batch ${i}`) });
    const refused = await failure(busy.publishTemplate({ body: published('One too many') }));
    expect([refused?.status, refused?.code]).toEqual([429, 'rate_limited']);
    expect(refused?.retryAfter).toBeGreaterThan(0);
    expect((await busy.listTemplates({ query: { author: 'me', limit: 100 } })).data).toHaveLength(20);
  });
});

describe('approval', () => {
  it('is open only to the operators of ADMIN_EMAILS; anyone else gets 404', async () => {
    const tpl = await client.publishTemplate({ body: published('Review me') });
    const byAuthor = await failure(
      client.reviewTemplate({ params: { id: tpl.id }, body: { decision: 'approve' } }),
    );
    expect([byAuthor?.status, byAuthor?.code]).toEqual([404, 'not_found']);
    expect((await pendingTemplates(t.db)).map((x) => x.id)).toContain(tpl.id);

    const rejected = await operator.reviewTemplate({ params: { id: tpl.id }, body: { decision: 'reject' } });
    expect(rejected).toMatchObject({ status: 'rejected', approved_at: null });
    // Rejected: still its team's (to fix and publish again), no one else's.
    expect((await client.getTemplate({ params: { id: tpl.id } })).status).toBe('rejected');
    expect((await failure(other.getTemplate({ params: { id: tpl.id } })))?.status).toBe(404);

    const approved = await operator.reviewTemplate({ params: { id: tpl.id }, body: { decision: 'approve' } });
    expect(approved.status).toBe('approved');
    expect(approved.approved_at).not.toBeNull();
    expect((await other.getTemplate({ params: { id: tpl.id } })).status).toBe('approved');
  });

  it('does not review the shipped starters', async () => {
    const starter = await failure(
      operator.reviewTemplate({ params: { id: TITLE_CARD }, body: { decision: 'reject' } }),
    );
    expect(starter?.status).toBe(404);
  });
});

describe('POST /v2/templates/{id}/render', () => {
  it('renders the title card with its own text into a picture, billed as a job and counted as a use', async () => {
    const before = (await client.getTemplate({ params: { id: TITLE_CARD } })).use_count;
    const balanceBefore = (await client.getMe({})).balance_cents;
    const response = await t.request(`/v2/templates/${TITLE_CARD}/render`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': 'title-card-once',
      },
      body: JSON.stringify({ variables: { title: 'Our launch', background: '#14532d' } }),
    });
    expect(response.status).toBe(202);
    const created = Job.parse(await response.json());
    expect(created.tool).toBe('render');
    expect(created.estimated_cost_cents).toBeGreaterThan(0);

    const done = await waitForTerminal(client, created.id);
    expect(done.status).toBe('completed');
    const url = done.output?.outputs[0]?.url ?? '';
    const picture = await t.request(new URL(url).pathname);
    const image = sharp(Buffer.from(await picture.arrayBuffer()));
    expect(await image.metadata()).toMatchObject({ format: 'png', width: 1280, height: 720 });
    // The chosen background fills the corner (#14532d).
    const { data } = await image.extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer({
      resolveWithObject: true,
    });
    expect([...data.subarray(0, 3)]).toEqual([0x14, 0x53, 0x2d]);

    expect((await client.getTemplate({ params: { id: TITLE_CARD } })).use_count).toBe(before + 1);
    expect((await client.getMe({})).balance_cents).toBe(balanceBefore - (done.actual_cost_cents ?? 0));

    // The same Idempotency-Key answers the same job (200) and is not a second use.
    const replay = await client.renderTemplate({
      params: { id: TITLE_CARD },
      headers: { 'idempotency-key': 'title-card-once' },
      body: { variables: { title: 'Our launch', background: '#14532d' } },
    });
    expect(replay.id).toBe(created.id);
    expect((await client.getTemplate({ params: { id: TITLE_CARD } })).use_count).toBe(before + 1);
  });

  it('renders every starter offline: the post and a video card feed the slideshow and the captioned clip', async () => {
    const renderDone = async (id: string, variables: Record<string, string>) => {
      const job = await client.renderTemplate({ params: { id }, body: { variables } });
      const done = await waitForTerminal(client, job.id);
      expect([id, done.status, done.error]).toEqual([id, 'completed', null]);
      return done.output?.outputs[0]?.url ?? '';
    };
    const post = await renderDone('tpl_starter_square_post', { headline: 'Big news' });
    const card = await renderDone(TITLE_CARD, { title: 'Chapter one', format: 'mp4' });
    const clip = await renderDone('tpl_starter_captioned_clip', { clip: card, caption: 'It begins' });
    const slideshow = await renderDone('tpl_starter_slideshow', {
      image_1: post,
      image_2: post,
      image_3: post,
      narration: 'Three pictures from our launch.',
      mood: 'upbeat pop',
    });
    const probe = async (url: string) => (await t.request(new URL(url).pathname)).headers.get('content-type');
    expect(await probe(post)).toBe('image/png');
    expect(await probe(clip)).toBe('video/mp4');
    expect(await probe(slideshow)).toBe('video/mp4');
    // Four renders one after another, two of them videos: a ceiling for a machine shared with other work.
  }, 120_000);

  it('checks the variables: required, declared, one of the choices, a URL for media (422)', async () => {
    const render = (variables: Record<string, string>, id = TITLE_CARD) =>
      failure(client.renderTemplate({ params: { id }, body: { variables } }));
    const missing = await render({});
    expect([missing?.status, missing?.code]).toEqual([422, 'invalid_request']);
    expect(missing?.message).toContain('variables.title');
    expect((await render({ title: 'x', colour: 'red' }))?.message).toContain('variables.colour');
    expect((await render({ title: 'x', background: '#ff0000' }))?.message).toContain('variables.background');
    const slideshow = await render(
      { image_1: 'not a url', image_2: 'x', image_3: 'x', narration: 'hello' },
      'tpl_starter_slideshow',
    );
    expect(slideshow?.message).toContain('variables.image_1');
    // A value the tool refuses (a title over 500 characters) names the request field.
    const long = await render({ title: 'x'.repeat(501) });
    expect([long?.status, long?.message]).toEqual([422, expect.stringContaining('request.layers')]);
  });

  it('answers 402 when the balance cannot pay for the render, and counts no use', async () => {
    const poor = await createTestApp({ SIGNUP_CREDITS: '0' }, { work: false });
    try {
      const broke = poor.clientFor((await signUp(poor)).api_key);
      const refused = await failure(
        broke.renderTemplate({ params: { id: TITLE_CARD }, body: { variables: { title: 'No credit' } } }),
      );
      expect([refused?.status, refused?.code]).toEqual([402, 'insufficient_balance']);
      expect((await broke.getTemplate({ params: { id: TITLE_CARD } })).use_count).toBe(0);
    } finally {
      await poor.close();
    }
  });

  it("answers 404 for an unknown template and another team's pending one", async () => {
    const unknown = await failure(
      client.renderTemplate({ params: { id: 'tpl_gone' }, body: { variables: {} } }),
    );
    expect([unknown?.status, unknown?.code]).toEqual([404, 'not_found']);
    const mine = await client.publishTemplate({ body: published('Private render') });
    const theirs = await failure(
      other.renderTemplate({ params: { id: mine.id }, body: { variables: { headline: 'hi' } } }),
    );
    expect(theirs?.status).toBe(404);
  });
});
