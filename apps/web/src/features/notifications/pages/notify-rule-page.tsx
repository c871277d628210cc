/**
 * /sys/notifyRule: which alarms go to whom over which channel, at which escalation level and
 * after how many minutes, on the resource table; the group's quiet hours from the toolbar.
 */
import { useMemo } from 'react';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  MAX_DELAY_MINUTES,
  MAX_LEVEL,
  addNotifyRuleRequest,
  updateNotifyRuleRequest,
  type NotifyRuleDto,
} from '@sluice/shared/notify.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { Choice, ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { useGroupId } from '../../../lib/group';
import { useMayOperate } from '../../../lib/operates';
import { useAllProjects } from '../../../lib/sites';
import { useWarnTypes } from '../../../lib/common-params';
import { rulesResource, useAllChannels, useUserChoices } from '../api/notifications-api';
import { KindTag } from '../components/kind-tag';
import { QuietHoursButton } from '../components/quiet-hours-button';

/** Names of the chosen ids, or the text for none. */
function Names({ ids, names, none }: { ids: number[]; names: Map<number, string>; none: string }) {
  if (ids.length === 0) return <Typography.Text type="secondary">{none}</Typography.Text>;
  return (
    <Space size={[0, 4]} wrap>
      {ids.map((id) => (
        <Tag key={id}>{names.get(id) ?? `#${String(id)}`}</Tag>
      ))}
    </Space>
  );
}

const byId = (choices: Choice[]) => new Map(choices.map((c) => [Number(c.value), c.text ?? '']));

export function NotifyRulePage() {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayEdit = useMayOperate('system.manage');
  const channels = useAllChannels();
  const types = useWarnTypes();
  const users = useUserChoices();
  const projects = useAllProjects(g);

  const config = useMemo<ResourceTableConfig<NotifyRuleDto>>(() => {
    const channelChoices: Choice[] = (channels.data ?? []).map((c) => ({
      value: c.Id,
      text: `${c.Name} (${t(`notify.kinds.${c.Kind}`)})`,
    }));
    const typeChoices: Choice[] = (types.data ?? []).map((w) => ({ value: w.Id, text: w.TypeName }));
    const userChoices: Choice[] = (users.data ?? []).map((u) => ({
      value: u.Id,
      text: [u.UserName, u.Email, u.Phone].filter(Boolean).join(' · '),
    }));
    const projectChoices: Choice[] = (projects.data ?? [])
      .filter((p) => p.ProjectKind !== 'client')
      .map((p) => ({ value: p.Id, text: p.ProjectKind === 'station' && p.ParentName ? `${p.ParentName} / ${p.Name}` : p.Name }));
    const typeNames = byId(typeChoices);
    const projectNames = byId(projectChoices);
    const userNames = new Map((users.data ?? []).map((u) => [u.Id, u.UserName]));
    return {
      resource: rulesResource,
      rowName: (row) => row.Name,
      search: { placeholder: 'notify.rules.searchPlaceholder' },
      addLabel: 'notify.rules.add',
      empty: 'notify.rules.empty',
      defaultSort: { key: 'Level', order: 'asc' },
      columns: [
        { key: 'Name', title: 'notify.rules.name', sortKey: 'Name' },
        {
          key: 'Level',
          title: 'notify.rules.level',
          sortKey: 'Level',
          render: (row) => (
            <Space orientation="vertical" size={0}>
              <span>{t('notify.rules.levelValue', { level: row.Level })}</span>
              <Typography.Text type="secondary">
                {row.DelayMinutes === 0
                  ? t('notify.rules.atOnce')
                  : t('notify.rules.afterMinutes', { minutes: row.DelayMinutes })}
              </Typography.Text>
            </Space>
          ),
        },
        {
          key: 'ChannelId',
          title: 'notify.rules.channel',
          render: (row) => (
            <Space size={4}>
              <KindTag kind={row.ChannelKind} />
              {row.ChannelName}
            </Space>
          ),
        },
        {
          key: 'TypeIds',
          title: 'notify.rules.types',
          render: (row) => <Names ids={row.TypeIds} names={typeNames} none={t('notify.rules.allTypes')} />,
        },
        {
          key: 'ProjectIds',
          title: 'notify.rules.projects',
          render: (row) => <Names ids={row.ProjectIds} names={projectNames} none={t('notify.rules.allProjects')} />,
          onCards: false,
        },
        {
          key: 'UserIds',
          title: 'notify.rules.users',
          render: (row) => <Names ids={row.UserIds} names={userNames} none={t('notify.rules.noRecipients')} />,
        },
        {
          key: 'flags',
          title: 'notify.rules.enabled',
          render: (row) => (
            <Space size={4} wrap>
              <Typography.Text type={row.Enabled ? 'success' : 'secondary'}>
                {t(row.Enabled ? 'notify.enabled' : 'notify.disabled')}
              </Typography.Text>
              {row.Urgent && <Tag color="red">{t('notify.rules.urgent')}</Tag>}
            </Space>
          ),
        },
      ],
      form: {
        createSchema: addNotifyRuleRequest,
        updateSchema: updateNotifyRuleRequest,
        createTitle: 'notify.rules.add',
        editTitle: 'notify.rules.edit',
        columns: 2,
        initialValues: { Level: 1, DelayMinutes: 0, Enabled: true, Urgent: false, TypeIds: [], ProjectIds: [], UserIds: [] },
        fields: [
          { name: 'Name', label: 'notify.rules.name', kind: 'text' },
          { name: 'ChannelId', label: 'notify.rules.channel', kind: 'select', options: channelChoices },
          { name: 'Level', label: 'notify.rules.level', kind: 'number', min: 1, max: MAX_LEVEL },
          {
            name: 'DelayMinutes',
            label: 'notify.rules.delay',
            kind: 'number',
            min: 0,
            max: MAX_DELAY_MINUTES,
            help: 'notify.rules.delayHelp',
            dependencies: ['Level'],
          },
          {
            name: 'TypeIds',
            label: 'notify.rules.types',
            kind: 'select',
            multiple: true,
            options: typeChoices,
            placeholder: 'notify.rules.allTypes',
            wide: true,
          },
          {
            name: 'ProjectIds',
            label: 'notify.rules.projects',
            kind: 'select',
            multiple: true,
            options: projectChoices,
            placeholder: 'notify.rules.allProjects',
            wide: true,
          },
          {
            name: 'UserIds',
            label: 'notify.rules.users',
            kind: 'select',
            multiple: true,
            options: userChoices,
            help: 'notify.rules.usersHelp',
            wide: true,
          },
          { name: 'Urgent', label: 'notify.rules.urgent', kind: 'switch', help: 'notify.rules.urgentHelp' },
          { name: 'Enabled', label: 'notify.rules.enabled', kind: 'switch' },
        ],
      },
    };
  }, [channels.data, types.data, users.data, projects.data, t]);

  return (
    <ResourceTable
      config={config}
      title={t('routes.notifyRule')}
      description={t('notify.rules.description')}
      toolbarExtra={<QuietHoursButton canEdit={mayEdit} />}
      syncUrl
    />
  );
}
