import { beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, twoTenants } from './helpers';

const boards = '/api/community/board';
const posts = '/api/community/post';
const replies = '/api/community/reply';
const reports = '/api/community/report';

describe.each(engines())('community: boards, posts and reports on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let cases: Json;
  let queue: Json;
  /** A member of the community: reads posts and reports them, reads no case. */
  let member: string;

  const ok = async (method: string, path: string, body?: unknown, token = s.demo) => {
    const res = await call(method, path, body, token);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body as Json;
  };
  const post = (title: string, board = cases) =>
    create(posts, { boardId: board.id, title, contentHtml: `<p>${title}的正文</p>` });
  const report = (target: Json, reason = 'spam', token = s.demo, description?: string) =>
    call('POST', reports, { targetType: 'post', targetId: target.id, reason, description }, token);

  beforeAll(async () => {
    const role = await create('/api/system/role', { code: 'community_member', name: '社区成员' });
    const granted = await s.api.db
      .selectFrom('permission')
      .select('id')
      .where('code', 'in', ['community:post:list', 'community:post:report'])
      .execute();
    await ok('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds: granted.map((p) => String(p.id)) });
    await create('/api/system/admin', {
      userName: 'member',
      displayName: '社区成员',
      password: 'Quiet-Otter-42',
      roleIds: [role.id],
      mustChangePassword: false,
    });
    member = (await s.api.tokens('demo', 'member', 'Quiet-Otter-42')).access;
    cases = await create(boards, { code: 'cases', name: '病例讨论' });
    queue = await create(boards, { code: 'qa', name: '问答', moderationMode: 'pre_moderation' });
  });

  it('keeps boards in order, with moderators, and refuses a stale edit', async () => {
    const board = await create(boards, { code: 'share', name: '经验分享', parentId: cases.id });
    expect(board).toMatchObject({ parentName: '病例讨论', status: 'open', postCount: 0, moderatorCount: 0 });
    // one level of grouping only
    const deeper = await call('POST', boards, { code: 'deep', name: '三级', parentId: board.id });
    expect(deeper.status).toBe(400);
    expect(deeper.body.fields[0].field).toBe('parentId');
    const taken = await call('POST', boards, { code: 'cases', name: '重复' });
    expect(taken.body.fields[0].field).toBe('code');

    const me = await s.api.userId('demo', 'admin');
    const moderated = await ok('PUT', `${boards}/${board.id}/moderators`, {
      moderators: [{ subjectType: 'admin_user', subjectId: me }],
      version: board.version,
    });
    expect(moderated.moderators).toEqual([
      { subjectType: 'admin_user', subjectId: me, subjectName: expect.any(String) },
    ]);
    expect(moderated.board.moderatorCount).toBe(1);
    const stale = await call('PUT', `${boards}/${board.id}`, { name: '旧', version: board.version });
    expect(stale.status).toBe(409);
    const nobody = await call('PUT', `${boards}/${board.id}/moderators`, {
      moderators: [{ subjectType: 'admin_user', subjectId: '999999' }],
      version: moderated.board.version,
    });
    expect(nobody.body.fields[0].field).toBe('moderators.0.subjectId');

    await ok('POST', `${boards}/reorder`, { ids: [board.id, queue.id, cases.id] });
    const listed = (await ok('GET', `${boards}?sort=sort`)).data.map((b: Json) => b.code);
    expect(listed).toEqual(['share', 'qa', 'cases']);
    const unknown = await call('POST', `${boards}/reorder`, { ids: ['999999'] });
    expect(unknown.body.fields[0].field).toBe('ids');
  });

  it('sanitises posts, holds them for approval on a pre-moderated board, approves and rejects', async () => {
    const first = await create(posts, {
      boardId: cases.id,
      title: '一例罕见病',
      contentHtml: '<p onclick="x()">见<strong>附图</strong></p><script>alert(1)</script>',
    });
    expect(first).toMatchObject({ status: 'published', authorType: 'admin', boardName: '病例讨论', replyCount: 0 });
    expect(first.contentHtml).toBe('<p>见<strong>附图</strong></p>');
    const empty = await call('POST', posts, { boardId: cases.id, title: '空', contentHtml: '<script>x</script>' });
    expect(empty.status).toBe(400);
    expect(empty.body.fields[0].field).toBe('contentHtml');
    const noTitle = await call('POST', posts, { boardId: cases.id, title: ' ', contentHtml: '<p>x</p>' });
    expect(noTitle.body.fields[0].field).toBe('title');
    const noBoard = await call('POST', posts, { boardId: '999999', title: '无', contentHtml: '<p>x</p>' });
    expect(noBoard.body.fields[0].field).toBe('boardId');

    const held = await create(posts, { boardId: queue.id, title: '请教', contentHtml: '<p>问题</p>' });
    expect(held.status).toBe('pending_review');
    const pending = await ok('GET', `${posts}?status=pending_review`);
    expect(pending.data.map((p: Json) => p.id)).toContain(held.id);
    const stale = await call('POST', `${posts}/${held.id}/approve`, { version: held.version + 1 });
    expect(stale.status).toBe(409);
    const approved = await ok('POST', `${posts}/${held.id}/approve`, { version: held.version });
    expect(approved).toMatchObject({ status: 'published', reviewedBy: expect.any(String) });
    const again = await call('POST', `${posts}/${held.id}/approve`, { version: approved.version });
    expect(again.body.code).toBe('post.notAllowed');

    const other = await create(posts, { boardId: queue.id, title: '广告', contentHtml: '<p>买</p>' });
    const noComment = await call('POST', `${posts}/${other.id}/reject`, { comment: '', version: other.version });
    expect(noComment.body.fields[0].field).toBe('comment');
    const rejected = await ok('POST', `${posts}/${other.id}/reject`, { comment: '与版块无关', version: other.version });
    expect(rejected).toMatchObject({ status: 'rejected', reviewComment: '与版块无关' });

    const timeline = await ok('GET', `/api/system/audit-log?resourceType=post&resourceId=${held.id}`);
    expect(timeline.data.map((a: Json) => a.action)).toEqual(['community:post:moderate', 'community:post:create']);
  });

  it('threads replies one level deep, and a locked post takes none', async () => {
    const thread = await post('讨论帖');
    const top = await ok('POST', `${posts}/${thread.id}/replies`, { contentHtml: '<p>一楼</p><img src=x onerror=y>' });
    expect(top).toMatchObject({ parentReplyId: null, authorType: 'admin', status: 'published' });
    expect(top.contentHtml).not.toMatch(/onerror/);
    const nested = await ok('POST', `${posts}/${thread.id}/replies`, {
      contentHtml: '<p>回复一楼</p>',
      parentReplyId: top.id,
    });
    const deeper = await call('POST', `${posts}/${thread.id}/replies`, {
      contentHtml: '<p>楼中楼中楼</p>',
      parentReplyId: nested.id,
    });
    expect(deeper.status).toBe(400);
    expect(deeper.body.fields[0].field).toBe('parentReplyId');
    const tree = await ok('GET', `${posts}/${thread.id}/replies`);
    expect(tree).toHaveLength(1);
    expect(tree[0].replies.map((r: Json) => r.id)).toEqual([nested.id]);
    expect((await ok('GET', `${posts}/${thread.id}`)).replyCount).toBe(2);

    const hidden = await ok('POST', `${replies}/${nested.id}/hide`, { reason: '无关', version: nested.version });
    expect(hidden).toMatchObject({ status: 'hidden', hiddenReason: '无关' });
    expect((await call('POST', `${replies}/${nested.id}/hide`, { reason: 'x', version: nested.version })).status).toBe(
      409,
    );

    const locked = await ok('POST', `${posts}/${thread.id}/lock`, { on: true, version: thread.version });
    expect(locked.isLocked).toBe(true);
    const refused = await call('POST', `${posts}/${thread.id}/replies`, { contentHtml: '<p>晚了</p>' });
    expect(refused.body.code).toBe('post.locked');
    const pinned = await ok('POST', `${posts}/${thread.id}/pin`, { pinned: true, version: locked.version });
    const featured = await ok('POST', `${posts}/${thread.id}/feature`, { on: true, version: pinned.version });
    expect(featured).toMatchObject({ isPinned: true, isFeatured: true, isLocked: true });
  });

  it('refuses posts on a locked or archived board, and moves posts', async () => {
    const board = await create(boards, { code: 'old', name: '旧版块' });
    const moving = await post('待移动');
    const moved = await ok('POST', `${posts}/${moving.id}/move`, { boardId: board.id, version: moving.version });
    expect(moved).toMatchObject({ boardId: board.id, boardName: '旧版块' });
    const locked = await ok('POST', `${boards}/${board.id}/status`, { status: 'locked', version: board.version });
    const onLocked = await call('POST', posts, { boardId: board.id, title: '新', contentHtml: '<p>x</p>' });
    expect(onLocked.body.code).toBe('board.closed');
    const reply = await call('POST', `${posts}/${moving.id}/replies`, { contentHtml: '<p>x</p>' });
    expect(reply.body.code).toBe('board.closed');
    await ok('POST', `${boards}/${board.id}/status`, { status: 'archived', version: locked.version });
    const onArchived = await call('POST', posts, { boardId: board.id, title: '新', contentHtml: '<p>x</p>' });
    expect(onArchived.body.code).toBe('board.closed');
    const intoArchive = await call('POST', `${posts}/${moving.id}/move`, { boardId: cases.id, version: moved.version });
    expect(intoArchive.status).toBe(200);
    // a board holding posts is not deleted
    expect((await call('DELETE', `${boards}/${cases.id}`)).body.code).toBe('board.inUse');
  });

  it('hides, restores and deletes a post with a reason, and purges only a deleted one', async () => {
    const target = await post('违规帖');
    expect((await call('DELETE', `${posts}/${target.id}`)).body.code).toBe('post.notAllowed');
    const noReason = await call('POST', `${posts}/${target.id}/hide`, { reason: '', version: target.version });
    expect(noReason.body.fields[0].field).toBe('reason');
    const hidden = await ok('POST', `${posts}/${target.id}/hide`, { reason: '广告', version: target.version });
    expect(hidden).toMatchObject({ status: 'hidden', hiddenReason: '广告' });
    const restored = await ok('POST', `${posts}/${target.id}/restore`, { version: hidden.version });
    expect(restored).toMatchObject({ status: 'published', hiddenReason: null });
    const deleted = await ok('POST', `${posts}/${target.id}/delete`, { reason: '重复', version: restored.version });
    expect(deleted.status).toBe('deleted');
    expect((await call('DELETE', `${posts}/${target.id}`)).status).toBe(204);
  });

  it('aggregates reports of a target into one case, once per reporter', async () => {
    const target = await post('被举报的帖子');
    const first = await report(target, 'spam');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ status: 'pending', reportCount: 1, reasons: ['spam'], potentialSpam: true });
    expect(first.body.targetSnapshot).toMatchObject({ title: '被举报的帖子', authorType: 'admin', postId: target.id });
    const twice = await report(target, 'abuse');
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('report.duplicate');
    const other = await report(target, 'other', member);
    expect(other.status).toBe(400);
    expect(other.body.fields[0].field).toBe('description');
    const second = await report(target, 'other', member, '涉及患者隐私');
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body).toMatchObject({ id: first.body.id, reportCount: 2, reasons: ['other', 'spam'] });
    // the member reads no case: the target is named by its id, not shown as the case keeps it
    expect(second.body.targetSnapshot).toEqual({
      title: null,
      excerpt: null,
      authorType: null,
      authorId: null,
      authorName: null,
      postId: null,
    });
    // two reports are under the default threshold (3): the post stays
    expect((await ok('GET', `${posts}/${target.id}`)).status).toBe('published');
    expect(second.body.targetStatus).toBe('published');
    const listed = await ok('GET', `${reports}?status=pending&targetType=post&targetId=${target.id}`);
    expect(listed.total).toBe(1);
    const rows = await ok('GET', `${reports}/${first.body.id}/reports`);
    expect(rows.map((r: Json) => r.reason)).toEqual(['spam', 'other']);
    const missing = await call('POST', reports, { targetType: 'post', targetId: '999999', reason: 'spam' });
    expect(missing.body.fields[0].field).toBe('targetId');

    // hidden from the case: the post is hidden, the case resolved and audited on both
    const stale = await call('POST', `${reports}/${first.body.id}/resolve`, { action: 'hide', version: 0 });
    expect(stale.status).toBe(409);
    const handled = await ok('POST', `${reports}/${first.body.id}/resolve`, {
      action: 'hide',
      note: '确属广告',
      version: second.body.version,
    });
    expect(handled).toMatchObject({ status: 'resolved', resolution: 'hide', targetStatus: 'hidden' });
    expect(handled.handledBy).toBe(await s.api.userId('demo', 'admin'));
    expect((await ok('GET', `${posts}/${target.id}`)).hiddenReason).toBe('确属广告');
    // each reporter is told in their inbox how the case was handled
    for (const token of [s.demo, member]) {
      const inbox = (await call('GET', '/api/message/inbox', undefined, token)).body as Json;
      const told = inbox.data.filter((m: Json) => m.businessItemCode === 'post.report.resolved');
      expect(told).toHaveLength(1);
      expect(told[0].content).toContain(target.title);
    }
    const again = await call('POST', `${reports}/${first.body.id}/resolve`, {
      action: 'hide',
      version: handled.version,
    });
    expect(again.body.code).toBe('report.handled');
    const caseTrail = await ok('GET', `/api/system/audit-log?resourceType=report_case&resourceId=${first.body.id}`);
    expect(caseTrail.data.map((a: Json) => a.action)).toContain('community:report:resolve');
    const postTrail = await ok('GET', `/api/system/audit-log?resourceType=post&resourceId=${target.id}`);
    expect(postTrail.data.map((a: Json) => a.action)).toContain('community:report:resolve');
    // a new report after the case was handled opens a new case
    const fresh = await report(target, 'abuse');
    expect(fresh.body.id).not.toBe(first.body.id);
  });

  it('refuses a report from a user the community does not admit, who then counts toward nothing', async () => {
    const target = await post('无权举报的帖子');
    const admin = await s.api.userId('demo', 'admin');
    for (const [targetType, targetId] of [
      ['post', target.id],
      ['user', admin],
    ]) {
      const refused = await call('POST', reports, { targetType, targetId, reason: 'spam' }, s.viewer);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('common.forbidden');
      expect(JSON.stringify(refused.body)).not.toMatch(/无权举报的帖子|管理员/);
      const listed = await ok('GET', `${reports}?targetType=${targetType}&targetId=${targetId}&status=pending`);
      expect(listed.total).toBe(0);
    }
    const stored = await s.api.tenancy.asSystem((tx) =>
      tx.selectFrom('report').select('id').where('target_id', '=', target.id).execute(),
    );
    expect(stored).toEqual([]);
    // the member's report is the first one the case counts
    const admitted = await report(target, 'spam', member);
    expect(admitted.status, JSON.stringify(admitted.body)).toBe(201);
    expect(admitted.body).toMatchObject({ reportCount: 1, autoHidden: false });
    const counted = await s.api.tenancy.asSystem((tx) =>
      tx.selectFrom('report').select('reporter_id').where('target_id', '=', target.id).execute(),
    );
    expect(counted.map((r) => String(r.reporter_id))).toEqual([await s.api.userId('demo', 'member')]);
  });

  it('hides a post by itself at the threshold, and shows it again when the case is dismissed', async () => {
    const setting = await ok('PUT', '/api/system/settings/community.report.autoHideThreshold', {
      value: 2,
      version: 0,
    });
    const target = await post('争议帖');
    await report(target, 'abuse');
    const second = await report(target, 'misinformation', member);
    expect(second.body).toMatchObject({ reportCount: 2, autoHidden: true, targetStatus: 'hidden' });
    expect((await ok('GET', `${posts}/${target.id}`)).status).toBe('hidden');
    const dismissed = await ok('POST', `${reports}/${second.body.id}/resolve`, {
      action: 'dismiss',
      version: second.body.version,
    });
    expect(dismissed).toMatchObject({ status: 'dismissed', resolution: 'keep', targetStatus: 'published' });

    // a reported user: warned, never hidden
    const reported = await s.api.userId('demo', 'member');
    const user = await ok('POST', reports, { targetType: 'user', targetId: reported, reason: 'abuse' });
    const hide = await call('POST', `${reports}/${user.id}/resolve`, { action: 'hide', version: user.version });
    expect(hide.body.fields[0].field).toBe('action');
    const warned = await ok('POST', `${reports}/${user.id}/resolve`, { action: 'warn_author', version: user.version });
    expect(warned).toMatchObject({ status: 'resolved', resolution: 'warn_author' });
    // suspended: the user writes nothing in the community (here: no reports) until the suspension ends
    const again = await ok('POST', reports, { targetType: 'user', targetId: reported, reason: 'spam' });
    expect(again.id).not.toBe(user.id);
    const muted = await ok('POST', `${reports}/${again.id}/resolve`, {
      action: 'mute_author',
      muteDays: 3,
      version: again.version,
    });
    expect(muted).toMatchObject({ status: 'resolved', resolution: 'mute_author' });
    const silenced = await report(target, 'spam', member);
    expect(silenced.status).toBe(403);
    expect(silenced.body.code).toBe('community.muted');
    await ok('PUT', '/api/system/settings/community.report.autoHideThreshold', { value: 3, version: setting.version });
  });

  it("never shows another tenant's boards, posts or cases", async () => {
    const mine = await post('本院帖子');
    const open = await report(mine, 'spam');
    for (const path of [boards, posts, reports]) {
      const listed = await call('GET', path, undefined, s.other);
      expect(listed.body.data, path).toEqual([]);
    }
    expect((await call('GET', `${posts}/${mine.id}`, undefined, s.other)).status).toBe(404);
    expect((await call('GET', `${posts}/${mine.id}/replies`, undefined, s.other)).status).toBe(404);
    expect((await call('GET', `${reports}/${open.body.id}/reports`, undefined, s.other)).status).toBe(404);
    const hide = await call('POST', `${posts}/${mine.id}/hide`, { reason: 'x', version: mine.version }, s.other);
    expect(hide.status).toBe(404);
    const theirs = await call('POST', reports, { targetType: 'post', targetId: mine.id, reason: 'spam' }, s.other);
    expect(theirs.body.fields[0].field).toBe('targetId');
    // the board is not theirs either: the body is refused before the post is looked for
    const moved = await call('POST', `${posts}/${mine.id}/move`, { boardId: queue.id, version: 0 }, s.other);
    expect(moved.body.fields[0].field).toBe('boardId');
    expect((await ok('GET', `${posts}/${mine.id}`)).status).toBe('published');
  });
});
