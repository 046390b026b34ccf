import { useIntl } from '@umijs/max';
import { Input, Progress, Space, Typography } from 'antd';
import type { PasswordProps } from 'antd/es/input';
import { useEffect, useState } from 'react';

type Estimate = (password: string, userInputs: string[]) => number;

let estimator: Promise<Estimate> | undefined;

/** zxcvbn and its dictionaries (about 1 MB) load on first use, so no screen without a new password pays for them. */
function loadEstimator(): Promise<Estimate> {
  estimator ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(([core, common, en]) => {
    const zxcvbn = new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    });
    return (password, userInputs) => zxcvbn.check(password, userInputs).score;
  });
  return estimator;
}

const SCORE_COLORS = ['#ff4d4f', '#ff7a45', '#faad14', '#52c41a', '#389e0d'];

export interface PasswordStrengthInputProps extends Omit<PasswordProps, 'value' | 'onChange'> {
  value?: string;
  onChange?: (value: string) => void;
  /** Words the password should not be built from (user name, tenant code): they lower the score, as on the server. */
  userInputs?: string[];
}

/**
 * A password field (controlled, so a Form.Item child) with a strength meter and the word for zxcvbn's score (0–4),
 * the same estimator the server's password policy uses.
 */
export default function PasswordStrengthInput({
  value,
  onChange,
  userInputs = [],
  ...inputProps
}: PasswordStrengthInputProps) {
  const intl = useIntl();
  const [score, setScore] = useState<number>();
  const inputsKey = userInputs.join('\n');

  useEffect(() => {
    if (!value) {
      setScore(undefined);
      return undefined;
    }
    let current = true;
    void loadEstimator().then((estimate) => {
      if (current) setScore(estimate(value, inputsKey ? inputsKey.split('\n') : []));
    });
    return () => {
      current = false;
    };
  }, [value, inputsKey]);

  return (
    <Space direction="vertical" size={4} style={{ width: '100%' }}>
      <Input.Password
        autoComplete="new-password"
        {...inputProps}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
      />
      <Space size={8} data-testid="password-strength" data-score={score ?? ''} aria-live="polite">
        <Progress
          // the meter's name, read with its value (WCAG 4.1.2)
          aria-label={intl.formatMessage({ id: 'password.strength.meter' })}
          steps={5}
          size="small"
          showInfo={false}
          percent={score === undefined ? 0 : (score + 1) * 20}
          strokeColor={score === undefined ? undefined : SCORE_COLORS[score]}
        />
        <Typography.Text type="secondary">
          {intl.formatMessage(
            { id: 'password.strength' },
            {
              level: intl.formatMessage({
                id: score === undefined ? 'password.strength.none' : `password.strength.${score}`,
              }),
            },
          )}
        </Typography.Text>
      </Space>
    </Space>
  );
}
