import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, readXlsx, startApi, type TestApi } from './helpers';
import { describeOperation, fillPath, loadOperations, type Operation } from './openapi-operations';

/** Values no filter accepts as they are: plain words where a code, number or JSON object is expected, and broken JSON. */
const BAD_VALUES = ['zzz', '{"a":', '-1.5e999'];

/**
 * Every export of the OpenAPI document (a GET whose path ends in `/export`), asked with a bad value in each of its
 * query parameters: it answers a 4xx JSON error before the file starts, or a whole spreadsheet, never a 200 whose
 * stream then breaks (which the browser shows as a failed download with no reason).
 */
describe.each(engines())('exports with bad filters on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  let exports: Operation[];

  beforeAll(async () => {
    api = await startApi(engine);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    exports = (await loadOperations(api)).operations.filter((op) => op.method === 'GET' && op.path.endsWith('/export'));
  });
  afterAll(() => api?.close());

  /** The whole answer, read to its end: a stream that breaks rejects here. */
  const ask = async (path: string) => {
    const res = await api.fetch('GET', path, { token: admin, headers: { 'accept-language': 'en-US' } });
    const body = await res.arrayBuffer();
    return { status: res.status, type: res.headers.get('content-type') ?? '', body };
  };

  it('finds the exports of the document', () => {
    expect(exports.length).toBeGreaterThan(20);
    expect(exports.map(describeOperation)).toContain('GET /api/people/trainee/export');
  });

  it('refuses a bad custom-field filter of the trainees before the file starts', async () => {
    const answer = await ask('/api/people/trainee/export?custom=zzz');
    expect(answer.status).toBe(400);
    const error = JSON.parse(new TextDecoder().decode(answer.body)) as Json;
    expect(error).toMatchObject({ code: 'common.validation', fields: [{ field: 'custom' }] });
  });

  it('answers every bad filter of every export with a 4xx JSON error or a whole spreadsheet', async () => {
    const broken: string[] = [];
    for (const op of exports) {
      const path = fillPath(op.path, () => '1');
      for (const param of op.query) {
        for (const value of BAD_VALUES) {
          const url = `${path}?${new URLSearchParams({ [param.name]: value })}`;
          const answer = await ask(url).catch((err: Error) => ({ status: 0, type: '', body: err.message }));
          const whole =
            answer.status === 200
              ? answer.body instanceof ArrayBuffer &&
                (await readXlsx(answer.body).then(
                  () => true,
                  () => false,
                ))
              : answer.status >= 400 && answer.status < 500 && answer.type.includes('json');
          if (!whole) broken.push(`${url} → ${answer.status} ${answer.type}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
