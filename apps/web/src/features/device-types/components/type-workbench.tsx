/**
 * The workbench of one device type: the fourteen sub-tabs of spec §2 (argument, config, display
 * icon, hardware config, module, module class, module feedback, overview, data define, image,
 * schema, statistics info, template, upgrade file), each loaded when first opened. The open tab
 * is kept in the address (?type=…&tab=…).
 */
import { Suspense, useMemo, useState, type ComponentType } from 'react';
import { Alert, Button, Flex, Select, Tabs, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, CopyOutlined } from '@ant-design/icons';
import type { PartTab } from '@sluice/shared/device-type-parts';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '../../../components/spinners';
import { EmptyGuideProvider, type EmptyGuide } from '../../../components/resource-table/empty-guide';
import { CopyIntoDialog } from './copy-into-dialog';
import { useDeviceTypes } from '../../../lib/common-params';
import type { MessageKey } from '../../../lib/i18n';
import { lazyComponent } from '../../../lib/lazy-page';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useStoredName } from '../../../lib/stored-names';
import { StoredName } from '../../../components/stored-name';
import { AuditHistoryButton } from '../../../components/audit-history-button';

type TabProps = { typeId: number };

const tab = (load: () => Promise<ComponentType<TabProps>>) => lazyComponent(load);

/** The sub-tabs, in the order of spec §2: those of the type's parts (@sluice/shared/device-type-parts), its images, templates and firmware. */
export const WORKBENCH_TABS: {
  key: PartTab | 'image' | 'template' | 'upgrade';
  label: MessageKey;
  Component: ComponentType<TabProps>;
}[] = [
  {
    key: 'argument',
    label: 'workbench.tabs.argument',
    Component: tab(() => import('./tabs/argument-tab').then((m) => m.ArgumentTab)),
  },
  { key: 'config', label: 'workbench.tabs.config', Component: tab(() => import('./tabs/config-tab').then((m) => m.ConfigTab)) },
  {
    key: 'displayIcon',
    label: 'workbench.tabs.displayIcon',
    Component: tab(() => import('./tabs/display-icon-tab').then((m) => m.DisplayIconTab)),
  },
  {
    key: 'hardware',
    label: 'workbench.tabs.hardware',
    Component: tab(() => import('./tabs/hardware-tab').then((m) => m.HardwareTab)),
  },
  { key: 'module', label: 'workbench.tabs.module', Component: tab(() => import('./tabs/module-tab').then((m) => m.ModuleTab)) },
  {
    key: 'moduleClass',
    label: 'workbench.tabs.moduleClass',
    Component: tab(() => import('./tabs/module-class-tab').then((m) => m.ModuleClassTab)),
  },
  {
    key: 'moduleFeedback',
    label: 'workbench.tabs.moduleFeedback',
    Component: tab(() => import('./tabs/feedback-tab').then((m) => m.FeedbackTab)),
  },
  {
    key: 'overview',
    label: 'workbench.tabs.overview',
    Component: tab(() => import('./tabs/overview-tab').then((m) => m.OverviewTab)),
  },
  {
    key: 'dataDefine',
    label: 'workbench.tabs.dataDefine',
    Component: tab(() => import('./tabs/data-define-tab').then((m) => m.DataDefineTab)),
  },
  { key: 'image', label: 'workbench.tabs.image', Component: tab(() => import('./tabs/image-tab').then((m) => m.ImageTab)) },
  { key: 'schema', label: 'workbench.tabs.schema', Component: tab(() => import('./tabs/schema-tab').then((m) => m.SchemaTab)) },
  {
    key: 'statistics',
    label: 'workbench.tabs.statistics',
    Component: tab(() => import('./tabs/statistics-tab').then((m) => m.StatisticsTab)),
  },
  {
    key: 'template',
    label: 'workbench.tabs.template',
    Component: tab(() => import('./tabs/template-tab').then((m) => m.TemplateTab)),
  },
  {
    key: 'upgrade',
    label: 'workbench.tabs.upgrade',
    Component: tab(() => import('./tabs/firmware-tab').then((m) => m.FirmwareTab)),
  },
];
const DEFAULT_TAB = 'dataDefine';

export function TypeWorkbench({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const name = useStoredName();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const { data: types, isPending } = useDeviceTypes();
  const wide = useMediaQuery('(min-width: 1024px)');
  const type = types?.find((candidate) => candidate.Id === typeId);
  const active = WORKBENCH_TABS.some((item) => item.key === searchParams.get('tab'))
    ? (searchParams.get('tab') ?? DEFAULT_TAB)
    : DEFAULT_TAB;
  const parent = type && type.ParentId ? types?.find((candidate) => candidate.Id === type.ParentId) : undefined;
  const [copying, setCopying] = useState(false);
  // An empty tab offers to add its first item, or to fill the whole type from another (its parent first).
  const guide = useMemo<EmptyGuide>(
    () => ({
      action: (
        <Button
          icon={<CopyOutlined aria-hidden />}
          onClick={() => {
            setCopying(true);
          }}
        >
          {t('workbench.copyFromAnother')}
        </Button>
      ),
    }),
    [t, setCopying],
  );

  const back = (
    <Button
      icon={<ArrowLeftOutlined aria-hidden />}
      onClick={() => {
        void navigate('/sys/devicetype');
      }}
    >
      {t('workbench.back')}
    </Button>
  );

  if (isPending) return <PageSpinner />;
  if (!type) {
    return (
      <Flex vertical gap={16} align="flex-start">
        {back}
        <Alert type="warning" showIcon title={t('workbench.noSuchType')} />
      </Flex>
    );
  }

  return (
    <Flex vertical gap={12}>
      <Flex gap={12} align="center" wrap justify="space-between">
        <Flex gap={12} align="center" wrap>
          {back}
          <h1 style={{ fontSize: 20, fontWeight: 600, margin: 0 }}>{t('workbench.title', { name: name(type.TypeName) })}</h1>
          {type.Status !== 1 && <Tag>{t('deviceTypes.disabled')}</Tag>}
          {parent && (
            <Typography.Text type="secondary">{t('workbench.subTypeOf', { name: name(parent.TypeName) })}</Typography.Text>
          )}
        </Flex>
        <Flex gap={8} wrap align="center">
          <AuditHistoryButton kind="deviceType" id={typeId} name={name(type.TypeName)} />
          <Select
            aria-label={t('workbench.switchType')}
            value={typeId}
            showSearch={{ optionFilterProp: 'label' }}
            options={(types ?? []).map((candidate) => ({ value: candidate.Id, label: name(candidate.TypeName) }))}
            onChange={(id: number) => {
              setSearchParams({ type: String(id), tab: active });
            }}
            style={{ minWidth: 220 }}
          />
        </Flex>
      </Flex>
      {type.Description && (
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          <StoredName text={type.Description} />
        </Typography.Paragraph>
      )}
      {parent && (
        <Alert
          type="info"
          showIcon
          title={t('workbench.notInherited', { name: name(parent.TypeName) })}
          data-testid="type-parent-hint"
        />
      )}
      <EmptyGuideProvider value={guide}>
        <Tabs
          // All fourteen tabs in view: a column beside the content on wide screens, a scrolling row on narrow ones.
          tabPlacement={wide ? 'start' : 'top'}
          aria-label={t('workbench.tabsLabel')}
          activeKey={active}
          onChange={(key) => {
            setSearchParams({ type: String(typeId), tab: key }, { replace: true });
          }}
          items={WORKBENCH_TABS.map(({ key, label, Component }) => ({
            key,
            label: t(label),
            children: (
              <Suspense fallback={<PageSpinner />}>
                <Component key={typeId} typeId={typeId} />
              </Suspense>
            ),
          }))}
        />
      </EmptyGuideProvider>
      <CopyIntoDialog
        typeId={typeId}
        typeName={type.TypeName}
        parentId={type.ParentId || undefined}
        open={copying}
        onClose={() => {
          setCopying(false);
        }}
      />
    </Flex>
  );
}
