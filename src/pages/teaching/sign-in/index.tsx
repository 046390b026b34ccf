import '@/pages/teaching/catalogue';
import { useIntl, useSearchParams } from '@umijs/max';
import { Alert, Button, Card, Form, Input, Rate, Result } from 'antd';
import { useState } from 'react';
import { fieldErrorsOn } from '@/utils/formErrors';
import { ignoreShownError } from '@/utils/request';
import { rateActivity, type SignedIn, signIn } from '../activity/descriptor';

/** What a signed-in trainee may send: a rating and a comment, once (a second replaces it). */
function RateForm({ token }: { token: string }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [sent, setSent] = useState(false);
  const [form] = Form.useForm<{ rating: number; comment?: string }>();
  if (sent) return <Alert type="success" showIcon message={t('teaching.signIn.rated')} data-testid="sign-in-rated" />;
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={(values) =>
        rateActivity({ token, ...values }, fieldErrorsOn(form)).then(() => setSent(true), ignoreShownError)
      }
    >
      <Form.Item name="rating" label={t('teaching.signIn.rate')} rules={[{ required: true }]}>
        <Rate data-testid="sign-in-rating" />
      </Form.Item>
      <Form.Item name="comment" label={t('teaching.signIn.comment')}>
        <Input.TextArea maxLength={500} rows={3} />
      </Form.Item>
      <Button htmlType="submit" block data-testid="sign-in-rate-submit">
        {t('teaching.signIn.rateSubmit')}
      </Button>
    </Form>
  );
}

/**
 * /sign-in/activity?code=…: the page a trainee's phone opens from the QR code shown at a teaching activity. No
 * account: the trainee gives their number and name, the code (which changes every 30 seconds) proves they are there.
 * Then, when the activity is evaluated, a rating.
 */
export default function ActivitySignIn() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [search] = useSearchParams();
  const code = search.get('code') ?? '';
  const [form] = Form.useForm<{ traineeNo: string; name: string }>();
  const [done, setDone] = useState<SignedIn>();
  const [sending, setSending] = useState(false);

  const submit = async (values: { traineeNo: string; name: string }) => {
    setSending(true);
    try {
      setDone(await signIn({ code, ...values }, fieldErrorsOn(form)));
    } catch {
      // the request layer has shown why (or the form, on its fields)
    } finally {
      setSending(false);
    }
  };

  return (
    <div style={{ maxWidth: 420, margin: '0 auto', padding: 16 }} data-testid="activity-sign-in-page">
      <Card title={t('teaching.signIn.title')}>
        {!code ? (
          <Alert type="warning" showIcon message={t('teaching.signIn.noCode')} />
        ) : done ? (
          <>
            <Result
              status={done.attendance === 'late' ? 'warning' : 'success'}
              title={
                <span data-testid="sign-in-result">
                  {t(done.already ? 'teaching.signIn.already' : 'teaching.signIn.done', { name: done.traineeName })}
                  {done.attendance === 'late' && t('teaching.signIn.late')}
                </span>
              }
              subTitle={`${done.activityTitle} · ${new Date(done.signedInAt).toLocaleString()}`}
            />
            {done.ratingToken && <RateForm token={done.ratingToken} />}
          </>
        ) : (
          <Form form={form} layout="vertical" onFinish={submit}>
            <Form.Item name="traineeNo" label={t('teaching.signIn.traineeNo')} rules={[{ required: true }]}>
              <Input autoComplete="off" data-testid="sign-in-traineeNo" />
            </Form.Item>
            <Form.Item name="name" label={t('teaching.signIn.name')} rules={[{ required: true }]}>
              <Input autoComplete="name" data-testid="sign-in-name" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={sending} data-testid="sign-in-submit">
              {t('teaching.signIn.submit')}
            </Button>
          </Form>
        )}
      </Card>
    </div>
  );
}
