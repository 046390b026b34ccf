import { _LocaleContainer } from '@@/plugin-locale/locale';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { getLocale, setLocale } from '@umijs/max';
import { lazy, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import LoadErrorBoundary from '@/components/LoadErrorBoundary';
import CollapseButton from '@/components/layout/CollapseButton';
import { LanguageSwitch, ThemeSwitch } from '@/components/layout/HeaderActions';
import { showError } from '@/utils/request';
import { freshStore, renderApp, type TestStore } from './harness';

let store: TestStore;
beforeEach(() => {
  store = freshStore();
});

describe('theme switch', () => {
  it('toggles light/dark in the persisted theme field', async () => {
    const { tree } = renderApp({ store, children: <ThemeSwitch /> });
    render(tree);
    const button = screen.getByTestId('theme-switch');
    expect(button).toHaveAttribute('data-theme', 'light');
    fireEvent.click(button);
    expect(store.getState().root.theme).toBe('dark');
    await waitFor(() => expect(screen.getByTestId('theme-switch')).toHaveAttribute('data-theme', 'dark'));
    await waitFor(() => expect(localStorage.getItem('persist:root')).toContain('\\"theme\\":\\"dark\\"'));
    fireEvent.click(screen.getByTestId('theme-switch'));
    expect(store.getState().root.theme).toBe('light');
  });
});

describe('collapse button', () => {
  it('stores the sidebar collapse in the persisted collapsed field', () => {
    const { tree } = renderApp({ store, children: <CollapseButton collapsed={false} /> });
    render(tree);
    fireEvent.click(screen.getByTestId('layout-collapse'));
    expect(store.getState().root.collapsed).toBe(true);
  });

  it('expands again when collapsed', () => {
    const { tree } = renderApp({ store, children: <CollapseButton collapsed /> });
    render(tree);
    expect(screen.getByTestId('layout-collapse')).toHaveAttribute('data-collapsed', 'true');
    fireEvent.click(screen.getByTestId('layout-collapse'));
    expect(store.getState().root.collapsed).toBe(false);
  });
});

describe('language switch', () => {
  afterEach(() => act(() => setLocale('zh-CN', false)));

  it('switches zh-CN ↔ en-US without a reload and re-renders the texts', async () => {
    const { tree } = renderApp({ store, children: <LanguageSwitch /> });
    render(<_LocaleContainer>{tree}</_LocaleContainer>);
    expect(getLocale()).toBe('zh-CN');
    expect(screen.getByTestId('lang-switch')).toHaveAttribute('data-locale', 'zh-CN');
    act(() => fireEvent.click(screen.getByTestId('lang-switch')));
    expect(getLocale()).toBe('en-US');
    expect(localStorage.getItem('umi_locale')).toBe('en-US');
  });
});

describe('load error', () => {
  it('shows the load error with a retry button when a screen chunk fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = lazy(() =>
      Promise.reject(Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError' })),
    );
    const onRetry = vi.fn();
    const { tree } = renderApp({
      store,
      children: (
        <LoadErrorBoundary onRetry={onRetry}>
          <Suspense fallback="…">
            <Broken />
          </Suspense>
        </LoadErrorBoundary>
      ),
    });
    render(tree);
    await screen.findByTestId('load-error');
    fireEvent.click(screen.getByTestId('load-error-retry'));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});

describe('error messages', () => {
  it('keeps one message visible at a time', async () => {
    showError('first');
    showError('second');
    await waitFor(() => expect(document.querySelectorAll('.ant-message-notice')).toHaveLength(1));
    await waitFor(() => expect(document.querySelector('.ant-message-notice')).toHaveTextContent('second'));
  });
});
