import type { MessageInstance } from 'antd/es/message/interface';

/** antd's message (one at a time, src/utils/antdMessage.ts), loaded with the first one shown. */
const antd = () => import('@/utils/antdMessage').then((module) => module.default);

/** Calls `show` on antd's message; resolves a task later, once antd has had the time to put it on screen. */
const shown = (show: (antdMessage: MessageInstance) => unknown) =>
  antd().then((antdMessage) => {
    show(antdMessage);
    return new Promise<void>((resolve) => setTimeout(resolve));
  });

/**
 * What screens and the request layer use to show a message: antd's, which loads with the first one instead of
 * riding in the first download of every screen. Calls keep their order; await one when what follows could replace
 * its message before it shows.
 */
const message = {
  success: (...args: Parameters<MessageInstance['success']>) => shown((m) => m.success(...args)),
  error: (...args: Parameters<MessageInstance['error']>) => shown((m) => m.error(...args)),
  info: (...args: Parameters<MessageInstance['info']>) => shown((m) => m.info(...args)),
  warning: (...args: Parameters<MessageInstance['warning']>) => shown((m) => m.warning(...args)),
  loading: (...args: Parameters<MessageInstance['loading']>) => shown((m) => m.loading(...args)),
  destroy: (...args: Parameters<MessageInstance['destroy']>) => shown((m) => m.destroy(...args)),
};

export default message;
