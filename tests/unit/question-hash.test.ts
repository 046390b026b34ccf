import { describe, expect, it } from 'vitest';
import { contentHash } from '../../server/src/modules/assess/question/question.rules';

/**
 * A question's content hash is stored with it and looked up by the duplicate check of every later save and import:
 * the same content must keep giving the hash the bank already holds (these were computed when each part of a question
 * was normalised alone).
 */
describe('the content hash of a question', () => {
  it('is what the bank stored for a question and for a group with its items', () => {
    const single = {
      stem: '急性心肌梗死最常见的心律失常是（  ）',
      options: [
        { key: 'A', text: '室性早搏' },
        { key: 'B', text: '房颤' },
      ],
    };
    const group = {
      stem: '男，56岁，胸骨后压榨样疼痛 3 小时！',
      options: null,
      children: [
        {
          stem: 'Most LIKELY diagnosis?',
          options: [
            { key: 'A', text: '急性心肌梗死。' },
            { key: 'B', text: '心绞痛 (stable)' },
          ],
        },
        { stem: '首选检查——', options: [{ key: 'A', text: 'ECG' }] },
      ],
    };
    expect(contentHash(single)).toBe('1550747c9e62b7eafe7cd4b6b581eb080ff28e3e65dd911bc5995b2905454e7c');
    expect(contentHash(group)).toBe('c2552d7a89b6a5951291e447ef8a33235768d5c36cee12faec187d68c0bdc4a8');
  });

  it('does not tell apart what differs only in case, spaces and punctuation', () => {
    const a = { stem: 'Aspirin: first-line?', options: [{ key: 'A', text: 'Yes.' }] };
    const b = { stem: 'aspirin first line', options: [{ key: 'A', text: 'yes' }] };
    expect(contentHash(a)).toBe(contentHash(b));
    expect(contentHash(a)).not.toBe(contentHash({ ...b, options: [{ key: 'B', text: 'yes' }] }));
  });
});
