import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, twoTenants } from './helpers';

const bases = '/api/content/document-base';
const tags = '/api/content/tag';
const documents = '/api/content/document';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe.each(engines())('documents, libraries and tags on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let rules: Json;
  let teaching: Json;

  const publish = async (row: Json) => {
    const res = await call('POST', `${documents}/${row.id}/publish`, { version: row.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Json;
  };
  const search = (q: string, token = s.demo) =>
    call('GET', `${documents}/search?q=${encodeURIComponent(q)}`, undefined, token);

  beforeAll(async () => {
    rules = await create(bases, { code: 'rules', name: '规章制度', visibility: 'tenant' });
    teaching = await create(bases, { code: 'teach', name: '教学资料', visibility: 'restricted' });
  });

  it('keeps only safe markup of the text, and its plain text beside it', async () => {
    const doc = await create(documents, {
      baseId: rules.id,
      title: '住院医师请假制度',
      docType: 'regulation',
      contentHtml:
        '<p onclick="steal()">请假须经<strong>科室主任</strong>批准。</p><script>alert(1)</script>' +
        '<img src="x" onerror="alert(2)"><a href="javascript:alert(3)">链接</a><p>第二段</p>',
    });
    expect(doc.contentHtml).not.toMatch(/script|onerror|onclick|javascript:|alert/i);
    expect(doc.contentHtml).toContain('<strong>科室主任</strong>');
    expect(doc).toMatchObject({ status: 'draft', baseName: '规章制度', chainId: doc.id });
    const fetched = await call('GET', `${documents}/${doc.id}`);
    expect(fetched.body.contentHtml).toBe(doc.contentHtml);

    // an update is sanitised the same way
    const updated = await call('PUT', `${documents}/${doc.id}`, {
      contentHtml: '<p>改后</p><svg onload="alert(1)"></svg><iframe src="https://evil"></iframe>',
      version: doc.version,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.contentHtml).toBe('<p>改后</p>');
    // a stale version changes nothing
    const stale = await call('PUT', `${documents}/${doc.id}`, { title: '旧', version: doc.version });
    expect(stale.status).toBe(409);

    // nothing left of the text, and no file: refused on the text
    const empty = await call('POST', documents, { baseId: rules.id, title: '空', contentHtml: '<script>x</script>' });
    expect(empty.status).toBe(400);
    expect(empty.body.fields[0].field).toBe('contentHtml');
    const noBase = await call('POST', documents, { baseId: '999999', title: '无库', contentHtml: '<p>x</p>' });
    expect(noBase.body.fields[0].field).toBe('baseId');
  });

  it('holds a stored file and attachments, claimed by the document', async () => {
    const res = await s.api.fetch('POST', '/api/file/file/upload?name=rules.pdf&purpose=attachment', {
      token: s.demo,
      body: PDF,
      headers: { 'content-type': 'application/octet-stream' },
    });
    const file: Json = await res.json();
    expect(res.status, JSON.stringify(file)).toBe(201);
    const doc = await create(documents, { baseId: rules.id, title: '考勤制度（PDF）', fileId: file.id });
    expect(doc).toMatchObject({ fileId: file.id, fileName: 'rules.pdf' });
    const files = await call('GET', `${documents}/${doc.id}/attachments`);
    expect(files.status).toBe(200);
    expect(files.body).toHaveLength(1);
    // a file another document holds is refused
    const taken = await call('POST', documents, {
      baseId: rules.id,
      title: '二',
      contentHtml: '<p>二</p>',
      attachmentFileIds: [file.id],
    });
    expect(taken.status).toBe(400);
    expect(taken.body.fields[0].field).toBe('attachmentFileIds');

    // a reader opens and downloads it once it is published: each counted
    expect((await call('GET', `${documents}/${doc.id}/read`, undefined, s.viewer)).status).toBe(404);
    const published = await publish(doc);
    const read = await call('GET', `${documents}/${doc.id}/read`, undefined, s.viewer);
    expect(read.body).toMatchObject({ title: '考勤制度（PDF）', canDownload: true, viewCount: 1 });
    const link = await call('POST', `${documents}/${doc.id}/download`, { fileId: file.id }, s.viewer);
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(link.body.url).toBeTruthy();
    const other = await call('POST', `${documents}/${doc.id}/download`, { fileId: '999999' }, s.viewer);
    expect(other.body.fields[0].field).toBe('fileId');
    const counted = (await call('GET', `${documents}/${doc.id}`)).body;
    expect(counted).toMatchObject({ viewCount: 1, downloadCount: 1 });
    const offline = await call('POST', `${documents}/${doc.id}/offline`, { version: published.version });
    const closed = await call('PUT', `${documents}/${doc.id}`, { allowDownload: false, version: offline.body.version });
    await publish(closed.body);
    const refused = await call('POST', `${documents}/${doc.id}/download`, { fileId: file.id }, s.viewer);
    expect(refused.status).toBe(403);

    // a new version holds the same file; deleting that draft leaves the file with the document
    const current = (await call('GET', `${documents}/${doc.id}`)).body;
    const draft = await call('POST', `${documents}/${doc.id}/new-version`, { version: current.version });
    expect(draft.body.fileId).toBe(file.id);
    expect((await call('DELETE', `${documents}/${draft.body.id}`)).status).toBe(204);
    expect((await call('GET', `${documents}/${doc.id}/attachments`)).body).toHaveLength(1);
    const stillTaken = await call('POST', documents, { baseId: rules.id, title: '三', fileId: file.id });
    expect(stillTaken.body.fields[0].field).toBe('fileId');
  });

  it('moves draft → published → offline, refuses what a state does not allow', async () => {
    const doc = await create(documents, { baseId: rules.id, title: '值班制度', contentHtml: '<p>值班</p>' });
    const early = await call('POST', `${documents}/${doc.id}/offline`, { version: doc.version });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('document.notAllowed');
    const published = await publish(doc);
    expect(published.status).toBe('published');
    expect(published.publishedAt).toBeTruthy();
    const edit = await call('PUT', `${documents}/${doc.id}`, { title: '改', version: published.version });
    expect(edit.status).toBe(409);
    expect((await call('DELETE', `${documents}/${doc.id}`)).status).toBe(409);
    const offline = await call('POST', `${documents}/${doc.id}/offline`, { version: published.version });
    expect(offline.body.status).toBe('offline');
    const again = await call('POST', `${documents}/${doc.id}/publish`, { version: published.version });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('common.versionConflict');
  });

  it('makes a new version as a draft, and archives the old one when it is published', async () => {
    const v1 = await publish(
      await create(documents, {
        baseId: rules.id,
        title: '手卫生规范',
        versionLabel: 'v1',
        contentHtml: '<p>洗手六步法</p>',
      }),
    );
    const draftOfDraft = await create(documents, { baseId: rules.id, title: '草稿', contentHtml: '<p>x</p>' });
    const refused = await call('POST', `${documents}/${draftOfDraft.id}/new-version`, {
      version: draftOfDraft.version,
    });
    expect(refused.status).toBe(409);

    const made = await call('POST', `${documents}/${v1.id}/new-version`, { versionLabel: 'v2', version: v1.version });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const v2 = made.body;
    expect(v2).toMatchObject({ status: 'draft', supersedesId: v1.id, chainId: v1.id, versionLabel: 'v2' });
    expect(v2.contentHtml).toBe('<p>洗手六步法</p>');
    const twice = await call('POST', `${documents}/${v1.id}/new-version`, { version: v1.version });
    expect(twice.body.code).toBe('document.draftExists');

    const edited = await call('PUT', `${documents}/${v2.id}`, {
      contentHtml: '<p>洗手七步法</p>',
      version: v2.version,
    });
    await publish(edited.body);
    expect((await call('GET', `${documents}/${v1.id}`)).body.status).toBe('archived');
    const history = await call('GET', `${documents}/${v1.id}/versions`);
    expect(history.body.map((v: Json) => [v.versionLabel, v.status])).toEqual([
      ['v2', 'published'],
      ['v1', 'archived'],
    ]);
    expect(history.body[0].contentText).toBe('洗手七步法');
  });

  it('publishes a scheduled draft when the job finds it due', async () => {
    const past = await call('POST', documents, {
      baseId: rules.id,
      title: '过去',
      contentHtml: '<p>x</p>',
      publishAt: '2000-01-01T00:00:00Z',
    });
    expect(past.body.fields[0].field).toBe('publishAt');
    const at = new Date(Date.now() + 3_600_000);
    const doc = await create(documents, {
      baseId: rules.id,
      title: '定时发布的通知',
      contentHtml: '<p>明日停诊</p>',
      publishAt: at.toISOString(),
    });
    const { documents: service } = s.api.server.services;
    expect(await service.publishDue(new Date())).toBe(0);
    expect(await service.publishDue(new Date(at.getTime() + 1000))).toBe(1);
    const after = (await call('GET', `${documents}/${doc.id}`)).body;
    expect(after).toMatchObject({ status: 'published', publishAt: null });
    expect(await service.publishDue(new Date(at.getTime() + 2000))).toBe(0);
  });

  it('merges tags, rewriting their links once per document, and refuses to delete a tag in use', async () => {
    const a = await create(tags, { name: '感染控制', color: 'green' });
    const b = await create(tags, { name: '院感' });
    const c = await create(tags, { name: '院感防控', groupName: '医疗质量' });
    const dup = await call('POST', tags, { name: '院感' });
    expect(dup.body.fields[0].field).toBe('name');
    const one = await create(documents, {
      baseId: rules.id,
      title: '院感一',
      contentHtml: '<p>一</p>',
      tagIds: [a.id, b.id],
    });
    const two = await create(documents, {
      baseId: rules.id,
      title: '院感二',
      contentHtml: '<p>二</p>',
      tagIds: [c.id],
    });
    expect(one.tagNames).toEqual(['感染控制', '院感']);

    const used = await call('DELETE', `${tags}/${b.id}`);
    expect(used.status).toBe(409);
    expect(used.body.code).toBe('tag.inUse');

    const options = await call('GET', `${tags}/options?scope=document&q=${encodeURIComponent('院感')}`);
    expect(options.body.map((o: Json) => o.label).sort()).toEqual(['院感', '院感防控']);

    const current = (await call('GET', `${tags}/${a.id}`)).body;
    const merged = await call('POST', `${tags}/${a.id}/merge`, { sourceIds: [b.id, c.id], version: current.version });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body).toMatchObject({ usageCount: 2, aliases: ['院感', '院感防控'] });
    expect((await call('GET', `${tags}/${b.id}`)).status).toBe(404);
    expect((await call('GET', `${documents}/${one.id}`)).body.tagNames).toEqual(['感染控制']);
    expect((await call('GET', `${documents}/${two.id}`)).body.tagIds).toEqual([a.id]);
    // found by its alias
    const byAlias = await call('GET', `${tags}/options?q=${encodeURIComponent('院感防控')}`);
    expect(byAlias.body.map((o: Json) => o.value)).toEqual([a.id]);

    // detached after the user confirms, then deleted
    const detached = await call('POST', `${tags}/${a.id}/detach`, { version: merged.body.version });
    expect(detached.body.usageCount).toBe(0);
    expect((await call('DELETE', `${tags}/${a.id}`)).status).toBe(204);
    expect((await call('GET', `${documents}/${one.id}`)).body.tagIds).toEqual([]);
  });

  it('tags and moves documents in bulk, all or nothing', async () => {
    const tag = await create(tags, { name: '批量' });
    const one = await create(documents, { baseId: rules.id, title: '批一', contentHtml: '<p>一</p>' });
    const two = await create(documents, { baseId: rules.id, title: '批二', contentHtml: '<p>二</p>' });
    const ids = [one.id, two.id];
    const bad = await call('POST', `${documents}/bulk-tag`, { ids: [...ids, '999999'], tagIds: [tag.id], mode: 'add' });
    expect(bad.status).toBe(400);
    expect((await call('GET', `${tags}/${tag.id}`)).body.usageCount).toBe(0);
    const tagged = await call('POST', `${documents}/bulk-tag`, { ids, tagIds: [tag.id], mode: 'add' });
    expect(tagged.body.updated).toBe(2);
    expect((await call('GET', `${tags}/${tag.id}`)).body.usageCount).toBe(2);
    const listed = await call('GET', `${documents}?tagId=${tag.id}`);
    expect(listed.body.data.map((d: Json) => d.id).sort()).toEqual([...ids].sort());
    await call('POST', `${documents}/bulk-tag`, { ids: [one.id], tagIds: [tag.id], mode: 'remove' });
    expect((await call('GET', `${tags}/${tag.id}`)).body.usageCount).toBe(1);

    const moved = await call('POST', `${documents}/bulk-move`, { ids, baseId: teaching.id });
    expect(moved.body.updated).toBe(2);
    expect((await call('GET', `${documents}/${one.id}`)).body.baseName).toBe('教学资料');
    const inUse = await call('DELETE', `${bases}/${teaching.id}`);
    expect(inUse.body.code).toBe('documentBase.inUse');
    await call('POST', `${documents}/bulk-move`, { ids, baseId: rules.id });
  });

  it('finds documents by a Chinese word with the matches marked, within the library access rules', async () => {
    const open = await publish(
      await create(documents, {
        baseId: rules.id,
        title: '临床路径管理办法',
        summary: '规范临床路径的制定与实施',
        contentHtml: '<p>各科室应当按照<em>临床路径</em>开展诊疗，&lt;并记录&gt;变异情况。</p>',
      }),
    );
    const closed = await publish(
      await create(documents, {
        baseId: teaching.id,
        title: '临床路径教学课件',
        contentHtml: '<p>本课件介绍临床路径</p>',
      }),
    );
    await create(documents, { baseId: rules.id, title: '临床路径草稿', contentHtml: '<p>未发布</p>' });

    const found = await search('临床路径');
    expect(found.status).toBe(200);
    // the restricted library grants no one yet, drafts are not found
    expect(found.body.data.map((d: Json) => d.id)).toEqual([open.id]);
    const hit = found.body.data[0];
    expect(hit.highlight.title).toBe('<mark>临床路径</mark>管理办法');
    expect(hit.highlight.summary).toBe('规范<mark>临床路径</mark>的制定与实施');
    expect(hit.highlight.snippet).toContain('按照<mark>临床路径</mark>开展诊疗');
    expect(hit.highlight.snippet).toContain('&lt;并记录&gt;');

    // the management list finds drafts too, with the same marks
    const listed = await call('GET', `${documents}?keyword=${encodeURIComponent('变异情况')}`);
    expect(listed.body.data.map((d: Json) => d.id)).toEqual([open.id]);
    expect(listed.body.data[0].highlight.snippet).toContain('<mark>变异情况</mark>');

    // a grant to the viewer's account opens the restricted library to them
    const viewerId = await s.api.userId('demo', 'viewer');
    expect((await search('课件', s.viewer)).body.total).toBe(0);
    expect((await call('GET', `${documents}/${closed.id}/read`, undefined, s.viewer)).status).toBe(404);
    const grants = await call('PUT', `${bases}/${teaching.id}/grants`, {
      grants: [{ subjectType: 'admin_user', subjectId: viewerId, permission: 'view' }],
      version: teaching.version,
    });
    expect(grants.status, JSON.stringify(grants.body)).toBe(200);
    expect(grants.body.grants).toEqual([
      { subjectType: 'admin_user', subjectId: viewerId, subjectName: expect.any(String), permission: 'view' },
    ]);
    teaching = grants.body.base;
    expect((await search('课件', s.viewer)).body.data.map((d: Json) => d.id)).toEqual([closed.id]);
    // a grant to view is not one to download
    const opened = await call('GET', `${documents}/${closed.id}/read`, undefined, s.viewer);
    expect(opened.body.canDownload).toBe(false);
    const badGrant = await call('PUT', `${bases}/${teaching.id}/grants`, {
      grants: [{ subjectType: 'role', subjectId: '999999', permission: 'view' }],
      version: teaching.version,
    });
    expect(badGrant.body.fields[0].field).toBe('grants.0.subjectId');

    // a disabled library hides its documents from readers
    const disabled = await call('PUT', `${bases}/${rules.id}`, { status: 'disabled', version: rules.version });
    expect(disabled.status).toBe(200);
    expect((await search('管理办法')).body.total).toBe(0);
    rules = (await call('PUT', `${bases}/${rules.id}`, { status: 'enabled', version: disabled.body.version })).body;
    expect((await search('管理办法')).body.total).toBe(1);
    const stats = (await call('GET', `${bases}/${rules.id}`)).body;
    expect(stats.documentCount).toBeGreaterThan(3);
    expect(stats.publishedCount).toBeGreaterThan(0);
  });

  it("keeps a department's editor to the libraries of their department and the tenant's own", async () => {
    const hospital = await create('/api/people/organization', { code: 'H1', name: '第一医院', orgType: 'hospital' });
    const surgery = await create('/api/people/organization', {
      code: 'D1',
      name: '普外科',
      orgType: 'department',
      parentId: hospital.id,
    });
    const medicine = await create('/api/people/organization', {
      code: 'D2',
      name: '内科',
      orgType: 'department',
      parentId: hospital.id,
    });
    const mine = await create(bases, { code: 'surgery', name: '普外科资料', ownerOrgId: surgery.id });
    const theirs = await create(bases, { code: 'medicine', name: '内科资料', ownerOrgId: medicine.id });
    const inside = await create(documents, { baseId: mine.id, title: '普外科制度', contentHtml: '<p>一</p>' });
    const outside = await create(documents, { baseId: theirs.id, title: '内科制度', contentHtml: '<p>二</p>' });

    const role = await create('/api/system/role', { code: 'doc_editor', name: '科室文档员' });
    await call('PUT', `/api/system/role/${role.id}/data-scope`, { dataScope: 'org' });
    const permissionIds = (
      await s.api.db
        .selectFrom('permission')
        .select('id')
        .where('code', 'in', ['doc:base:list', 'doc:document:list', 'doc:document:update'])
        .execute()
    ).map((p) => String(p.id));
    await call('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds });
    await create('/api/system/admin', {
      userName: 'surgery_docs',
      displayName: '普外科文档员',
      password: 'Quiet-Otter-42',
      orgId: surgery.id,
      roleIds: [role.id],
      mustChangePassword: false,
    });
    const scoped = (await s.api.tokens('demo', 'surgery_docs', 'Quiet-Otter-42')).access;
    const seen = (await call('GET', `${bases}?pageSize=100`, undefined, scoped)).body.data.map((b: Json) => b.code);
    expect(seen).toContain('surgery');
    expect(seen).toContain('rules');
    expect(seen).not.toContain('medicine');
    const docs = (await call('GET', `${documents}?pageSize=100`, undefined, scoped)).body.data.map((d: Json) => d.id);
    expect(docs).toContain(inside.id);
    expect(docs).not.toContain(outside.id);
    expect((await call('GET', `${documents}/${outside.id}`, undefined, scoped)).status).toBe(404);
    expect((await call('GET', `${documents}/${outside.id}/versions`, undefined, scoped)).status).toBe(404);
    const moved = await call('POST', `${documents}/bulk-move`, { ids: [outside.id], baseId: mine.id }, scoped);
    expect(moved.status).toBe(400);
  });

  it("never shows another tenant's libraries, tags or documents", async () => {
    const theirs = await call('POST', bases, { code: 'rules', name: '规章制度' }, s.other);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const mine = (await call('GET', documents)).body.data as Json[];
    expect(mine.length).toBeGreaterThan(0);
    for (const path of [documents, bases, tags]) {
      const listed = await call('GET', path, undefined, s.other);
      const ids = (listed.body.data as Json[]).map((r) => r.id);
      if (path === bases) expect(ids).toEqual([theirs.body.id]);
      else expect(ids).toEqual([]);
    }
    const doc = mine[0];
    expect((await call('GET', `${documents}/${doc.id}`, undefined, s.other)).status).toBe(404);
    expect((await call('GET', `${documents}/${doc.id}/versions`, undefined, s.other)).status).toBe(404);
    expect((await search('临床路径', s.other)).body.total).toBe(0);
    const moved = await call('POST', `${documents}/bulk-move`, { ids: [doc.id], baseId: theirs.body.id }, s.other);
    expect(moved.status).toBe(400);
    expect((await call('GET', `${documents}/${doc.id}`)).body.baseId).not.toBe(theirs.body.id);
  });

  it("counts a reader's search up to 1,000 and says more match, pinned first, then the latest published", async () => {
    const many = await create(bases, { code: 'many', name: '大量制度', visibility: 'tenant' });
    const shut = await create(bases, { code: 'shut', name: '未授权库', visibility: 'restricted' });
    const theirs = (await call('POST', bases, { code: 'many', name: '大量制度', visibility: 'tenant' }, s.other)).body;
    const tenantOf = async (code: string) =>
      String((await s.api.db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);
    // `n` published documents holding the word, the `g`th published g minutes ago
    const insert = async (tenant: string, base: string, n: number, prefix: string) =>
      sql`INSERT INTO document (tenant_id, base_id, title, content_html, content_text, status, published_at)
        SELECT ${tenant}, ${base}, ${prefix} || g || '号', '<p>主动脉夹层的处置</p>', '主动脉夹层的处置', 'published',
          now() - g * interval '1 minute'
        FROM generate_series(1, ${n}) g`.execute(s.api.db);
    const demo = await tenantOf('demo');
    await insert(demo, many.id, 1005, 'MANY');
    await insert(demo, shut.id, 30, 'SHUT');
    await insert(await tenantOf('demo2'), theirs.id, 30, 'THEIRS');
    // the oldest of them pinned
    await sql`UPDATE document SET is_pinned = true WHERE title = 'MANY1005号'`.execute(s.api.db);
    const word = encodeURIComponent('主动脉夹层');

    const first = await call('GET', `${documents}/search?q=${word}&pageSize=20`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ total: 1000, totalCapped: true });
    expect(first.body.data.map((d: Json) => d.title).slice(0, 3)).toEqual(['MANY1005号', 'MANY1号', 'MANY2号']);
    const second = await call('GET', `${documents}/search?q=${word}&pageSize=20&current=2`);
    expect(second.body.data.map((d: Json) => d.title)).toEqual(Array.from({ length: 20 }, (_, i) => `MANY${20 + i}号`));
    expect(second.body.data[0].highlight.snippet).toContain('<mark>主动脉夹层</mark>');

    // narrowed below the cap: counted exactly; a library the reader may not view, and another tenant, never count
    const one = await call('GET', `${documents}/search?q=${encodeURIComponent('MANY7号')}`);
    expect(one.body.totalCapped).toBeUndefined();
    expect(one.body).toMatchObject({ total: 1, data: [{ title: 'MANY7号' }] });
    const shutOut = await call('GET', `${documents}/search?q=${word}&baseId=${shut.id}`);
    expect(shutOut.body).toMatchObject({ total: 0, data: [] });
    const other = await call('GET', `${documents}/search?q=${word}&pageSize=50`, undefined, s.other);
    expect(other.body.total).toBe(30);
    expect(other.body.totalCapped).toBeUndefined();
    expect(other.body.data.every((d: Json) => d.title.startsWith('THEIRS'))).toBe(true);
  });
});
