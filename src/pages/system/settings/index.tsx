import '@/pages/system/catalogue';
import { useIntl, useModel } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Empty, Form, Popconfirm, Space, Tabs, Tag, Tooltip } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import useCan from '@/hooks/useCan';
import { fetchPublicSettings } from '@/services/auth';
import message from '@/utils/message';
import { type FieldError, ignoreShownError } from '@/utils/request';
import { dispatchRoot } from '@/utils/store';
import SettingInput, { fromFormValue, rulesOf, toFormValue } from './SettingInput';
import { fetchSettings, resetSetting, type Setting, saveSetting } from './service';

const dirty = (setting: Setting, value: unknown) =>
  setting.valueType === 'secret'
    ? value !== undefined && value !== ''
    : JSON.stringify(value) !== JSON.stringify(toFormValue(setting));

/** A saved public setting (branding, password policy) is what the sign-in page and the header read: reload them. */
function useReloadPublicSettings() {
  const { initialState, setInitialState } = useModel('@@initialState');
  return async () => {
    const settings = await fetchPublicSettings(initialState?.currentUser?.tenant.code).catch(() => undefined);
    if (!settings) return;
    dispatchRoot('SET_APP_SETTINGS', settings);
    await setInitialState((state) => ({ ...state, settings }));
  };
}

function Category({
  settings,
  onSaved,
  canUpdate,
}: {
  settings: Setting[];
  onSaved: (saved: Setting) => void;
  canUpdate: boolean;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [form] = Form.useForm();
  const values = Form.useWatch([], form) as Record<string, unknown> | undefined;
  const [busy, setBusy] = useState(false);
  const initial = useMemo(() => Object.fromEntries(settings.map((s) => [s.key, toFormValue(s)])), [settings]);
  const shown = useRef(new Map<string, number>());
  // a saved setting takes its new value; the others keep what is being edited
  useEffect(() => {
    const fresh = settings.filter((s) => shown.current.get(s.key) !== s.version);
    for (const s of fresh) shown.current.set(s.key, s.version);
    if (fresh.length) form.setFieldsValue(Object.fromEntries(fresh.map((s) => [s.key, toFormValue(s)])));
  }, [form, settings]);
  const nameOf = (s: Setting) => (intl.locale === 'en-US' && s.nameEn) || s.name;
  // the built-in settings' help is the console's, in the interface language; an added setting brings its own
  const helpOf = (s: Setting) => {
    const id = `system.settings.help.${s.key}`;
    return intl.messages[id] ? t(id) : s.description;
  };
  const changed = settings.filter((s) => s.editable && canUpdate && values && dirty(s, values[s.key]));

  const save = async (list: Setting[]) => {
    try {
      await form.validateFields(list.map((s) => s.key));
    } catch {
      return;
    }
    setBusy(true);
    let done = 0;
    const edits = list.map((s) => [s, fromFormValue(s, form.getFieldValue(s.key))] as const);
    for (const [s, value] of edits) {
      // the server's objections to `value` belong under this setting's own field
      const onField = {
        placeFieldErrors: (fields: FieldError[]) => {
          form.setFields([{ name: s.key, errors: fields.map((f) => f.message) }]);
          return true;
        },
      };
      const saved = await saveSetting(s.key, value, s.version, onField).catch(() => undefined);
      if (!saved) break;
      onSaved(saved);
      done += 1;
    }
    setBusy(false);
    if (done) message.success(t('resource.saved'));
  };
  const reset = async (s: Setting) => {
    const saved = await resetSetting(s.key).catch(() => undefined);
    if (!saved) return;
    onSaved(saved);
    message.success(t('system.settings.resetDone'));
  };

  return (
    <Form form={form} layout="vertical" initialValues={initial}>
      {settings.map((s) => {
        const editable = s.editable && canUpdate;
        return (
          <Card key={s.key} size="small" style={{ marginBottom: 12 }} data-testid={`setting-${s.key}`}>
            <Form.Item
              name={s.key}
              label={
                <Space>
                  {nameOf(s)}
                  {s.overridden && <Tag color="blue">{t('system.settings.overridden')}</Tag>}
                  {!s.editable && <Tag>{t('system.settings.readOnly')}</Tag>}
                </Space>
              }
              extra={helpOf(s)}
              rules={rulesOf(s, nameOf(s))}
              valuePropName="value"
              style={{ marginBottom: 8 }}
            >
              <SettingInput key={`${s.key}@${s.version}`} setting={s} disabled={!editable} />
            </Form.Item>
            {editable && s.overridden && (
              <Popconfirm
                title={t('system.settings.resetConfirm')}
                onConfirm={() => reset(s)}
                okButtonProps={{ 'data-testid': 'reset-ok' } as never}
              >
                <Tooltip title={t('system.settings.resetHint')}>
                  <Button size="small" data-testid={`setting-reset-${s.key}`}>
                    {t('system.settings.reset')}
                  </Button>
                </Tooltip>
              </Popconfirm>
            )}
          </Card>
        );
      })}
      {canUpdate && (
        <Button
          type="primary"
          disabled={!changed.length}
          loading={busy}
          onClick={() => save(changed)}
          data-testid="settings-save-category"
        >
          {t('system.settings.saveCategory')}
        </Button>
      )}
    </Form>
  );
}

/** /system/settings: typed settings by category with the value in force for the tenant; one save per category; reset an override. */
export default function SettingsScreen() {
  const intl = useIntl();
  const canUpdate = useCan('system:settings:update');
  const reloadPublic = useReloadPublicSettings();
  const [settings, setSettings] = useState<Setting[]>([]);
  const { loading } = useRequest(fetchSettings, {
    onSuccess: (answer) => setSettings(answer.data),
    onError: ignoreShownError,
  });
  const categories = [...new Set(settings.map((s) => s.category))];
  const onSaved = (saved: Setting) => {
    setSettings((list) => list.map((s) => (s.key === saved.key ? saved : s)));
    if (saved.isPublic) void reloadPublic();
  };
  return (
    <div data-testid="system-settings">
      <Card loading={loading && !settings.length}>
        {categories.length ? (
          <Tabs
            items={categories.map((category) => ({
              key: category,
              label: (
                <span data-testid={`settings-tab-${category}`}>
                  {intl.formatMessage({ id: `system.settings.category.${category}`, defaultMessage: category })}
                </span>
              ),
              children: (
                <Category
                  settings={settings.filter((s) => s.category === category)}
                  onSaved={onSaved}
                  canUpdate={canUpdate}
                />
              ),
            }))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
        )}
      </Card>
    </div>
  );
}
