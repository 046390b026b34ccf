import './react-dedupe';
import '@testing-library/jest-dom/vitest';
import { createPluginManager } from '@@/core/plugin';
import { cleanup, configure } from '@testing-library/react';
import { createHistory } from '@umijs/max';
import { message } from 'antd';
import { afterAll, afterEach } from 'vitest';

// antd needs these browser APIs that jsdom lacks
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub;

const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// `history` from @umijs/max is undefined until a history is created; the runtime plugin manager
// backs getLocale()/getIntl() of plugin-locale.
createHistory({ type: 'memory', initialEntries: ['/'] });
createPluginManager();

// A dialog or form loaded on demand is a module import away; on a busy machine that takes longer than the library's
// default 1 s wait for `findBy…` and `waitFor`.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => cleanup());

// A message shown by a file's last test closes on a timer; once the file's window is gone that timer would throw
// ("window is not defined") into the next file's run. Closing them with the file stops their timers; closing renders
// the messages' own React root once more, so the file waits for that render while its window is still there (CI saw
// the render land after the window had gone, with the same error).
const tick = () => new Promise((resolve) => setTimeout(resolve, 50));
afterAll(async () => {
  message.destroy();
  for (let i = 0; i < 20 && document.querySelector('.ant-message-notice'); i++) await tick();
  await tick();
});
