/**
 * antd's message as every screen uses it: one visible at a time (spec.md §8). The request layer and the sign-in
 * screen load it when they first show one, so it is not part of the first download.
 */
import { message } from 'antd';

message.config({ maxCount: 1 });

export default message;
