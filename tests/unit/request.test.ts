import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RootState } from '@/models/root';
import { BusinessError, createRequest, dedupeKey, errorMessage, type RequestDeps } from '@/utils/request';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function setup(options: { token?: RootState['token']; locale?: string; page?: string; handler?: Handler } = {}) {
  const state: Pick<RootState, 'token' | 'errCodes'> = {
    token: options.token ?? { accessToken: '', refreshToken: '', type: 'bearer' },
    errCodes: [],
  };
  const calls: { url: string; init: RequestInit }[] = [];
  const handler: Handler = options.handler ?? (() => json(200, { ok: true }));
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(handler(url, init));
  });
  let page = options.page ?? '/dashboard/workspace';
  const deps = {
    getState: () => state,
    dispatch: vi.fn((type: string, payload: unknown) => {
      if (type === 'SET_TOKEN') state.token = payload as RootState['token'];
    }),
    notify: vi.fn(),
    navigate: vi.fn(),
    getPagePath: () => page,
    getLocale: () => options.locale ?? 'zh-CN',
  } satisfies RequestDeps;
  const request = createRequest(deps);
  return { request, deps, calls, state, setPage: (p: string) => (page = p) };
}

const header = (init: RequestInit, name: string) => new Headers(init.headers as HeadersInit).get(name);
const swallow = (p: Promise<unknown>): Promise<unknown> => p.catch((e: unknown) => e);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('request layer: time-out', () => {
  it('fails after exactly 30000 ms and shows the 504 message', async () => {
    const { request, deps } = setup({ handler: () => new Promise<Response>(() => {}) });
    let settled = false;
    const result = swallow(request('/api/slow')).then((e) => {
      settled = true;
      return e;
    });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    expect(await result).toMatchObject({ type: 'Timeout' });
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledWith('服务请求超时，请稍后再试');
  });
});

describe('request layer: headers', () => {
  it('sends Authorization "{type} {accessToken}" when a token exists', async () => {
    const { request, calls } = setup({ token: { accessToken: 'abc', refreshToken: 'r', type: 'bearer' } });
    await request('/api/auth/me');
    expect(header(calls[0].init, 'Authorization')).toBe('bearer abc');
  });

  it('sends no Authorization header without a token', async () => {
    const { request, calls } = setup({ token: {} });
    await request('/api/health');
    expect(header(calls[0].init, 'Authorization')).toBeNull();
  });

  it('sends Accept-Language from the current locale', async () => {
    const { request, calls } = setup({ locale: 'en-US' });
    await request('/api/health');
    expect(header(calls[0].init, 'Accept-Language')).toBe('en-US');
  });
});

describe('request layer: response check', () => {
  it('treats a body with success === false as an error and does nothing else', async () => {
    const { request, deps } = setup({ handler: () => json(200, { success: false, data: [] }) });
    const error = await swallow(request('/api/things'));
    expect(error).toBeInstanceOf(BusinessError);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(deps.notify).not.toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(deps.dispatch).not.toHaveBeenCalled();
  });

  it('passes a body with success === true through', async () => {
    const { request } = setup({ handler: () => json(200, { success: true, data: [1], total: 1 }) });
    await expect(request('/api/things')).resolves.toEqual({ success: true, data: [1], total: 1 });
  });
});

describe('request layer: error bodies and the catalogue', () => {
  it('recognises {family, code, message} and shows its message', async () => {
    const { request, deps } = setup({
      handler: () => json(400, { family: 'CLIENT_ERROR', code: 'auth.badCredentials', message: '用户名或密码错误' }),
    });
    await swallow(request('/api/auth/token', { method: 'POST' }));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledWith('用户名或密码错误');
  });

  it('recognises {timestamp, status, error, message} and shows its message', async () => {
    const { request, deps } = setup({
      handler: () =>
        json(500, { timestamp: '2024-01-01', status: 500, error: 'Internal Server Error', message: '数据库不可用' }),
    });
    await swallow(request('/api/x'));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledWith('数据库不可用');
  });

  it.each([
    [409, { message: '名额已满' }],
    [404, { error: 'Not Found', message: '课程已下架' }],
    [500, { status: 500, message: '数据库不可用' }],
  ])('shows the message of a %i body in neither recognised shape, 100 ms later', async (status, body) => {
    const { request, deps } = setup({ handler: () => json(status, body) });
    await swallow(request('/api/x'));
    await vi.advanceTimersByTimeAsync(99);
    expect(deps.notify).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(deps.notify).toHaveBeenCalledWith(body.message);
  });

  it.each([
    [404, '请求的资源不存在'],
    [500, '系统内部错误，请稍后再试'],
    [504, '服务请求超时，请稍后再试'],
    [418, '请求错误(418)，请稍后再试'],
    [401, '登录已过期，请重新登录'],
  ])('shows the catalogue message for %i without a body message', async (status, text) => {
    const { request, deps } = setup({ handler: () => new Response('', { status }) });
    await swallow(request('/api/x'));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledWith(text);
  });

  it('leaves a status the caller shows itself to the caller, and still shows the others', async () => {
    const { request, deps } = setup({
      handler: (url) => new Response('', { status: url.includes('gone') ? 404 : 500 }),
    });
    await swallow(request('/api/gone', { shownByCaller: [404] }));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).not.toHaveBeenCalled();
    await swallow(request('/api/broken', { shownByCaller: [404] }));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledWith('系统内部错误，请稍后再试');
  });

  it('prefers the body message over the catalogue, also for 401', () => {
    expect(
      errorMessage(401, { family: 'CLIENT_ERROR', code: 'common.unauthorized', message: '会话已失效' }, 'zh-CN'),
    ).toBe('会话已失效');
    expect(errorMessage(401, {}, 'zh-CN')).toBe('登录已过期，请重新登录');
  });

  it('uses the English catalogue in en-US', () => {
    expect(errorMessage(404, undefined, 'en-US')).toBe('The requested resource does not exist');
    expect(errorMessage(502, undefined, 'en-US')).toBe('Request error (502), please try again later');
  });

  it('falls back to the error-code dictionary for a code without a message', () => {
    const errCodes = [{ code: 'x.y', httpStatus: 409, messageZh: '冲突', messageEn: 'Conflict' }];
    expect(errorMessage(409, { code: 'x.y' }, 'en-US', errCodes)).toBe('Conflict');
  });
});

describe('request layer: field errors', () => {
  const invalid = {
    family: 'CLIENT_ERROR',
    code: 'auth.passwordPolicy',
    message: '密码至少 8 位，且须同时包含字母和数字',
    fields: [{ field: 'adminPassword', message: '密码至少 8 位，且须同时包含字母和数字' }],
  };

  it('leaves a 400 to the form that placed every field on its own fields: no message', async () => {
    const { request, deps } = setup({ handler: () => json(400, invalid) });
    const placeFieldErrors = vi.fn(() => true);
    await swallow(request('/api/system/tenant', { method: 'POST', placeFieldErrors }));
    await vi.advanceTimersByTimeAsync(100);
    expect(placeFieldErrors).toHaveBeenCalledWith(invalid.fields);
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('shows the message when the form could not place a field, or no form asked', async () => {
    const { request, deps } = setup({ handler: () => json(400, invalid) });
    await swallow(request('/api/system/tenant', { method: 'POST', placeFieldErrors: () => false }));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledWith(invalid.message);
    await swallow(request('/api/system/admin', { method: 'POST' }));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledTimes(2);
  });

  it('says why an action no form answers was refused: the fields the message does not already say', async () => {
    const refused = {
      family: 'CLIENT_ERROR',
      code: 'common.validation',
      message: '请求参数不正确',
      fields: [
        { field: 'finalPaperId', message: '结课试卷须先发布' },
        { field: 'status', message: '请求参数不正确' },
      ],
    };
    const { request, deps } = setup({ handler: () => json(400, refused) });
    await swallow(request('/api/teaching/course/1/publish', { method: 'POST' }));
    await vi.advanceTimersByTimeAsync(100);
    // the reason alone, never the field's API path nor the generic "invalid request" it explains
    expect(deps.notify).toHaveBeenCalledWith('结课试卷须先发布');
  });

  it('names a refused field where the caller can place it, and keeps a specific message before its reasons', async () => {
    const answers = [
      {
        code: 'common.validation',
        message: 'Invalid request',
        fields: [
          { field: 'sections.0.rules.0.count', message: 'only 2 ready questions match' },
          { field: 'items', message: 'publish one of its items first' },
        ],
      },
      { code: 'course.locked', message: '课程已锁定', fields: [{ field: 'items', message: '有学员在学' }] },
    ];
    const { request, deps } = setup({ locale: 'en-US', handler: () => json(400, answers.shift()) });
    const nameField = (field: string) => (field.startsWith('sections.0.rules.0') ? 'Section 1, rule 1' : undefined);
    await swallow(request('/api/assess/paper/1/publish', { method: 'POST', nameField }));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenLastCalledWith(
      'Section 1, rule 1: only 2 ready questions match; publish one of its items first',
    );
    await swallow(request('/api/teaching/course/1/publish', { method: 'POST' }));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenLastCalledWith('课程已锁定 — 有学员在学');
  });

  it("reads the JSON reason of a refused file download, and hands the caller the layer's text", async () => {
    const refused = {
      code: 'common.validation',
      message: '请求参数不正确',
      fields: [{ field: 'sections.0.rules.0.count', message: '题库已变化，该规则抽不够题目' }],
    };
    const { request, deps } = setup({ handler: () => json(400, refused) });
    const error = await swallow(request('/api/assess/paper/1/export-pdf', { responseType: 'blob' }));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledWith('题库已变化，该规则抽不够题目');
    expect(request.reasonOf(error, { nameField: () => '第 1 部分第 1 条规则' })).toBe(
      '第 1 部分第 1 条规则：题库已变化，该规则抽不够题目',
    );
  });

  it('shows a 413 on the largest field of the body it sent, and says the limit (issue 32)', async () => {
    const tooLarge = { family: 'CLIENT_ERROR', code: 'common.payloadTooLarge', message: '请求内容超过 1 MB 的上限' };
    const { request, deps } = setup({ handler: () => json(413, tooLarge) });
    const placeFieldErrors = vi.fn(() => true);
    const data = { title: 'a', content: 'x'.repeat(2000), tags: ['b'] };
    await swallow(request('/api/content/document', { method: 'POST', data, placeFieldErrors }));
    await vi.advanceTimersByTimeAsync(100);
    expect(placeFieldErrors).toHaveBeenCalledWith([{ field: 'content', message: tooLarge.message }]);
    expect(deps.notify).toHaveBeenCalledWith(tooLarge.message);
  });

  it('does not offer a 409 or a 400 without fields to the form', async () => {
    const { request, deps } = setup({ handler: () => json(409, { ...invalid, code: 'common.versionConflict' }) });
    const placeFieldErrors = vi.fn(() => true);
    await swallow(request('/api/system/tenant/1', { method: 'PUT', placeFieldErrors }));
    await vi.advanceTimersByTimeAsync(100);
    expect(placeFieldErrors).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledTimes(1);
  });
});

describe('request layer: idempotency keys', () => {
  it('sends a fresh Idempotency-Key with each submitted POST, and none with a read', async () => {
    const { request, calls } = setup();
    await request.post('/api/community/post', { data: { title: 'a' } });
    await request.post('/api/community/post', { data: { title: 'a' } });
    await request.get('/api/community/post');
    await request.put('/api/community/post/1', { data: { title: 'b', version: 0 } });
    const keys = calls.map((c) => header(c.init, 'Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys.slice(2)).toEqual([null, null]);
  });

  it('sends a double-clicked submit once: the second click waits for the first answer', async () => {
    const waiting: ((response: Response) => void)[] = [];
    const answer = (response: () => Response) => {
      for (const resolve of waiting.splice(0)) resolve(response());
    };
    const { request, calls } = setup({ handler: () => new Promise<Response>((resolve) => waiting.push(resolve)) });
    const first = request.post('/api/content/document', { data: { title: 'x' } });
    const second = request.post('/api/content/document', { data: { title: 'x' } });
    const other = request.post('/api/content/document', { data: { title: 'y' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    answer(() => json(201, { id: '1' }));
    await expect(first).resolves.toEqual({ id: '1' });
    await expect(second).resolves.toEqual({ id: '1' });
    await expect(other).resolves.toEqual({ id: '1' });
    // once answered, the same body sent again is a new submit
    const again = request.post('/api/content/document', { data: { title: 'x' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(3);
    answer(() => json(201, { id: '2' }));
    await expect(again).resolves.toEqual({ id: '2' });
    expect(header(calls[2].init, 'Idempotency-Key')).not.toBe(header(calls[0].init, 'Idempotency-Key'));
  });

  it("keeps the caller's key, sends none with an upload or the sign-in, and reuses it for the replay after a 401", async () => {
    const { request, calls } = setup({
      token: { accessToken: 'old', refreshToken: 'r1', type: 'bearer' },
      handler: (url, init) => {
        if (url === '/api/auth/token')
          return json(200, { access_token: 'new', refresh_token: 'r2', token_type: 'bearer' });
        return header(init, 'Authorization') === 'bearer new' ? json(201, { id: '1' }) : json(401, {});
      },
    });
    await request.post('/api/content/document', { data: { title: 'x' } });
    const creates = calls.filter((c) => c.url === '/api/content/document');
    expect(creates).toHaveLength(2);
    expect(header(creates[1].init, 'Idempotency-Key')).toBe(header(creates[0].init, 'Idempotency-Key'));
    const refresh = calls.find((c) => c.url === '/api/auth/token');
    expect(refresh && header(refresh.init, 'Idempotency-Key')).toBeNull();

    await request.post('/api/assess/question', { data: {}, idempotencyKey: 'form-7' });
    const last = () => calls[calls.length - 1]?.init ?? {};
    expect(header(last(), 'Idempotency-Key')).toBe('form-7');
    await request.post('/api/file/file/upload', { data: new FormData() });
    expect(header(last(), 'Idempotency-Key')).toBeNull();
  });
});

describe('request layer: the 401 flow', () => {
  const tokens = { accessToken: 'old', refreshToken: 'r1', type: 'bearer' };

  it('refreshes once with the refresh token and replays the request', async () => {
    const { request, deps, calls } = setup({
      token: { ...tokens },
      handler: (url, init) => {
        if (url === '/api/auth/token')
          return json(200, { access_token: 'new', refresh_token: 'r2', token_type: 'bearer' });
        return header(init, 'Authorization') === 'bearer new'
          ? json(200, { me: 1 })
          : json(401, { message: 'expired' });
      },
    });
    await expect(request('/api/auth/me')).resolves.toEqual({ me: 1 });
    const refresh = calls.filter((c) => c.url === '/api/auth/token');
    expect(refresh).toHaveLength(1);
    expect(JSON.parse(String(refresh[0].init.body))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'r1',
      client_id: 'console',
    });
    expect(deps.dispatch).toHaveBeenCalledWith('SET_TOKEN', { accessToken: 'new', refreshToken: 'r2', type: 'bearer' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(deps.notify).not.toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('shares one refresh between concurrent 401s', async () => {
    const { request, calls } = setup({
      token: { ...tokens },
      handler: async (url, init) => {
        if (url === '/api/auth/token') {
          await new Promise((r) => setTimeout(r, 10));
          return json(200, { access_token: 'new', refresh_token: 'r2', token_type: 'bearer' });
        }
        return header(init, 'Authorization') === 'bearer new' ? json(200, { url }) : json(401, {});
      },
    });
    const all = Promise.all([request('/api/a'), request('/api/b'), request('/api/c')]);
    await vi.advanceTimersByTimeAsync(50);
    await expect(all).resolves.toEqual([{ url: '/api/a' }, { url: '/api/b' }, { url: '/api/c' }]);
    expect(calls.filter((c) => c.url === '/api/auth/token')).toHaveLength(1);
  });

  it('when the refresh fails: token {}, message, /login after exactly 500 ms', async () => {
    const { request, deps, calls } = setup({
      token: { ...tokens },
      handler: (url) =>
        url === '/api/auth/token'
          ? json(400, { family: 'CLIENT_ERROR', code: 'auth.invalidGrant', message: 'bad grant' })
          : json(401, { family: 'CLIENT_ERROR', code: 'common.unauthorized', message: '登录已过期，请重新登录' }),
    });
    await swallow(request('/api/auth/me'));
    expect(calls.filter((c) => c.url === '/api/auth/token')).toHaveLength(1);
    expect(deps.dispatch).toHaveBeenLastCalledWith('SET_TOKEN', {});
    await vi.advanceTimersByTimeAsync(499);
    expect(deps.navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/login');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('登录已过期，请重新登录');
  });

  it('without a refresh token: no refresh call, token {}, /login after 500 ms', async () => {
    const { request, deps, calls } = setup({
      token: { accessToken: 'old', refreshToken: '', type: 'bearer' },
      handler: () => json(401, {}),
    });
    await swallow(request('/api/auth/me'));
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/me']);
    expect(deps.dispatch).toHaveBeenCalledExactlyOnceWith('SET_TOKEN', {});
    await vi.advanceTimersByTimeAsync(499);
    expect(deps.navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(deps.navigate).toHaveBeenCalledWith('/login');
  });

  it('refreshes only once: a replay that is rejected again ends the session', async () => {
    const { request, deps, calls } = setup({
      token: { ...tokens },
      handler: (url) =>
        url === '/api/auth/token'
          ? json(200, { access_token: 'new', refresh_token: 'r2', token_type: 'bearer' })
          : json(401, {}),
    });
    await swallow(request('/api/auth/me'));
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/me', '/api/auth/token', '/api/auth/me']);
    expect(deps.dispatch).toHaveBeenLastCalledWith('SET_TOKEN', {});
    await vi.advanceTimersByTimeAsync(500);
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/login');
  });
});

describe('request layer: de-duplication', () => {
  it('builds keys from status + URL + page, and status + page for 500', () => {
    expect(dedupeKey(404, '/api/a?x=1', '/p')).toBe('404|/api/a|/p');
    expect(dedupeKey(500, '/api/a', '/p')).toBe(dedupeKey(500, '/api/b', '/p'));
    expect(dedupeKey(500, '/api/a', '/p')).not.toBe(dedupeKey(500, '/api/a', '/q'));
  });

  const byMessage = (url: string) =>
    json(url.includes('fail500') ? 500 : 404, { family: 'CLIENT_ERROR', code: 'c', message: url });

  it('shows the same status + URL + page once', async () => {
    const { request, deps } = setup({ handler: byMessage });
    await swallow(request('/api/a'));
    await swallow(request('/api/a'));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('/api/a');
  });

  it('shows different URLs separately', async () => {
    const { request, deps } = setup({ handler: byMessage });
    await swallow(request('/api/a'));
    await swallow(request('/api/b'));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('/api/a；/api/b');
  });

  it('for 500 counts only status + page', async () => {
    const { request, deps, setPage } = setup({ handler: byMessage });
    await swallow(request('/api/fail500/a'));
    await swallow(request('/api/fail500/b'));
    setPage('/other');
    await swallow(request('/api/fail500/c'));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('/api/fail500/a；/api/fail500/c');
  });

  it('counts the page path in the key', async () => {
    const { request, deps, setPage } = setup({ handler: byMessage });
    await swallow(request('/api/a'));
    setPage('/account/center');
    await swallow(request('/api/a'));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('/api/a');
    expect(deps.notify).toHaveBeenCalledTimes(1);
  });
});

describe('request layer: batching', () => {
  const handler = (url: string) => json(404, { family: 'CLIENT_ERROR', code: 'c', message: url });

  it('shows messages 100 ms after the last one, as one message', async () => {
    const { request, deps } = setup({ handler });
    await swallow(request('/api/a'));
    await vi.advanceTimersByTimeAsync(60);
    await swallow(request('/api/b'));
    await vi.advanceTimersByTimeAsync(99);
    expect(deps.notify).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('/api/a；/api/b');
  });

  it('shows one message per batch, so one is visible at a time', async () => {
    const { request, deps } = setup({ handler });
    await swallow(request('/api/a'));
    await vi.advanceTimersByTimeAsync(100);
    await swallow(request('/api/a'));
    await vi.advanceTimersByTimeAsync(100);
    expect(deps.notify).toHaveBeenCalledTimes(2);
    expect(deps.notify.mock.calls.map((c) => c[0])).toEqual(['/api/a', '/api/a']);
  });
});
