import base from './base.json';
import { messagesOf } from './catalogue';

/** What Umi's locale plugin loads for zh-CN (the default): the base catalogue; areas add theirs (catalogue.ts). */
export default messagesOf(base, 'zh-CN');
