import '@/pages/teaching/catalogue';
import { useIntl, useSearchParams } from '@umijs/max';
import { Alert, Button, Card, Form, Input, Rate, Result } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { formatDateTime } from '@/utils/dates';
import { fieldErrorsOn } from '@/utils/formErrors';
import { ignoreShownError, type Options } from '@/utils/request';
import { type RatingGranted, rateActivity, ratingAccess, type SignedIn, signIn } from '../activity/descriptor';

/** What a trainee who came may send: a rating and a comment, once. */
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

type Identity = { traineeNo: string; name: string };

type Position =
  | { state: 'locating' }
  | { state: 'located'; latitude: number; longitude: number; accuracy: number }
  | { state: 'failed'; refusal?: string };

/**
 * The browser's position, asked once the page opens (and again on demand), for an activity that takes sign-in by code
 * and position: nothing is asked otherwise.
 */
function usePosition(wanted: boolean): [Position | undefined, () => void, (position: Position) => void] {
  const [position, setPosition] = useState<Position>();
  const locate = useCallback(() => {
    if (!wanted) return;
    if (!navigator.geolocation) return setPosition({ state: 'failed' });
    setPosition({ state: 'locating' });
    navigator.geolocation.getCurrentPosition(
      ({ coords }) =>
        setPosition({
          state: 'located',
          latitude: coords.latitude,
          longitude: coords.longitude,
          accuracy: Math.round(coords.accuracy),
        }),
      () => setPosition({ state: 'failed' }),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 },
    );
  }, [wanted]);
  useEffect(locate, [locate]);
  return [position, locate, setPosition];
}

/** Where the page stands on the trainee's position: finding it, found (how precisely), or not given (try again). */
function PositionNotice({ position, locate }: { position: Position; locate: () => void }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  if (position.state === 'locating')
    return <Alert type="info" showIcon message={t('teaching.signIn.locating')} data-testid="sign-in-position" />;
  if (position.state === 'located')
    return (
      <Alert
        type="success"
        showIcon
        message={t('teaching.signIn.located', { accuracy: position.accuracy })}
        data-testid="sign-in-position"
      />
    );
  return (
    <Alert
      type="warning"
      showIcon
      message={position.refusal ?? t('teaching.signIn.noPosition')}
      data-testid="sign-in-position"
      action={
        <Button size="small" onClick={locate} data-testid="sign-in-locate">
          {t('teaching.signIn.locate')}
        </Button>
      }
    />
  );
}

/** The trainee names themselves (number and name, as on the list) to sign in or to rate. */
function IdentifyForm<R>({
  submitId,
  send,
  onDone,
}: {
  submitId: string;
  send: (values: Identity, options: Options) => Promise<R>;
  onDone: (answer: R) => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [form] = Form.useForm<Identity>();
  const [sending, setSending] = useState(false);
  const submit = async (values: Identity) => {
    setSending(true);
    try {
      onDone(await send(values, fieldErrorsOn(form)));
    } catch {
      // the request layer has shown why (or the form, on its fields)
    } finally {
      setSending(false);
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit}>
      <Form.Item name="traineeNo" label={t('teaching.signIn.traineeNo')} rules={[{ required: true }]}>
        <Input autoComplete="off" data-testid="sign-in-traineeNo" />
      </Form.Item>
      <Form.Item name="name" label={t('teaching.signIn.name')} rules={[{ required: true }]}>
        <Input autoComplete="name" data-testid="sign-in-name" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={sending} data-testid="sign-in-submit">
        {t(submitId)}
      </Button>
    </Form>
  );
}

/** ?rate=…: the rating code shown from the activity's start; who came names themselves, then rates. */
function RateByCode({ code }: { code: string }) {
  const intl = useIntl();
  const [granted, setGranted] = useState<RatingGranted>();
  if (!granted)
    return (
      <IdentifyForm
        submitId="teaching.signIn.identify"
        send={(values, options) => ratingAccess({ code, ...values }, options)}
        onDone={setGranted}
      />
    );
  return (
    <>
      <Result
        status="info"
        title={
          <span data-testid="sign-in-result">
            {intl.formatMessage({ id: 'teaching.signIn.ratingOf' }, { name: granted.traineeName })}
          </span>
        }
        subTitle={granted.activityTitle}
      />
      <RateForm token={granted.ratingToken} />
    </>
  );
}

/**
 * /sign-in/activity?code=…: the page a trainee's phone opens from the QR code shown at a teaching activity. No
 * account: the trainee gives their number and name, the code (which changes every 30 seconds) proves they are there.
 * Then, once it has started and when it is evaluated, a rating. /sign-in/activity?rate=…: the same page opened from
 * the activity's rating code, to rate it afterwards.
 */
export default function ActivitySignIn() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [search] = useSearchParams();
  const code = search.get('code') ?? '';
  const rateCode = search.get('rate') ?? '';
  const [done, setDone] = useState<SignedIn>();
  // the link of an activity that takes sign-in by code and position says so (`geo=1`)
  const [position, locate, setPosition] = usePosition(Boolean(code) && !rateCode && search.get('geo') === '1');
  const at = position?.state === 'located' ? { latitude: position.latitude, longitude: position.longitude } : undefined;

  const body = rateCode ? (
    <RateByCode code={rateCode} />
  ) : !code ? (
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
        subTitle={`${done.activityTitle} · ${formatDateTime(done.signedInAt)}`}
      />
      {done.rated ? (
        <Alert type="success" showIcon message={t('teaching.signIn.ratedBefore')} data-testid="sign-in-rated" />
      ) : done.ratingToken ? (
        <RateForm token={done.ratingToken} />
      ) : (
        done.evaluationEnabled && (
          <Alert type="info" showIcon message={t('teaching.signIn.rateLater')} data-testid="sign-in-rate-later" />
        )
      )}
    </>
  ) : (
    <>
      {position && <PositionNotice position={position} locate={locate} />}
      <IdentifyForm
        submitId="teaching.signIn.submit"
        send={(values, options) =>
          signIn(
            { code, ...values, ...at },
            {
              // a refusal of the position (none, or too far from the place) shows where the position does
              placeFieldErrors: (errors) => {
                const onPosition = errors.filter((e) => e.field === 'latitude' || e.field === 'longitude');
                if (onPosition.length > 0) setPosition({ state: 'failed', refusal: onPosition[0]?.message });
                const rest = errors.filter((e) => !onPosition.includes(e));
                return rest.length === 0 || (options.placeFieldErrors?.(rest) ?? false);
              },
            },
          )
        }
        onDone={setDone}
      />
    </>
  );

  return (
    <div style={{ maxWidth: 420, margin: '0 auto', padding: 16 }} data-testid="activity-sign-in-page">
      <Card title={t(rateCode ? 'teaching.signIn.rateTitle' : 'teaching.signIn.title')}>{body}</Card>
    </div>
  );
}
