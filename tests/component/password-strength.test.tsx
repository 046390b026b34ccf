import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { beforeEach, describe, expect, it } from 'vitest';
import PasswordStrengthInput from '@/components/password/PasswordStrengthInput';
import { createTestStore, renderApp, type TestStore } from './harness';

let store: TestStore;
beforeEach(() => {
  store = createTestStore();
});

function renderField(userInputs: string[] = []) {
  const values: { password?: string }[] = [];
  const { tree } = renderApp({
    store,
    children: (
      <Form onValuesChange={(_, all) => values.push(all)}>
        <Form.Item name="password">
          <PasswordStrengthInput data-testid="password" userInputs={userInputs} />
        </Form.Item>
      </Form>
    ),
  });
  render(tree);
  return values;
}

const meter = () => screen.getByTestId('password-strength');

describe('password strength input', () => {
  it('is a Form.Item child whose value reaches the form, with the strength in words as it is typed', async () => {
    const values = renderField();
    expect(meter()).toHaveTextContent('密码强度：—');
    fireEvent.change(screen.getByTestId('password'), { target: { value: 'admin123' } });
    expect(values.at(-1)).toEqual({ password: 'admin123' });
    await waitFor(() => expect(meter()).toHaveTextContent('密码强度：弱'));
    fireEvent.change(screen.getByTestId('password'), { target: { value: 'Quiet-Otter-42' } });
    await waitFor(() => expect(meter()).toHaveTextContent('密码强度：很强'));
    expect(meter()).toHaveAttribute('data-score', '4');
    fireEvent.change(screen.getByTestId('password'), { target: { value: '' } });
    await waitFor(() => expect(meter()).toHaveTextContent('密码强度：—'));
  });

  it('scores a password built from the user name lower, as the server does', async () => {
    renderField(['otterquietist']);
    fireEvent.change(screen.getByTestId('password'), { target: { value: 'otterquietist' } });
    await waitFor(() => expect(meter()).toHaveAttribute('data-score', '0'));
  });
});
