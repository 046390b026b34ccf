import { FormattedMessage } from '@umijs/max';
import type { Rule } from 'antd/es/form';

/** A pattern rule that says in words, in the interface language, what the field accepts (never the pattern). */
export const patternRule = (pattern: RegExp, messageId: string): Rule => ({
  pattern,
  message: <FormattedMessage id={messageId} />,
});
