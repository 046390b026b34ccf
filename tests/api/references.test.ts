import { OpenAPIHono, z } from '@hono/zod-openapi';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../server/src/core/context';
import { json } from '../../server/src/core/openapi';
import { ref } from '../../server/src/core/references';
import { defineRoute } from '../../server/src/core/route';
import { down, up } from '../../server/src/db/migrations/0059_tenant_references';
import * as lists0061 from '../../server/src/db/migrations/0061_tenant_reference_lists';
import { engines, type Json, secondTenant, startApi, type TestApi, twoTenants } from './helpers';
import { fingerprint } from './openapi-operations';

/** A 1×1 PNG: an icon or a cover. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/**
 * A reference in a body names a row of the caller's tenant: another tenant's id is refused with the field named and
 * nothing written, and the database refuses it too where the reference is stored (migration 0059).
 */
describe.each(engines())('references to another tenant’s rows on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  /** Rows of the second tenant, and the demo tenant's own of the same kinds. */
  const theirs: Record<'org' | 'type' | 'file', string> = { org: '', type: '', file: '' };
  const mine: Record<'org' | 'type' | 'file', string> = { org: '', type: '', file: '' };

  const upload = async (token: string) => {
    const res = await s.api.fetch('POST', '/api/file/file/upload?name=icon.png&purpose=attachment', {
      token,
      body: PNG,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(201);
    return String(((await res.json()) as Json).id);
  };
  const made = async (token: string, path: string, body: Json) => {
    const res = await call('POST', path, body, token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return String(res.body.id);
  };

  beforeAll(async () => {
    for (const [rows, token] of [
      [theirs, s.other],
      [mine, s.demo],
    ] as const) {
      rows.org = await made(token, '/api/people/organization', { code: 'B1', name: '基地', orgType: 'hospital' });
      rows.type = await made(token, '/api/people/trainee-type', {
        code: 'res',
        name: '住院医师',
        category: 'residency',
      });
      rows.file = await upload(token);
    }
  });

  /** The request is refused 400 naming `field`, and no row of any table changed. */
  async function refused(method: string, path: string, body: Json, field: string) {
    const before = await fingerprint(s.api);
    const res = await call(method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ family: 'CLIENT_ERROR', code: 'common.validation' });
    expect(res.body.fields.map((f: Json) => f.field)).toContain(field);
    expect(await fingerprint(s.api)).toEqual(before);
  }

  it('refuses another tenant’s organisation as an administrator’s orgId, on create and on update', async () => {
    const body = { userName: 'wang', displayName: '王', password: 'Quiet-Otter-42' };
    await refused('POST', '/api/system/admin', { ...body, orgId: theirs.org }, 'orgId');
    const admin = await create('/api/system/admin', { ...body, orgId: mine.org });
    expect(admin.orgId).toBe(mine.org);
    await refused(
      'PUT',
      `/api/system/admin/${admin.id}`,
      { displayName: '王', orgId: theirs.org, version: admin.version },
      'orgId',
    );
  });

  it('refuses another tenant’s organisation in a role’s dataScopeOrgIds', async () => {
    const role = await create('/api/system/role', { code: 'scoped', name: '限定' });
    const path = `/api/system/role/${role.id}/data-scope`;
    await refused(
      'PUT',
      path,
      { dataScope: 'org_custom', dataScopeOrgIds: [mine.org, theirs.org] },
      'dataScopeOrgIds.1',
    );
    const own = await call('PUT', path, { dataScope: 'org_custom', dataScopeOrgIds: [mine.org] });
    expect(own.body).toMatchObject({ dataScopeOrgIds: [mine.org] });
  });

  it('refuses another tenant’s bases and trainee types as a course’s audience, and its file as a cover', async () => {
    const course = { code: 'C1', title: '课程' };
    await refused('POST', '/api/teaching/course', { ...course, audienceOrgIds: [theirs.org] }, 'audienceOrgIds.0');
    await refused(
      'POST',
      '/api/teaching/course',
      { ...course, audienceTraineeTypeIds: [theirs.type] },
      'audienceTraineeTypeIds.0',
    );
    await refused('POST', '/api/teaching/course', { ...course, coverFileId: theirs.file }, 'coverFileId');
    const own = await create('/api/teaching/course', {
      ...course,
      audienceOrgIds: [mine.org],
      audienceTraineeTypeIds: [mine.type],
    });
    expect(own).toMatchObject({ audienceOrgIds: [mine.org], audienceTraineeTypeIds: [mine.type] });
  });

  it('refuses another tenant’s file as a board’s icon and its trainee types as the board’s audience', async () => {
    const board = { code: 'cases', name: '病例讨论' };
    await refused('POST', '/api/community/board', { ...board, iconFileId: theirs.file }, 'iconFileId');
    await refused(
      'POST',
      '/api/community/board',
      { ...board, audience: { traineeTypeIds: [theirs.type], orgIds: [] } },
      'audience.traineeTypeIds.0',
    );
    await refused(
      'POST',
      '/api/community/board',
      { ...board, audience: { traineeTypeIds: [], orgIds: [mine.org, theirs.org] } },
      'audience.orgIds.1',
    );
    const own = await create('/api/community/board', {
      ...board,
      iconFileId: mine.file,
      audience: { traineeTypeIds: [mine.type], orgIds: [mine.org] },
    });
    expect(own).toMatchObject({ iconFileId: mine.file, audience: { traineeTypeIds: [mine.type], orgIds: [mine.org] } });
    await refused(
      'PUT',
      `/api/community/board/${own.id}`,
      { iconFileId: theirs.file, version: own.version },
      'iconFileId',
    );
  });

  it('refuses another tenant’s trainee type as an import’s parameter, naming it, and starts no job', async () => {
    const form = new FormData();
    form.set('file', new File([PNG], 'trainees.xlsx'));
    form.set('traineeTypeId', theirs.type);
    const before = await fingerprint(s.api);
    const res = await s.api.fetch('POST', '/api/people/trainee/import-jobs', { token: s.demo, form });
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body).toMatchObject({ code: 'common.validation', fields: [{ field: 'traineeTypeId' }] });
    expect(await fingerprint(s.api)).toEqual(before);
  });

  it('keeps a shared platform row referable: a platform message template in a batch', async () => {
    const shared = await sql<{ id: string }>`SELECT m.id::text AS id FROM message_template m
      JOIN tenant t ON t.id = m.tenant_id WHERE t.code = 'platform' ORDER BY m.id LIMIT 1`.execute(s.api.db);
    const id = shared.rows[0]?.id;
    expect(id).toBeDefined();
    const res = await call('POST', '/api/message/batch/preview', { name: '通知', templateId: id, audience: {} });
    expect(res.body.fields?.map((f: Json) => f.field) ?? []).not.toContain('templateId');
  });

  it('has the database refuse another tenant’s row in a stored reference, even to a write with no check', async () => {
    const tenantOf = async (code: string) =>
      (await s.api.db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
    const demo = await tenantOf('demo');
    const writes = [
      sql`UPDATE admin_user SET org_id = ${theirs.org} WHERE tenant_id = ${demo}`,
      sql`UPDATE board SET icon_file_id = ${theirs.file} WHERE tenant_id = ${demo}`,
      sql`UPDATE role SET data_scope_org_ids = ARRAY[${theirs.org}::bigint] WHERE tenant_id = ${demo}`,
      sql`UPDATE course SET audience_trainee_type_ids = ARRAY[${theirs.type}::bigint] WHERE tenant_id = ${demo}`,
      sql`UPDATE board SET audience = jsonb_build_object('orgIds', jsonb_build_array(${theirs.org}::text),
        'traineeTypeIds', '[]'::jsonb) WHERE tenant_id = ${demo}`,
    ];
    for (const write of writes) {
      await expect(write.execute(s.api.db)).rejects.toMatchObject({ code: '23503' });
    }
  });

  it('has the database refuse another tenant’s id in every stored list of ids, inserted or updated (migration 0061)', async () => {
    // the other tenant's rows of each kind a list names
    const made2 = (path: string, body: Json) => made(s.other, path, body);
    const base = await made2('/api/people/organization', {
      code: 'B2',
      name: '基地二',
      orgType: 'training_base',
      parentId: theirs.org,
    });
    const doctorType = await made2('/api/people/doctor-type', { code: 'ref', name: '带教' });
    const foreign: Record<string, string> = {
      file: theirs.file,
      doctor: await made2('/api/people/doctor', { name: '外院医生', doctorTypeId: doctorType, orgId: theirs.org }),
      staff: await made2('/api/people/staff', {
        name: '外院老师',
        staffNo: 'x001',
        mobile: '13800000099',
        orgId: theirs.org,
        isTeacher: true,
      }),
      trainee: await made2('/api/people/trainee', {
        name: '外院学员',
        traineeTypeId: theirs.type,
        trainingBaseId: base,
        traineeNo: 'X001',
      }),
      knowledge_point: await made2('/api/assess/knowledge-point', { code: 'ref-kp', name: '外院知识点' }),
      question_category: await made2('/api/assess/category', { code: 'ref-cat', name: '外院分类' }),
    };
    const ownKnowledgePoint = await made(s.demo, '/api/assess/knowledge-point', { code: 'ref-kp', name: '知识点' });
    const lists: [table: string, column: string, target: string][] = [
      ['teaching_activity', 'co_host_ids', 'doctor'],
      ['teaching_activity', 'audience_trainee_ids', 'trainee'],
      ['teaching_activity', 'material_file_ids', 'file'],
      ['teaching_activity', 'photo_file_ids', 'file'],
      ['course', 'teacher_doctor_ids', 'doctor'],
      ['course', 'teacher_staff_ids', 'staff'],
      ['question', 'knowledge_point_ids', 'knowledge_point'],
      ['question', 'stem_media_file_ids', 'file'],
      ['paper_rule', 'category_ids', 'question_category'],
      ['paper_rule', 'knowledge_point_ids', 'knowledge_point'],
      ['document', 'attachment_file_ids', 'file'],
      ['post', 'attachment_file_ids', 'file'],
      ['post_reply', 'attachment_file_ids', 'file'],
      ['qualification', 'attachment_file_ids', 'file'],
      ['report', 'evidence_file_ids', 'file'],
    ];
    const db = s.api.db;
    const demo = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
    // A row of the demo tenant's naming the other tenant's row: the trigger, run before the row's own constraints,
    // refuses it (foreign_key_violation); naming the tenant's own row it lets the row on to them (here a column that
    // must not be null, not_null_violation).
    const insert = (table: string, column: string, id: string) =>
      sql`INSERT INTO ${sql.table(table)} (tenant_id, ${sql.ref(column)}) VALUES (${demo}, ARRAY[${id}]::bigint[])`;
    const own: Record<string, string> = { ...mine, knowledge_point: ownKnowledgePoint };
    for (const [table, column, target] of lists) {
      await expect(
        insert(table, column, foreign[target] as string).execute(db),
        `${table}.${column}`,
      ).rejects.toMatchObject({ code: '23503' });
      if (own[target])
        await expect(insert(table, column, own[target]).execute(db), `${table}.${column}`).rejects.toMatchObject({
          code: '23502',
        });
    }
    // and so is a row's list updated to name it
    const category = await create('/api/assess/category', { code: 'ref-cat', name: '分类' });
    const question = await create('/api/assess/question', {
      categoryId: category.id,
      questionType: 'true_false',
      stem: '引用的题目',
      answer: true,
    });
    for (const [column, id] of [
      ['knowledge_point_ids', foreign.knowledge_point],
      ['stem_media_file_ids', foreign.file],
    ] as const)
      await expect(
        sql`UPDATE question SET ${sql.ref(column)} = ARRAY[${id}]::bigint[] WHERE id = ${question.id}`.execute(db),
      ).rejects.toMatchObject({ code: '23503' });
    await sql`UPDATE question SET knowledge_point_ids = ARRAY[${ownKnowledgePoint}]::bigint[]
      WHERE id = ${question.id}`.execute(db);
  });

  it('drops, on upgrade, the references old rows hold to another tenant’s rows, and keeps their own', async () => {
    const userId = await s.api.userId('demo', 'admin');
    const role = await create('/api/system/role', { code: 'old', name: '旧' });
    const board = await create('/api/community/board', { code: 'old', name: '旧版块', iconFileId: mine.file });
    const category = await create('/api/assess/category', { code: 'old', name: '旧分类' });
    const question = await create('/api/assess/question', {
      categoryId: category.id,
      questionType: 'true_false',
      stem: '旧题目',
      answer: true,
    });
    const point = (token: string) => made(token, '/api/assess/knowledge-point', { code: 'old-kp', name: '旧知识点' });
    const [ourPoint, theirPoint] = [await point(s.demo), await point(s.other)];
    await s.api.db.transaction().execute(async (tx) => {
      await lists0061.down(tx as unknown as Kysely<unknown>);
      await down(tx as unknown as Kysely<unknown>);
    });
    await sql`UPDATE admin_user SET org_id = ${theirs.org} WHERE id = ${userId}`.execute(s.api.db);
    await sql`UPDATE role SET data_scope_org_ids = ARRAY[${mine.org}, ${theirs.org}]::bigint[]
      WHERE id = ${role.id}`.execute(s.api.db);
    await sql`UPDATE board SET audience = ${JSON.stringify({ orgIds: [theirs.org, mine.org], traineeTypeIds: [theirs.type] })}::jsonb
      WHERE id = ${board.id}`.execute(s.api.db);
    await sql`UPDATE question SET knowledge_point_ids = ARRAY[${theirPoint}, ${ourPoint}]::bigint[]
      WHERE id = ${question.id}`.execute(s.api.db);
    await s.api.db.transaction().execute(async (tx) => {
      await up(tx as unknown as Kysely<unknown>);
      await lists0061.up(tx as unknown as Kysely<unknown>);
    });
    const read = async (q: ReturnType<typeof sql>) => (await q.execute(s.api.db)).rows[0];
    expect(await read(sql`SELECT org_id FROM admin_user WHERE id = ${userId}`)).toEqual({ org_id: null });
    expect(await read(sql`SELECT data_scope_org_ids::text[] AS ids FROM role WHERE id = ${role.id}`)).toEqual({
      ids: [mine.org],
    });
    expect(await read(sql`SELECT audience, icon_file_id::text AS icon FROM board WHERE id = ${board.id}`)).toEqual({
      audience: { orgIds: [mine.org], traineeTypeIds: [] },
      icon: mine.file,
    });
    expect(await read(sql`SELECT knowledge_point_ids::text[] AS ids FROM question WHERE id = ${question.id}`)).toEqual({
      ids: [ourPoint],
    });
  });
});

/** The generic check reads a form's fields too: a route declared here, its form naming an organisation. */
describe.each(engines())('references in a form’s fields on $name', (engine) => {
  let api: TestApi;
  let handled = 0;
  const orgs: Record<'mine' | 'theirs', string> = { mine: '', theirs: '' };
  const tokens: Record<'mine' | 'theirs', string> = { mine: '', theirs: '' };

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    const route = defineRoute({
      method: 'post',
      path: '/probe/form',
      permission: 'system:admin:list',
      request: {
        body: {
          required: true,
          content: {
            'multipart/form-data': { schema: z.object({ file: z.instanceof(File), orgId: ref('organization') }) },
          },
        },
      },
      responses: { 200: { description: 'Handled', content: json(z.object({ orgId: z.string() })) } },
    });
    api.server.app.route(
      '/api',
      new OpenAPIHono<AppEnv>().openapi(route, (c) => {
        handled += 1;
        return c.json({ orgId: c.req.valid('form').orgId }, 200);
      }),
    );
    tokens.mine = (await api.tokens('demo', 'admin', 'admin123')).access;
    tokens.theirs = (await api.tokens('demo2', 'admin', 'admin123')).access;
    for (const who of ['mine', 'theirs'] as const) {
      const res = await api.call('POST', '/api/people/organization', {
        token: tokens[who],
        body: { code: 'F1', name: '基地', orgType: 'hospital' },
      });
      expect(res.status).toBe(201);
      orgs[who] = String(res.body.id);
    }
  });
  afterAll(() => api?.close());

  const send = async (orgId: string) => {
    const form = new FormData();
    form.set('file', new File([PNG], 'a.png'));
    form.set('orgId', orgId);
    const res = await api.fetch('POST', '/api/probe/form', { token: tokens.mine, form });
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('refuses another tenant’s row in a form field that declares a reference, before the handler', async () => {
    const refused = await send(orgs.theirs);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body).toMatchObject({ code: 'common.validation', fields: [{ field: 'orgId' }] });
    expect(handled).toBe(0);
    // the tenant's own row passes, and the handler reads the form the check read before it
    expect(await send(orgs.mine)).toEqual({ status: 200, body: { orgId: orgs.mine } });
    expect(handled).toBe(1);
  });
});
