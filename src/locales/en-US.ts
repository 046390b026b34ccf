import base from './base.json';
import { messagesOf } from './catalogue';

/** What Umi's locale plugin loads for en-US: the base catalogue; areas add theirs (catalogue.ts). */
export default messagesOf(base, 'en-US');
