import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, twoTenants } from './helpers';

const boards = '/api/community/board';
const posts = '/api/community/post';
const questions = '/api/assess/question';

describe.each(engines())('repeated creates on $name', (engine) => {
  const s = twoTenants(engine);
  let board: Json;

  /** A POST as demo's administrator, with `key` as its Idempotency-Key. */
  const keyed = (path: string, body: unknown, key: string, token = s.demo) =>
    s.api.call('POST', path, { token, body, headers: { 'accept-language': 'en-US', 'idempotency-key': key } });
  const postsTitled = async (title: string) =>
    (await s.call('GET', `${posts}?keyword=${encodeURIComponent(title)}`)).body.data.filter(
      (p: Json) => p.title === title,
    );

  beforeAll(async () => {
    board = await s.create(boards, { code: 'idem', name: '重复提交' });
  });

  it('answers a repeated submit with the first result, creating one post', async () => {
    const body = { boardId: board.id, title: '双击发帖', contentHtml: '<p>一次</p>' };
    const first = await keyed(posts, body, 'submit-1');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await keyed(posts, body, 'submit-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await postsTitled('双击发帖')).toHaveLength(1);

    // the key is the user's: another user's same key is another submit
    const otherTenant = await keyed(posts, body, 'submit-1', s.other);
    expect(otherTenant.status).toBe(400);
    // a new key is a new submit
    expect((await keyed(posts, body, 'submit-2')).status).toBe(201);
    expect(await postsTitled('双击发帖')).toHaveLength(2);
  });

  it('refuses a key sent again with another request, and frees the key of a refused one', async () => {
    const body = { boardId: board.id, title: '改过的帖子', contentHtml: '<p>原文</p>' };
    expect((await keyed(posts, body, 'submit-3')).status).toBe(201);
    const changed = await keyed(posts, { ...body, contentHtml: '<p>改了</p>' }, 'submit-3');
    expect(changed.status).toBe(422);
    expect(changed.body.code).toBe('common.idempotencyKeyReused');
    const elsewhere = await keyed(boards, { code: 'other', name: '别处' }, 'submit-3');
    expect(elsewhere.body.code).toBe('common.idempotencyKeyReused');
    expect(await postsTitled('改过的帖子')).toHaveLength(1);

    // a refused request keeps nothing: the corrected form goes again with its key
    const refused = await keyed(posts, { ...body, title: ' ' }, 'submit-4');
    expect(refused.status).toBe(400);
    const corrected = await keyed(posts, { ...body, title: '改正后的帖子' }, 'submit-4');
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(201);

    const bad = await keyed(posts, body, 'a key with spaces');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('common.idempotencyKeyInvalid');
  });

  it('runs concurrent repeats once: the others answer the result or that it is still running', async () => {
    const body = { boardId: board.id, title: '并发重复', contentHtml: '<p>并发</p>' };
    const answers = await Promise.all([1, 2, 3].map(() => keyed(posts, body, 'submit-5')));
    for (const answer of answers) {
      if (answer.status === 409) expect(answer.body.code).toBe('common.idempotencyInProgress');
      else expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    }
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThan(0);
    expect(await postsTitled('并发重复')).toHaveLength(1);
    expect((await keyed(posts, body, 'submit-5')).status).toBe(201);
  });

  it('keeps a key for a day', async () => {
    const body = { boardId: board.id, title: '隔天再发', contentHtml: '<p>隔天</p>' };
    expect((await keyed(posts, body, 'submit-6')).status).toBe(201);
    await s.api.tenancy.asSystem((tx) =>
      sql`UPDATE idempotency_key SET created_at = created_at - interval '25 hours' WHERE key = 'submit-6'`.execute(tx),
    );
    expect((await keyed(posts, body, 'submit-6')).status).toBe(201);
    expect(await postsTitled('隔天再发')).toHaveLength(2);
  });

  it('creates one question of two identical ones sent at once, refusing the other as a duplicate', async () => {
    const category = await s.create('/api/assess/category', { code: 'race', name: '并发' });
    for (let round = 0; round < 5; round++) {
      const body = {
        categoryId: category.id,
        questionType: 'true_false',
        stem: `同时提交的相同题目 ${round}`,
        answer: true,
      };
      const answers = await Promise.all([s.call('POST', questions, body), s.call('POST', questions, body)]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([201, 400]);
      const refused = answers.find((a) => a.status === 400)?.body;
      expect(refused.fields[0].field).toBe('allowDuplicate');
    }
  });
});
