import type { MessageInstance } from 'antd/es/message/interface';

/** antd's message (one at a time, src/utils/antdMessage.ts), loaded with the first one shown. */
const antd = () => import('@/utils/antdMessage').then((module) => module.default);

/**
 * What screens and the request layer use to show a message: antd's, which loads with the first one instead of
 * riding in the first download of every screen. Calls keep their order.
 */
const message = {
  success: (...args: Parameters<MessageInstance['success']>) => void antd().then((m) => m.success(...args)),
  error: (...args: Parameters<MessageInstance['error']>) => void antd().then((m) => m.error(...args)),
  loading: (...args: Parameters<MessageInstance['loading']>) => void antd().then((m) => m.loading(...args)),
  destroy: (...args: Parameters<MessageInstance['destroy']>) => void antd().then((m) => m.destroy(...args)),
};

export default message;
