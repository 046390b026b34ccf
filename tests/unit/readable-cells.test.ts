import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { codeOf, readableCell, valueLabels } from '../../server/src/core/resource/readable-cells';
import { importRowOf } from '../../server/src/core/schema-kit';

const Row = z.object({ status: z.enum(['draft', 'published', 'nameless']).optional() });
const status = { values: valueLabels('teaching.course.status', 'status', [Row]) };
const zh = { lang: 'zh-CN' as const, timeZone: 'Asia/Shanghai' };
const en = { lang: 'en-US' as const };

describe('a spreadsheet as its reader reads it', () => {
  it('names a coded value by its label, in the reader language; a value the catalogue does not name stays', () => {
    expect(readableCell('published', status, false, zh)).toBe('已发布');
    expect(readableCell('published', status, false, en)).toBe('Published');
    expect(readableCell('nameless', status, false, zh)).toBe('nameless');
    expect(valueLabels('teaching.course.title', 'title', [z.object({ title: z.string() })])).toBeUndefined();
  });

  it('writes yes and no as words, and an instant on the reader clock unless the import reads it', () => {
    expect(readableCell(true, {}, false, zh)).toBe('是');
    expect(readableCell(false, {}, false, en)).toBe('No');
    expect(readableCell('2026-11-27T12:15:30.640Z', {}, false, zh)).toBe('2026-11-27 20:15:30');
    expect(readableCell('2026-11-27T12:15:30.640Z', {}, true, zh)).toBe('2026-11-27T12:15:30.640Z');
    expect(readableCell('2026-11-27T12:15:30.640Z', {}, false, en)).toBe('2026-11-27T12:15:30.640Z');
    expect(readableCell('2026-11-27', {}, false, zh)).toBe('2026-11-27');
  });

  it('reads back a label in either language, or the code, and yes/no as words', () => {
    expect(codeOf('已发布', status.values)).toBe('published');
    expect(codeOf('Draft', status.values)).toBe('draft');
    expect(codeOf('draft', status.values)).toBe('draft');
    expect(codeOf('已发布', undefined)).toBe('已发布');
    const sheet = importRowOf({ required: z.boolean() });
    expect(sheet.parse({ required: '是' })).toEqual({ required: true });
    expect(sheet.parse({ required: 'No' })).toEqual({ required: false });
    expect(sheet.parse({ required: 'TRUE' })).toEqual({ required: true });
    expect(sheet.safeParse({ required: '也许' }).success).toBe(false);
  });
});
