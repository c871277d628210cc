/** Below the map: the selected project's or station's details in tabs (a device's page composes its own). */
import { useState, type ReactNode } from 'react';
import { Button, Card, Descriptions, Flex, Tabs } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DistanceText } from '../../../components/sites/distance-text';
import { useGroupId } from '../../../lib/group';
import { useMayOperate } from '../../../lib/operates';
import { HOME_PATH, homePath } from '../../../lib/paths';
import { projectInfoQueryOptions } from '../api/projects-api';
import { AffiliatesPanel } from './affiliates-panel';
import { ClientCard } from './client-view';
import { useConfirmProjectDelete } from './confirm-project-delete';
import { PrincipalsPanel } from './principals-panel';
import { ProjectFormDialog } from './project-form-dialog';
import { ProjectImages } from './project-images';
import { AuditHistoryButton } from '../../../components/audit-history-button';

/** Tabs other features add to a project's or station's page (its field records, say). */
export type SiteTab = { key: string; label: string; children: ReactNode };

function SiteCard({
  id,
  you,
  extraTabs,
}: {
  id: number;
  you: readonly [number, number] | undefined;
  extraTabs?: ((projectId: number) => SiteTab[]) | undefined;
}) {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('project.manage');
  const navigate = useNavigate();
  const { data } = useQuery(projectInfoQueryOptions(g, id));
  const confirmDelete = useConfirmProjectDelete();
  const [editing, setEditing] = useState(false);
  if (!data) return null;
  const kind = data.ProjectKind === 'station' ? 'station' : 'project';
  const parent = kind === 'station' && data.ParentId > 0 ? homePath('project', data.ParentId) : HOME_PATH;
  return (
    <Card
      title={t(kind === 'station' ? 'home.stationDetails' : 'home.projectDetails')}
      extra={
        <Flex gap={8} wrap>
          <AuditHistoryButton kind="project" id={data.Id} name={data.Name} type="link" />
          {mayManage && (
            <>
              <Button
                size="small"
                icon={<EditOutlined />}
                onClick={() => {
                  setEditing(true);
                }}
              >
                {t('sites.actions.edit')}
              </Button>
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                onClick={() => {
                  confirmDelete(data, () => {
                    void navigate(parent);
                  });
                }}
              >
                {t('sites.actions.delete')}
              </Button>
            </>
          )}
        </Flex>
      }
    >
      <Tabs
        className="sluice-wrap-tabs"
        items={[
          {
            key: 'overview',
            label: t('home.tabs.overview'),
            children: (
              <Descriptions
                column={{ xs: 1, sm: 2, xl: 2 }}
                size="small"
                items={[
                  {
                    key: 'name',
                    label: t('sites.fields.name'),
                    children: data.Name,
                  },
                  {
                    key: 'parent',
                    label: kind === 'station' ? t('sites.fields.project') : t('sites.fields.client'),
                    children: data.ParentName ?? '—',
                  },
                  ...(data.ClientId
                    ? [
                        {
                          key: 'client',
                          label: t('client.title'),
                          children: <Link to={homePath('client', data.ClientId)}>{t('client.open')}</Link>,
                        },
                      ]
                    : []),
                  {
                    key: 'address',
                    label: t('sites.fields.address'),
                    children: data.Address || '—',
                  },
                  {
                    key: 'position',
                    label: t('sites.fields.position'),
                    children: data.Position || '—',
                  },
                  {
                    key: 'distance',
                    label: t('home.distance'),
                    children: <DistanceText from={you} to={data.Position} />,
                  },
                  ...(kind === 'project'
                    ? [
                        {
                          key: 'stations',
                          label: t('sites.counts.stations'),
                          children: data.SitesNum,
                        },
                      ]
                    : []),
                  {
                    key: 'devices',
                    label: t('sites.counts.devices'),
                    children: t('sites.counts.onlineOf', {
                      online: data.OnlineNum,
                      total: data.DeviceNum,
                    }),
                  },
                ]}
              />
            ),
          },
          {
            key: 'images',
            label: t('home.tabs.images'),
            children: <ProjectImages projectId={data.Id} name={data.Name} />,
          },
          {
            key: 'affiliates',
            label: t('home.tabs.affiliates'),
            children: <AffiliatesPanel projectId={data.Id} />,
          },
          {
            key: 'principals',
            label: t('home.tabs.principals'),
            children: <PrincipalsPanel kind={kind} id={data.Id} />,
          },
          ...(extraTabs?.(data.Id) ?? []),
        ]}
      />
      <ProjectFormDialog
        kind={kind}
        open={editing}
        editing={data}
        onClose={() => {
          setEditing(false);
        }}
      />
    </Card>
  );
}

export function SiteDetails({
  title,
  itemId,
  you,
  extraTabs,
}: {
  title: string | undefined;
  itemId: string | undefined;
  you: readonly [number, number] | undefined;
  extraTabs?: (projectId: number) => SiteTab[];
}) {
  const id = Number(itemId);
  if (title === 'client' && id > 0) return <ClientCard key={id} id={id} />;
  if ((title === 'project' || title === 'station') && id > 0)
    return <SiteCard key={id} id={id} you={you} extraTabs={extraTabs} />;
  return null;
}
