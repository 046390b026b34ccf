import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { history } from '@umijs/max';
import { Modal } from 'antd';
import { useCallback, useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { finishScreen, usePaneShown, useRecordFrame } from '@/components/layout/frame';
import TabsOutlet from '@/components/layout/TabsOutlet';
import { createTestStore, freshStore, renderApp, type TestStore } from './harness';

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState(0);
  usePaneShown(useCallback(() => setShown((n) => n + 1), []));
  return (
    <>
      <span data-testid={`shown-${label}`}>{shown}</span>
      <button type="button" data-testid={`counter-${label}`} onClick={() => setCount((n) => n + 1)}>
        {label}:{count}
      </button>
      <button type="button" data-testid={`open-${label}`} onClick={() => setOpen(true)}>
        open
      </button>
      <Modal open={open} title={`dialog of ${label}`} onCancel={() => setOpen(false)}>
        <span data-testid={`dialog-${label}`}>{label}</span>
      </Modal>
    </>
  );
}

/** A form screen: something typed (a count), and a save that finishes it. */
function Form() {
  const frame = useRecordFrame('menu.account', undefined, false);
  const [count, setCount] = useState(0);
  return (
    <>
      <button type="button" data-testid="counter-form" onClick={() => setCount((n) => n + 1)}>
        form:{count}
      </button>
      <button type="button" data-testid="form-save" onClick={() => finishScreen(frame, '/dashboard/workspace')}>
        save
      </button>
    </>
  );
}

const routes = [
  {
    path: '/',
    isLayout: true,
    element: <TabsOutlet />,
    children: [
      {
        path: '/dashboard/workspace',
        name: 'workspace',
        access: 'dashboard:workspace:view',
        element: <Counter label="a" />,
      },
      { path: '/account/center', name: 'account', access: 'account:profile:view', element: <Counter label="b" /> },
      { path: '/account/form', name: 'form', access: 'account:profile:view', element: <Form /> },
      { path: '/secret', name: 'forbidden', access: 'system:secret:view', element: <Counter label="secret" /> },
    ],
  },
];

const access = { 'dashboard:workspace:view': true, 'account:profile:view': true };

let store: TestStore;
const root = () => store.getState().root;
const tabLabels = () => screen.queryAllByTestId('tab').map((el) => el.textContent);
const pane = (path: string) => document.querySelector(`[data-testid="tab-pane"][data-path="${path}"]`) as HTMLElement;
const go = (path: string) => act(() => history.push(path));

beforeEach(() => {
  store = freshStore();
});

describe('tab bar', () => {
  it('opens every visited screen as a tab and records the active one', async () => {
    const { tree } = renderApp({ store, routes, access, initialPath: '/dashboard/workspace' });
    render(tree);
    await waitFor(() => expect(tabLabels()).toEqual(['工作台']));
    go('/account/center');
    await waitFor(() => expect(tabLabels()).toEqual(['工作台', '个人中心']));
    expect(root().curTab).toEqual([
      { path: '/dashboard/workspace', title: 'menu.workspace' },
      { path: '/account/center', title: 'menu.account' },
    ]);
    expect(root().lastActiveTabPath).toBe('/account/center');
  });

  it('keeps a screen state when switching tabs, hiding the inactive one', async () => {
    const { tree } = renderApp({ store, routes, access, initialPath: '/dashboard/workspace' });
    render(tree);
    fireEvent.click(await screen.findByTestId('counter-a'));
    fireEvent.click(screen.getByTestId('counter-a'));
    go('/account/center');
    await screen.findByTestId('counter-b');
    expect(pane('/dashboard/workspace')).not.toBeVisible();
    fireEvent.click(screen.getAllByTestId('tab')[0]);
    await waitFor(() => expect(history.location.pathname).toBe('/dashboard/workspace'));
    expect(pane('/dashboard/workspace')).toBeVisible();
    expect(screen.getByTestId('counter-a')).toHaveTextContent('a:2');
    expect(root().lastActiveTabPath).toBe('/dashboard/workspace');
  });

  it("hides a dialog left open on a screen while another tab shows, and shows it again on the screen's return", async () => {
    const { tree } = renderApp({ store, routes, access, initialPath: '/dashboard/workspace' });
    render(tree);
    fireEvent.click(await screen.findByTestId('open-a'));
    const dialog = await screen.findByTestId('dialog-a');
    await waitFor(() => expect(dialog).toBeVisible());
    expect(pane('/dashboard/workspace')).toContainElement(dialog);
    go('/account/center');
    await screen.findByTestId('counter-b');
    expect(dialog).not.toBeVisible();
    fireEvent.click(screen.getAllByTestId('tab')[0]);
    await waitFor(() => expect(dialog).toBeVisible());
  });

  it('refreshes a tab: remounts it and resets reloadPath to "null"', async () => {
    const { tree } = renderApp({ store, routes, access, initialPath: '/dashboard/workspace' });
    render(tree);
    fireEvent.click(await screen.findByTestId('counter-a'));
    expect(screen.getByTestId('counter-a')).toHaveTextContent('a:1');
    fireEvent.click(screen.getByTestId('tab-refresh'));
    await waitFor(() => expect(screen.getByTestId('counter-a')).toHaveTextContent('a:0'));
    expect(root().reloadPath).toBe('null');
  });

  it('closes a tab and moves to its neighbour', async () => {
    const { tree } = renderApp({ store, routes, access, initialPath: '/dashboard/workspace' });
    render(tree);
    await screen.findByTestId('counter-a');
    go('/account/center');
    await screen.findByTestId('counter-b');
    const active = document.querySelector('.ant-tabs-tab[data-node-key="/account/center"]') as HTMLElement;
    fireEvent.click(active.querySelector('.ant-tabs-tab-remove') as HTMLElement);
    await waitFor(() => expect(tabLabels()).toEqual(['工作台']));
    expect(history.location.pathname).toBe('/dashboard/workspace');
    expect(root().curTab).toEqual([{ path: '/dashboard/workspace', title: 'menu.workspace' }]);
    expect(screen.queryByTestId('counter-b')).toBeNull();
  });

  it('tells a kept screen each time it shows again after another tab, not when it first opens', async () => {
    const { tree } = renderApp({ store, routes, access, initialPath: '/dashboard/workspace' });
    render(tree);
    expect(await screen.findByTestId('shown-a')).toHaveTextContent('0');
    go('/account/center');
    expect(await screen.findByTestId('shown-b')).toHaveTextContent('0');
    go('/dashboard/workspace');
    await waitFor(() => expect(screen.getByTestId('shown-a')).toHaveTextContent('1'));
    expect(screen.getByTestId('shown-b')).toHaveTextContent('0');
    go('/account/center');
    await waitFor(() => expect(screen.getByTestId('shown-b')).toHaveTextContent('1'));
    expect(screen.getByTestId('shown-a')).toHaveTextContent('1');
  });

  it('closes a form screen that finished its work: coming back to it starts afresh', async () => {
    const { tree } = renderApp({ store, routes, access, initialPath: '/dashboard/workspace' });
    render(tree);
    fireEvent.click(await screen.findByTestId('counter-a'));
    go('/account/form');
    fireEvent.click(await screen.findByTestId('counter-form'));
    expect(screen.getByTestId('counter-form')).toHaveTextContent('form:1');
    fireEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(history.location.pathname).toBe('/dashboard/workspace'));
    await waitFor(() => expect(root().curTab.map((t) => t.path)).toEqual(['/dashboard/workspace']));
    expect(screen.queryByTestId('counter-form')).toBeNull();
    // the kept screen it opened is read afresh: it shows what was saved
    await waitFor(() => expect(screen.getByTestId('counter-a')).toHaveTextContent('a:0'));
    go('/account/form');
    expect(await screen.findByTestId('counter-form')).toHaveTextContent('form:0');
  });

  it('shows the 403 screen for a route without access, keeping the other tabs alive', async () => {
    const { tree } = renderApp({ store, routes, access, initialPath: '/dashboard/workspace' });
    render(tree);
    fireEvent.click(await screen.findByTestId('counter-a'));
    go('/secret');
    await screen.findByTestId('exception-403');
    expect(screen.queryByTestId('counter-secret')).toBeNull();
    go('/dashboard/workspace');
    await waitFor(() => expect(screen.getByTestId('counter-a')).toHaveTextContent('a:1'));
  });

  it('restores the persisted tabs after a reload', async () => {
    const first = renderApp({ store, routes, access, initialPath: '/dashboard/workspace' });
    const { unmount } = render(first.tree);
    await screen.findByTestId('counter-a');
    go('/account/center');
    await screen.findByTestId('counter-b');
    await waitFor(() => expect(localStorage.getItem('persist:root')).toContain('/account/center'));
    unmount();

    store = createTestStore();
    await waitFor(() => expect(root().curTab).toHaveLength(2));
    const second = renderApp({ store, routes, access, initialPath: '/account/center' });
    render(second.tree);
    await waitFor(() => expect(tabLabels()).toEqual(['工作台', '个人中心']));
  });
});
