import { describe, expect, it } from 'vitest';
import {
  invalidPlaceholders,
  paramsOf,
  placeholdersOf,
  renderTemplate,
} from '../../server/src/modules/message/template/render';

describe('message template rendering', () => {
  it('replaces each placeholder by its value, numbers and booleans as text', () => {
    expect(
      renderTemplate(
        { titleTemplate: '{paperName} 已发布', contentTemplate: '{name}：{paperName} 共 {count} 题，补考 {retake}' },
        { paperName: '内科出科考核', name: '张三', count: 50, retake: false },
      ),
    ).toEqual({ title: '内科出科考核 已发布', content: '张三：内科出科考核 共 50 题，补考 false', missing: [] });
  });

  it('keeps the placeholders without a value and lists them once, in order', () => {
    const rendered = renderTemplate({ contentTemplate: '{b} {a} {b} {c}' }, {
      a: 'A',
      c: null,
      constructor: 'x',
    } as Record<string, unknown>);
    expect(rendered).toEqual({ title: null, content: '{b} A {b} {c}', missing: ['b', 'c'] });
    // an inherited property is not a value
    expect(renderTemplate({ contentTemplate: '{toString}' }, {}).missing).toEqual(['toString']);
  });

  it('does not read a value as a pattern, nor render a value again', () => {
    expect(renderTemplate({ contentTemplate: '{a}{b}' }, { a: '$& {b}', b: '$1' }).content).toBe('$& {b}$1');
  });

  it('parses the variables of the title then the content, each once, and finds the invalid ones', () => {
    expect(paramsOf({ titleTemplate: '{x} {y}', contentTemplate: '{y} {z} {x}' })).toEqual(['x', 'y', 'z']);
    expect(placeholdersOf('a {} b {user name} {ok_1}', null)).toEqual(['', 'user name', 'ok_1']);
    expect(invalidPlaceholders('a {} b {user name} {ok_1} {1st} {a.b}')).toEqual(['', 'user name', '1st', 'a.b']);
    expect(invalidPlaceholders(null)).toEqual([]);
  });
});
