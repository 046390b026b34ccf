/** antd's message as the console shows it: one at a time (spec.md §8). Loaded through src/utils/message.ts. */
import { message } from 'antd';

message.config({ maxCount: 1 });

export default message;
