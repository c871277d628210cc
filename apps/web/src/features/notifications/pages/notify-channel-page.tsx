/**
 * /sys/notifyChannel: where alarm notifications go — webhooks, SMTP servers, the SMS provider —
 * on the resource table. The form shows the fields of the chosen kind; a secret is never sent
 * back, so an edit starts with it empty and empty keeps it.
 */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  CHANNEL_KINDS,
  addNotifyChannelRequest,
  updateNotifyChannelRequest,
  type NotifyChannelDto,
} from '@sluice/shared/notify.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { FormFieldDef, ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { channelsResource } from '../api/notifications-api';
import { KindTag } from '../components/kind-tag';

const kindIs =
  (...kinds: string[]) =>
  (values: Record<string, unknown>) =>
    kinds.includes(String(values.Kind));

/** Where a channel sends, in one line. */
function target(row: NotifyChannelDto): string {
  if (row.Kind === 'webhook') return row.Url;
  if (row.Kind === 'email') return `${row.Sender} · ${row.SmtpHost}:${String(row.SmtpPort)}`;
  return `${row.Sender} · ${row.Template}`;
}

const fields: FormFieldDef[] = [
  { name: 'Name', label: 'notify.channels.name', kind: 'text' },
  {
    name: 'Kind',
    label: 'notify.channels.kind',
    kind: 'radio',
    options: CHANNEL_KINDS.map((k) => ({ value: k, labelKey: `notify.kinds.${k}` as const })),
  },
  { name: 'Enabled', label: 'notify.channels.enabled', kind: 'switch' },
  {
    name: 'Url',
    label: 'notify.channels.url',
    kind: 'text',
    help: 'notify.channels.urlHelp',
    visible: kindIs('webhook'),
    wide: true,
  },
  { name: 'SmtpHost', label: 'notify.channels.smtpHost', kind: 'text', visible: kindIs('email') },
  { name: 'SmtpPort', label: 'notify.channels.smtpPort', kind: 'number', min: 1, max: 65535, visible: kindIs('email') },
  { name: 'SmtpSecure', label: 'notify.channels.smtpSecure', kind: 'switch', visible: kindIs('email') },
  { name: 'Sender', label: 'notify.channels.sender', kind: 'text', visible: kindIs('email'), autoComplete: 'off' },
  { name: 'UserName', label: 'notify.channels.smtpUser', kind: 'text', visible: kindIs('email'), autoComplete: 'off' },
  { name: 'Secret', label: 'notify.channels.smtpPassword', kind: 'password', visible: kindIs('email') },
  { name: 'UserName', label: 'notify.channels.accessKeyId', kind: 'text', visible: kindIs('sms'), autoComplete: 'off' },
  { name: 'Secret', label: 'notify.channels.accessKeySecret', kind: 'password', visible: kindIs('sms') },
  { name: 'Sender', label: 'notify.channels.signName', kind: 'text', visible: kindIs('sms') },
  {
    name: 'Template',
    label: 'notify.channels.template',
    kind: 'text',
    help: 'notify.channels.templateHelp',
    visible: kindIs('sms'),
  },
  { name: 'Secret', label: 'notify.channels.webhookSecret', kind: 'password', visible: kindIs('webhook') },
];

const config: ResourceTableConfig<NotifyChannelDto> = {
  resource: channelsResource,
  rowName: (row) => row.Name,
  search: { placeholder: 'notify.channels.searchPlaceholder' },
  addLabel: 'notify.channels.add',
  empty: 'notify.channels.empty',
  columns: [
    { key: 'Name', title: 'notify.channels.name', sortKey: 'Name' },
    { key: 'Kind', title: 'notify.channels.kind', sortKey: 'Kind', render: (row) => <KindTag kind={row.Kind} /> },
    { key: 'target', title: 'notify.channels.target', render: (row) => target(row), ellipsis: true },
    {
      key: 'Secret',
      title: 'notify.channels.secret',
      render: (row) => <Typography.Text type="secondary">{row.Secret || '—'}</Typography.Text>,
      onCards: false,
    },
    { key: 'Enabled', title: 'notify.channels.enabled', render: (row) => <EnabledText on={row.Enabled} /> },
  ],
  form: {
    createSchema: addNotifyChannelRequest,
    updateSchema: updateNotifyChannelRequest,
    createTitle: 'notify.channels.add',
    editTitle: 'notify.channels.edit',
    initialValues: { Kind: 'webhook', Enabled: true, SmtpPort: 587, SmtpSecure: false },
    toValues: (row) => ({ ...row, Secret: '' }),
    toBody: (values, mode) => {
      const body = { ...values };
      if (mode === 'edit' && !body.Secret) delete body.Secret;
      return body;
    },
    adjustFields: (all, mode) =>
      mode === 'edit'
        ? all.map((field) => (field.kind === 'password' ? { ...field, placeholder: 'notify.channels.keepSecret' } : field))
        : all,
    fields,
    columns: 2,
  },
};

function EnabledText({ on }: { on: boolean }) {
  const { t } = useTranslation();
  return <Typography.Text type={on ? 'success' : 'secondary'}>{t(on ? 'notify.enabled' : 'notify.disabled')}</Typography.Text>;
}

export function NotifyChannelPage() {
  const { t } = useTranslation();
  return (
    <ResourceTable config={config} title={t('routes.notifyChannel')} description={t('notify.channels.description')} syncUrl />
  );
}
